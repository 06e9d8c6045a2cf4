"""What the table service tells the outside world: table snapshots, announcements, and the Notifier protocol.

The snapshot (`TableSnapshot`, `SeatView`) is the render layer's one picture of a table, and how a hand ended is
the engine's `HandResult`: both live below this layer, which builds them. The service never imports discord: it
builds these plain values (user ids are ints, chips are ints) and
hands them to a `Notifier`, which the Discord layer implements by rendering them (bot.render) and
sending messages. Nothing here holds a hole card unless the hand's showdown showed it, except
`Notifier.send_hole_cards` and `Notifier.send_coach`, which are private to one player.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from bot.poker import Card, HandResult, LevelBy, Pot, Street
from bot.poker.coach import CoachFacts
from bot.poker.equity import Odds
from bot.render.announce import NoticeKind
from bot.render.table import SeatView, TableSnapshot

__all__ = [
    "Announcement",
    "CardsShown",
    "Carrier",
    "LevelAnnouncement",
    "Notifier",
    "Placing",
    "PlayerAnnouncement",
    "RecordedMessage",
    "RecordingNotifier",
    "SeatView",
    "StreetAnnouncement",
    "TableClosedAnnouncement",
    "TableSnapshot",
]


@dataclass(frozen=True)
class StreetAnnouncement:
    """The flop, turn or river was dealt: `cards` new, `board` all; pots as they stand (main first).

    In an all-in run-out (issue 15): `run` 2 for the second board of a hand run twice; `odds` the chances of
    the hands turned face up after this street (`bot.poker.equity.runout_odds`; None on the river and when
    nobody is all-in), with `names` and `faces` (the players' names and face-up cards by hand player index).
    `face_up`: no street was dealt: the betting has just closed on `street` (preflop included) with the hands
    turned face up, `cards` is empty, `board` is the board as it stands and `odds` the chances from there.
    Derived from the hand, never stored (docs/outbox.md).
    """

    hand_number: int
    street: Street
    cards: tuple[Card, ...]
    board: tuple[Card, ...]
    pots: tuple[Pot, ...]
    run: int = 1
    odds: Odds | None = None
    names: tuple[str, ...] = ()
    faces: tuple[tuple[Card, ...], ...] = ()
    face_up: bool = False


@dataclass(frozen=True)
class PlayerAnnouncement:
    """Something about one player, by `kind`:

    "eliminated" (place set in tournaments), "timed_out" (action = "check"/"fold"; sat_out when it was
    the second in a row), "dm_refused" (hole cards could not be sent: use the My cards button),
    "left" (stood up; chips = stack cashed out), "joined" (seat, chips = stack), "sat_out", "sat_in",
    "kicked", "busted" (a cash player out of chips, unseated: how to buy in again), "rebuy" (made at the end of
    the hand it was asked in: chips added, stack the new stack), "rebuy_failed" (the balance no longer had
    `chips`), "leaving" (kicked during a hand: leaves when it ends), "auto_folded" (sitting out a tournament
    hand: folded), "forfeited" (left during a hand: folded at once, seat freed when the hand ends), "finished"
    (left, or was removed from, a started tournament with chips: `place`, the worst among players with chips),
    "run_twice" (an answer to "run it twice?", issue 15: action "yes", "yes_last" (the last yes: the board is run
    twice), "no" (one run), "timeout" (no answer in time: one run) or "left" (left the table while asked: one run)),
    "coach_dm_refused" (the coach's DM could not be sent, issue 17: the coach stays in My cards).
    Tournament chips never go to a balance: "left" and "kicked" carry chips only at cash tables.
    """

    kind: NoticeKind
    user_id: int
    name: str
    place: int | None = None
    action: str | None = None
    sat_out: bool = False
    seat: int | None = None
    chips: int | None = None
    stack: int | None = None


class Placing(NamedTuple):
    """One player's final place in a tournament: the place (1 = the winner), who, and their chips at the end
    (0 for a player eliminated earlier). A tuple, so it reads and stores as (place, user id, name, chips)."""

    place: int
    user_id: int
    name: str
    chips: int


@dataclass(frozen=True)
class TableClosedAnnouncement:
    """The table ended. cashed_out: (user id, name, chips) back to balances (cash tables); placings: the
    tournament's final places, in place order; voided_hand: the number of a hand that was refunded."""

    cashed_out: tuple[tuple[int, str, int], ...] = ()
    placings: tuple[Placing, ...] = ()
    voided_hand: int | None = None
    tournament_over: bool = False


@dataclass(frozen=True)
class LevelAnnouncement:
    """The blinds went up as a hand was dealt: `level` (1-based) with its blinds and ante (chips); the next
    level's (small blind, big blind, ante) and how many hands or minutes (`by`) until it, None at the last."""

    level: int
    small_blind: int
    big_blind: int
    ante: int
    next_level: tuple[int, int, int] | None
    next_in: int | None
    by: LevelBy


@dataclass(frozen=True)
class CardsShown:
    """A player showed cards by choice after hand `hand_number` (issue 15, bot/tables/shows.py): the public line
    "Alice shows A♠ K♦". cards: those shown this time (one or two), in the order they were dealt."""

    hand_number: int
    user_id: int
    name: str
    cards: tuple[Card, ...]


Announcement = (
    StreetAnnouncement | HandResult | PlayerAnnouncement | TableClosedAnnouncement | LevelAnnouncement | CardsShown
)


@dataclass(frozen=True)
class Picture:
    """An image that goes with a message (the picture of the table, bot.render.picture): PNG bytes and the file
    name it is attached as. Drawn when the message is delivered, from what the message says (never stored)."""

    data: bytes
    filename: str = "table.png"


@dataclass(eq=False)
class Carrier:
    """An accepted press of a table message's button, waiting to carry that message's next edit (docs/outbox.md,
    "A press answered by the table edit"): Discord lets a component interaction be answered by editing the
    message its button is on (interaction response UPDATE_MESSAGE), one REST call instead of an acknowledgement
    and an edit. The Discord layer builds it; the service only keeps it and hands it back to `Notifier`.

    interaction_id / token: the interaction to answer; message_id: the message the pressed button is on;
    arrived: when the press arrived, in the service clock's seconds (`Clock.time`). Discord forgets an
    interaction not answered within 3 s: a carrier not used within `delivery.CARRY_TIMEOUT_S` is answered with
    `Notifier.acknowledge` instead.

    Whoever answers it claims it first (`claim`, once): the table's delivery, or the Discord layer itself when the
    edit is slow to come (it acknowledges the press then, and the edit goes out as a plain one)."""

    interaction_id: int
    token: str
    message_id: int
    arrived: float
    claimed: bool = False

    def claim(self) -> bool:
        """Take the answer of this press: True the first time only (then the claimer must answer it)."""
        if self.claimed:
            return False
        self.claimed = True
        return True


class Notifier(Protocol):
    """Implemented by the Discord layer; the service calls it in order, one table at a time (but a hand's hole-card
    DMs, to one player each, which it sends together: `Delivery.queue_together`).

    Errors raised here are logged by the service and never undo game state (the state is already stored).
    """

    async def post_table(self, snapshot: TableSnapshot) -> int | None:
        """Post a new table message (a new hand, or /poker table); return its message id."""
        ...

    async def edit_table(self, snapshot: TableSnapshot, carrier: Carrier | None = None) -> None:
        """Edit the current table message (`snapshot.message_id`) in place. `carrier`: a press of a button of
        that very message, not yet answered: the edit is sent as that interaction's answer (UPDATE_MESSAGE),
        and as a plain edit when that answer is refused (the interaction expired); either way it is answered."""
        ...

    async def acknowledge(self, carrier: Carrier) -> None:
        """Answer a press that will carry no edit (another press carried it, its message was replaced, or no
        edit came in time): an acknowledgement that changes nothing (DEFERRED_UPDATE_MESSAGE). Failures are
        logged, never raised."""
        ...

    async def retire_table(self, snapshot: TableSnapshot, message_id: int, result: HandResult | None) -> None:
        """Edit table message `message_id`, which is no longer the live table, into its last form: one line, no
        buttons — the summary of its hand (`result`), or, when it was replaced before its hand ended (or
        showed no hand), a pointer to the newer message. Called once per message; it is never edited again."""
        ...

    async def announce(
        self,
        snapshot: TableSnapshot,
        announcement: Announcement,
        nonce: str | None = None,
        picture: Picture | None = None,
    ) -> None:
        """Post a public message about the table (street, showdown, elimination, end...). `nonce`: the outbox
        key of a message that may be delivered again after a restart: a second post with it must not make a
        second message (Discord's `nonce` with `enforce_nonce`). `picture`: the table's picture, attached to the
        message (streets and the showdown; never to the table message's edits)."""
        ...

    async def send_hole_cards(
        self,
        snapshot: TableSnapshot,
        user_id: int,
        cards: tuple[Card, ...],
        nonce: str | None = None,
        proofs: tuple[str, ...] = (),
    ) -> bool:
        """Send a player their hole cards privately (DM); False if the DM was refused. `nonce`: as `announce`.
        `proofs`: the tokens proving these cards against the hand's sealed deck (`bot.poker.seal`), in the DM."""
        ...

    async def reply(self, application_id: int, token: str, text: str) -> None:
        """Answer a deferred interaction (edit its original response: doing it twice shows it once). `text`
        is already rendered in the member's language."""
        ...

    async def send_coach(
        self, snapshot: TableSnapshot, user_id: int, facts: CoachFacts, nonce: str | None = None
    ) -> bool:
        """Send a member the coach's facts for their turn privately (DM, in their language; issue 17, `/poker
        coach mode:dm`); False if the DM was refused. `nonce`: as `announce` (one DM per turn)."""
        ...


@dataclass
class RecordedMessage:
    """A table message as the channel shows it now (RecordingNotifier's model of Discord's messages).

    snapshot: the last picture posted or edited onto it; buttons: it carries live buttons (a hand being
    played, `TableSnapshot.has_buttons`) — False once retired; retired: edited into its one-line last form
    (`result`: the hand summarised there, None for "moved to a newer message"); edits_after_retired: edits
    that reached it after that (a bug: a retired message must never show a table again)."""

    message_id: int
    snapshot: TableSnapshot
    buttons: bool
    retired: bool = False
    result: HandResult | None = None
    edits_after_retired: int = 0


@dataclass
class RecordingNotifier:
    """A Notifier that remembers every call, for tests and for running without Discord — and models the table
    messages as the channel would show them (`messages`): which exist, which one is live (the last posted),
    what each shows, and whether it still carries live buttons (`with_live_buttons`)."""

    posted: list[TableSnapshot] = field(default_factory=list)
    snapshots: list[TableSnapshot] = field(default_factory=list)
    edits: list[TableSnapshot] = field(default_factory=list)
    announcements: list[Announcement] = field(default_factory=list)
    #: The pictures attached to announcements: (the announcement, its picture), in order; and the snapshot each
    #: was announced with (`picture_snapshots[i]` goes with `pictures[i]`).
    pictures: list[tuple[Announcement, Picture]] = field(default_factory=list)
    picture_snapshots: list[TableSnapshot] = field(default_factory=list)
    hole_cards: list[tuple[int, int, tuple[Card, ...]]] = field(default_factory=list)
    #: The seal proofs sent with the hole cards, by (hand number, user id).
    hole_proofs: dict[tuple[int, int], tuple[str, ...]] = field(default_factory=dict)
    #: The coach's DMs: (hand number, user id, facts), once per nonce.
    coach_dms: list[tuple[int, int, CoachFacts]] = field(default_factory=list)
    #: Answers to deferred interactions: (interaction token, text); one per token (a second edit replaces it).
    replies: dict[str, str] = field(default_factory=dict)
    #: Nonces of the posts made, as Discord keeps them: a post repeating one makes no second message.
    nonces: set[str] = field(default_factory=set)
    refuse_dms: set[int] = field(default_factory=set)
    next_message_id: int = 1000
    messages: dict[int, RecordedMessage] = field(default_factory=dict)
    live_message_id: int | None = None
    #: How each press handed over as a `Carrier` was answered, by interaction id, in order: "update" (it carried
    #: an edit of its message) or "ack" (`acknowledge`). Exactly one answer each, or Discord refuses the second.
    answers: dict[int, list[str]] = field(default_factory=dict)
    #: Carriers used for an edit of another message than the one their button is on (a bug).
    misdirected: list[Carrier] = field(default_factory=list)

    async def post_table(self, snapshot: TableSnapshot) -> int | None:
        """Record the snapshot as a new message (now the live one); return its fake message id."""
        self.posted.append(snapshot)
        self.snapshots.append(snapshot)
        self.next_message_id += 1
        message_id = self.next_message_id
        self.messages[message_id] = RecordedMessage(message_id, snapshot, snapshot.has_buttons)
        self.live_message_id = message_id
        return message_id

    async def edit_table(self, snapshot: TableSnapshot, carrier: Carrier | None = None) -> None:
        """Record the snapshot and draw it on message `snapshot.message_id` (an unknown id changes nothing);
        `carrier`: recorded as answered by this edit ("update")."""
        if carrier is not None:
            self.answers.setdefault(carrier.interaction_id, []).append("update")
            if carrier.message_id != snapshot.message_id:
                self.misdirected.append(carrier)
        self.edits.append(snapshot)
        self.snapshots.append(snapshot)
        message = self.messages.get(snapshot.message_id) if snapshot.message_id is not None else None
        if message is not None:
            if message.retired:
                message.edits_after_retired += 1
            message.snapshot = snapshot
            message.buttons = snapshot.has_buttons

    async def retire_table(self, snapshot: TableSnapshot, message_id: int, result: HandResult | None) -> None:
        """Turn message `message_id` into its one-line last form: no buttons, `result` kept."""
        message = self.messages.get(message_id)
        if message is not None:
            message.retired = True
            message.buttons = False
            message.result = result
        if self.live_message_id == message_id:
            self.live_message_id = None

    async def acknowledge(self, carrier: Carrier) -> None:
        """Record the press as answered by an acknowledgement ("ack")."""
        self.answers.setdefault(carrier.interaction_id, []).append("ack")

    def with_live_buttons(self) -> list[int]:
        """Ids of the messages that carry live buttons now (at most the live table's, when a hand is played)."""
        return [m.message_id for m in self.messages.values() if m.buttons]

    @property
    def live(self) -> RecordedMessage | None:
        """The live table message (the last posted, unless it was retired)."""
        return self.messages.get(self.live_message_id) if self.live_message_id is not None else None

    def _seen(self, nonce: str | None) -> bool:
        if nonce is None:
            return False
        seen = nonce in self.nonces
        self.nonces.add(nonce)
        return seen

    async def announce(
        self,
        snapshot: TableSnapshot,
        announcement: Announcement,
        nonce: str | None = None,
        picture: Picture | None = None,
    ) -> None:
        """Record the announcement and its picture (once per nonce)."""
        if not self._seen(nonce):
            self.announcements.append(announcement)
            if picture is not None:
                self.pictures.append((announcement, picture))
                self.picture_snapshots.append(snapshot)

    async def send_hole_cards(
        self,
        snapshot: TableSnapshot,
        user_id: int,
        cards: tuple[Card, ...],
        nonce: str | None = None,
        proofs: tuple[str, ...] = (),
    ) -> bool:
        """Record the cards (hand number, user, cards) and their proofs, once per nonce; refuse for users in
        `refuse_dms`."""
        if user_id in self.refuse_dms:
            return False
        if not self._seen(nonce):
            self.hole_cards.append((snapshot.hand_number, user_id, cards))
            self.hole_proofs[(snapshot.hand_number, user_id)] = proofs
        return True

    async def send_coach(
        self, snapshot: TableSnapshot, user_id: int, facts: CoachFacts, nonce: str | None = None
    ) -> bool:
        """Record the coach's DM (hand number, user, facts) once per nonce; refuse for users in `refuse_dms`."""
        if user_id in self.refuse_dms:
            return False
        if not self._seen(nonce):
            self.coach_dms.append((snapshot.hand_number, user_id, facts))
        return True

    async def reply(self, application_id: int, token: str, text: str) -> None:
        """Record the answer to the interaction `token`."""
        self.replies[token] = text

    @property
    def last(self) -> TableSnapshot:
        """The latest snapshot posted or edited."""
        return self.snapshots[-1]
