"""Cards as text: rank + suit symbol ("A♠", "10♥"), the same in every language.

The suit symbols are followed by U+FE0E (VARIATION SELECTOR-15, "text presentation"): without it Discord
turns ♠ ♥ ♦ ♣ into coloured emoji images (a black spade is unreadable on the dark theme); with it they
stay plain text in the theme's text colour. The selector is invisible.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.poker import Card

TEXT_PRESENTATION = "\ufe0e"
SUIT_SYMBOLS: dict[str, str] = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
RANK_SYMBOLS: dict[int, str] = {14: "A", 13: "K", 12: "Q", 11: "J", 10: "10"}
NO_CARDS = "—"


def rank_text(rank: int) -> str:
    """The rank symbol: 14 -> "A", 13 -> "K", 12 -> "Q", 11 -> "J", 10 -> "10", 2..9 -> digits."""
    return RANK_SYMBOLS.get(rank, str(rank))


def suit_text(suit: str) -> str:
    """The suit symbol ('s' -> "♠" etc.) in text presentation (followed by U+FE0E)."""
    return SUIT_SYMBOLS[suit] + TEXT_PRESENTATION


def card_text(card: Card) -> str:
    """One card: Card(14, 's') -> "A♠" (+ U+FE0E after the suit). Raises KeyError on an unknown suit."""
    return rank_text(card.rank) + suit_text(card.suit)


def cards_text(cards: Iterable[Card], empty: str = NO_CARDS) -> str:
    """Cards separated by spaces: "A♠ K♥"; `empty` ("—") when there are none."""
    texts = [card_text(card) for card in cards]
    return " ".join(texts) if texts else empty
