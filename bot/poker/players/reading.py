"""Reading one's own hand on a board: what it makes with the hole cards (not the board alone) and its draws.

Used by the simpler strategies, which decide from the made hand rather than from an equity estimate.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import IntEnum

from bot.poker.cards import Card
from bot.poker.evaluation import HandCategory, evaluate

__all__ = ["Made", "has_draw", "made_hand"]


class Made(IntEnum):
    """How good a made hand is, from the player's own point of view."""

    NOTHING = 0
    WEAK_PAIR = 1  # a pair using a hole card, below the top card of the board
    TOP_PAIR = 2  # top pair or an overpair
    STRONG = 3  # two pair or better made with a hole card


def made_hand(hole: Sequence[Card], board: Sequence[Card]) -> Made:
    """Classify hole cards on a board of 3 to 5 cards (see `Made`)."""
    value = evaluate([*hole, *board])
    board_category = evaluate(board).category if len(board) >= 5 else _board_category(board)
    if value.category >= HandCategory.TWO_PAIR and value.category > board_category:
        return Made.STRONG
    top = max(card.rank for card in board)
    ranks = {card.rank for card in board}
    if hole[0].rank == hole[1].rank and hole[0].rank not in ranks:
        return Made.TOP_PAIR if hole[0].rank > top else Made.WEAK_PAIR
    paired = [card.rank for card in hole if card.rank in ranks]
    if paired:
        return Made.TOP_PAIR if max(paired) == top else Made.WEAK_PAIR
    return Made.NOTHING


def _board_category(board: Sequence[Card]) -> HandCategory:
    counts = sorted(Counter(card.rank for card in board).values(), reverse=True)
    if counts[0] >= 3:
        return HandCategory.THREE_OF_A_KIND
    if counts[0] == 2:
        return HandCategory.TWO_PAIR if len(counts) > 1 and counts[1] == 2 else HandCategory.PAIR
    return HandCategory.HIGH_CARD


def has_draw(hole: Sequence[Card], board: Sequence[Card]) -> bool:
    """Four cards to a flush, or four ranks of an open-ended straight, using at least one hole card."""
    if len(board) >= 5:
        return False
    cards = [*hole, *board]
    suits = Counter(card.suit for card in cards)
    if any(count == 4 and any(h.suit == suit for h in hole) for suit, count in suits.items()):
        return True
    ranks = {card.rank for card in cards} | ({1} if any(card.rank == 14 for card in cards) else set())
    hole_ranks = {card.rank for card in hole} | ({1} if any(card.rank == 14 for card in hole) else set())
    for low in range(1, 11):
        window = set(range(low, low + 4))
        if window <= ranks and window & hole_ranks and low >= 2 and low + 4 <= 14:
            return True
    return False
