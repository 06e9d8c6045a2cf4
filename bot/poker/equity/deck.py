"""The cards left in the deck once the known ones are out, and uniform draws from them (card numbers 0..51)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence

from bot.poker.cards import Card

__all__ = ["NotEnoughCardsError", "card_numbers", "cards_left", "check_enough", "draws"]


class NotEnoughCardsError(ValueError):
    """The cards left in the deck cannot deal what is asked (the rest of the board, and any unknown hands): too
    many hands, board and dead cards given. No figure exists for such a spot (a real deal never reaches it)."""


def check_enough(left: int, needed: int) -> None:
    """Raise NotEnoughCardsError when `left` cards cannot deal `needed`."""
    if left < needed:
        raise NotEnoughCardsError(f"only {left} cards are left in the deck, {needed} are needed to deal the rest")


def card_numbers(cards: Iterable[Card]) -> tuple[int, ...]:
    """The evaluator's card numbers (`Card.index`) of `cards`."""
    return tuple(card.index for card in cards)


def cards_left(holes: Sequence[tuple[int, ...]], board: tuple[int, ...], dead: tuple[int, ...]) -> list[int]:
    """Validate the known cards and return those still in the deck (ascending card numbers).

    Raises:
        ValueError: a hand without exactly two cards, more than 5 board cards, a card given twice.
    """
    for hole in holes:
        if len(hole) != 2:
            raise ValueError(f"a hold'em hand has two hole cards, got {len(hole)}")
    if len(board) > 5:
        raise ValueError(f"a board has at most five cards, got {len(board)}")
    used = [c for hole in holes for c in hole] + list(board) + list(dead)
    if len(set(used)) != len(used):
        raise ValueError("the same card is given twice")
    taken = set(used)
    return [c for c in range(52) if c not in taken]


def draws(rest: list[int], k: int, rng: random.Random, trials: int) -> Iterator[tuple[int, ...]]:
    """`trials` independent uniform draws of `k` distinct cards from `rest` (a partial Fisher-Yates shuffle of
    one working list: whatever order the list is left in, the first k places come out uniform)."""
    pool = list(rest)
    n = len(pool)
    rnd = rng.random
    for _ in range(trials):
        for i in range(k):
            j = i + int(rnd() * (n - i))
            pool[i], pool[j] = pool[j], pool[i]
        yield tuple(pool[:k])
