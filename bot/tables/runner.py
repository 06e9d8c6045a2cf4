"""One table's orchestration: seats, the current hand, the turn timer and the next-hand scheduler, under one lock.

Everything that changes a table — a command, a button press, a timer expiry, the next deal — runs under
`TableRunner.lock`, so two presses at the same instant give one action and one refusal. Every action is
appended to the hand's record in storage before anything is announced (docs/architecture.md, "The hand is its
history"); announcements go through an ordered outbox so that slow Discord calls never hold the lock,
and consecutive table-message edits are merged into one.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import logging
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from bot.poker import (
    ActionKind,
    BlindLevel,
    BlindPosted,
    BlindSchedule,
    Hand,
    HandEnded,
    HandMucked,
    HandRecord,
    HandSettings,
    HandShown,
    HoleCardsDealt,
    LegalActions,
    PlayerActed,
    PokerError,
    PotAwarded,
    Street,
    StreetDealt,
    Table,
    TableConfig,
)
from bot.render.announce import hand_result_from_events
from bot.render.i18n import t
from bot.storage import (
    HandRow,
    InsufficientBalance,
    LedgerKind,
    OutboxRow,
    PlayerOutcome,
    Storage,
    TableRow,
)
from bot.tables.clock import Clock
from bot.tables.errors import ServiceError
from bot.tables.notifier import (
    Announcement,
    HandResultAnnouncement,
    LevelAnnouncement,
    Notifier,
    PlayerAnnouncement,
    SeatView,
    StreetAnnouncement,
    TableClosedAnnouncement,
    TableSnapshot,
)
from bot.tables.options import CASH, TOURNAMENT, TableOptions
from bot.tables.outbox import (
    REPLY_TOKEN_LIFETIME_S,
    InteractionReply,
    Owed,
    decode_announcement,
    decode_cards,
    encode_announcement,
    encode_cards,
    new_key,
)

log = logging.getLogger(__name__)

#: Timer expiries in a row after which a player is sat out (issue 4).
EXPIRIES_BEFORE_SIT_OUT = 2
#: Extra seconds given to the player to act when a turn is restored after a restart.
RESTORE_GRACE = 15.0
#: Public events kept in the snapshot for "last actions".
RECENT_EVENTS = 40

#: Pauses (seconds) before a table whose storage failed is read again from storage and resumed; the last repeats.
FAULT_RETRY_DELAYS_S = (0.5, 1.0, 2.0, 4.0, 8.0)
#: Seconds given to the player to act when a table resumes after a storage fault (their time had already run).
FAULT_RESUME_GRACE = 2.0
#: Seconds a storage write may take before the runner gives up waiting (a hung disk): the change is undone in
#: memory and the table read again from storage later, since the write may still land.
WRITE_TIMEOUT_S = 5.0

RngFactory = Callable[[], random.Random | None]
T = TypeVar("T")


@dataclass
class _Memento:
    """The runner's state as last committed: what a failed write puts back (see `TableRunner._commit`)."""

    table: dict[str, Any]
    names: dict[int, str]
    hand: Hand | None
    hand_id: int | None
    hand_number: int
    hand_seats: tuple[int, ...]
    hand_users: tuple[int, ...]
    expiries: dict[int, int]
    leaving: set[int]
    kicked: set[int]
    away: set[int]
    rebuys: dict[int, int]
    hand_level: int | None
    running: bool
    started_at: float | None
    language: str
    options: TableOptions
    closed: bool


