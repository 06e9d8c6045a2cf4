"""Decision puzzles (issue 17): the shipped spots, and what the numbers favour."""

from __future__ import annotations

import random

from bot.poker import Street, parse_cards
from bot.poker.puzzles import Answer, Spot, assess, position_names
from bot.tables.puzzles import load_spots, pick_spot


def test_at_least_fifty_spots_ship_with_every_street_and_the_rule_books_own() -> None:
    spots = load_spots()
    assert len(spots) >= 50
    assert {spot.street for spot in spots} == {Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER}
    first = spots[0]
    assert (first.key, first.hole, first.players, position_names(3)[first.decider]) == (
        "rulebook-001",
        parse_cards("Kc9d"),
        3,
        "BB",
    )
    assert len({spot.key for spot in spots}) == len(spots)
    for spot in spots:
        assert Spot.from_json(spot.to_json()) == spot
        assert len(spot.board) == {Street.PREFLOP: 0, Street.FLOP: 3, Street.TURN: 4, Street.RIVER: 5}[spot.street]
        assert spot.to_call > 0 and spot.min_raise_to is not None and len(spot.hole) == 2
        assert not set(spot.hole) & set(spot.board)


def test_heads_up_spots_ship_on_every_street_with_the_button_first_before_the_flop_and_last_after() -> None:
    """Rule book 002: heads-up, the button posts the small blind and acts first before the flop, last after it.
    Hand index 1 is the button (bot/poker/hand.py), so its decisions open the preflop action and close the rest."""
    heads_up = [spot for spot in load_spots() if spot.players == 2]
    assert {spot.street for spot in heads_up} == {Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER}
    for spot in heads_up:
        order = [(street, player) for street, player, _kind, _amount in spot.actions]
        openers = {street: player for street, player in reversed(order)}
        assert openers.get(Street.PREFLOP, 1) == 1, spot.key
        assert all(openers[street] == 0 for street in openers if street is not Street.PREFLOP), spot.key
        if not spot.actions:  # the button's first decision: the small blind facing the big blind
            assert (spot.decider, spot.to_call * 2) == (1, spot.big_blind), spot.key
        assert assess(spot, trials=200).favoured  # the numbers answer each


def test_the_rule_books_spot_favours_a_call_by_the_numbers() -> None:
    """BB with K♣9♦ facing a min-raise: 2 to call into 7, about 22 % needed; K9 has about half the pot against a
    button's range."""
    spot = load_spots()[0]
    result = assess(spot, rng=random.Random(1))
    assert round(result.pot_odds, 3) == round(2 / 9, 3)
    assert 0.45 < result.equity < 0.6
    assert result.favoured == (Answer.CALL,)


def test_a_hand_with_too_little_equity_is_a_fold_and_a_strong_one_a_raise() -> None:
    spot = load_spots()[0]
    weak = assess(Spot.from_json({**spot.to_json(), "hole": "7h2c", "to_call": 40}))
    assert weak.favoured == (Answer.FOLD,)
    strong = assess(Spot.from_json({**spot.to_json(), "hole": "AhAd"}))
    assert strong.favoured == (Answer.RAISE, Answer.CALL)


def test_positions_are_named_as_rule_book_002_names_them() -> None:
    assert position_names(2) == ("BB", "BTN/SB")  # heads-up the button posts the small blind
    assert position_names(3) == ("SB", "BB", "BTN")
    assert position_names(6) == ("SB", "BB", "UTG", "HJ", "CO", "BTN")
    assert position_names(10) == ("SB", "BB", "UTG", "UTG+1", "UTG+2", "UTG+3", "UTG+4", "HJ", "CO", "BTN")


def test_a_new_puzzle_avoids_the_spots_already_asked() -> None:
    keys = frozenset(spot.key for spot in load_spots()[1:])
    assert pick_spot(random.Random(3), keys).key == "rulebook-001"
