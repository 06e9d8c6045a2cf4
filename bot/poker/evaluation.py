"""Hand evaluation: the best five of five to seven cards, its category, ranks and English name.

The seven-card ranking is done by phevaluator (a perfect-hash evaluator, a few million evaluations a
second); this module is the small interface the rest of the product uses. phevaluator answers with
one of the 7,462 equivalence classes of five-card hands (1 = royal flush ... 7462 = 7-5-4-3-2 high
card). We turn it around so that a greater `strength` is a better hand, and we rebuild the naming
ranks of each class from a table generated here in the same order, which the tests check against
phevaluator class by class.

Rules (rule book 000 §05): straight flush (ace-high is the royal flush), four of a kind, full house,
flush, straight, three of a kind, two pair, pair, high card; A-2-3-4-5 is a five-high straight and
K-A-2 does not connect; kickers compare high to low; suits never rank.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from itertools import combinations

from phevaluator import _pheval

from bot.poker.cards import Card

__all__ = [
    "CLASS_COUNT",
    "NAMED_RANKS",
    "HandCategory",
    "HandValue",
    "class7_of_indexes",
    "deciding_kickers",
    "describe_en",
    "evaluate",
    "strength_of_indexes",
]

#: Number of distinct five-card hand values (equivalence classes).
CLASS_COUNT = 7462


class HandCategory(IntEnum):
    """Hand categories, weakest first (a greater value is a better category)."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8


def _build_classes() -> list[tuple[HandCategory, tuple[int, ...]]]:
    """All 7,462 hand values, best first, in phevaluator's (Cactus Kev's) class order.

    Each entry is (category, naming ranks) as documented on `HandValue.ranks`.
    """
    desc = range(14, 1, -1)
    straights = [(14, 13, 12, 11, 10), *[tuple(range(high, high - 5, -1)) for high in range(13, 5, -1)]]
    straights.append((5, 4, 3, 2, 14))
    straight_sets = {frozenset(s) for s in straights}
    distinct_five = [c for c in combinations(desc, 5) if frozenset(c) not in straight_sets]
    out: list[tuple[HandCategory, tuple[int, ...]]] = []
    out += [(HandCategory.STRAIGHT_FLUSH, (s[0],)) for s in straights]
    out += [(HandCategory.FOUR_OF_A_KIND, (q, k)) for q in desc for k in desc if k != q]
    out += [(HandCategory.FULL_HOUSE, (t, p)) for t in desc for p in desc if p != t]
    out += [(HandCategory.FLUSH, c) for c in distinct_five]
    out += [(HandCategory.STRAIGHT, (s[0],)) for s in straights]
    out += [(HandCategory.THREE_OF_A_KIND, (t, *k)) for t in desc for k in combinations([r for r in desc if r != t], 2)]
    out += [(HandCategory.TWO_PAIR, (hi, lo, k)) for hi, lo in combinations(desc, 2) for k in desc if k not in (hi, lo)]
    out += [(HandCategory.PAIR, (p, *k)) for p in desc for k in combinations([r for r in desc if r != p], 3)]
    out += [(HandCategory.HIGH_CARD, c) for c in distinct_five]
    assert len(out) == CLASS_COUNT
    return out


#: `_CLASSES[strength]` = (category, ranks); index 0 is unused. strength = 7463 - phevaluator class.
_CLASSES: list[tuple[HandCategory, tuple[int, ...]]] = [(HandCategory.HIGH_CARD, ())]
_CLASSES += reversed(_build_classes())

_EVAL: dict[int, Callable[..., int]] = {
    5: _pheval.evaluate_5cards,
    6: _pheval.evaluate_6cards,
    7: _pheval.evaluate_7cards,
}
_EVAL7: Callable[..., int] = _pheval.evaluate_7cards

#: phevaluator's raw class of exactly seven cards given by `Card.index`: 1 (royal flush) .. 7462, so a SMALLER
#: class is a better hand (the opposite of `strength`). The fastest comparison there is, for hot loops such as
#: `bot.poker.equity`; the one place outside this module that touches the evaluator.
class7_of_indexes: Callable[[int, int, int, int, int, int, int], int] = _pheval.evaluate_7cards


def strength_of_indexes(*indexes: int) -> int:
    """The strength (1..7462, greater is better) of 5 to 7 cards given by `Card.index`.

    The fast path for code that only compares hands (no names, no best five).
    """
    return 7463 - _EVAL[len(indexes)](*indexes)


