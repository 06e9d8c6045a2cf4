"""Stored hands for `/history`: filtered to what the asking member may see, exported as PHH (rebuilt by
`bot.tables.record.replay`, the one replay of a stored hand).

A member sees other players' hole cards only where they were shown at the showdown (issue 5); their own
cards are theirs to see: the engine's rule, `bot.poker.Viewer`. Only finished hands are shown or exported: an
unfinished hand's record holds the deck order, i.e. cards nobody has seen yet.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.poker import Event, Hand, Viewer
from bot.poker.phh import dump_hand


def visible_events(hand: Hand, viewer: int | None) -> list[Event]:
    """The hand's events without anyone's dealt hole cards but the viewer's (shown hands stay: public)."""
    return Viewer(viewer).events(hand)


def phh_for(hand: Hand, viewer: int | None, *, players: Sequence[str] = (), table: str = "", number: int = 0) -> str:
    """The hand as PHH text for one member: hole cards of players neither shown at the showdown nor the viewer
    written as `????` (PHH's unknown cards), so the file replays (`python -m bot.poker replay`) without revealing
    them. players: display names by player index (PHH `players` field)."""
    extra: dict[str, object] = {}
    if players:
        extra["players"] = list(players)
    if table:
        extra["table"] = table
    if number:
        extra["hand"] = number
    return dump_hand(hand, extra=extra, viewer=Viewer(viewer))
