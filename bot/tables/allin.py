"""The street messages of a hand's new events, with the all-in odds when the hands are turned face up.

When the betting closes with two or more players in the hand and one of them all-in with cards to come, the
hands are turned face up (as card rooms do) and each street message of the run-out carries each player's
chance to win and to tie for each pot they are in (`bot.poker.equity.runout_odds`, exact on the flop and the
turn: a few milliseconds, so it is worked out inline). Street messages are derived from the hand and never
stored (docs/outbox.md); a restart shows the board on the table message.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.poker import Event, Hand, StreetDealt
from bot.poker.equity import StreetOdds, runout_odds
from bot.tables.notifier import StreetAnnouncement

__all__ = ["street_announcements"]


def street_announcements(
    hand: Hand, new_events: Sequence[Event], hand_number: int, names: Callable[[], Sequence[str]]
) -> list[StreetAnnouncement]:
    """One `StreetAnnouncement` per `StreetDealt` among `new_events` (the events an action or answer just
    produced), with `odds`, `names` and `faces` on the streets of an all-in run-out's first board before the
    river. `names()`: the players' display names by player index, asked for only then (most actions deal no
    street)."""
    dealt = [e for e in new_events if isinstance(e, StreetDealt)]
    if not dealt:
        return []
    points: dict[tuple[int, int], StreetOdds] = {}
    if hand.actor is None:
        points = {(int(p.street), len(p.board)): p for p in runout_odds(hand, streets_only=True)}
    faces = tuple(cards if not folded else () for cards, folded in zip(hand.hole_cards, hand.folded, strict=True))
    out = []
    for event in dealt:
        point = points.get((int(event.street), len(event.board))) if event.run == 1 else None
        if point is not None and point.board != event.board:
            point = None
        out.append(
            StreetAnnouncement(
                hand_number,
                event.street,
                event.cards,
                event.board,
                hand.pots(),
                run=event.run,
                odds=point.odds if point is not None else None,
                names=tuple(names()) if point is not None else (),
                faces=faces if point is not None else (),
            )
        )
    return out
