"""Raises measured by the pot (rule book 002: "la relance maximale équivaut à la taille actuelle du pot, call
inclus")."""

from fractions import Fraction

import pytest

from bot.poker import pot_raise_to, raise_of_pot
from tests.poker.helpers import new_hand, play


def test_a_pot_sized_raise_calls_first_then_raises_by_the_pot_after_the_call():
    # Pot 10 with the bets, facing a bet of 4 with nothing in: call 4 (pot 14), raise 14 -> to 18.
    assert raise_of_pot(10, 4, 0) == 18
    # Half the pot after the call, rounded down: 4 + 14 // 2.
    assert raise_of_pot(10, 4, 0, Fraction(1, 2)) == 11


def test_a_pot_sized_bet_on_an_unbet_street_is_the_pot():
    assert raise_of_pot(13, 0, 0) == 13


def test_the_pot_raise_of_the_player_to_act_counts_the_blinds_and_their_own_bet():
    # Blinds 1/2, three players; the button raised to 6: SB (1 in) faces 6 in a pot of 1 + 2 + 6 = 9.
    hand = new_hand([100, 100, 100])
    play(hand, "p2 raise 6")
    assert pot_raise_to(hand) == 6 + (9 + 5) == 20
    assert pot_raise_to(hand, Fraction(1, 2)) == 6 + 14 // 2


def test_nobody_to_act_has_no_pot_raise():
    hand = new_hand([100, 100])
    play(hand, "p1 fold")
    with pytest.raises(ValueError):
        pot_raise_to(hand)
