"""The service's refusals: one catalogue of texts (every code the code raises is known and written in both
languages) and one place where storage errors become refusals."""

import ast
from pathlib import Path

import pytest

from bot.render import render_poker_error
from bot.render.i18n import has_key
from bot.storage import InsufficientBalance, RefillCooldown, RefillDisabled, RefillNotNeeded, TableExists
from bot.tables.errors import CODES, ServiceError, refusal

ROOT = Path(__file__).resolve().parents[2]


def _raised_codes() -> set[str]:
    """Every literal code of a `ServiceError(...)` in bot/ and cogs/."""
    codes = set()
    for path in [*ROOT.joinpath("bot").rglob("*.py"), *ROOT.joinpath("cogs").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "ServiceError"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                codes.add(node.args[0].value)
    return codes


def test_every_code_the_service_raises_is_known_and_written_in_both_catalogues():
    raised = _raised_codes()
    assert raised, "the scan found no ServiceError at all"
    assert raised <= CODES, raised - CODES
    for code in CODES:
        assert has_key(f"error.{code}", "en") and has_key(f"error.{code}", "fr"), code


def test_a_service_error_says_the_catalogues_english_text():
    assert str(ServiceError("no_table")) == "There is no table in this channel: start one with `/poker create`"
    assert str(ServiceError("table_full", seats=6)) == "The table is full (6 seats)"
    assert str(ServiceError("not_your_turn_user", actor=42)) == "It's not your turn: it's <@42>'s turn"


@pytest.mark.parametrize(
    ("error", "english"),
    [
        (InsufficientBalance(30, 80), "Not enough chips: your balance is 30, you need 80"),
        (TableExists(7), "This channel already has a table: join it with `/poker join`"),
        (
            RefillDisabled(),
            "This server gives no refills: its starting grant is 0 (a member with Manage Server can change it in "
            "`/poker-admin settings`)",
        ),
        (RefillNotNeeded(5, 40), "Refills are for members with no chips left (balance 5, stack 40)"),
        (RefillCooldown(1_800_000_000), "You can claim a refill again <t:1800000000:R>"),
    ],
)
def test_storage_refusals_become_service_refusals(error, english):
    refused = refusal(error)
    assert isinstance(refused, ServiceError)
    assert render_poker_error(refused, "en") == english
    assert render_poker_error(refused, "fr") != english  # and it is said in French to a French reader
