"""The coach's facts for the player to act (issue 17): the best hand now, the nuts and what it takes, the pot odds,
the chance to win against random hands, and which of the rule book's advice applies. Pure; texts are in
bot/render/coach.py.

Rule book 000 §09 ("Bien débuter"): two weak, far-apart cards often need a lot of luck; look at the board and
for the best hands the others could hold; learn to fold — losing a small bet keeps the chips for the next
good spots.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations

from bot.poker.cards import CARDS, Card
from bot.poker.equity import HandOdds, equity_vs_random
from bot.poker.evaluation import HandValue, evaluate, strength_of_indexes

__all__ = ["COACH_TRIALS", "Advice", "CoachFacts", "coach_facts", "nuts"]

#: Monte Carlo deals for the coach's chance to win: a 95 % margin of about ±2 %, some 10 ms.
COACH_TRIALS = 2500
#: Cards below this rank are weak for the "two weak, far-apart cards" advice (ten and above are not).
_WEAK_BELOW = 10
#: Ranks apart from which two cards are far apart (9-5, 8-3, 7-2; 9-6 is not).
_FAR_APART = 4


class Advice(StrEnum):
    """One line of the rule book's advice (000 §09)."""

    WEAK_FAR_APART = "weak_far_apart"  # preflop: two weak cards far apart
    LEARN_TO_FOLD = "learn_to_fold"  # facing a big bet with little equity


@dataclass(frozen=True, slots=True)
class CoachFacts:
    """What the coach tells the player to act. Chips are ints, chances fractions 0..1.

    Attributes:
        best: the best five-card hand of hole cards and board now (None before the flop).
        nuts: the best hand anyone could hold on this board (None before the flop).
        nut_holdings: every two hole cards that make the nuts, each higher card first.
        has_nuts: the player holds one of them.
        to_call: chips to add to call (0 when checking is free); pot: every chip in the middle now.
        pot_odds: to_call / (pot + to_call) — the share of the final pot a call must win to pay (None with
            nothing to call).
        odds: the chance to win against `opponents` random hands (Monte Carlo, `odds.margin`).
        opponents: the players still in besides this one.
        advice: the rule book's advice that applies (possibly none).
    """

    best: HandValue | None
    nuts: HandValue | None
    nut_holdings: tuple[tuple[Card, Card], ...]
    has_nuts: bool
    to_call: int
    pot: int
    pot_odds: float | None
    odds: HandOdds
    opponents: int
    advice: tuple[Advice, ...]


def nuts(board: Sequence[Card]) -> tuple[HandValue, tuple[tuple[Card, Card], ...]]:
    """The best hand possible on a board of 3 to 5 cards, and every pair of hole cards that makes it.

    Raises:
        ValueError: fewer than 3 or more than 5 board cards, or a card twice.
    """
    if not 3 <= len(board) <= 5 or len(set(board)) != len(board):
        raise ValueError("the nuts need a board of 3 to 5 distinct cards")
    known = {card.index for card in board}
    rest = [card for card in CARDS if card.index not in known]
    indexes = [card.index for card in board]
    best = 0
    holders: list[tuple[Card, Card]] = []
    for first, second in combinations(rest, 2):
        strength = strength_of_indexes(first.index, second.index, *indexes)
        if strength > best:
            best, holders = strength, [(second, first)]
        elif strength == best:
            holders.append((second, first))  # the higher card first: CARDS runs from 2c up
    first, second = holders[0]
    return evaluate([first, second, *board]), tuple(holders)


def coach_facts(
    hole: Sequence[Card],
    board: Sequence[Card],
    *,
    to_call: int,
    pot: int,
    opponents: int,
    big_blind: int = 0,
    rng: random.Random | None = None,
    trials: int = COACH_TRIALS,
) -> CoachFacts:
    """The coach's facts for a player holding `hole` on `board`, facing `to_call` chips with `pot` in the middle
    (this street's bets included) and `opponents` players still in besides them (1..9). A big bet, for the advice
    to fold, is more than the big blind and at least half of what the pot held before it.

    Raises:
        ValueError: bad cards or opponents (from `bot.poker.equity`).
    """
    best = evaluate([*hole, *board]) if len(board) >= 3 else None
    nut_value: HandValue | None = None
    holders: tuple[tuple[Card, Card], ...] = ()
    if len(board) >= 3:
        nut_value, holders = nuts(board)
    has_nuts = best is not None and nut_value is not None and best.strength == nut_value.strength
    odds = equity_vs_random(hole, opponents, board, rng=rng, trials=trials)
    pot_odds = to_call / (pot + to_call) if to_call > 0 else None
    advice: list[Advice] = []
    high, low = sorted((card.rank for card in hole), reverse=True)
    if not board and high < _WEAK_BELOW and high - low >= _FAR_APART:
        advice.append(Advice.WEAK_FAR_APART)
    big_bet = to_call > big_blind and 2 * to_call >= pot - to_call
    if big_bet and pot_odds is not None and odds.share < pot_odds:
        advice.append(Advice.LEARN_TO_FOLD)
    return CoachFacts(best, nut_value, holders, has_nuts, to_call, pot, pot_odds, odds, opponents, tuple(advice))
