"""The messages a committed change owes Discord: what the table service stores in the durable outbox (docs/outbox.md).

A runner operation collects what it owes while it computes the change; the storage call that commits the change
stores those rows in the same transaction (bot.storage `Outbox.attach`), and only then are they handed to the delivery
queue. A change that could not be stored owes nothing: its rows are dropped with it. After a restart, the rows
not marked delivered are delivered again (`TableRunner.deliver_pending`).

What is stored is the *meaning* of each message as JSON, not Discord's rendered payload: the service never
imports discord and the render layer's output depends on the table's language at delivery time. Each kind
(`bot.tables.kinds.OutboxKind`, stored as its string):

- ``{"type": "announce", "announcement": {...}}``: a `PlayerAnnouncement`, `LevelAnnouncement` or
  `TableClosedAnnouncement` (plain ints and strings, encoded here);
- ``{"type": "hand_result", "hand_number": n}``: the showdown / "Hand #N is over": built again, on redelivery,
  from the stored hand record by replay (the engine is deterministic), so the evaluator's values need no codec;
- ``{"type": "hole_cards", "user_id": u, "hand_number": n, "cards": ["Ah", "Kd"]}``: the DM of a new hand, and
  when it is refused, the public "press My cards" notice;
- ``{"type": "shown", "hand_number": n, "user_id": u, "name": "Alice", "cards": ["Ah"]}``: the public line of
  cards shown by choice after a hand (bot/tables/shows.py, stored with the show);
- ``{"type": "closed_table", "message_id": m}``: the edit that takes the buttons off the table message of a
  closed table;
- ``{"type": "reply", "application_id": a, "token": t, "locale": l, "key": k, "params": {...}}``: the answer to
  a deferred interaction (edit of its original response: an edit is idempotent), while its token is valid.

Every row has a unique `key` (17 characters): the Discord message nonce of the posts it makes (with
`enforce_nonce`), so that a row delivered twice (the process died after posting, before marking it) is posted
once. Street lines and the per-action table edit are not rows (see docs/outbox.md: derivable, hot path).
"""

from __future__ import annotations

import enum
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.poker import Card, LevelBy, parse_card
from bot.render.announce import NoticeKind
from bot.tables.kinds import OutboxKind
from bot.tables.notifier import (
    Announcement,
    LevelAnnouncement,
    Placing,
    PlayerAnnouncement,
    TableClosedAnnouncement,
    TableSnapshot,
)

#: The announcements stored as such (plain values); a hand's result is stored by its number.
StoredAnnouncement = PlayerAnnouncement | TableClosedAnnouncement | LevelAnnouncement
_E = TypeVar("_E", bound=enum.Enum)

#: How long an interaction token can be used to answer (Discord: 15 minutes); a reply row older is dropped.
REPLY_TOKEN_LIFETIME_S = 15 * 60


def payload_kind(payload: Mapping[str, Any]) -> OutboxKind | None:
    """The kind of an outbox payload (its "type"), or None for a type this version does not know."""
    try:
        return OutboxKind(str(payload.get("type")))
    except ValueError:
        return None


#: The fields of each kind's payload, as this version writes them (older versions wrote a subset: "proofs" came
#: with the seal). A row with another field was written by a newer version: `known_kind` keeps it undelivered.
PAYLOAD_FIELDS: Mapping[OutboxKind, frozenset[str]] = {
    OutboxKind.ANNOUNCE: frozenset({"type", "announcement"}),
    OutboxKind.HAND_RESULT: frozenset({"type", "hand_number"}),
    OutboxKind.HOLE_CARDS: frozenset({"type", "user_id", "hand_number", "cards", "proofs"}),
    OutboxKind.SHOWN: frozenset({"type", "hand_number", "user_id", "name", "cards"}),
    OutboxKind.CLOSED_TABLE: frozenset({"type", "message_id"}),
    OutboxKind.REPLY: frozenset({"type", "application_id", "token", "locale", "created_at", "key", "params"}),
}


def known_kind(payload: Mapping[str, Any]) -> OutboxKind:
    """The kind of a stored payload that this version can deliver whole. Raises UnknownKind for what a newer
    version wrote (a downgrade: kept for the upgrade, docs/outbox.md): a type this version does not know, or a
    known one with a field it does not (`PAYLOAD_FIELDS`), which it would deliver without what the field says."""
    kind = payload_kind(payload)
    if kind is None:
        raise UnknownKind(f"type {payload.get('type')!r}")
    unknown = set(payload) - PAYLOAD_FIELDS[kind]
    if unknown:
        raise UnknownKind(f"{kind.value} fields {sorted(unknown)}")
    return kind


