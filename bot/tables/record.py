"""The stored hand: the one format in which a hand is written to storage when dealt, and the one replay that
rebuilds it (docs/architecture.md, "The hand is its history").

`Storage.start_hand` stores `StoredHand.to_json()` as the hand's record:
``{"record": HandRecord.to_json(), "seats": [seat, ...], "users": [user id, ...], "seal": {...}}`` — the
engine's record (settings, starting stacks, deck order), then the table seat and the Discord user of each
player, by the hand's player index, and the salts of its sealed deck (`DeckSeal.to_json`; absent for hands
dealt before decks were sealed). Each action is appended to the hand's action log
(``{"player", "kind", "amount", "at", "by"}``), and so is each answer to "run it twice?"
(``{"player", "kind": "run_twice", "yes", "at", "by"}``, issue 15); once the hand is over, each show by choice
is appended too (``{"player", "kind": "show", "cards": ["Ah"], "at", "by"}``, bot/tables/shows.py).
`replay` applies that log to the record; the runner (restore, a result delivered again) and `/history` use it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.poker import ActionKind, Hand, HandRecord, parse_cards
from bot.poker.seal import DeckSeal
from bot.storage import HandRow

#: The `kind` of an answer to "run it twice?" in a hand's action log.
RUN_TWICE = "run_twice"
#: The `kind` of cards shown by choice after the hand, in its action log (`Hand.show_by_choice`).
SHOW = "show"


@dataclass(frozen=True)
class StoredHand:
    """A hand as dealt: the engine's record, and each player's seat and user id (by player index)."""

    record: HandRecord
    seats: tuple[int, ...]
    users: tuple[int, ...]
    seal: DeckSeal | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON stored by `Storage.start_hand` (see the module docstring)."""
        data: dict[str, Any] = {"record": self.record.to_json(), "seats": list(self.seats), "users": list(self.users)}
        if self.seal is not None:
            data["seal"] = self.seal.to_json()
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StoredHand:
        """Read `to_json()` back. Raises KeyError / ValueError on another shape (`SealError`, a ValueError, for
        an unreadable seal)."""
        record = HandRecord.from_json(data["record"])
        sealed = data.get("seal")
        return cls(
            record=record,
            seats=tuple(int(s) for s in data.get("seats", ())),
            users=tuple(int(u) for u in data.get("users", ())),
            seal=DeckSeal.from_json(record.deck, sealed) if sealed else None,
        )


def stored_hand(row: HandRow) -> StoredHand:
    """The stored hand of a hand row."""
    return StoredHand.from_json(row.record)


def replay_actions(hand: Hand, actions: Iterable[Mapping[str, Any]]) -> float | None:
    """Apply stored actions to `hand` in order (`Hand.replay`: a recorded fold out of turn is a forfeit; a
    "run_twice" entry is an answer, `Hand.answer_run_twice`; a "show" entry, cards shown by choice after the
    hand, `Hand.show_by_choice`).
    Returns the time (`at`, clock seconds) of the last one, or None when there is none or it carries no time."""
    last_at: float | None = None
    for action in actions:
        if action["kind"] == RUN_TWICE:
            hand.answer_run_twice(int(action["player"]), bool(action["yes"]))
        elif action["kind"] == SHOW:
            hand.show_by_choice(int(action["player"]), parse_cards("".join(action["cards"])))
        else:
            hand.replay(int(action["player"]), ActionKind(action["kind"]), action.get("amount"))
        last_at = action.get("at", last_at)
    return last_at


def replay(row: HandRow) -> Hand:
    """The hand as stored: its record (settings, stacks, deck), then every action of its log in order."""
    hand = Hand.from_record(stored_hand(row).record)
    replay_actions(hand, row.actions)
    return hand


def hand_users(row: HandRow) -> tuple[int, ...]:
    """User ids of a stored hand's players, by player index."""
    return stored_hand(row).users
