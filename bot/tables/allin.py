"""The street messages of a hand's new events, with the all-in odds when the hands are turned face up.

When the betting closes with two or more players in the hand and one of them all-in with cards to come, the
hands are turned face up (as card rooms do) and the channel is told each player's chance to win and to tie for
each pot they are in (`bot.poker.equity.runout_odds`, exact): first where the betting closed (a
`StreetAnnouncement` with `face_up`: no card dealt, the board as it stands, before the flop included), then on
each street of the run-out before the river. A flop or turn point takes a few milliseconds, a preflop one a few
heads-up and under 20 ms six-handed (benchmarks/equity.py; the tables are built at start-up, `warm_up`), so it
is worked out inline. Street messages are derived from the hand and never stored (docs/outbox.md); a restart
shows the board on the table message.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.poker import Event, Hand, PlayerActed, StreetDealt
from bot.poker.equity import StreetOdds, runout_odds
from bot.tables.notifier import StreetAnnouncement

__all__ = ["street_announcements"]


def street_announcements(
    hand: Hand, new_events: Sequence[Event], hand_number: int, names: Callable[[], Sequence[str]]
) -> list[StreetAnnouncement]:
    """The `StreetAnnouncement`s of `new_events` (the events an action or answer just produced): when they
    close the betting with the hands turned face up, first one with `face_up` and the odds where it closed;
    then one per `StreetDealt`, with `odds`, `names` and `faces` on the streets of an all-in run-out's first
    board before the river. `names()`: the players' display names by player index, asked for only then (most
    actions announce nothing)."""
    dealt = [e for e in new_events if isinstance(e, StreetDealt)]
    closed = hand.actor is None and any(isinstance(e, PlayerActed) for e in new_events)
    if not dealt and not closed:
        return []
    points: dict[tuple[int, int], StreetOdds] = {}
    closing: StreetOdds | None = None
    if hand.actor is None:
        found = runout_odds(hand, streets_only=not closed)
        if closed and found:
            closing, found = found[0], found[1:]
        points = {(int(p.street), len(p.board)): p for p in found}
    faces = tuple(cards if not folded else () for cards, folded in zip(hand.hole_cards, hand.folded, strict=True))
    out = []
    if closing is not None:  # the hands are turned face up where the betting closed (before the flop too)
        out.append(
            StreetAnnouncement(
                hand_number,
                closing.street,
                (),
                closing.board,
                hand.pots(),
                odds=closing.odds,
                names=tuple(names()),
                faces=faces,
                face_up=True,
            )
        )
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