def new_key() -> str:
    """A fresh outbox key (also a valid Discord nonce: at most 25 characters)."""
    return "o" + secrets.token_hex(8)


@dataclass(frozen=True)
class InteractionReply:
    """Where to answer an interaction that was deferred: the application id and the interaction token (valid 15
    minutes from `created_at`, Unix seconds), and the member's locale for the text."""

    application_id: int
    token: str
    locale: str
    created_at: float


@dataclass
class Owed:
    """One message owed by the change being computed: its `key`, its JSON `payload` (None for a message that is
    not stored: a street line or an action's notice, released with the action's commit), the snapshot to show it
    with (taken when it was owed) and, for live delivery, the announcement object itself (which a payload of
    type "hand_result" does not carry)."""

    key: str
    payload: Mapping[str, Any] | None
    snapshot: TableSnapshot
    announcement: Announcement | None = None

    def row(self) -> dict[str, Any]:
        """The storage row: {"key", "payload"}."""
        assert self.payload is not None
        return {"key": self.key, "payload": dict(self.payload)}


def encode_announcement(announcement: StoredAnnouncement) -> dict[str, Any]:
    """JSON of a player notice, a blind-level notice or a table-closed notice."""
    if isinstance(announcement, PlayerAnnouncement):
        fields = {f: getattr(announcement, f) for f in PlayerAnnouncement.__dataclass_fields__}
        return {"class": "player", "fields": fields}
    if isinstance(announcement, LevelAnnouncement):
        fields = {f: getattr(announcement, f) for f in LevelAnnouncement.__dataclass_fields__}
        fields["next_level"] = None if announcement.next_level is None else list(announcement.next_level)
        return {"class": "level", "fields": fields}
    return {
        "class": "table_closed",
        "fields": {
            "cashed_out": [list(item) for item in announcement.cashed_out],
            "placings": [list(item) for item in announcement.placings],
            "voided_hand": announcement.voided_hand,
            "tournament_over": announcement.tournament_over,
        },
    }


class UnknownKind(ValueError):
    """An outbox row of a kind (or an announcement of a class) this version does not know: written by a newer
    version. It is kept undelivered, for a version that knows it (docs/outbox.md)."""


def decode_announcement(data: Mapping[str, Any]) -> StoredAnnouncement:
    """The announcement `encode_announcement` wrote. Raises UnknownKind (a ValueError) for what a newer version
    wrote: an unknown class, or a known one with a notice kind, a level change's cause or a field this version
    does not know (a downgrade: kept for the upgrade, docs/outbox.md)."""
    fields = dict(data.get("fields") or {})
    if data.get("class") == "player":
        _known_fields(PlayerAnnouncement, fields)
        return PlayerAnnouncement(**{**fields, "kind": _known(NoticeKind, fields["kind"])})
    if data.get("class") == "level":
        _known_fields(LevelAnnouncement, fields)
        nxt = fields.get("next_level")
        return LevelAnnouncement(
            **{**fields, "next_level": None if nxt is None else tuple(nxt), "by": _known(LevelBy, fields["by"])}
        )
    if data.get("class") == "table_closed":
        _known_fields(None, fields, {"cashed_out", "placings", "voided_hand", "tournament_over"})
        return TableClosedAnnouncement(
            cashed_out=tuple((int(u), str(n), int(c)) for u, n, c in fields["cashed_out"]),
            placings=tuple(Placing(int(p), int(u), str(n), int(s)) for p, u, n, s in fields["placings"]),
            voided_hand=fields.get("voided_hand"),
            tournament_over=bool(fields.get("tournament_over")),
        )
    raise UnknownKind(f"announcement class {data.get('class')!r}")


def _known_fields(cls: Any, fields: Mapping[str, Any], names: set[str] | None = None) -> None:
    """Raise UnknownKind when `fields` holds a name that dataclass `cls` (or `names`) does not have."""
    unknown = set(fields) - (names if names is not None else set(cls.__dataclass_fields__))
    if unknown:
        raise UnknownKind(f"announcement fields {sorted(unknown)}")


def _known(kind: type[_E], value: Any) -> _E:
    """`kind(value)`, or UnknownKind for a value a newer version added to the enum."""
    try:
        return kind(value)
    except ValueError:
        raise UnknownKind(f"{kind.__name__} {value!r}") from None


def encode_cards(cards: tuple[Card, ...]) -> list[str]:
    """Cards as their two-character texts ("Ah")."""
    return [str(card) for card in cards]


def decode_cards(texts: list[str]) -> tuple[Card, ...]:
    """The cards `encode_cards` wrote."""
    return tuple(parse_card(text) for text in texts)
