"""Playing cards: the 52-card deck, parsing ("AhKd"), shuffling.

A `Card` is a frozen value with a rank (2..14, ace 14) and a suit ('c', 'd', 'h', 's'). The 52
cards are interned: `Card(14, "h") is CARDS[...]` need not hold, but equality and hashing are by
value, and every card the engine deals comes from the interned table, so comparing by value is
always right and cheap.

Randomness is passed in (docs/architecture.md, Conventions 3): `shuffled_deck()` uses `secrets.SystemRandom` unless
a `random.Random` is given, so tests can reproduce a deal.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = [
    "CARDS",
    "RANK_CHARS",
    "SUITS",
    "Card",
    "CardParseError",
    "format_cards",
    "full_deck",
    "parse_card",
    "parse_cards",
    "shuffled_deck",
]

#: Rank characters in rank order: index + 2 is the rank (so "A" is 14).
RANK_CHARS = "23456789TJQKA"
#: Suit characters, in the order used by the evaluator (clubs, diamonds, hearts, spades).
SUITS = "cdhs"


class CardParseError(ValueError):
    """A card string could not be read (e.g. "Ax", "1h", a duplicate card).

    It is a `ValueError` rather than a `PokerError`: card text comes from files and tests, not from
    players' actions.
    """


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card.

    Attributes:
        rank: 2..14 (11 jack, 12 queen, 13 king, 14 ace).
        suit: one of 'c', 'd', 'h', 's'. Suits never rank (rule book 000 §05); the ordering of
            `Card` (rank, then suit letter) is only for sorting displays.
        index: 0..51, `(rank - 2) * 4 + suit position in "cdhs"`; the evaluator's card number.

    `str(Card(14, "h")) == "Ah"`.
    """

    rank: int
    suit: str
    index: int = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not (isinstance(self.rank, int) and 2 <= self.rank <= 14) or self.suit not in ("c", "d", "h", "s"):
            raise CardParseError(f"Not a card: rank {self.rank!r}, suit {self.suit!r}")
        object.__setattr__(self, "index", (self.rank - 2) * 4 + SUITS.index(self.suit))

    # Equality and hashing by the card number: fast, and the same as comparing (rank, suit).
    def __eq__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.index == other.index
        return NotImplemented

    def __hash__(self) -> int:
        return self.index

    def __str__(self) -> str:
        return RANK_CHARS[self.rank - 2] + self.suit

    def __repr__(self) -> str:
        return f"Card({self!s})"


#: The 52 interned cards, indexed by `Card.index` (2c, 2d, 2h, 2s, 3c, ..., As).
CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(2, 15) for suit in SUITS)
_BY_TEXT: dict[str, Card] = {str(card): card for card in CARDS}
_BY_TEXT.update({RANK_CHARS[c.rank - 2] + c.suit.upper(): c for c in CARDS})


def parse_card(text: str) -> Card:
    """Read one card such as "Ah" or "Td" (ranks 2-9, T, J, Q, K, A; suit c, d, h, s, either case).

    Raises:
        CardParseError: the text is not a card.
    """
    card = _BY_TEXT.get(text.strip())
    if card is None:
        raise CardParseError(f"Not a card: {text!r}")
    return card


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read cards written together or separated by spaces/commas: "AhKd", "Ah Kd", "Ah,Kd".

    Returns the cards in the order written. An empty string gives `()`.

    Raises:
        CardParseError: a card is malformed or appears twice.
    """
    compact = "".join(text.replace(",", " ").split())
    if len(compact) % 2:
        raise CardParseError(f"Not a list of cards: {text!r}")
    cards = tuple(parse_card(compact[i : i + 2]) for i in range(0, len(compact), 2))
    if len(set(cards)) != len(cards):
        raise CardParseError(f"Duplicate card in {text!r}")
    return cards


def format_cards(cards: Iterable[Card], sep: str = "") -> str:
    """Write cards back as text: `format_cards(parse_cards("AhKd")) == "AhKd"`."""
    return sep.join(str(card) for card in cards)


def full_deck() -> list[Card]:
    """A new list of the 52 cards in a fixed order (2c, 2d, 2h, 2s, ..., As)."""
    return list(CARDS)


def shuffled_deck(rng: random.Random | None = None) -> list[Card]:
    """A new list of the 52 cards in random order (uniform Fisher-Yates: `rng.shuffle`).

    Args:
        rng: the generator; default `secrets.SystemRandom()` (docs/architecture.md: never the `random` module's
            shared generator). Pass a seeded `random.Random` for a reproducible deal; a subclass that
            overrides `shuffle` can stack the deck in tests.
    """
    deck = list(CARDS)
    (rng if rng is not None else secrets.SystemRandom()).shuffle(deck)
    return deck


def check_distinct(cards: Sequence[Card]) -> None:
    """Raise `CardParseError` when a card appears twice in `cards`."""
    if len(set(cards)) != len(cards):
        seen: set[Card] = set()
        for card in cards:
            if card in seen:
                raise CardParseError(f"Card {card} appears twice")
            seen.add(card)
