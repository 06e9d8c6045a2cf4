"""The all-in odds as text (bot.render.odds), in English and French."""

from __future__ import annotations

import random

from bot.poker import parse_cards
from bot.poker.equity import all_in_odds
from bot.render import cards_text
from bot.render.odds import render_odds

HANDS = [parse_cards("QcQd"), parse_cards("AsAh"), parse_cards("KsKh")]
FACES = dict(enumerate(HANDS))
NAMES = ["Alice", "Bob", "Chloé"]


def test_side_pots_get_a_line_each_and_a_pot_nobody_contests_none() -> None:
    odds = all_in_odds(HANDS, parse_cards("2c7d9h"), pots=[(0, 1, 2), (1, 2), (2,)])
    lines = render_odds(odds, NAMES, FACES, "en")
    assert lines[0] == "Cards face up · chances over every run-out:"
    assert lines[1].startswith("Main pot: Alice " + cards_text(HANDS[0]) + ": ")
    assert lines[2].startswith("Side pot 1: Bob ") and "Alice" not in lines[2]
    assert len(lines) == 3  # the last side pot has one player: nothing to say


def test_an_estimate_is_marked_with_its_margin_and_ties_are_named_when_possible() -> None:
    odds = all_in_odds(
        [parse_cards("AhKd"), parse_cards("AcKs")], rng=random.Random(2), trials=4000, exact_preflop=False
    )
    english = render_odds(odds, NAMES, {0: parse_cards("AhKd"), 1: parse_cards("AcKs")}, "en")
    assert english[0] == "Cards face up · chances estimated (≈, margin ±1.5%):"
    assert "to win, ≈ " in english[1] and english[1].endswith("to tie")
    french = render_odds(odds, NAMES, {0: parse_cards("AhKd"), 1: parse_cards("AcKs")}, "fr")
    assert french[0].startswith("Cartes retournées · chances estimées (≈, marge ±1,5")
    assert "de gagner, ≈ " in french[1] and french[1].endswith("de partager")


def test_run_it_twice_and_shows_by_choice_have_a_line_in_both_languages() -> None:
    from bot.poker.events import RunCountChosen, RunTwiceAnswered, ShownByChoice
    from bot.render import render_event_line

    names = ["Alice", "Bob"]
    assert render_event_line(RunTwiceAnswered(0, True), names, "en") == "Alice agrees to run it twice"
    assert render_event_line(RunTwiceAnswered(1, False), names, "fr") == "Bob refuse de tirer deux boards"
    assert render_event_line(RunCountChosen(2), names, "en") == "Everyone agreed: the rest of the board is dealt twice"
    assert render_event_line(RunCountChosen(1), names, "fr") == "La suite du board est tirée une seule fois"
    shown = render_event_line(ShownByChoice(1, parse_cards("As")), names, "fr")
    assert shown == "Bob montre " + cards_text(parse_cards("As"))
