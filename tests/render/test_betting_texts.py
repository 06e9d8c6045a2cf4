"""The refusals of pot-limit and fixed-limit tables (issue 16), as the player reads them in both languages."""

import pytest

from bot.poker import Betting, Hand, HandSettings, PokerError, full_deck
from bot.render import (
    TableSnapshot,
    render_action_buttons,
    render_event_line,
    render_poker_error,
    render_raise_modal,
    render_table,
)


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


def test_fixed_limit_buttons_name_the_one_bet_and_open_no_form() -> None:
    hand = Hand(HandSettings(betting=Betting.FIXED_LIMIT), [100, 100, 100], deck=full_deck())
    buttons = render_action_buttons(hand.legal_actions(), "en")
    assert [b.label for b in buttons] == ["Fold", "Call 2", "Raise to 4", "My cards"]
    assert [b.label for b in render_action_buttons(hand.legal_actions(), "fr")][2] == "Relancer à 4"
    hand.call()
    hand.call()
    hand.check()  # the flop: a bet of one small bet
    assert [b.label for b in render_action_buttons(hand.legal_actions(), "en")] == ["Check", "Bet 2", "My cards"]


def test_pot_limit_keeps_the_raise_form_with_the_pot_as_its_maximum() -> None:
    hand = Hand(HandSettings(betting=Betting.POT_LIMIT), [100, 100, 100], deck=full_deck())
    legal = hand.legal_actions()
    labels = [b.label for b in render_action_buttons(legal, "en")]
    assert labels == ["Fold", "Call 2", "Raise…", "My cards"]  # no All-in: 100 is above the pot limit
    assert render_raise_modal(legal, "en").label == "Raise to (min 4, max 7)"


@pytest.mark.parametrize(
    ("betting", "en", "fr"),
    [
        ("no-limit", "Blinds 1/2 · Cash game", "Petite blind 1, grosse blind 2 · Partie libre"),
        ("pot-limit", "Pot-limit 1/2 · Cash game", "Pot-limit 1/2 · Partie libre"),
        ("fixed-limit", "Fixed-limit 1/2 (bets 2/4) · Cash game", "Limite fixe 1/2 (mises 2/4) · Partie libre"),
    ],
)
def test_the_table_message_names_the_betting_structure(betting: str, en: str, fr: str) -> None:
    view = TableSnapshot(1, 2, 3, 4, "cash", "en", 0, 1, 2, 0, (), betting=betting)
    assert render_table(view, "en").description.splitlines()[0] == en
    assert render_table(view, "fr").description.splitlines()[0] == fr


def test_a_missed_blind_posting_reads_in_both_languages() -> None:
    hand = Hand(HandSettings(extra_blinds=((3, 1),)), [100] * 5, deck=full_deck())
    names = ["Alice", "Bob", "Chloé", "David", "Emma"]
    lines = [render_event_line(e, names, "en") for e in hand.events[:4]]
    assert lines[2:] == ["David posts the big blind (2)", "David posts a dead small blind (1), missed"]
    assert render_event_line(hand.events[3], names, "fr") == "David pose une petite blind morte (1), manquée"