@dataclass(frozen=True, slots=True, order=True)
class HandValue:
    """The value of the best five-card hand that can be made from some cards.

    Ordered and compared by `strength` only: greater is better, equal means a tie (a split pot),
    whatever the suits or the unused cards.

    Attributes:
        strength: 1..7462 (7462 = royal flush), the hand's rank among all five-card hands.
        category: the `HandCategory`.
        ranks: the ranks (2..14) that name the hand and break ties, high to low in naming order:
            straight flush / straight -> (high card,), the wheel -> (5,); four of a kind -> (quad,
            kicker); full house -> (trips, pair), e.g. kings full of nines -> (13, 9); flush and high
            card -> the five ranks; three of a kind -> (trips, k1, k2); two pair -> (high pair, low
            pair, kicker); pair -> (pair, k1, k2, k3).
        cards: the 5 to 7 cards evaluated.
        best_five (property): the five cards making the hand, in naming order (e.g. the full
            house's three kings, then the two nines; a straight from its top card; the wheel as
            5-4-3-2-A). Worked out on first use.
    """

    strength: int
    category: HandCategory = field(compare=False)
    ranks: tuple[int, ...] = field(compare=False)
    cards: tuple[Card, ...] = field(compare=False, repr=False)

    @property
    def best_five(self) -> tuple[Card, ...]:
        """The five cards making the hand, in naming order."""
        return _best_five(self.cards, self.category, self.ranks)

    @property
    def is_royal(self) -> bool:
        """True for the ace-high straight flush (rule book 000 §05: "dite royale")."""
        return self.strength == CLASS_COUNT

    def describe_en(self, against: Iterable[HandValue] = ()) -> str:
        """The English name, e.g. "Full house, kings full of nines", with the kickers that beat `against`
        (see `describe_en`)."""
        return describe_en(self, against)


def evaluate(cards: Sequence[Card]) -> HandValue:
    """Evaluate the best five-card hand among 5 to 7 distinct cards (rule book 000 §05).

    Args:
        cards: 5, 6 or 7 distinct `Card`s (hole cards and board together, any order).

    Returns:
        The `HandValue` (comparable; with category, naming ranks and the best five cards).

    Raises:
        ValueError: fewer than 5 or more than 7 cards, or a card given twice.
    """
    count = len(cards)
    if count < 5 or count > 7:
        raise ValueError(f"evaluate() needs 5 to 7 cards, got {count}")
    indexes = [card.index for card in cards]
    if len(set(indexes)) != count:
        raise ValueError("evaluate() got the same card twice")
    strength = 7463 - _EVAL[count](*indexes)
    category, ranks = _CLASSES[strength]
    return HandValue(strength, category, ranks, tuple(cards))


def evaluate_distinct(cards: Sequence[Card]) -> HandValue:
    """`evaluate` for 5 to 7 cards already known to be distinct (the engine's own deals): no checks."""
    strength = 7463 - _EVAL[len(cards)](*[card.index for card in cards])
    category, ranks = _CLASSES[strength]
    return HandValue(strength, category, ranks, tuple(cards))


def _best_five(cards: Sequence[Card], category: HandCategory, ranks: tuple[int, ...]) -> tuple[Card, ...]:
    """Pick the five cards that make a hand of `category` with naming `ranks` from `cards`."""
    ordered = sorted(cards, key=lambda c: (-c.rank, c.suit))
    if category in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH, HandCategory.FLUSH):
        if category == HandCategory.STRAIGHT:
            pool = ordered
        else:
            suit_counts: dict[str, int] = {}
            for card in ordered:
                suit_counts[card.suit] = suit_counts.get(card.suit, 0) + 1
            suit = max(suit_counts, key=lambda s: suit_counts[s])
            pool = [card for card in ordered if card.suit == suit]
        if category == HandCategory.FLUSH:
            wanted = list(ranks)
        else:
            high = ranks[0]
            wanted = [5, 4, 3, 2, 14] if high == 5 else list(range(high, high - 5, -1))
        by_rank: dict[int, Card] = {}
        for card in pool:
            by_rank.setdefault(card.rank, card)
        return tuple(by_rank[rank] for rank in wanted)
    # Grouped hands: take the cards of each naming rank, as many as the group needs.
    group_sizes = {
        HandCategory.FOUR_OF_A_KIND: (4, 1),
        HandCategory.FULL_HOUSE: (3, 2),
        HandCategory.THREE_OF_A_KIND: (3, 1, 1),
        HandCategory.TWO_PAIR: (2, 2, 1),
        HandCategory.PAIR: (2, 1, 1, 1),
        HandCategory.HIGH_CARD: (1, 1, 1, 1, 1),
    }[category]
    chosen: list[Card] = []
    for rank, size in zip(ranks, group_sizes, strict=True):
        chosen += [card for card in ordered if card.rank == rank][:size]
    return tuple(chosen)


