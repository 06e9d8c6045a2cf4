"""One owner for each refusal text: the engine raises codes with parameters (`bot.poker.errors.CODES`) and holds no
sentence for a player; the catalogue writes each code once per language (docs/architecture.md, "Refusals and their
texts")."""

from __future__ import annotations

import ast
import json
import string
from pathlib import Path

import pytest

from bot.poker import Hand, HandSettings, InvalidAmountError, PokerError
from bot.poker.errors import CODES
from bot.render import render_poker_error

ROOT = Path(__file__).resolve().parents[2]
ENGINE_ERRORS = {name for name in dir(__import__("bot.poker.errors", fromlist=["x"])) if name.endswith("Error")}
CATALOGUES = {
    language: json.loads((ROOT / "bot" / "render" / "locales" / f"{language}.json").read_text(encoding="utf-8"))
    for language in ("en", "fr")
}


def _codes_of(node: ast.expr) -> set[str]:
    """The literal codes an error's first argument may take (a string, or either side of `a if c else b`)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _codes_of(node.body) | _codes_of(node.orelse)
    raise AssertionError(f"an engine error raised with a code that is not a literal: {ast.unparse(node)}")


def _raised_codes() -> dict[str, set[str]]:
    """Every code an engine error is raised with in bot/poker, with the keyword params given at each raise."""
    raised: dict[str, set[str]] = {}
    for path in ROOT.joinpath("bot", "poker").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ENGINE_ERRORS:
                assert node.args, f"{path.name}:{node.lineno}: {node.func.id} without a code"
                for code in _codes_of(node.args[0]):
                    raised.setdefault(code, set()).update(k.arg for k in node.keywords if k.arg is not None)
    return raised


def _fields(template: str) -> set[str]:
    """The names a catalogue template fills ("{amount}", "{count:raw}")."""
    return {name for _text, name, _spec, _conv in string.Formatter().parse(template) if name}


def test_every_code_the_engine_raises_is_declared_with_the_params_it_carries() -> None:
    raised = _raised_codes()
    assert len(raised) > 20, "the scan found too few engine errors"
    assert set(raised) <= set(CODES), set(raised) - set(CODES)
    for code, params in raised.items():
        assert params <= set(CODES[code]), (code, params - set(CODES[code]))
    assert set(CODES) <= set(raised), set(CODES) - set(raised)  # no code declared that nothing raises


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_engine_code_has_its_text_in_the_catalogue_using_only_its_params(language: str) -> None:
    for code, params in CODES.items():
        template = CATALOGUES[language].get(f"error.{code}")
        assert template, f"error.{code} missing in {language}.json"
        # A "detail" is a developer's English note: a player never reads it, in either language.
        assert _fields(template) <= set(params) - {"detail"}, (language, code, _fields(template))


def test_an_engine_error_says_a_developer_message_and_the_player_reads_the_catalogue() -> None:
    hand = Hand(HandSettings(), [100, 100, 100])
    hand.raise_to(6)
    with pytest.raises(InvalidAmountError) as refused:
        hand.raise_to(7)  # rule book 000 §05: a raise at least as large as the previous one, to 10
    assert str(refused.value) == "min_raise (amount=10)"
    assert render_poker_error(refused.value, "en") == "Minimum raise is to 10"
    assert render_poker_error(refused.value, "fr") == "Relance minimum\u00a0: 10"
    detailed = PokerError("dealing", detail="the board is complete")
    assert str(detailed) == "dealing: the board is complete"
    assert "board" not in render_poker_error(detailed, "en") and "board" not in render_poker_error(detailed, "fr")
