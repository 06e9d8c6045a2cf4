"""The kinds a table's flow names (docs/architecture.md, "Table orchestration"): who made a stored action, and
how a seat was freed. String enums: their values are what storage and the outbox hold (old rows read the same)."""

from __future__ import annotations

from enum import StrEnum


class ActionBy(StrEnum):
    """Who made a hand's action, stored with it in the action log ("by"): the player, the turn timer (a check or
    fold when time ran out), the table for a tournament player sitting out, a computer player, or a leave (the
    hand forfeited; the action is stored as a fold)."""

    PLAYER = "player"
    TIMEOUT = "timeout"
    AUTO = "auto"
    FORFEIT = "forfeit"
    COMPUTER = "computer"  # a computer player's decision (bot/tables/computers.py)


class Departure(StrEnum):
    """How a seat was freed; also the kind of the `PlayerAnnouncement` that says so."""

    LEFT = "left"
    KICKED = "kicked"
    BUSTED = "busted"