@dataclass
class _Outbox:
    """Ordered delivery of announcements; table-message edits are merged into the latest snapshot."""

    notifier: Notifier
    queue: asyncio.Queue[Callable[[], Awaitable[None]] | None] = field(default_factory=asyncio.Queue)
    task: asyncio.Task[None] | None = None
    pending_edit: bool = False
    #: Counts table messages posted: a queued edit meant for an earlier message is dropped, not rendered there.
    generation: int = 0

    def start(self) -> None:
        if self.task is None:
            self.task = asyncio.create_task(self._work(), name="table-outbox")

    def put(self, job: Callable[[], Awaitable[None]]) -> None:
        self.queue.put_nowait(job)

    async def _work(self) -> None:
        while True:
            job = await self.queue.get()
            if job is None:
                return
            try:
                await job()
            except Exception:
                log.exception("table notification failed")

    async def drain(self) -> None:
        """Wait until everything queued so far is delivered."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        async def mark() -> None:
            done.set_result(None)

        self.put(mark)
        await done

    async def stop(self) -> None:
        if self.task is not None:
            self.queue.put_nowait(None)
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None


class TableRunner:
    """The live state of one table (one channel) and every operation on it.

    Users are Discord user ids (ints); chips are ints. Public methods take the lock, check, persist,
    apply, then queue the announcements; a refused call raises `PokerError` (a `ServiceError` or an engine
    error) and changes nothing.
    """

    def __init__(
        self,
        *,
        storage: Storage,
        notifier: Notifier,
        clock: Clock,
        rng_factory: RngFactory,
        table_id: int,
        guild_id: int,
        channel_id: int,
        host_id: int,
        options: TableOptions,
        language: str = "en",
        on_closed: Callable[[TableRunner], None] | None = None,
        write_timeout_s: float = WRITE_TIMEOUT_S,
    ) -> None:
        self.storage = storage
        self.clock = clock
        self.rng_factory = rng_factory
        self.table_id = table_id
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.host_id = host_id
        self.options = options
        self.language = language
        self.lock = asyncio.Lock()
        self.table = Table(self._table_config(options))
        self.names: dict[int, str] = {}
        self.hand: Hand | None = None
        self.hand_id: int | None = None
        self.hand_number = 0
        self.hand_seats: tuple[int, ...] = ()
        self.hand_users: tuple[int, ...] = ()
        self.deadline: float | None = None
        self.expiries: dict[int, int] = {}
        self.leaving: set[int] = set()
        self.kicked: set[int] = set()
        self.away: set[int] = set()
        #: Rebuys asked during a hand, made when it ends: user id -> chips (issue 11 item 7).
        self.rebuys: dict[int, int] = {}
        #: The blind level (0-based schedule index) of the last hand dealt; None before the first or unscheduled.
        self.hand_level: int | None = None
        self.dm_refused: set[int] = set()
        self.running = False
        self.started_at: float | None = None
        self.message_id: int | None = None
        self.closed = False
        self._turn = 0
        self._timer: asyncio.Task[None] | None = None
        self._next_hand: asyncio.Task[None] | None = None
        self.next_hand_at: float | None = None
        self._outbox = _Outbox(notifier)
        self._on_closed = on_closed
        self.write_timeout_s = write_timeout_s
        self._stale = False  # a write timed out: storage may hold more than memory until `_reload`
        self._owed: list[Owed] = []  # what the change being computed owes, stored with its next write
        self._committed: _Memento | None = None
        self._inflight: set[str] = set()  # outbox keys queued for delivery and not yet delivered
        self._resume: asyncio.Task[None] | None = None
        self._delivered: list[str] = []  # outbox keys delivered, to mark in storage
        self._marking: asyncio.Task[None] | None = None
        self._stopping = False

    # ------------------------------------------------------------------ setup

    @staticmethod
    def _table_config(options: TableOptions) -> TableConfig:
        settings = HandSettings(
            small_blind=options.small_blind,
            big_blind=options.big_blind,
            ante=options.ante,
            big_blind_ante=options.big_blind_ante,
            straddle=options.straddle,
        )
        schedule = None
        if options.blind_levels:
            schedule = BlindSchedule(
                levels=tuple(BlindLevel(*level) for level in options.blind_levels),
                by="minutes" if options.level_by == "minutes" else "hands",
                length=options.level_length,
            )
        return TableConfig(settings=settings, seat_count=options.seats, schedule=schedule)

    def start(self) -> None:
        """Start the outbox worker (call once the runner is registered, inside the event loop)."""
        self._outbox.start()

    async def shutdown(self) -> None:
        """Stop the timers and deliver what is queued; the table stays open in storage (restored at start)."""
        self._stopping = True
        for task in (self._timer, self._next_hand, self._resume):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        self._timer = self._next_hand = self._resume = None
        await self._outbox.stop()
        if self._marking is not None:
            await asyncio.gather(self._marking, return_exceptions=True)

    async def drain(self) -> None:
        """Wait until every announcement queued so far is delivered, and marked so in storage (tests, shutdown)."""
        await self._outbox.drain()
        if self._marking is not None:
            await asyncio.gather(self._marking, return_exceptions=True)

    # ------------------------------------------------------------------ state saved with the table

    def state_json(self) -> dict[str, Any]:
        """The runner's state beyond seats and stacks (which storage keeps in table_seats)."""
        return {
            "table": self.table.to_json(),
            "names": {str(k): v for k, v in self.names.items()},
            "hand_number": self.hand_number,
            "expiries": {str(k): v for k, v in self.expiries.items()},
            "leaving": sorted(self.leaving),
            "kicked": sorted(self.kicked),
            "away": sorted(self.away),
            "rebuys": {str(k): v for k, v in sorted(self.rebuys.items())},
            "hand_level": self.hand_level,
            "running": self.running,
            "started_at": self.started_at,
            "language": self.language,
        }

    async def _save(self) -> None:
        """Store the runner's state with what the change owes (one transaction)."""
        await self._commit(
            lambda state, rows: self.storage.save_table_state(self.table_id, state, self.message_id, outbox=rows)
        )

    # ------------------------------------------------------------------ commit: what is told is what is stored

    def _memento(self) -> _Memento:
        return _Memento(
            table=self.table.to_json(),
            names=dict(self.names),
            hand=self.hand,
            hand_id=self.hand_id,
            hand_number=self.hand_number,
            hand_seats=self.hand_seats,
            hand_users=self.hand_users,
            expiries=dict(self.expiries),
            leaving=set(self.leaving),
            kicked=set(self.kicked),
            away=set(self.away),
            rebuys=dict(self.rebuys),
            hand_level=self.hand_level,
            running=self.running,
            started_at=self.started_at,
            language=self.language,
            options=self.options,
            closed=self.closed,
        )

    def _rollback(self) -> None:
        """Put memory back as it was at the last successful write and forget what the failed change owed."""
        self._owed.clear()
        m = self._committed
        if m is None:
            return
        self.table = Table.from_json(m.table)
        if m.hand is not None:
            self.table.resume_hand(m.hand, m.hand_seats)
        self.names, self.expiries = dict(m.names), dict(m.expiries)
        self.hand, self.hand_id, self.hand_number = m.hand, m.hand_id, m.hand_number
        self.hand_seats, self.hand_users = m.hand_seats, m.hand_users
        self.leaving, self.kicked, self.away = set(m.leaving), set(m.kicked), set(m.away)
        self.rebuys, self.hand_level = dict(m.rebuys), m.hand_level
        self.running, self.started_at, self.language = m.running, m.started_at, m.language
        self.options, self.closed = m.options, m.closed

    @contextlib.asynccontextmanager
    async def _operation(self) -> AsyncIterator[None]:
        """One change of the table, under the lock. If it fails (a refusal, or storage) memory goes back to what
        storage holds (`_rollback`) and nothing it owed is told; after a storage failure the table is read
        again from storage and resumed a little later (`_resume_later`), so that it never hangs. Until then,
        after a write that timed out (it may still land), every change is refused: ServiceError
        ("table_recovering")."""
        async with self.lock:
            if self._stale:
                raise ServiceError("table_recovering")
            self._owed.clear()
            self._committed = self._memento()
            try:
                yield
            except PokerError:
                self._rollback()
                raise
            except BaseException:
                self._rollback()
                self._resume_later()
                raise

    async def _commit(
        self, write: Callable[[dict[str, Any], list[dict[str, Any]]], Awaitable[T]], *, carries: bool = True
    ) -> T:
        """Run one storage write of the change being computed. `write(state, rows)` stores the runner's state
        and the outbox rows owed so far in its own transaction (`carries=False`: a hand action on the fast path,
        which stores neither: what it owes is only what can be derived again: street lines, notices). On
        success what was owed is queued for delivery and memory is the new committed state; on failure memory
        goes back to the last committed state and the failure is raised. A write that takes longer than
        `write_timeout_s` raises TimeoutError (it may still land: `_operation` has the table read again)."""
        owed, self._owed = self._owed, []
        state = self.state_json() if carries else {}
        rows = [o.row() for o in owed if o.payload is not None] if carries else []
        try:
            async with asyncio.timeout(self.write_timeout_s):
                result = await write(state, rows)
        except BaseException as exc:
            if isinstance(exc, TimeoutError):
                self._stale = True  # the write may still land: nothing may change until storage is read again
            self._rollback()
            raise
        self._committed = self._memento()
        for item in owed:
            self._queue(item, durable=carries and item.payload is not None)
        return result

    def _release_derived(self) -> None:
        """Tell now what the action just stored owes and is not stored itself (street lines)."""
        for item in [o for o in self._owed if o.payload is None]:
            self._owed.remove(item)
            self._queue(item, durable=False)

    def _queue(self, owed: Owed, *, durable: bool) -> None:
        if durable:
            self._inflight.add(owed.key)

        async def deliver() -> None:
            try:
                await self._deliver(owed, durable=durable)
            finally:
                self._inflight.discard(owed.key)

        self._outbox.put(deliver)

    async def _deliver(self, owed: Owed, *, durable: bool) -> None:
        """Send one owed message; a stored one is then marked delivered (a failure to send leaves it for the
        next start). Posts carry the row's key as nonce, so a second delivery makes no second message."""
        notifier = self._outbox.notifier
        payload = owed.payload or {}
        nonce = owed.key if durable else None
        kind = payload.get("type")
        if kind == "hole_cards":
            user = int(payload["user_id"])
            cards = decode_cards(payload["cards"])
            delivered = await notifier.send_hole_cards(owed.snapshot, user, cards, nonce=nonce)
            if delivered:
                self.dm_refused.discard(user)
            elif user not in self.dm_refused:
                self.dm_refused.add(user)
                notice = PlayerAnnouncement("dm_refused", user, self._name(user))
                await notifier.announce(owed.snapshot, notice, nonce=None if nonce is None else nonce + "r")
        elif kind == "closed_table":
            # Only if it is still the table's message (a message retired meanwhile has no buttons, and is final).
            if self.message_id == int(payload["message_id"]):
                await notifier.edit_table(dataclasses.replace(owed.snapshot, message_id=self.message_id))
        elif kind == "reply":
            if time.time() - float(payload["created_at"]) < REPLY_TOKEN_LIFETIME_S:
                text = t(str(payload["key"]), str(payload["locale"]), **dict(payload["params"]))
                await notifier.reply(int(payload["application_id"]), str(payload["token"]), text)
        elif owed.announcement is not None:
            await notifier.announce(owed.snapshot, owed.announcement, nonce=nonce)
        if durable:
            self._mark_delivered(owed.key)

    def _mark_delivered(self, key: str) -> None:
        """Mark a delivered row, in the background and in batches (delivery does not wait for the database)."""
        self._delivered.append(key)
        if self._marking is None or self._marking.done():
            self._marking = asyncio.create_task(self._write_delivered(), name=f"outbox-marks-{self.channel_id}")

    async def _write_delivered(self) -> None:
        while self._delivered:
            keys, self._delivered = self._delivered, []
            try:
                await self.storage.mark_delivered(keys)
            except Exception:
                log.warning(
                    "table %s: could not mark %s outbox rows delivered", self.table_id, len(keys), exc_info=True
                )
                return

    def _resume_later(self) -> None:
        """After a storage failure: read the table again from storage and resume it (timer re-armed, hand
        finished, next deal scheduled), after a short pause, retried with a growing pause until storage answers."""
        if self._stopping or (self._resume is not None and not self._resume.done()):
            return

        async def resume() -> None:
            for attempt in itertools.count():
                delay = FAULT_RETRY_DELAYS_S[min(attempt, len(FAULT_RETRY_DELAYS_S) - 1)]
                await self.clock.sleep_until(self.clock.time() + delay)
                try:
                    async with self.lock:
                        self._owed.clear()
                        await self._reload()
                    return
                except Exception:
                    log.warning("table %s: storage still failing, resuming later", self.table_id, exc_info=True)

        self._resume = asyncio.create_task(resume(), name=f"table-resume-{self.channel_id}")

    async def _reload(self) -> None:
        """Make memory what storage holds (after a failure whose outcome may be unknown, e.g. a timeout), then
        deliver what storage says is owed and not yet delivered."""
        async with asyncio.timeout(self.write_timeout_s):
            row = await self.storage.table(self.table_id)
        if row is None or row.status != "open":
            self._mark_closed()
            return
        self._cancel_timer()
        self.hand, self.hand_id, self.hand_seats, self.hand_users = None, None, (), ()
        await self.restore(row, grace=FAULT_RESUME_GRACE)
        self._stale = False
        await self.deliver_pending()

    # ------------------------------------------------------------------ lookups

    def _seat_of(self, user_id: int) -> int | None:
        for seat, occupant in self.table.seats.items():
            if occupant.player_id == user_id:
                return seat
        return None

    def _require_seat(self, user_id: int) -> int:
        seat = self._seat_of(user_id)
        if seat is None:
            raise ServiceError("not_seated")
        return seat

    def _player_of(self, user_id: int) -> int | None:
        if self.hand is None:
            return None
        try:
            return self.hand_users.index(user_id)
        except ValueError:
            return None

    def _name(self, user_id: int) -> str:
        return self.names.get(user_id, str(user_id))

    def player_names(self) -> tuple[str, ...]:
        """Display names of the current hand's players by hand player index (empty between hands)."""
        return tuple(self._name(u) for u in self.hand_users)

    def legal_actions_for(self, user_id: int) -> LegalActions | None:
        """The user's options if it is their turn, else None."""
        player = self._player_of(user_id)
        if self.hand is None or player is None or self.hand.actor != player:
            return None
        return self.hand.legal_actions()

    def hole_cards(self, user_id: int) -> tuple[Any, ...]:
        """The user's hole cards in the current hand. Raises ServiceError("no_hand" / "not_in_hand")."""
        if self.hand is None:
            raise ServiceError("no_hand")
        player = self._player_of(user_id)
        if player is None:
            raise ServiceError("not_in_hand")
        return tuple(self.hand.hole_cards[player])

    # ------------------------------------------------------------------ snapshot

    def snapshot(self) -> TableSnapshot:
        """A public picture of the table now (no hole cards)."""
        hand = self.hand
        seats: list[SeatView] = []
        actor_user = None
        legal = None
        if hand is not None and hand.actor is not None:
            actor_user = self.hand_users[hand.actor]
            legal = hand.legal_actions()
        blinds = {
            e.player: e.kind
            for e in (hand.events if hand is not None else ())
            if isinstance(e, BlindPosted) and e.kind in ("small_blind", "big_blind")
        }
        for seat, occupant in sorted(self.table.seats.items()):
            user = occupant.player_id
            player = self._player_of(user)
            bet = 0
            stack = occupant.stack
            if hand is not None and player is not None:
                stack = hand.stacks[player]
                bet = hand.bets[player]
                if hand.folded[player]:
                    state = "folded"
                elif hand.all_in[player]:
                    state = "all_in"
                else:
                    state = "active"
            elif user in self.away or occupant.sitting_out:
                state = "sitting_out"
            else:
                state = "waiting"
            seats.append(
                SeatView(
                    seat=seat,
                    user_id=user,
                    name=self._name(user),
                    stack=stack,
                    bet=bet,
                    state=state,
                    is_button=seat == self.table.button,
                    is_actor=user == actor_user,
                    leaving=user in self.leaving or user in self.kicked,
                    player=player,
                    blind=blinds.get(player) if player is not None else None,
                )
            )
        if hand is not None:
            settings = hand.settings
            small, big, ante = settings.small_blind, settings.big_blind, settings.ante
            events = tuple(e for e in hand.events if not isinstance(e, HoleCardsDealt))[-RECENT_EVENTS:]
            names = tuple(self._name(u) for u in self.hand_users)
            street = hand.street if not hand.is_complete else Street.COMPLETE
            pots = hand.pots()
            board = hand.board
        else:  # between hands: the blinds the next hand will use (once closed: the last hand's)
            schedule = self.table.config.schedule
            if self.closed and schedule is not None and self.hand_level is not None:
                level = schedule.levels[self.hand_level]
            else:
                level = self.table.current_level(self._level_clock())
            small, big, ante = level.small_blind, level.big_blind, level.ante
            events, names, street, pots, board = (), (), None, (), ()
        return TableSnapshot(
            table_id=self.table_id,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            host_id=self.host_id,
            kind=self.options.kind,
            language=self.language,
            hand_number=self.hand_number,
            small_blind=small,
            big_blind=big,
            ante=ante,
            seats=tuple(seats),
            board=tuple(board),
            pots=tuple(pots),
            street=street,
            actor_user_id=actor_user,
            deadline=self.deadline if actor_user is not None else None,
            legal=legal,
            names=names,
            events=events,
            running=self.running,
            max_seats=self.options.seats,
            message_id=self.message_id,
            next_hand_at=self.next_hand_at if hand is None and not self.closed else None,
            closed=self.closed,
            **self._level_view(),
            **self._tournament_view(),
            waiting=self._waiting_for() if hand is None and not self.closed else None,
        )

    def _level_index(self) -> int | None:
        """The schedule index of the level in force: the hand being played's (or, closed, the last played's),
        else the next hand's; None without a schedule."""
        schedule = self.table.config.schedule
        if schedule is None:
            return None
        if self.hand is not None or self.closed:
            return self.hand_level
        return schedule.level_index(self.table.hands_played, self._level_clock())

    def _level_view(self) -> dict[str, Any]:
        """The snapshot's level fields (issue 11 item 4): level number, the next level and when it starts."""
        schedule = self.table.config.schedule
        index = self._level_index()
        if schedule is None or index is None:
            return {}
        view: dict[str, Any] = {"level": index + 1, "level_by": schedule.by}
        if index + 1 < len(schedule.levels) and not self.closed:
            nxt = schedule.levels[index + 1]
            view["next_level"] = (nxt.small_blind, nxt.big_blind, nxt.ante)
            view["next_level_in"] = self._next_level_in(index)
        return view

    def _next_level_in(self, index: int) -> int:
        """Hands to be dealt before level `index + 1` starts (the one being played counts), or whole minutes."""
        schedule = self.table.config.schedule
        assert schedule is not None
        if schedule.by == "hands":
            played = self.table.hands_played - (1 if self.hand is not None else 0)
            return max((index + 1) * schedule.length - played, 1)
        seconds = (index + 1) * schedule.length * 60 - self._level_clock()
        return max(int(-(-seconds // 60)), 1)

    def _tournament_view(self) -> dict[str, Any]:
        """A tournament's players left (with chips) and their average stack. During a hand the seats keep their
        stacks from its start (the chips in play are the same: a hand moves chips only between its players)."""
        if self.options.kind != TOURNAMENT:
            return {}
        alive = [occupant.stack for occupant in self.table.seats.values() if occupant.stack > 0]
        if not alive:
            return {"players_left": 0}
        return {"players_left": len(alive), "average_stack": sum(alive) // len(alive)}

    def _waiting_for(self) -> str | None:
        """Between hands: what the table waits for before it can deal (see `TableSnapshot.waiting`)."""
        with_chips = [occupant for occupant in self.table.seats.values() if occupant.stack > 0]
        if len(with_chips) < 2:
            return "second_player" if with_chips else "players"
        active = len(self.table.active_seats())  # not can_start_hand(): False too while a hand is being dealt
        if active < 2:
            return "others_sitting_out" if active else "sitting_in"
        return None if self.running else "start"

    # ------------------------------------------------------------------ outbox helpers

    def _announce(self, announcement: Announcement) -> None:
        """Owe the channel a message (told once the change is stored, see `_commit`). Player and table-closed
        notices are stored as such; a hand's result by its number (built again from the stored hand if need be);
        a street line is not stored (the table message shows the board)."""
        payload: dict[str, Any] | None
        if isinstance(announcement, PlayerAnnouncement | TableClosedAnnouncement | LevelAnnouncement):
            payload = {"type": "announce", "announcement": encode_announcement(announcement)}
        elif isinstance(announcement, StreetAnnouncement):
            payload = None
        else:
            payload = {"type": "hand_result", "hand_number": announcement.hand_number}
        self._owed.append(Owed(new_key(), payload, self.snapshot(), announcement))

    def _refresh(self) -> None:
        """Queue an edit of the table message; several queued edits become one, with the latest picture."""
        if self._outbox.pending_edit:
            return
        self._outbox.pending_edit = True
        notifier = self._outbox.notifier
        generation = self._outbox.generation

        async def edit() -> None:
            if generation != self._outbox.generation:
                return  # a new table message replaced the one this edit was for
            # The picture is taken with the lock free: then no change is half made (computed, not yet stored).
            async with self.lock:
                if generation != self._outbox.generation:
                    return
                self._outbox.pending_edit = False
                snap = self.snapshot()
                summarised = self.hand is None and (self.closed or self.next_hand_at is not None)
            if snap.message_id is None:
                if summarised:
                    return  # the last hand's message was summarised: the next deal (or the end notice) follows
                await self._posted(await notifier.post_table(snap))
            else:
                await notifier.edit_table(snap)

        self._outbox.put(edit)

    def _retire_message(self, result: HandResultAnnouncement | None, *, showed_hand: bool = True) -> None:
        """Queue the end of the live table message as a table (issue 11 items 1, 11): it becomes one line without
        buttons — `result`, the summary of its hand, or None: "moved to a newer message" (naming the hand
        being played unless `showed_hand` is False: the message showed the table between hands) — and is never
        edited again (edits still queued for it are dropped); the table has no message until the next is
        posted. Once per hand at most (the hand's end), so an action still costs one table edit."""
        notifier = self._outbox.notifier
        self._outbox.pending_edit = False
        self._outbox.generation += 1
        snap = self.snapshot()
        if not showed_hand:
            snap = replace(snap, hand_number=0)

        async def retire() -> None:
            message_id = self.message_id  # known by now: the job that posted it ran before this one
            if message_id is None:
                return
            self.message_id = None
            try:
                if not self.closed:  # a closed table keeps no message to redraw
                    await self.storage.set_table_message(self.table_id, None)
            except Exception:
                log.exception("could not forget the table message id of table %s", self.table_id)
            await notifier.retire_table(snap, message_id, result)

        self._outbox.put(retire)

    def _post_table(self, *, replaces_hand: bool) -> None:
        """Queue a new table message (a new hand, or /poker table); later edits go to it. The message it replaces,
        if any, is retired first (`_retire_message`), so no edit meant for it lands on the new one and no old
        message keeps live buttons. replaces_hand: the replaced message showed the hand being played (a
        /poker table during a hand), not the table between hands (a new deal replaces only such a message)."""
        notifier = self._outbox.notifier
        self._retire_message(None, showed_hand=replaces_hand)

        async def post() -> None:
            async with self.lock:  # a picture of what is stored (see `_refresh`)
                snap = self.snapshot()
            await self._posted(await notifier.post_table(snap))

        self._outbox.put(post)

    async def _posted(self, message_id: int | None) -> None:
        """A table message was posted (its id, stored for restarts), or the post failed (None): then the old
        message is forgotten so that the next refresh posts the table again rather than editing the previous
        hand's message."""
        self.message_id = message_id
        if message_id is not None:
            try:
                await self.storage.set_table_message(self.table_id, message_id)
            except Exception:
                log.exception("could not store the table message id of table %s", self.table_id)

    async def opened(self) -> TableSnapshot:
        """A new table: store its state and post its first table message."""
        async with self._operation():
            await self._save()
            self._post_table(replaces_hand=False)
            return self.snapshot()

    async def set_language(self, language: str) -> None:
        """Speak `language` ("en"/"fr") in this table's public messages from now on (stored for restarts)."""
        async with self._operation():
            self.language = language
            await self._save()
            self._refresh()

    async def repost(self) -> None:
        """/poker table: post the table message again (the new one is edited from now on)."""
        async with self.lock:
            self._post_table(replaces_hand=self.hand is not None)

    # ------------------------------------------------------------------ seating

    def _check_open(self) -> None:
        if self.closed:
            raise ServiceError("table_closed")

    def _free_seats(self) -> list[int]:
        return [s for s in range(1, self.options.seats + 1) if s not in self.table.seats]

    async def join(self, user_id: int, name: str, seat: int | None = None, buy_in: int | None = None) -> int:
        """Sit a member down; returns the seat. Cash tables buy in from the balance (between the table's
        min and max, default `options.buy_in`); tournaments give `options.starting_stack` and refuse
        entries after the first hand. Raises ServiceError: already_seated, seat_taken, seat_out_of_range,
        table_full, buy_in_range, insufficient_balance, tournament_started. A join that cannot be stored
        changes nothing and is not announced."""
        async with self._operation():
            self._check_open()
            current = self._seat_of(user_id)
            if current is not None:
                raise ServiceError("already_seated", seat=current)
            free = self._free_seats()
            if not free:
                raise ServiceError("table_full", seats=self.options.seats)
            if seat is None:
                seat = free[0]
            elif not 1 <= seat <= self.options.seats:
                raise ServiceError("seat_out_of_range", seats=self.options.seats)
            elif seat not in free:
                raise ServiceError("seat_taken", seat=seat, free=", ".join(map(str, free)))
            if self.options.kind == TOURNAMENT:
                if self.hand_number > 0:
                    raise ServiceError("tournament_started")
                if buy_in is not None and buy_in != self.options.starting_stack:
                    raise ServiceError("tournament_stack", stack=self.options.starting_stack)
                stack = self.options.starting_stack
            else:
                stack = self.options.buy_in if buy_in is None else buy_in
                if not self.options.min_buy_in <= stack <= self.options.max_buy_in:
                    raise ServiceError("buy_in_range", min=self.options.min_buy_in, max=self.options.max_buy_in)
            self.table.sit(seat, user_id, stack)
            self.names[user_id] = name
            self.expiries.pop(user_id, None)
            self._announce(PlayerAnnouncement("joined", user_id, name, seat=seat, chips=stack))
            if self.options.kind == TOURNAMENT:
                await self._commit(
                    lambda state, rows: self.storage.join_tournament(
                        self.table_id, user_id, seat, stack, state=state, outbox=rows
                    )
                )
            else:
                try:
                    await self._commit(
                        lambda state, rows: self.storage.buy_in(
                            self.table_id, self.guild_id, user_id, seat, stack, state=state, outbox=rows
                        )
                    )
                except InsufficientBalance as exc:
                    raise ServiceError("insufficient_balance", balance=exc.balance, needed=exc.needed) from exc
            self._refresh()
            self._maybe_schedule_next_hand()
            return seat

    async def rebuy(self, user_id: int, amount: int, reply: InteractionReply | None = None) -> int:
        """Add chips from the balance to the member's stack, up to the maximum buy-in (rule book 002: rebuys
        between hands). Between hands (or when not dealt in) the chips move at once: returns the new stack. In
        a hand the rebuy is accepted for the next hand — kept with the table (restarts keep it), made when the
        hand ends, within the maximum and the balance then (`_make_rebuys`); nothing moves before: returns 0.
        A second request during the hand replaces the first. `reply`: a deferred interaction to answer
        ("rebuy.done" with the new stack and balance, or "rebuy.pending") through the outbox, stored with the
        rebuy, so that it is answered even if the process dies right after. Raises ServiceError:
        rebuy_cash_only, not_seated, rebuy_leaving (the member leaves, or is kicked, when the hand ends),
        rebuy_at_max, rebuy_above_max, insufficient_balance."""
        async with self._operation():
            self._check_open()
            if self.options.kind != CASH:
                raise ServiceError("rebuy_cash_only")
            seat = self._require_seat(user_id)
            if user_id in self.leaving or user_id in self.kicked:
                raise ServiceError("rebuy_leaving")
            player = self._player_of(user_id)
            if self.hand is not None and player is not None:
                room = self.options.max_buy_in - self.hand.stacks[player]
                if room <= 0:
                    raise ServiceError("rebuy_at_max", limit=self.options.max_buy_in)
                if amount < 1 or amount > room:
                    raise ServiceError("rebuy_above_max", max=room, limit=self.options.max_buy_in)
                balance = await self.storage.balance(self.guild_id, user_id)
                if balance < amount:
                    raise ServiceError("insufficient_balance", balance=balance, needed=amount)
                self.rebuys[user_id] = amount
                if reply is not None:
                    payload = self._reply_payload(reply, "rebuy.pending", {"amount": amount})
                    self._owed.append(Owed(new_key(), payload, self.snapshot()))
                await self._save()
                return 0
            stack = self.table.seats[seat].stack
            room = self.options.max_buy_in - stack
            if room <= 0:
                raise ServiceError("rebuy_at_max", limit=self.options.max_buy_in)
            if amount < 1 or amount > room:
                raise ServiceError("rebuy_above_max", max=max(room, 0), limit=self.options.max_buy_in)
            self.table.add_chips(seat, amount)
            snap = self.snapshot()
            owed: list[Owed] = []

            def rows_with_reply(base: list[dict[str, Any]]) -> Callable[[Any], list[dict[str, Any]]]:
                def rows(balance: int) -> list[dict[str, Any]]:
                    if reply is None:
                        return base
                    params = {"amount": amount, "stack": stack + amount, "balance": balance}
                    item = Owed(new_key(), self._reply_payload(reply, "rebuy.done", params), snap)
                    owed.append(item)
                    return [*base, item.row()]

                return rows

            try:
                await self._commit(
                    lambda state, rows: self.storage.buy_in(
                        self.table_id,
                        self.guild_id,
                        user_id,
                        seat,
                        amount,
                        kind=LedgerKind.REBUY,
                        state=state,
                        outbox=rows_with_reply(rows),
                    )
                )
            except InsufficientBalance as exc:
                raise ServiceError("insufficient_balance", balance=exc.balance, needed=exc.needed) from exc
            for item in owed:
                self._queue(item, durable=True)
            self._refresh()
            self._maybe_schedule_next_hand()
            return stack + amount

    async def _make_rebuys(self) -> None:
        """The rebuys asked during the hand that just ended (`rebuy`): each adds chips from the balance to a
        player still seated and not leaving, topping up to the maximum buy-in at most (one ledger row, the
        same as a rebuy between hands); announced, or announced as not made when the balance no longer has
        the chips. Then forgotten."""
        for user, amount in sorted(self.rebuys.items()):
            seat = self._seat_of(user)
            if seat is None or user in self.leaving or user in self.kicked:
                continue
            chips = min(amount, self.options.max_buy_in - self.table.seats[seat].stack)
            if chips <= 0:
                continue
            self.table.add_chips(seat, chips)
            stack = self.table.seats[seat].stack
            self._announce(PlayerAnnouncement("rebuy", user, self._name(user), seat=seat, chips=chips, stack=stack))
            try:
                await self._commit(self._rebuy_write(user, seat, chips))
            except InsufficientBalance:  # memory is back as before this rebuy (`_commit`)
                self._announce(PlayerAnnouncement("rebuy_failed", user, self._name(user), chips=chips))
        self.rebuys.clear()

    def _rebuy_write(
        self, user: int, seat: int, chips: int
    ) -> Callable[[dict[str, Any], list[dict[str, Any]]], Awaitable[int]]:
        def write(state: dict[str, Any], rows: list[dict[str, Any]]) -> Awaitable[int]:
            return self.storage.buy_in(
                self.table_id, self.guild_id, user, seat, chips, kind=LedgerKind.REBUY, state=state, outbox=rows
            )

        return write

    async def leave(self, user_id: int) -> bool:
        """Stand up. Between hands (or when not dealt in) the seat is freed at once and a cash stack goes back
        to the balance: returns True. In a hand, the member forfeits it at once — their hand is folded
        whoever is to act and even when checking is free (`Hand.forfeit`), announced once — and leaves when
        the hand ends, with what is left of their stack: returns False. Raises ServiceError("not_seated")."""
        async with self._operation():
            self._check_open()
            self._require_seat(user_id)
            player = self._player_of(user_id)
            if player is not None and self.hand is not None:
                self.leaving.add(user_id)
                # The one notice of this departure (the seat is freed silently when the hand ends), stored with it.
                self._announce(PlayerAnnouncement("forfeited", user_id, self._name(user_id), action="fold"))
                await self._save()
                if self.hand.can_forfeit(player):
                    await self._apply(player, ActionKind.FOLD, None, by="forfeit")
                else:  # already folded: nothing to play
                    self._refresh()
                return False
            await self._stand(user_id, kind="left")
            await self._end_tournament_if_won()
            self._refresh()
            return True

    async def kick(self, by_user: int, target: int, *, is_admin: bool) -> bool:
        """Host or admin removes a player. Between hands (or when not dealt in) the seat is freed at once:
        returns True. A player in the hand being played keeps playing it — a kick never folds a live hand —
        and leaves when it ends: returns False. Raises ServiceError: not_host, target_not_seated."""
        async with self._operation():
            self._check_open()
            self._check_host(by_user, is_admin)
            if self._seat_of(target) is None:
                raise ServiceError("target_not_seated", user=target)
            if self._player_of(target) is not None and self.hand is not None:
                self.kicked.add(target)
                self._announce(PlayerAnnouncement("leaving", target, self._name(target)))
                await self._save()
                self._refresh()
                return False
            await self._stand(target, kind="kicked")
            await self._end_tournament_if_won()
            self._refresh()
            return True

    async def _stand(self, user_id: int, kind: str, *, announce: bool = True, place: int | None = None) -> None:
        """Free the user's seat now (no hand of theirs in progress): cash out, forget their flags; announce it
        (`kind`: left, kicked, busted) unless `announce` is False (already announced); `place`: a tournament
        place to record with it (an elimination). One transaction."""
        seat = self._require_seat(user_id)
        stack = self.table.seats[seat].stack
        finished = self.options.kind == TOURNAMENT and self.hand_number > 0 and stack > 0
        if finished:
            # Leaving a tournament that has started is finishing it: the worst place among those with chips.
            place = sum(1 for occupant in self.table.seats.values() if occupant.stack > 0)
        self.table.stand(seat)
        self.leaving.discard(user_id)
        self.kicked.discard(user_id)
        self.rebuys.pop(user_id, None)
        self.away.discard(user_id)
        self.expiries.pop(user_id, None)
        # A cash stack goes back to the balance (the notice says how much); tournament chips never do.
        chips = None if self.options.kind == TOURNAMENT else stack
        if announce:
            self._announce(PlayerAnnouncement(kind, user_id, self._name(user_id), seat=seat, chips=chips))
        if finished:  # the place is public, also when the leave itself was announced earlier (a forfeit)
            self._announce(PlayerAnnouncement("finished", user_id, self._name(user_id), place=place))
        await self._commit(
            lambda state, rows: self.storage.cash_out(
                self.table_id, self.guild_id, user_id, seat, place=place, state=state, outbox=rows
            )
        )

    async def sit_out(self, user_id: int) -> None:
        """Stop being dealt in (cash) or auto-fold/check at once (tournament) from the next decision; the seat
        and chips stay. Raises ServiceError: not_seated, already_sitting_out."""
        async with self._operation():
            self._check_open()
            seat = self._require_seat(user_id)
            if user_id in self.away:
                raise ServiceError("already_sitting_out")
            self._set_away(user_id, seat, True)
            self._announce(PlayerAnnouncement("sat_out", user_id, self._name(user_id)))
            await self._save()
            self._refresh()

    async def sit_in(self, user_id: int) -> None:
        """Be dealt in again from the next hand. Raises ServiceError: not_seated, not_sitting_out."""
        async with self._operation():
            self._check_open()
            seat = self._require_seat(user_id)
            if user_id not in self.away:
                raise ServiceError("not_sitting_out")
            self._set_away(user_id, seat, False)
            self.expiries.pop(user_id, None)
            self._announce(PlayerAnnouncement("sat_in", user_id, self._name(user_id)))
            await self._save()
            self._refresh()
            self._maybe_schedule_next_hand()

    def _set_away(self, user_id: int, seat: int, away: bool) -> None:
        if away:
            self.away.add(user_id)
        else:
            self.away.discard(user_id)
        if self.options.kind == CASH:
            self.table.set_sitting_out(seat, away)

    # ------------------------------------------------------------------ host

    def _check_host(self, user_id: int, is_admin: bool) -> None:
        """The one host rule (start a tournament, schedule, kick, end): the host or a member with Manage Server
        (`is_admin`); the refusal `not_host` says exactly that."""
        if user_id != self.host_id and not is_admin:
            raise ServiceError("not_host", host=self.host_id)

    async def start_game(self, user_id: int, *, is_admin: bool = False) -> None:
        """Deal the first hand; from then on hands follow by themselves. At a tournament the host or a member
        with Manage Server (`is_admin`) may start; at a cash table also any seated player. Raises
        ServiceError: already_running, not_enough_players, not_host, not_seated."""
        async with self._operation():
            self._check_open()
            if self.options.kind == TOURNAMENT:
                self._check_host(user_id, is_admin)
            elif self._seat_of(user_id) is None and user_id != self.host_id and not is_admin:
                raise ServiceError("not_seated")
            if self.running:
                raise ServiceError("already_running")
            if not self.table.can_start_hand():
                raise ServiceError("not_enough_players")
            self.running = True
            if self.started_at is None:
                self.started_at = self.clock.time()
            await self._start_hand()

    async def set_blind_schedule(
        self, user_id: int, levels: tuple[tuple[int, int, int], ...], by: str, length: int, *, is_admin: bool
    ) -> TableOptions:
        """The host agrees a blind schedule before the first hand (rule book 000 §04: raising the blinds is an
        option agreed before playing): `levels` of (small blind, big blind, ante), each lasting `length`
        hands or minutes (`by`). An empty `levels` removes the schedule. Returns the new options.
        Raises ServiceError: not_host, schedule_after_start, bad_option."""
        async with self._operation():
            self._check_open()
            self._check_host(user_id, is_admin)
            if self.hand_number > 0:
                raise ServiceError("schedule_after_start")
            options = self.options.with_changes(blind_levels=tuple(levels), level_by=by, level_length=length)
            seated = self.table.seats
            self.options = options
            self.table = Table(self._table_config(options))
            for seat, occupant in seated.items():
                self.table.sit(seat, occupant.player_id, occupant.stack)
                if occupant.sitting_out:
                    self.table.set_sitting_out(seat, True)
            await self._commit(
                lambda state, rows: self.storage.update_table_settings(
                    self.table_id, options.to_json(), state=state, outbox=rows
                )
            )
            self._refresh()
            return options

    async def end(
        self, user_id: int, *, is_admin: bool, reply: InteractionReply | None = None
    ) -> TableClosedAnnouncement:
        """Close the table (host or Manage Server). A hand in progress is refunded (every player gets back
        their stack as it was at the start of the hand); cash stacks go back to balances; a tournament is
        ranked by stack (rule book 000 §07, the agreed time). `reply`: the host's deferred interaction, answered
        ("end.done") through the outbox with the close. Raises ServiceError("not_host")."""
        async with self._operation():
            self._check_open()
            self._check_host(user_id, is_admin)
            return await self._close(reply=reply)

    async def _close(
        self, *, last_player_standing: bool = False, reply: InteractionReply | None = None
    ) -> TableClosedAnnouncement:
        """Close the table. A tournament is over when one player holds every chip (`last_player_standing`);
        otherwise the host stopped it (the agreed time) and players are ranked by stack (rule book 000 §07).
        The close, the places, the "table closed" notice, the edit that takes the buttons off the table message
        and the answer to `reply` are stored in one transaction."""
        voided = self.hand_number if self.hand is not None else None
        if self.hand is not None:
            stacks = dict(zip(self.hand_seats, self.hand.starting_stacks, strict=True))
        else:
            stacks = {}
        stacks_by_user = {
            occupant.player_id: stacks.get(seat, occupant.stack) for seat, occupant in self.table.seats.items()
        }
        placings: tuple[tuple[int, int, str, int], ...] = ()
        places: dict[int, int] = {}
        if self.options.kind == TOURNAMENT and self.hand_number > 0:
            placings, places = await self._final_places(stacks_by_user)
        # What close_table gives back to balances: each cash seat's stack (as at the start of a voided hand).
        returned = stacks_by_user if self.options.kind == CASH else {}
        announcement = TableClosedAnnouncement(
            cashed_out=tuple((u, self._name(u), chips) for u, chips in sorted(returned.items())),
            placings=placings,
            voided_hand=voided,
            tournament_over=self.options.kind == TOURNAMENT and last_player_standing,
        )
        self.closed = True
        self.hand = None
        self.hand_id = None
        self._announce(announcement)
        snap = self.snapshot()
        if self.message_id is not None:
            self._owed.append(Owed(new_key(), {"type": "closed_table", "message_id": self.message_id}, snap))
        if reply is not None:
            self._owed.append(Owed(new_key(), self._reply_payload(reply, "end.done", {}), snap))
        await self._commit(lambda state, rows: self.storage.close_table(self.table_id, places=places, outbox=rows))
        self._mark_closed()
        return announcement

    def _mark_closed(self) -> None:
        """The table is closed in storage: stop its timers and leave the registry."""
        self.closed = True
        self._cancel_timer()
        if self._next_hand is not None and self._next_hand is not asyncio.current_task():
            self._next_hand.cancel()
        self.hand = None
        self.hand_id = None
        if self._on_closed is not None:
            self._on_closed(self)

    @staticmethod
    def _reply_payload(reply: InteractionReply, key: str, params: dict[str, Any]) -> dict[str, Any]:
        return {
            "type": "reply",
            "application_id": reply.application_id,
            "token": reply.token,
            "locale": reply.locale,
            "created_at": reply.created_at,
            "key": key,
            "params": params,
        }

    async def _final_places(
        self, stacks_by_user: dict[int, int]
    ) -> tuple[tuple[tuple[int, int, str, int], ...], dict[int, int]]:
        """Places for everyone still seated, by stack (ties share the better place order by seat); the busted
        players keep the places they got when eliminated. Returns the placings to show, and the places to record
        ({user: place}, those not recorded yet)."""
        ranked = sorted(stacks_by_user.items(), key=lambda item: -item[1])
        recorded = await self.storage.places(self.table_id)
        placings = []
        new: dict[int, int] = {}
        for place, (user, stack) in enumerate(ranked, start=1):
            if user not in recorded:
                new[user] = place
            placings.append((place, user, self._name(user), stack))
        for user, place in sorted(recorded.items(), key=lambda item: item[1]):
            if user not in stacks_by_user:
                placings.append((place, user, self._name(user), 0))
        return tuple(sorted(placings)), new

    # ------------------------------------------------------------------ hands

    def _maybe_schedule_next_hand(self, delay: float | None = None) -> None:
        if not self.running or self.closed or self.hand is not None:
            return
        if self._next_hand is not None and not self._next_hand.done():
            return
        if not self.table.can_start_hand():
            return  # the table message says what it waits for (`_waiting_for`); a join or sit-in calls again
        when = self.clock.time() + (self.options.next_hand_delay if delay is None else delay)
        self.next_hand_at = when

        async def deal_later() -> None:
            await self.clock.sleep_until(when)
            try:
                async with self._operation():
                    self._next_hand = None
                    self.next_hand_at = None
                    if self.running and not self.closed and self.hand is None and self.table.can_start_hand():
                        await self._start_hand()
                    elif self.hand is None and not self.closed:
                        self._refresh()  # no deal after all: the table message says what the table waits for
            except Exception:
                log.exception("table %s: the next hand could not be dealt (resumed later)", self.table_id)

        self._next_hand = asyncio.create_task(deal_later(), name=f"next-hand-{self.channel_id}")

    async def _start_hand(self) -> None:
        """Deal a new hand: the engine moves the button and posts blinds; the record is stored before anyone
        sees the hand; then the new table message and the hole cards (DM) go out."""
        number = self.hand_number + 1
        previous_level = self.hand_level
        schedule = self.table.config.schedule
        level = schedule.level_index(self.table.hands_played, self._level_clock()) if schedule else None
        try:
            hand = self.table.start_hand(now=self._level_clock(), rng=self.rng_factory())
        except PokerError:
            log.info("table %s cannot deal hand %s", self.table_id, number)
            self._refresh()
            return
        seats = tuple(self.table.hand_seats)
        users = tuple(self.table.seats[s].player_id for s in seats)
        record = {"record": hand.record().to_json(), "seats": list(seats), "users": list(users)}
        self.hand, self.hand_number = hand, number
        self.hand_seats, self.hand_users = seats, users
        self.hand_level = level
        if level is not None and previous_level is not None and level > previous_level:
            self._announce_level()
        snap = self.snapshot()
        # The hole-card DMs (and "press My cards" when refused) are stored with the hand, told after its table message.
        dms = [
            Owed(
                new_key(),
                {
                    "type": "hole_cards",
                    "user_id": user,
                    "hand_number": number,
                    "cards": encode_cards(tuple(hand.hole_cards[player])),
                },
                snap,
            )
            for player, user in enumerate(users)
        ]
        hand_id = await self._commit(
            lambda state, rows: self.storage.start_hand(
                self.table_id,
                number,
                record,
                [
                    {"seat": seat, "user_id": user, "stack": stack, "player": index}
                    for index, (seat, user, stack) in enumerate(zip(seats, users, hand.starting_stacks, strict=True))
                ],
                state=state,
                outbox=[*rows, *(dm.row() for dm in dms)],
            )
        )
        self.hand_id = hand_id
        self._committed = self._memento()
        self._post_table(replaces_hand=False)
        for dm in dms:
            self._queue(dm, durable=True)
        self._start_turn()
        await self._auto_act_if_needed()

    def _announce_level(self) -> None:
        """The hand just dealt opens a new blind level: say so, with the next one (issue 11 item 4)."""
        view = self._level_view()
        hand = self.hand
        assert hand is not None
        settings = hand.settings
        self._announce(
            LevelAnnouncement(
                view["level"],
                settings.small_blind,
                settings.big_blind,
                settings.ante,
                view.get("next_level"),
                view.get("next_level_in"),
                view["level_by"],
            )
        )

    def _level_clock(self) -> float:
        """Minutes-based blind levels count from the first deal."""
        return self.clock.time() - (self.started_at or self.clock.time())

    def _start_turn(self, deadline: float | None = None) -> None:
        """Arm the turn timer for whoever is to act now (or stop it when nobody is)."""
        self._cancel_timer()
        self._turn += 1
        hand = self.hand
        if hand is None or hand.actor is None:
            self.deadline = None
            return
        self.deadline = deadline if deadline is not None else self.clock.time() + self.options.turn_timeout
        turn, when = self._turn, self.deadline

        async def expire() -> None:
            await self.clock.sleep_until(when)
            try:
                async with self._operation():
                    if turn == self._turn and not self.closed:
                        await self._expire()
            except Exception:
                log.exception("table %s: a turn timeout could not be stored (resumed later)", self.table_id)

        self._timer = asyncio.create_task(expire(), name=f"turn-timer-{self.channel_id}")

    def _cancel_timer(self) -> None:
        if self._timer is not None and self._timer is not asyncio.current_task():
            self._timer.cancel()
        self._timer = None

    async def _expire(self) -> None:
        """The player to act ran out of time: check if free, else fold; sat out after two in a row."""
        hand = self.hand
        assert hand is not None and hand.actor is not None
        player = hand.actor
        user = self.hand_users[player]
        kind = ActionKind.CHECK if hand.can_check() else ActionKind.FOLD
        count = self.expiries.get(user, 0) + 1
        self.expiries[user] = count
        sat_out = count >= EXPIRIES_BEFORE_SIT_OUT and user not in self.away
        if sat_out:
            self._set_away(user, self.hand_seats[player], True)
        self._announce(PlayerAnnouncement("timed_out", user, self._name(user), action=kind.value, sat_out=sat_out))
        await self._apply(player, kind, None, by="timeout")

    def check_turn(self, user_id: int, hand_number: int | None = None) -> int:
        """The user's player index if it is their turn now (and `hand_number`, from a button, is the current
        hand). Raises ServiceError: table_closed, no_hand, stale_button, not_in_hand, not_your_turn_user.
        The one turn check: `act` uses it, and the Discord layer before opening the raise form."""
        self._check_open()
        hand = self.hand
        if hand is None:
            raise ServiceError("no_hand")
        if hand_number is not None and hand_number != self.hand_number:
            raise ServiceError("stale_button")
        player = self._player_of(user_id)
        if player is None:
            raise ServiceError("not_in_hand")
        if hand.actor != player:
            if hand.actor is None:
                raise ServiceError("no_hand")
            raise ServiceError("not_your_turn_user", actor=self.hand_users[hand.actor])
        return player

    async def act(
        self,
        user_id: int,
        kind: ActionKind,
        amount: int | None = None,
        *,
        hand_number: int | None = None,
        expected: int | None = None,
    ) -> PlayerActed:
        """A player's decision (fold, check, call, bet N, raise to N, all-in). Returns the engine's
        `PlayerActed` event. `expected`: the amount the pressed button named (Call N: chips to add; All-in N
        and Bet/Raise to N: the street total) — refused when it is no longer the amount (`check_expected`).
        Raises ServiceError (see `check_turn`), or the engine's PokerError saying what is allowed ("Minimum
        raise is to 22"). Nothing changes then."""
        async with self._operation():
            player = self.check_turn(user_id, hand_number)
            if expected is not None:
                self.check_expected(kind, amount, expected)
            self.expiries.pop(user_id, None)
            return await self._apply(player, kind, amount, by="player")

    def check_expected(self, kind: ActionKind, amount: int | None, expected: int) -> None:
        """Refuse an action whose button named an amount that is no longer the amount (an older message, or
        a raise in between): a call of N chips, an all-in to N, a bet or raise to N. Raises ServiceError
        "call_changed" / "all_in_changed" / "amount_changed" with the current `amount`; never plays the
        action for another amount. Other kinds carry no amount and pass."""
        hand = self.hand
        assert hand is not None
        legal = hand.legal_actions()
        if kind is ActionKind.CALL and legal.can_call and legal.call_amount != expected:
            raise ServiceError("call_changed", amount=legal.call_amount)
        if kind is ActionKind.ALL_IN and legal.all_in_to != expected:
            raise ServiceError("all_in_changed", amount=legal.all_in_to)
        if kind in (ActionKind.BET, ActionKind.RAISE) and amount is not None and amount != expected:
            raise ServiceError("amount_changed", amount=expected)

    async def _apply(self, player: int, kind: ActionKind, amount: int | None, *, by: str) -> PlayerActed:
        """Verify, store (write-ahead), apply, then queue what the channel must see. `by="forfeit"`: the
        player left, their hand is folded at once, whoever is to act (`Hand.forfeit`; stored as a fold)."""
        hand = self.hand
        assert hand is not None and self.hand_id is not None
        forfeit = by == "forfeit"
        if forfeit:
            hand.verify_forfeit(player)
        else:
            hand.verify_action(kind, amount)
        hand_id = self.hand_id
        action = {"player": player, "kind": kind.value, "amount": amount, "at": self.clock.time(), "by": by}
        await self._commit(lambda _state, _rows: self.storage.append_action(hand_id, action), carries=False)
        before = len(hand.events)
        acted = hand.forfeit(player) if forfeit else hand.act(kind, amount)
        new_events = hand.events[before:]
        for event in new_events:
            if isinstance(event, StreetDealt):
                street = StreetAnnouncement(self.hand_number, event.street, event.cards, event.board, hand.pots())
                self._announce(street)
        self._release_derived()
        if hand.is_complete:
            await self._finish_hand()
        else:
            self._start_turn()
            await self._auto_act_if_needed()
        self._refresh()
        return acted

    async def _auto_act_if_needed(self) -> None:
        """Check (when free) or fold for a tournament player sitting out, without waiting: their seat and chips
        stay, so a free check keeps their hand (only the fold is announced, once: a fold ends their hand)."""
        hand = self.hand
        if hand is None or hand.actor is None:
            return
        user = self.hand_users[hand.actor]
        if user in self.away and self.options.kind == TOURNAMENT:
            kind = ActionKind.CHECK if hand.can_check() else ActionKind.FOLD
            if kind is ActionKind.FOLD:
                self._announce(PlayerAnnouncement("auto_folded", user, self._name(user), action=kind.value))
            await self._apply(hand.actor, kind, None, by="auto")

    async def _finish_hand(self) -> None:
        """Store the result and the new stacks in one transaction, then announce, bust, and schedule the next."""
        hand = self.hand
        assert hand is not None and self.hand_id is not None
        self._cancel_timer()
        self.deadline = None
        finishing = next(e.finishing_stacks for e in reversed(hand.events) if isinstance(e, HandEnded))
        stacks = dict(zip(self.hand_seats, finishing, strict=True))
        result = self._result(hand)
        outcomes = self._outcomes(hand)
        hand_id = self.hand_id
        busted = self.table.end_hand(hand)
        self._announce(result["announcement"])
        users, seats = self.hand_users, self.hand_seats
        self.hand = None
        self.hand_id = None
        self.hand_seats = self.hand_users = ()
        await self._commit(
            lambda state, rows: self.storage.finish_hand(
                hand_id, result["json"], stacks, outcomes, state=state, outbox=rows
            )
        )
        self._retire_message(result["announcement"])
        await self._after_hand(busted, users, seats, hand)

    async def _after_hand(
        self, busted: tuple[int, ...], users: tuple[int, ...], seats: tuple[int, ...], hand: Hand
    ) -> None:
        """Rebuys asked during the hand, eliminations (places at a tournament; a busted cash player is told how to
        buy in again), players who asked to leave, then the next deal or the end."""
        if self.rebuys:
            await self._make_rebuys()
            busted = tuple(s for s in busted if s in self.table.seats and self.table.seats[s].stack == 0)
        seat_user = dict(zip(seats, users, strict=True))
        busted_users = [seat_user[s] for s in busted]
        ranks = self._places_of_busts(busted_users, {u: hand.starting_stacks[users.index(u)] for u in busted_users})
        places: dict[int, int | None] = {}  # recorded with each one's seat freed (`_stand`), one transaction each
        for user in sorted(busted_users, key=lambda u: -ranks[u]):  # the worst place is announced first
            place = ranks[user] if self.options.kind == TOURNAMENT else None
            if place is not None:
                places[user] = place
                self._announce(PlayerAnnouncement("eliminated", user, self._name(user), place=place))
        for user in busted_users:
            seat = self._seat_of(user)
            if seat is not None:
                # Cash: one notice, "out of chips, left the table, buy in again with /poker join" (and a button);
                # none for a player who had left during the hand (told then).
                announce = self.options.kind == CASH and user not in self.leaving
                await self._stand(user, kind="busted", announce=announce, place=places.get(user))
        for user in sorted(self.leaving | self.kicked):
            if self._seat_of(user) is not None:
                # A kick was announced as pending ("leaving"): now it is done. A leaver was told at once.
                kicked = user in self.kicked
                await self._stand(user, kind="kicked" if kicked else "left", announce=kicked)
        self.leaving.clear()
        self.kicked.clear()
        await self._save()
        if await self._end_tournament_if_won():
            return
        self._maybe_schedule_next_hand()

    def _places_of_busts(self, busted: list[int], starting: dict[int, int]) -> dict[int, int]:
        """The places of the players who busted in one hand ({user: place}). The rule books are silent on
        simultaneous eliminations; this is the card-room rule (as the Poker TDA's): the player who had more
        chips at the start of the hand finishes higher, and players who started it with equal stacks share
        the place (two players tied for 3rd both finish 3rd; the next one down is 5th)."""
        remaining = sum(1 for occ in self.table.seats.values() if occ.stack > 0 and occ.player_id not in busted)
        return {user: remaining + 1 + sum(1 for other in busted if starting[other] > starting[user]) for user in busted}

    async def _end_tournament_if_won(self) -> bool:
        """A started tournament with one player left is over (rule book 000 §03): close it. True if closed."""
        if self.closed or self.options.kind != TOURNAMENT or self.hand_number == 0 or len(self.table.seats) > 1:
            return False
        await self._close(last_player_standing=True)
        return True

    def _result(self, hand: Hand) -> dict[str, Any]:
        """The hand's result as an announcement (for the channel) and as JSON (for storage and history)."""
        names = tuple(self._name(u) for u in self.hand_users)
        announcement = hand_result_from_events(self.hand_number, hand.events, names, self.hand_users)
        data = {
            "board": [str(c) for c in hand.board],
            "shown": [{"user_id": s.user_id, "cards": [str(c) for c in s.cards]} for s in announcement.shown],
            "mucked": [u for u, _ in announcement.mucked],
            "pots": [
                {"index": p.index, "amount": p.amount, "winners": [[u, chips] for u, _, chips in p.winners]}
                for p in announcement.pots
            ],
            "returned": [[u, chips] for u, _, chips in announcement.returned],
            "finishing_stacks": list(hand.stacks),
        }
        return {"json": data, "announcement": announcement}

    def _outcomes(self, hand: Hand) -> dict[int, PlayerOutcome]:
        """Per-user standings of the hand: won, showed, VPIP, PFR, showdown (standard definitions:
        VPIP = chips put in preflop voluntarily; PFR = a preflop bet or raise; blinds do not count)."""
        won: dict[int, int] = {}
        showed: set[int] = set()
        at_showdown: set[int] = set()
        vpip: set[int] = set()
        pfr: set[int] = set()
        street = Street.PREFLOP
        # The forced bets set the bet to beat: the big blind, or the straddle (2x BB) when one was posted.
        highest = hand.settings.big_blind
        for event in hand.events:
            if isinstance(event, BlindPosted) and event.kind == "straddle":
                highest = 2 * hand.settings.big_blind
            elif isinstance(event, StreetDealt):
                street = event.street
            elif isinstance(event, PlayerActed) and street == Street.PREFLOP and event.added > 0:
                vpip.add(event.player)
                if event.amount > highest:
                    pfr.add(event.player)
                highest = max(highest, event.amount)
            elif isinstance(event, HandShown):
                showed.add(event.player)
                at_showdown.add(event.player)
            elif isinstance(event, HandMucked):
                at_showdown.add(event.player)
            elif isinstance(event, PotAwarded):
                for p, chips in event.winners:
                    won[p] = won.get(p, 0) + chips
        outcomes = {}
        for player, user in enumerate(self.hand_users):
            outcomes[user] = PlayerOutcome(
                won=won.get(player, 0),
                showed=player in showed,
                vpip=player in vpip,
                pfr=player in pfr,
                went_to_showdown=player in at_showdown,
                won_at_showdown=player in at_showdown and won.get(player, 0) > 0,
            )
        return outcomes

    # ------------------------------------------------------------------ restore after a restart

    async def restore(self, row: TableRow, *, grace: float = RESTORE_GRACE) -> None:
        """Rebuild the table from storage: seats and stacks, names and flags, and the unfinished hand by
        replaying its record; the turn deadline is restored (at least `grace` seconds from now) and the
        table message refreshed. Then call `deliver_pending` for what was owed and not delivered."""
        state = dict(row.state or {})
        open_hand = await self.storage.open_hand(self.table_id)
        if "table" in state:
            table_json = dict(state["table"])
            if open_hand is None:
                # The process may have stopped between storing a hand's end and saving the table state.
                table_json["in_hand"] = False
            self.table = Table.from_json(table_json)
        self.table.sync_seats({s.seat: (s.user_id, s.stack) for s in row.seats})
        self.names = {int(k): v for k, v in state.get("names", {}).items()}
        last = await self.storage.hands_for_table(self.table_id, limit=1)
        self.hand_number = max([int(state.get("hand_number", 0))] + [h.number for h in last])
        self.expiries = {int(k): v for k, v in state.get("expiries", {}).items()}
        self.leaving = set(state.get("leaving", []))
        self.kicked = set(state.get("kicked", []))
        self.away = set(state.get("away", []))
        self.rebuys = {int(k): int(v) for k, v in state.get("rebuys", {}).items()}
        self.hand_level = state.get("hand_level")
        self.running = bool(state.get("running", False))
        self.started_at = state.get("started_at")
        self.message_id = row.message_id
        if open_hand is not None:
            record = HandRecord.from_json(open_hand.record["record"])
            hand = Hand.from_record(record)
            last_at = open_hand.started_at
            for action in open_hand.actions:
                hand.replay(int(action["player"]), ActionKind(action["kind"]), action.get("amount"))
                last_at = action.get("at", last_at)
            self.hand, self.hand_id, self.hand_number = hand, open_hand.id, open_hand.number
            self.hand_seats = tuple(open_hand.record["seats"])
            self.hand_users = tuple(open_hand.record["users"])
            self.table.resume_hand(hand, self.hand_seats)
            self._committed = self._memento()
            if hand.is_complete:
                await self._finish_hand()
            else:
                deadline = max(last_at + self.options.turn_timeout, self.clock.time() + grace)
                self._start_turn(deadline)
        elif last and last[0].ended_at is not None and self._after_hand_unfinished(last[0]):
            # The process stopped between storing a hand's end and what follows it (busted players unseated,
            # leavers and kicked players gone, rebuys made): do it now, so that no notice owed is lost.
            self._committed = self._memento()
            ended = last[0]
            seats, users = tuple(ended.record["seats"]), tuple(ended.record["users"])
            busted = tuple(s for s, u in zip(seats, users, strict=True) if self._seat_holds(s, u, stack=0))
            hand = Hand.from_record(HandRecord.from_json(ended.record["record"]))
            await self._after_hand(busted, users, seats, hand)
        self._refresh()
        if self.hand is None:
            self._maybe_schedule_next_hand()

    def _seat_holds(self, seat: int, user: int, *, stack: int | None = None) -> bool:
        """Seat `seat` is held by `user` (with exactly `stack` chips, when given)."""
        occupant = self.table.seats.get(seat)
        return occupant is not None and occupant.player_id == user and (stack is None or occupant.stack == stack)

    def _after_hand_unfinished(self, ended: HandRow) -> bool:
        """After finished hand `ended`, is what follows a hand's end still to do? (A player of it still seated
        without chips, a leaver or a kicked player still seated, or a rebuy still pending: `_after_hand` clears
        all of them.)"""
        seats, users = ended.record.get("seats", ()), ended.record.get("users", ())
        busted = any(self._seat_holds(s, u, stack=0) for s, u in zip(seats, users, strict=True))
        return busted or bool(self.leaving or self.kicked or self.rebuys)

    async def deliver_pending(self, rows: list[OutboxRow] | None = None) -> int:
        """Queue the delivery of what storage says this table owes and was not delivered (after a restart, or a
        storage fault whose outcome was unknown): `rows`, or read from storage. Rows already queued in this
        process are skipped; each post carries its row's key as nonce. Returns how many were queued."""
        if rows is None:
            rows = await self.storage.pending_outbox(self.table_id)
        snap = self.snapshot()
        queued = 0
        for row in rows:
            if row.key in self._inflight:
                continue
            payload = row.payload
            announcement: Announcement | None = None
            try:
                if payload.get("type") == "announce":
                    announcement = decode_announcement(payload["announcement"])
                elif payload.get("type") == "hand_result":
                    announcement = await self._stored_result(int(payload["hand_number"]))
            except Exception:
                log.exception("table %s: outbox row %s cannot be read; dropped", self.table_id, row.key)
                await self.storage.mark_delivered([row.key])
                continue
            self._queue(Owed(row.key, payload, snap, announcement), durable=True)
            queued += 1
        return queued

    async def _stored_result(self, number: int) -> Announcement:
        """A finished hand's result, built again from its stored record (the engine replays it exactly)."""
        row = await self.storage.hand_by_number(self.table_id, number)
        if row is None:
            raise ValueError(f"no hand {number} at table {self.table_id}")
        hand = Hand.from_record(HandRecord.from_json(row.record["record"]))
        for action in row.actions:
            hand.act(ActionKind(action["kind"]), action.get("amount"))
        users = tuple(int(u) for u in row.record["users"])
        names = tuple(self._name(u) for u in users)
        return hand_result_from_events(number, hand.events, names, users)

    def load_closed(self, row: TableRow) -> None:
        """A closed table, only to deliver what it still owes (its names and language from storage)."""
        state = dict(row.state or {})
        self.names = {int(k): v for k, v in state.get("names", {}).items()}
        self.hand_number = int(state.get("hand_number", 0))
        self.message_id = row.message_id
        self.closed = True
