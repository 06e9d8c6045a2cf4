"""Starting-hand strength: a score for every two-card hand and its place among the 1,326 (the top x %).

The score is Bill Chen's formula (high card, pair, suited, gap, connected under a queen), with the second
card as a small tie-break so that the order is total within a score. `top_fraction(cards)` says which
fraction of all starting hands is at least as good: 0.0045 for aces, 1.0 for seven-deuce offsuit.
Ranges are then "the top x %" (e.g. an early-position opening range of 15 %).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from functools import cache
from itertools import combinations

from bot.poker.cards import CARDS, Card

__all__ = ["chen_score", "top_fraction"]

_HIGH = {14: 10.0, 13: 8.0, 12: 7.0, 11: 6.0}


def chen_score(first: Card, second: Card) -> float:
    """Chen's score of two hole cards (about -1 for 7-2 offsuit to 20 for aces), plus second rank / 100."""
    high, low = (first, second) if first.rank >= second.rank else (second, first)
    score = _HIGH.get(high.rank, high.rank / 2)
    if high.rank == low.rank:
        score = max(5.0, score * 2)
    else:
        if high.suit == low.suit:
            score += 2
        gap = high.rank - low.rank - 1
        score -= (0, 1, 2, 4)[gap] if gap < 4 else 5
        if gap <= 1 and high.rank < 12:
            score += 1
    return score + low.rank / 100


@cache
def _sorted_scores() -> tuple[float, ...]:
    return tuple(sorted(chen_score(a, b) for a, b in combinations(CARDS, 2)))


@cache
def _top_by_index(a: int, b: int) -> float:
    scores = _sorted_scores()
    at_least = len(scores) - bisect.bisect_left(scores, chen_score(CARDS[a], CARDS[b]))
    return at_least / len(scores)


def top_fraction(cards: Sequence[Card]) -> float:
    """The fraction (0..1] of the 1,326 starting hands at least as strong as these two cards."""
    a, b = sorted(card.index for card in cards)
    return _top_by_index(a, b)