#: How many of `HandValue.ranks` the name of a hand says ("Two pair, tens and threes": 2); the ranks after them
#: are the kickers (for a flush or a high card, its lower cards), named only when they decide (`deciding_kickers`).
NAMED_RANKS: dict[HandCategory, int] = {
    HandCategory.STRAIGHT_FLUSH: 1,
    HandCategory.FOUR_OF_A_KIND: 1,
    HandCategory.FULL_HOUSE: 2,
    HandCategory.FLUSH: 1,
    HandCategory.STRAIGHT: 1,
    HandCategory.THREE_OF_A_KIND: 1,
    HandCategory.TWO_PAIR: 2,
    HandCategory.PAIR: 1,
    HandCategory.HIGH_CARD: 1,
}


def deciding_kickers(value: HandValue, against: Iterable[HandValue]) -> tuple[int, ...]:
    """The kickers (ranks 2..14, high to low) to name with `value` so that it reads apart from every hand of
    `against` of the same category: the ranks after the name up to the first rank where the hands differ.

    Rule book 000 §05: within a category, compare the naming ranks (quads, the full house's trips then pair,
    the straight's height, the pairs high then low), then the other cards ("accompagnatrices") high to low;
    a flush and a high card compare their five ranks in order. Only five cards count (rule book 002).
    So for each other hand of the same category, the first index where `ranks` differ decides; the kickers to
    name are `value.ranks[NAMED_RANKS[category]:]` cut after the latest such index over `against`. Empty when
    the name alone decides (a different pair, a higher straight), when every other hand is of another
    category, or when the hands are equal (a split pot: nothing decides).

    Only `category` and `ranks` are read, so any object with them (the renderers' stand-ins) works.

    Examples: tens and threes with a jack against tens and threes with a nine -> (11,); a pair of kings with
    A-Q-9 against kings with A-J-8 -> (14, 12).
    """
    named = NAMED_RANKS[HandCategory(value.category)]
    needed = named
    for other in against:
        if other.category != value.category:
            continue
        for index, (mine, theirs) in enumerate(zip(value.ranks, other.ranks, strict=False)):
            if mine != theirs:
                needed = max(needed, index + 1)
                break
    return tuple(value.ranks[named:needed])


_SINGULAR = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten",
             11: "jack", 12: "queen", 13: "king", 14: "ace"}  # fmt: skip
_PLURAL = {rank: ("sixes" if rank == 6 else name + "s") for rank, name in _SINGULAR.items()}


def describe_en(value: HandValue, against: Iterable[HandValue] = ()) -> str:
    """The hand's English name, spelled out (rule book 000 §05 names; issue 3 rule 8), with the kickers that
    tell it apart from the hands of `against` (`deciding_kickers`), if any.

    Examples: "Royal flush", "Straight flush, nine high", "Four of a kind, aces",
    "Full house, kings full of nines", "Flush, ace high", "Straight, five high",
    "Three of a kind, sevens", "Two pair, aces and sixes", "Pair of tens", "High card, ace";
    with kickers: "Two pair, tens and threes, jack kicker", "Pair of kings, ace-queen kickers",
    "Flush, ace-king high" (a flush's lower cards), "High card, ace, king kicker".
    """
    name = _describe_en(value)
    kickers = deciding_kickers(value, against)
    if not kickers:
        return name
    ranks = "-".join(_SINGULAR[r] for r in kickers)
    if value.category == HandCategory.FLUSH:
        return f"Flush, {_SINGULAR[value.ranks[0]]}-{ranks} high"
    return f"{name}, {ranks} kicker" + ("s" if len(kickers) > 1 else "")


def _describe_en(value: HandValue) -> str:
    r = value.ranks
    match value.category:
        case HandCategory.STRAIGHT_FLUSH:
            return "Royal flush" if value.is_royal else f"Straight flush, {_SINGULAR[r[0]]} high"
        case HandCategory.FOUR_OF_A_KIND:
            return f"Four of a kind, {_PLURAL[r[0]]}"
        case HandCategory.FULL_HOUSE:
            return f"Full house, {_PLURAL[r[0]]} full of {_PLURAL[r[1]]}"
        case HandCategory.FLUSH:
            return f"Flush, {_SINGULAR[r[0]]} high"
        case HandCategory.STRAIGHT:
            return f"Straight, {_SINGULAR[r[0]]} high"
        case HandCategory.THREE_OF_A_KIND:
            return f"Three of a kind, {_PLURAL[r[0]]}"
        case HandCategory.TWO_PAIR:
            return f"Two pair, {_PLURAL[r[0]]} and {_PLURAL[r[1]]}"
        case HandCategory.PAIR:
            return f"Pair of {_PLURAL[r[0]]}"
        case _:
            return f"High card, {_SINGULAR[r[0]]}"
