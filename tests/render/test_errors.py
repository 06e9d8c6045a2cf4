"""Refusals rendered by code and params, in both languages; unknown codes fall back without crashing."""

import logging

import pytest

from bot.poker import PokerError
from bot.render import render_error, render_poker_error, t
from bot.tables.errors import ServiceError
from bot.tables.options import ALLOWED


class ServiceLikeError(PokerError):
    """Shaped like the table service's ServiceError: a code, params and an English text."""


def test_min_raise_in_both_languages():
    assert render_error("min_raise", "en", {"amount": 22}) == "Minimum raise is to 22"
    assert render_error("min_raise", "fr", {"amount": 22}) == "Relance minimum\u00a0: 22"
    assert render_error("min_raise", "fr-CA", {"amount": 2200}) == "Relance minimum\u00a0: 2\u202f200"


def test_whose_turn_it_is_from_the_engine_index_or_the_service_user_id():
    error = PokerError("not_your_turn", actor=2, player=0)
    assert render_poker_error(error, "en", ["Alice", "Bob", "Chloé"]) == "It's not your turn: it's Chloé's turn"
    assert render_poker_error(error, "fr", ["Alice", "Bob", "*Chloé*"]) == (
        "Ce n'est pas à toi de parler\u00a0: c'est à \\*Chloé\\*"
    )
    assert render_poker_error(error, "en") == "It's not your turn"
    service = ServiceLikeError("not_your_turn_user", "It is not your turn", actor=123456789012345678)
    assert render_poker_error(service, "fr") == "Ce n'est pas à toi de parler\u00a0: c'est à <@123456789012345678>"


def test_service_refusals():
    assert render_error("seat_taken", "en", {"seat": 3, "free": "1, 2, 5"}) == "Seat 3 is taken: free seats are 1, 2, 5"
    assert render_error("buy_in_range", "fr", {"min": 40, "max": 2000}) == (
        "La cave doit être comprise entre 40 et 2\u202f000"
    )
    assert render_error("insufficient_balance", "en", {"balance": 30, "needed": 100}) == (
        "Not enough chips: your balance is 30, you need 100"
    )
    assert (
        render_error("no_table", "fr")
        == "Il n'y a pas de table dans ce salon\u00a0: ouvres-en une avec `/poker create`"
    )
    assert render_error("refill_cooldown", "en", {"when": "<t:1700000000:R>"}) == (
        "You can claim a refill again <t:1700000000:R>"
    )
    assert render_error("unexpected", "fr", {"error_id": "a1b2"}) == "Une erreur s'est produite (référence a1b2)"


def test_action_params_are_translated():
    assert (
        render_error("amount_required", "fr", {"action": "raise"})
        == "Indique combien\u00a0: il faut un montant pour relancer"
    )
    assert render_error("amount_required", "en", {"action": "bet"}) == "Say how much: an amount is needed to bet"


def test_unknown_code_falls_back_to_the_english_text_and_is_logged(caplog):
    error = ServiceLikeError("brand_new_code", "You can't do that here")
    with caplog.at_level(logging.WARNING):
        assert render_poker_error(error, "fr") == "You can't do that here"
    assert any("brand_new_code" in r.getMessage() for r in caplog.records)
    assert render_error("brand_new_code", "fr") == "Ce n'est pas possible pour l'instant"


def test_missing_params_never_crash():
    assert render_error("min_raise", "fr") == "Relance minimum\u00a0: {amount}"


@pytest.mark.parametrize("setting", sorted(ALLOWED))
def test_every_bad_setting_is_explained_in_both_languages(setting: str) -> None:
    """A refused setting says what it allows in the reader's language: no English left in the French text (the
    service's `allowed` text is only the fallback)."""
    numbers = {"big_blind": 2, "min": 40, "max": 100}
    english_allowed = ALLOWED[setting].format(**numbers)
    error = ServiceError("bad_option", option=setting, allowed=english_allowed, **numbers)
    assert render_poker_error(error, "en").endswith(f": allowed is {english_allowed}")
    french = render_poker_error(error, "fr")
    assert french.endswith(t(f"allowed.{setting}", "fr", **numbers)) and english_allowed not in french


def test_a_bad_setting_is_named_as_its_command_option() -> None:
    error = ServiceError("bad_option", option="small_blind", allowed="1 to the big blind (2)", big_blind=2)
    french = "Réglage petite_blind invalide\u00a0: valeurs permises de 1 à la grosse blind (2)"
    assert render_poker_error(error, "fr") == french
    timer = ServiceError("bad_option", option="turn_timeout", allowed="10 to 600 seconds", min=10, max=600)
    assert render_poker_error(timer, "en") == "Invalid setting timer: allowed is 10 to 600 seconds"
