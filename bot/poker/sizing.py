"""Bet sizes measured by the pot: how far a raise of a fraction of the pot goes (the /bet and /raise
suggestions "half pot" and "pot").

Rule book 002: "En Pot-Limit, la relance maximale équivaut à la taille actuelle du pot, call inclus" — a
pot-sized raise first calls, then raises by the pot as it stands after that call. Amounts are chips; a raise is
always *to* a total for the street (rule book 000 §05).
"""

from __future__ import annotations

from fractions import Fraction

from bot.poker.hand import Hand

__all__ = ["pot_raise_to", "raise_of_pot"]

POT = Fraction(1)
HALF_POT = Fraction(1, 2)


def raise_of_pot(pot: int, facing: int, own_bet: int, fraction: Fraction = POT) -> int:
    """The street total of a raise of `fraction` of the pot: pot = chips in the middle with this street's bets;
    facing = the bet to call (the street's highest); own_bet = what the raiser has in on this street. The call
    (facing - own_bet) is added to the pot first, then the raise is that fraction of it (rounded down)."""
    after_call = pot + (facing - own_bet)
    return facing + int(after_call * fraction)


def pot_raise_to(hand: Hand, fraction: Fraction = POT) -> int:
    """`raise_of_pot` for the player to act in `hand` (a bet when nothing was bet: facing is 0). It is a size,
    not a legal amount: compare it with `Hand.legal_actions()`'s range. Raises ValueError when nobody is to act."""
    player = hand.actor
    if player is None:
        raise ValueError("nobody is to act")
    pot = sum(p.amount for p in hand.pots()) + sum(hand.bets)
    return raise_of_pot(pot, max(hand.bets), hand.bets[player], fraction)
