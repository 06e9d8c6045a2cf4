"""One set of table defaults (bot/tables/options.py) everywhere: the bot's settings, a table's options, a server
without defaults of its own, and the README's "Settings" table; stacks keep their size in big blinds."""

import re
from pathlib import Path

import pytest

from bot.config import load_settings
from bot.discord_ui.table_settings import changed_defaults, table_options
from bot.poker import TableKind
from bot.tables import TableOptions

README = Path(__file__).resolve().parents[1] / "README.md"
FIELDS = ("small_blind", "big_blind", "starting_stack", "buy_in", "min_buy_in", "max_buy_in", "turn_timeout")


def _numbers(options: TableOptions) -> tuple[int, ...]:
    return tuple(getattr(options, name) for name in FIELDS)


@pytest.fixture(autouse=True)
def _no_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # no .env
    for key in ("SMALL_BLIND", "BIG_BLIND", "STARTING_STACK", "TURN_TIMEOUT", "MIN_BUY_IN", "MAX_BUY_IN"):
        monkeypatch.delenv(key, raising=False)


def test_the_rule_books_table_is_the_default_everywhere():
    # Rule book 000 §04: blinds 1/2, 100 chips each; a cash table buys in for 40 to 100.
    rule_book = (1, 2, 100, 100, 40, 100, 60)
    assert _numbers(TableOptions()) == rule_book
    assert _numbers(TableOptions.for_blinds(1, 2)) == rule_book
    assert _numbers(table_options({})) == rule_book  # a server with no defaults of its own
    settings = load_settings(discord_token="t")
    assert _numbers(table_options(settings.table_defaults())) == rule_book


def test_other_blinds_keep_the_stacks_in_big_blinds():
    # 50 BB stack and default buy-in, 20 to 50 BB buy-in, whichever way the blinds are chosen.
    at_5_10 = (5, 10, 500, 500, 200, 500, 60)
    assert _numbers(TableOptions.for_blinds(5, 10)) == at_5_10
    assert _numbers(table_options({}, small_blind=5, big_blind=10)) == at_5_10
    settings = load_settings(discord_token="t")
    assert _numbers(table_options(settings.table_defaults(), big_blind=10)) == at_5_10
    assert changed_defaults({}, big_blind=10) == {
        "small_blind": 5,
        "big_blind": 10,
        "min_buy_in": 200,
        "max_buy_in": 500,
        "starting_stack": 500,
    }


@pytest.mark.parametrize("stack", [20, 200, 500])
def test_a_tournament_starts_with_any_stack_the_host_chooses(stack: int) -> None:
    # It was refused as "Invalid setting buy_in: allowed is 40 to 100": a cash table's buy-in range.
    for kind in (TableKind.TOURNAMENT, TableKind.CASH):
        options = table_options({}, kind=kind, stack=stack)
        assert options.starting_stack == stack
        assert options.buy_in == (stack if kind is TableKind.CASH else 100)


def test_the_readme_lists_the_same_defaults():
    text = README.read_text(encoding="utf-8")
    defaults = TableOptions()

    def row(keys: str) -> str:
        match = re.search(r"^\| " + re.escape(keys) + r" \| ([^|]+) \|", text, re.M)
        assert match, keys
        return match[1].strip()

    assert row("`SMALL_BLIND` / `BIG_BLIND`") == f"`{defaults.small_blind}` / `{defaults.big_blind}`"
    assert row("`STARTING_STACK`") == f"`{defaults.starting_stack}`"
    assert row("`TURN_TIMEOUT`") == f"`{defaults.turn_timeout}`"
    assert row("`MIN_BUY_IN` / `MAX_BUY_IN`") == f"`{defaults.min_buy_in}` / `{defaults.max_buy_in}`"
    assert "50 big blinds" in text and "20 to 50 big blinds" in text
