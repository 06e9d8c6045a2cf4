"""Stored hands for `/history`: filtered to what the asking member may see, exported as PHH (rebuilt by
`bot.tables.record.replay`, the one replay of a stored hand).

A member sees other players' hole cards only where they were shown at the showdown (issue 5); their own
cards are theirs to see. Only finished hands are shown or exported: an unfinished hand's record holds the
deck order, i.e. cards nobody has seen yet.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.poker import Event, Hand, HandShown, HoleCardsDealt
from bot.poker.phh import dump_hand

_HOLE_CARDS_LINE = re.compile(r'"d dh p(?P<player>[0-9]+) (?P<cards>[^"]*)"')


def shown_players(hand: Hand) -> frozenset[int]:
    """Players whose hole cards were shown at the showdown."""
    return frozenset(e.player for e in hand.events if isinstance(e, HandShown))


def visible_events(hand: Hand, viewer: int | None) -> list[Event]:
    """The hand's events without anyone's dealt hole cards but the viewer's (shown hands stay: public)."""
    return [e for e in hand.events if not isinstance(e, HoleCardsDealt) or e.player == viewer]


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
    text = dump_hand(hand, extra=extra)
    visible = shown_players(hand) | ({viewer} if viewer is not None else set())

    def mask(match: re.Match[str]) -> str:
        player = int(match["player"]) - 1
        return match[0] if player in visible else f'"d dh p{match["player"]} ????"'

    return _HOLE_CARDS_LINE.sub(mask, text)
