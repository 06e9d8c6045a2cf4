"""The kinds a table's flow names (docs/architecture.md, "Table orchestration"): who made a stored action, how a
seat was freed, what an outbox row owes. String enums: their values are what storage and the outbox hold (old rows
read the same)."""

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


class OutboxKind(StrEnum):
    """What an outbox row owes Discord: its payload's "type" (bot/tables/outbox.py describes each payload;
    docs/outbox.md). Stored as its string, as before it was a kind."""

    ANNOUNCE = "announce"  # a player, blind-level or table-closed notice
    HAND_RESULT = "hand_result"  # the showdown / "Hand #N is over", rebuilt from the stored hand
    HOLE_CARDS = "hole_cards"  # the DM of a new hand (and "press My cards" when it is refused)
    SHOWN = "shown"  # cards shown by choice after a hand
    CLOSED_TABLE = "closed_table"  # the edit that takes the buttons off a closed table's message
    REPLY = "reply"  # the answer to a deferred interaction
