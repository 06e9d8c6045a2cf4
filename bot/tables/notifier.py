"""What the table service tells the outside world: table snapshots, announcements, and the Notifier protocol.

The service never imports discord: it builds these plain values (user ids are ints, chips are ints) and
hands them to a `Notifier`, which the Discord layer implements by rendering them (bot.render) and
sending messages. Nothing here holds a hole card unless the hand's showdown showed it, except
`Notifier.send_hole_cards`, which is private to one player.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from bot.poker import Card, Event, LegalActions, Pot, Street
from bot.render.announce import HandResult


@dataclass(frozen=True)
class SeatView:
    """One occupied seat as the channel sees it.

    state: "waiting" (seated, not dealt in this hand), "active", "folded", "all_in", "sitting_out".
    bet: chips bet on the current street. player: the hand's player index, or None when not dealt in.
    blind: "small_blind" or "big_blind" when the seat posted that blind in the current hand, else None.
    """

    seat: int
    user_id: int
    name: str
    stack: int
    bet: int
    state: str
    is_button: bool
    is_actor: bool
    leaving: bool
    player: int | None
    blind: str | None = None


@dataclass(frozen=True)
class TableSnapshot:
    """A public picture of a table, enough to draw its table message.

    kind: "cash" or "tournament"; language: the table's language ("en"/"fr"). hand_number: the current
    (or last) hand, 0 before the first. small_blind/big_blind/ante: the current level. seats: occupied
    seats by number. board: community cards so far. pots: main pot first. street: None between hands.
    actor_user_id/deadline: whose turn and until when (Unix seconds). legal: the actor's options (to label
    the buttons). names: display names by the hand's player index (to render `events`). events: this
    hand's public events so far (no HoleCardsDealt). running: hands are dealt automatically.
    next_hand_at: when the next hand will be dealt (Unix seconds), between hands of a running game.
    closed: the table was ended (`/poker end`, or the tournament is over); the message shows it, without seats.
    waiting: between hands of an open table, what it waits for before a hand can be dealt (then no next hand
    is scheduled): "players" (nobody seated with chips), "second_player" (one), "sitting_in" (everyone with
    chips sits out), "others_sitting_out" (all but one), "start" (the game was not started); None otherwise.
    """

    table_id: int
    guild_id: int
    channel_id: int
    host_id: int
    kind: str
    language: str
    hand_number: int
    small_blind: int
    big_blind: int
    ante: int
    seats: tuple[SeatView, ...]
    board: tuple[Card, ...] = ()
    pots: tuple[Pot, ...] = ()
    street: Street | None = None
    actor_user_id: int | None = None
    deadline: float | None = None
    legal: LegalActions | None = None
    names: tuple[str, ...] = ()
    events: tuple[Event, ...] = ()
    running: bool = False
    max_seats: int = 10
    message_id: int | None = None
    next_hand_at: float | None = None
    closed: bool = False
    waiting: str | None = None

    @property
    def in_hand(self) -> bool:
        """True while a hand is being played."""
        return self.street is not None


@dataclass(frozen=True)
class StreetAnnouncement:
    """The flop, turn or river was dealt: `cards` new, `board` all; pots as they stand (main first)."""

    hand_number: int
    street: Street
    cards: tuple[Card, ...]
    board: tuple[Card, ...]
    pots: tuple[Pot, ...]


# How a hand ended: the render layer's shapes, built by `bot.render.hand_result_from_events` (one definition
# for the service and the renderers; render sits below the service, so the service imports it).
HandResultAnnouncement = HandResult


@dataclass(frozen=True)
class PlayerAnnouncement:
    """Something about one player, by `kind`:

    "eliminated" (place set in tournaments), "timed_out" (action = "check"/"fold"; sat_out when it was
    the second in a row), "dm_refused" (hole cards could not be sent: use the My cards button),
    "left" (stood up; chips = stack cashed out), "joined" (seat, chips = stack), "sat_out", "sat_in",
    "kicked", "auto_folded" (left or away while in the hand).
    """

    kind: str
    user_id: int
    name: str
    place: int | None = None
    action: str | None = None
    sat_out: bool = False
    seat: int | None = None
    chips: int | None = None


@dataclass(frozen=True)
class TableClosedAnnouncement:
    """The table ended. cashed_out: (user id, name, chips) back to balances (cash tables); placings:
    (place, user id, name, stack) for tournaments; voided_hand: the number of a hand that was refunded."""

    cashed_out: tuple[tuple[int, str, int], ...] = ()
    placings: tuple[tuple[int, int, str, int], ...] = ()
    voided_hand: int | None = None
    tournament_over: bool = False


Announcement = StreetAnnouncement | HandResultAnnouncement | PlayerAnnouncement | TableClosedAnnouncement


class Notifier(Protocol):
    """Implemented by the Discord layer; the service calls it in order, one table at a time.

    Errors raised here are logged by the service and never undo game state (the state is already stored).
    """

    async def post_table(self, snapshot: TableSnapshot) -> int | None:
        """Post a new table message (a new hand, or /poker table); return its message id."""
        ...

    async def edit_table(self, snapshot: TableSnapshot) -> None:
        """Edit the current table message (`snapshot.message_id`) in place."""
        ...

    async def announce(self, snapshot: TableSnapshot, announcement: Announcement) -> None:
        """Post a public message about the table (street, showdown, elimination, end...)."""
        ...

    async def send_hole_cards(self, snapshot: TableSnapshot, user_id: int, cards: tuple[Card, ...]) -> bool:
        """Send a player their hole cards privately (DM); False if the DM was refused."""
        ...


@dataclass
class RecordingNotifier:
    """A Notifier that remembers every call, for tests and for running without Discord."""

    posted: list[TableSnapshot] = field(default_factory=list)
    snapshots: list[TableSnapshot] = field(default_factory=list)
    edits: list[TableSnapshot] = field(default_factory=list)
    announcements: list[Announcement] = field(default_factory=list)
    hole_cards: list[tuple[int, int, tuple[Card, ...]]] = field(default_factory=list)
    refuse_dms: set[int] = field(default_factory=set)
    next_message_id: int = 1000

    async def post_table(self, snapshot: TableSnapshot) -> int | None:
        """Record the snapshot; return a new fake message id."""
        self.posted.append(snapshot)
        self.snapshots.append(snapshot)
        self.next_message_id += 1
        return self.next_message_id

    async def edit_table(self, snapshot: TableSnapshot) -> None:
        """Record the snapshot."""
        self.edits.append(snapshot)
        self.snapshots.append(snapshot)

    async def announce(self, snapshot: TableSnapshot, announcement: Announcement) -> None:
        """Record the announcement."""
        self.announcements.append(announcement)

    async def send_hole_cards(self, snapshot: TableSnapshot, user_id: int, cards: tuple[Card, ...]) -> bool:
        """Record the cards (hand number, user, cards); refuse for users in `refuse_dms`."""
        if user_id in self.refuse_dms:
            return False
        self.hole_cards.append((snapshot.hand_number, user_id, cards))
        return True

    @property
    def last(self) -> TableSnapshot:
        """The latest snapshot posted or edited."""
        return self.snapshots[-1]
