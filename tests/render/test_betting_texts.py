"""The refusals of pot-limit and fixed-limit tables (issue 16), as the player reads them in both languages."""

import pytest

from bot.poker import Betting, Hand, HandSettings, PokerError, full_deck
from bot.render import render_poker_error


def _refusal(betting: Betting, amount: int) -> PokerError:
    hand = Hand(HandSettings(betting=betting), [100, 100, 100], deck=full_deck())
    with pytest.raises(PokerError) as refused:
        hand.raise_to(amount)
    return refused.value


def test_pot_limit_refusal_says_the_largest_raise() -> None:
    error = _refusal(Betting.POT_LIMIT, 37)
    assert render_poker_error(error, "en") == "Pot-limit: the largest raise is to 7"
    assert render_poker_error(error, "fr") == "Pot-limit\u00a0: relance maximum à 7"


def test_fixed_limit_refusal_says_the_one_allowed_raise() -> None:
    error = _refusal(Betting.FIXED_LIMIT, 6)
    assert render_poker_error(error, "en") == "Fixed-limit: the raise is to 4"
    assert render_poker_error(error, "fr") == "Limite fixe\u00a0: la relance est à 4"


def test_fixed_limit_cap_refusal_in_both_languages() -> None:
    hand = Hand(HandSettings(betting=Betting.FIXED_LIMIT), [100, 100, 100], deck=full_deck())
    for amount in (4, 6, 8):
        hand.raise_to(amount)
    with pytest.raises(PokerError) as refused:
        hand.raise_to(10)
    assert render_poker_error(refused.value, "en") == (
        "Fixed-limit: betting is capped (one bet and three raises): you can only call 4 or fold"
    )
    assert render_poker_error(refused.value, "fr") == (
        "Limite fixe\u00a0: les relances sont plafonnées (une mise et trois relances)\u00a0: "
        "tu peux seulement suivre (4) ou te coucher"
    )
