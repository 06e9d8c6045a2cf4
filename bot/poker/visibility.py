"""Who may see which cards in a hand's history: the one rule behind `/history` and its PHH export.

A hand's record holds every card. Read back by one member, it shows their own hole cards and those shown at
the showdown (rule book 000 §06: the hands are shown at the showdown; rule book 002: a mucked hand stays
unseen); every other player's hole cards stay hidden. The board is public.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.poker.events import Event, HandShown, HoleCardsDealt
from bot.poker.hand import Hand

__all__ = ["Viewer"]


@dataclass(frozen=True, slots=True)
class Viewer:
    """Someone reading a hand's history: `player` is their hand player index, None when they were not dealt in."""

    player: int | None = None

    def sees_hole_cards(self, hand: Hand, player: int) -> bool:
        """Whether this viewer may see `player`'s hole cards in `hand`: their own, or shown at the showdown."""
        return player == self.player or player in shown_players(hand)

    def events(self, hand: Hand) -> list[Event]:
        """`hand`'s events as this viewer may read them: others' dealt hole cards left out (shown hands stay)."""
        return [e for e in hand.events if not isinstance(e, HoleCardsDealt) or e.player == self.player]


def shown_players(hand: Hand) -> frozenset[int]:
    """The players whose hole cards were shown at the showdown of `hand`."""
    return frozenset(e.player for e in hand.events if isinstance(e, HandShown))
