"""Delivery of what a table owes Discord: the ordered queue per table, the table message's posts, edits and
retirement, and marking stored outbox rows delivered (docs/outbox.md; the rows' codec is bot/tables/outbox.py).

Discord calls never hold the table's lock: jobs run one at a time on the table's worker, in the order queued;
consecutive table-message edits merge into one, drawn with the latest picture (docs/architecture.md, "Table
orchestration"). An accepted press of the table message's buttons is kept as a `Carrier` and answered by the
next edit of its message (one REST call instead of an acknowledgement and an edit: docs/outbox.md, "A press
answered by the table edit").
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.poker import HandResult
from bot.render.announce import NoticeKind
from bot.render.i18n import t
from bot.storage import Storage
from bot.tables.clock import Clock, SystemClock
from bot.tables.kinds import OutboxKind
from bot.tables.notifier import Carrier, Notifier, PlayerAnnouncement, TableSnapshot
from bot.tables.outbox import REPLY_TOKEN_LIFETIME_S, Owed, decode_cards, payload_kind
from bot.tables.pictures import picture_for
from bot.tables.state import TableState

log = logging.getLogger(__name__)

#: How long a hand's hole-card DMs may hold the table's queue (seconds of the service clock) before what is queued
#: after them (the table edits of the hand's first actions) goes on without them (`Delivery.queue_together`). A DM
#: takes one round trip (tens of milliseconds); what takes seconds is a DM channel still to be opened, in the one
#: bucket Discord (and discord.py) keeps for that for the whole bot, a 429, or a slow Discord.
DM_HOLD_S = 1.0

#: How long stopping a table (`Delivery.stop`: a shutdown, a shard's lease lost) waits for a hand's DMs still on their
#: way after `DM_HOLD_S` (wall-clock seconds). Past that they are cancelled: their rows stay undelivered in the outbox
#: and are sent at the next start (docs/architecture.md, "The Discord contract"; the rows: docs/outbox.md). A hung DM
#: would otherwise hold the stop for aiohttp's 300 s, and a cluster child is killed after `bot.cluster.STOP_TIMEOUT_S`
#: (30 s) without its other tables' last marks written.
STOP_DM_WAIT_S = 5.0

#: Seconds after its arrival that a press may still carry an edit of its message; past that it is acknowledged
#: without one (Discord forgets an interaction not answered within 3 s; the rest is margin for the answer's trip).
CARRY_TIMEOUT_S = 1.5

Job = Callable[[], Awaitable[None]]
#: How the delivery worker waits for work when its queue is empty: `idle(queue.get())` (default: just await it;
#: a simulator declares the wait, as its clock declares the timers' sleeps).
IdleWait = Callable[[Awaitable[Job | None]], Awaitable[Job | None]]


async def _just_wait(work: Awaitable[Job | None]) -> Job | None:
    return await work


@dataclass
class OutboxWorker:
    """Runs queued jobs one at a time, in order, on its own task; a job that fails is logged and skipped."""

    idle: IdleWait = _just_wait
    queue: asyncio.Queue[Job | None] = field(default_factory=asyncio.Queue)
    task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the worker task (inside the event loop); a second call does nothing."""
        if self.task is None:
            self.task = asyncio.create_task(self._work(), name="table-outbox")

    def put(self, job: Job) -> None:
        """Queue `job` after everything queued so far."""
        self.queue.put_nowait(job)

    async def _work(self) -> None:
        while True:
            job = await (self.idle(self.queue.get()) if self.queue.empty() else self.queue.get())
            if job is None:
                return
            try:
                await job()
            except Exception:
                log.exception("table notification failed")

    async def drain(self) -> None:
        """Wait until everything queued so far has run."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        async def mark() -> None:
            done.set_result(None)

        self.put(mark)
        await done

    async def stop(self) -> None:
        """Run what is queued, then stop the task."""
        if self.task is not None:
            self.queue.put_nowait(None)
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None


class Delivery:
    """One table's messages to Discord, in order: owed messages (stored rows are marked delivered once sent) and
    the table message (posted, edited, retired). `picture` draws the table now; it is called under `lock` when a
    job runs, so a drawing never shows a change computed but not yet stored."""

    def __init__(
        self,
        *,
        notifier: Notifier,
        storage: Storage,
        state: TableState,
        lock: asyncio.Lock,
        picture: Callable[[], TableSnapshot],
        idle: IdleWait = _just_wait,
        clock: Clock | None = None,
    ) -> None:
        self.notifier = notifier
        self._clock: Clock = clock if clock is not None else SystemClock()
        self._storage = storage
        self._state = state
        self._lock = lock
        self._picture = picture
        self.worker = OutboxWorker(idle)
        #: A table-message edit is queued and not yet drawn: later edits merge into it.
        self._pending_edit = False
        #: Counts table messages posted: a queued edit meant for an earlier message is dropped, not drawn there.
        self._generation = 0
        #: The generation whose message is `state.message_id` (a message restored at start is generation 0's).
        self._message_generation = 0
        #: Presses waiting to carry the next edit of their message, in the order handed over (`carry`).
        self._carriers: list[Carrier] = []
        self._carrier_timer: asyncio.Task[None] | None = None
        self._acks: set[asyncio.Task[None]] = set()  # acknowledgements being sent
        self._late_dms: set[asyncio.Task[None]] = set()  # a hand's DMs that held the queue too long (`queue_together`)
        self._inflight: set[str] = set()  # outbox keys queued for delivery and not yet delivered
        self._dm_refused: set[int] = set()  # players told that their DMs are closed (told once)

    # ------------------------------------------------------------------ the worker

    def start(self) -> None:
        """Start the worker (call once the runner is registered, inside the event loop)."""
        self.worker.start()

    async def drain(self) -> None:
        """Wait until every message queued so far is delivered (presses answered), and marked so in storage."""
        await self.worker.drain()
        await self._late_dms_sent()
        await self._marks_written()
        await self._acks_sent()

    async def stop(self) -> None:
        """Deliver what is queued, then stop the worker; presses still waiting are acknowledged. A hand's DMs still
        on their way are waited for `STOP_DM_WAIT_S` at most, then cancelled (their rows are sent at the next start)."""
        await self.worker.stop()
        self._acknowledge(self._carriers)
        self._carriers = []
        if self._carrier_timer is not None:
            self._carrier_timer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._carrier_timer
            self._carrier_timer = None
        await self._late_dms_sent(within=STOP_DM_WAIT_S)
        await self._marks_written()
        await self._acks_sent()

    async def _acks_sent(self) -> None:
        if self._acks:
            await asyncio.gather(*self._acks, return_exceptions=True)

    async def _late_dms_sent(self, *, within: float | None = None) -> None:
        """Wait for the DMs finishing beside the worker; `within` seconds at most, then cancel those still waiting."""
        if not self._late_dms:
            return
        _, waiting = await asyncio.wait(set(self._late_dms), timeout=within)
        if waiting:
            log.info(
                "stopping a table: %d hand(s) of DMs unanswered after %.0f s, left for the next start",
                len(waiting),
                within,
            )
            for task in waiting:
                task.cancel()
            await asyncio.gather(*waiting, return_exceptions=True)

    async def _marks_written(self) -> None:
        await self._storage.flush_behind()

    # ------------------------------------------------------------------ owed messages

    def in_flight(self, key: str) -> bool:
        """Outbox row `key` is queued in this process and not yet delivered."""
        return key in self._inflight

    def queue(self, owed: Owed, *, durable: bool) -> None:
        """Queue one owed message; `durable`: it is a stored outbox row, marked delivered once sent."""
        if durable:
            self._inflight.add(owed.key)

        async def deliver() -> None:
            try:
                await self._deliver(owed, durable=durable)
            finally:
                self._inflight.discard(owed.key)

        self.worker.put(deliver)

    def queue_together(self, owed: list[Owed]) -> None:
        """Queue stored hole-card rows (a hand's DMs, each to its own player) as one job that sends them all at
        once, concurrently, then tells in order what follows them (the "press My cards" notice of a refused DM)
        and marks them delivered: the job takes about one DM's round trip instead of one per player, so the
        table edits queued after it (the first actions of the hand) wait that much less, and every player
        normally has their cards before anything queued later is told (a refused DM's notice included).

        The DMs hold the table's queue for `DM_HOLD_S` at most (the service clock): past that, what is queued
        after them goes on, and the DMs still on their way are finished beside the worker (their notices told and
        their rows marked delivered when they are answered; `drain` waits for them). A DM channel still to be
        opened goes through one Discord bucket for the whole bot (POST /users/@me/channels, one request at a time
        until Discord's headers allow more): after a restart, or when many new players sit down at once, every
        table's first DMs wait in that one line, and the hand's first actions stayed off the table message for
        seconds behind them (benchmarks/README.md, "Stalls")."""
        for item in owed:
            self._inflight.add(item.key)

        async def deliver() -> None:
            sending = asyncio.ensure_future(
                asyncio.gather(*(self._send_hole_cards(item, nonce=item.key) for item in owed), return_exceptions=True)
            )
            try:
                async with self._clock.timeout(DM_HOLD_S):
                    await asyncio.shield(sending)
            except TimeoutError:
                # The DMs hold the table no longer: they finish beside the worker, the rows stay in flight till then.
                task = asyncio.create_task(self._after_dms(owed, sending), name="table-dms-late")
                self._late_dms.add(task)
                task.add_done_callback(self._late_dms.discard)
                return
            except BaseException:  # the job cancelled: so are its DMs, as before
                sending.cancel()
                self._discard_inflight(owed)
                raise
            await self._after_dms(owed, sending)

        self.worker.put(deliver)

    async def _after_dms(self, owed: list[Owed], sending: asyncio.Future[list[bool | BaseException]]) -> None:
        """Once a hand's DMs are answered (`queue_together`): each one's notice (a refused DM) in order, each sent
        row marked delivered; each DM's outcome on its own, as when each was a job: a failure (logged as the worker
        logs a job's, the row left for the next start) cuts off no other player's notice or delivered mark."""
        try:
            sent = await sending
            for item, outcome in zip(owed, sent, strict=True):
                if isinstance(outcome, BaseException):
                    log.error("table notification failed", exc_info=outcome)
                    continue
                try:
                    await self._after_hole_cards(item, outcome, nonce=item.key)
                except Exception:
                    log.exception("table notification failed")
                    continue
                self._mark_delivered(item.key)
        finally:
            self._discard_inflight(owed)

    def _discard_inflight(self, owed: list[Owed]) -> None:
        for item in owed:
            self._inflight.discard(item.key)

    async def _send_hole_cards(self, owed: Owed, *, nonce: str | None) -> bool:
        """DM a hole-card row's cards to its player: whether Discord took the DM."""
        payload = owed.payload or {}
        cards = decode_cards(payload["cards"])
        proofs = tuple(str(p) for p in payload.get("proofs", ()))
        return await self.notifier.send_hole_cards(
            owed.snapshot, int(payload["user_id"]), cards, nonce=nonce, proofs=proofs
        )

    async def _after_hole_cards(self, owed: Owed, delivered: bool, *, nonce: str | None) -> None:
        """After a hole-card DM: a player whose DM was refused is told once, publicly, to press My cards."""
        user = int((owed.payload or {})["user_id"])
        if delivered:
            self._dm_refused.discard(user)
        elif user not in self._dm_refused:
            self._dm_refused.add(user)
            notice = PlayerAnnouncement(NoticeKind.DM_REFUSED, user, self._state.name(user))
            await self.notifier.announce(owed.snapshot, notice, nonce=None if nonce is None else nonce + "r")

    async def _deliver(self, owed: Owed, *, durable: bool) -> None:
        """Send one owed message; a stored one is then marked delivered (a failure to send leaves it for the
        next start). Posts carry the row's key as nonce, so a second delivery makes no second message."""
        notifier = self.notifier
        payload = owed.payload or {}
        nonce = owed.key if durable else None
        kind = payload_kind(payload)
        if kind is OutboxKind.HOLE_CARDS:
            await self._after_hole_cards(owed, await self._send_hole_cards(owed, nonce=nonce), nonce=nonce)
        elif kind is OutboxKind.CLOSED_TABLE:
            # Only if it is still the table's message (a message retired meanwhile has no buttons, and is final).
            message_id = self._state.message_id
            if message_id == int(payload["message_id"]):
                await notifier.edit_table(dataclasses.replace(owed.snapshot, message_id=message_id))
        elif kind is OutboxKind.REPLY:
            if time.time() - float(payload["created_at"]) < REPLY_TOKEN_LIFETIME_S:
                text = t(str(payload["key"]), str(payload["locale"]), **dict(payload["params"]))
                await notifier.reply(int(payload["application_id"]), str(payload["token"]), text)
        elif owed.announcement is not None:
            # The picture of a street or a showdown is drawn now, from what the message says (never stored).
            picture = await picture_for(owed.snapshot, owed.announcement, self._state.options)
            await notifier.announce(owed.snapshot, owed.announcement, nonce=nonce, picture=picture)
        if durable:
            self._mark_delivered(owed.key)

    def _mark_delivered(self, key: str) -> None:
        """Mark a delivered row, in the background: written behind with every table's (`Storage.remember_delivered`:
        one transaction for all the marks of 0.2 s; delivery does not wait for the database)."""
        self._storage.remember_delivered([key])

    # ------------------------------------------------------------------ presses carrying the table edit

    def carry(self, carrier: Carrier) -> None:
        """Hand over an accepted press (call under the table's lock, once its change is stored): it is answered
        by the next edit of its message (`refresh`), drawn with that change. Acknowledged at once instead when
        its message is no longer the live table (retired or replaced, or not known yet) or it arrived more than
        `CARRY_TIMEOUT_S` ago; acknowledged by a timer when no edit used it within `CARRY_TIMEOUT_S`."""
        if carrier.claimed:
            return  # answered already (the Discord layer did not wait for this edit)
        live = carrier.message_id == self._state.message_id and self._message_generation == self._generation
        if not live or self._clock.time() >= carrier.arrived + CARRY_TIMEOUT_S:
            self._acknowledge([carrier])
            return
        self._carriers.append(carrier)
        if self._carrier_timer is None or self._carrier_timer.done():
            self._carrier_timer = asyncio.create_task(self._expire_carriers(), name="table-press-timer")

    def _take_carrier(self, message_id: int | None) -> Carrier | None:
        """The press to answer with an edit of `message_id` now (the earliest to arrive of those still in
        time); every other waiting press is acknowledged (one answer per edit)."""
        carriers, self._carriers = self._carriers, []
        if not carriers:
            return None
        now = self._clock.time()
        fresh = [c for c in carriers if c.message_id == message_id and now < c.arrived + CARRY_TIMEOUT_S]
        chosen = next((c for c in sorted(fresh, key=lambda c: c.arrived) if c.claim()), None)
        self._acknowledge([c for c in carriers if c is not chosen])
        return chosen

    def _acknowledge(self, carriers: list[Carrier]) -> None:
        """Acknowledge presses that carry no edit, at once, beside the worker (which may be behind); those
        answered by someone else already (`Carrier.claim`) are left alone."""
        for carrier in carriers:
            if not carrier.claim():
                continue
            task = asyncio.create_task(self._send_ack(carrier), name="table-press-ack")
            self._acks.add(task)
            task.add_done_callback(self._acks.discard)

    async def _send_ack(self, carrier: Carrier) -> None:
        try:
            await self.notifier.acknowledge(carrier)
        except Exception:
            log.exception("table %s: could not acknowledge a press", self._state.ids.table_id)

    async def _expire_carriers(self) -> None:
        """Sleep until the first waiting press's deadline, acknowledge those past theirs; one wake-up per task (a
        new one is started for the presses left)."""
        if not self._carriers:
            return
        await self._clock.sleep_until(min(c.arrived for c in self._carriers) + CARRY_TIMEOUT_S)
        now = self._clock.time()
        expired = [c for c in self._carriers if now >= c.arrived + CARRY_TIMEOUT_S]
        self._carriers = [c for c in self._carriers if c not in expired]
        self._acknowledge(expired)
        if self._carriers:
            self._carrier_timer = asyncio.create_task(self._expire_carriers(), name="table-press-timer")

    # ------------------------------------------------------------------ the table message

    def refresh(self) -> None:
        """Queue an edit of the table message; several queued edits become one, with the latest picture."""
        if self._pending_edit:
            return
        self._pending_edit = True
        generation = self._generation
        state = self._state

        async def edit() -> None:
            if generation != self._generation:
                return  # a new table message replaced the one this edit was for
            # The picture is taken with the lock free: then no change is half made (computed, not yet stored).
            async with self._lock:
                if generation != self._generation:
                    return
                self._pending_edit = False
                snap = self._picture()
                summarised = state.hand is None and (state.closed or state.next_hand_at is not None)
                # Taken with the picture: the press it answers is drawn in it.
                carrier = self._take_carrier(snap.message_id)
            if snap.message_id is None:
                if summarised:
                    return  # the last hand's message was summarised: the next deal (or the end notice) follows
                self._posted(await self.notifier.post_table(snap), generation)
            elif carrier is not None:
                await self.notifier.edit_table(snap, carrier)
            else:
                await self.notifier.edit_table(snap)

        self.worker.put(edit)

    def retire_message(
        self, result: HandResult | None, *, showed_hand: bool = True, picture: TableSnapshot | None = None
    ) -> None:
        """Queue the end of the live table message as a table (issue 11 items 1, 11): it becomes one line without
        buttons — `result`, the summary of its hand, or None: "moved to a newer message" (naming the hand
        being played unless `showed_hand` is False: the message showed the table between hands) — and is never
        edited again (edits still queued for it are dropped); the table has no message until the next is
        posted. Once per hand at most (the hand's end), so an action still costs one table edit. `picture`: a
        picture the change took already of the same table and hand (a retired message shows only its channel,
        language and hand number: docs/architecture.md, "The table's snapshots"), else one is taken now."""
        self._pending_edit = False
        self._generation += 1
        self._acknowledge(self._carriers)  # their message is retired: no edit of it will come
        self._carriers = []
        snap = picture if picture is not None else self._picture()
        if not showed_hand:
            snap = dataclasses.replace(snap, hand_number=0)
        state = self._state

        async def retire() -> None:
            message_id = state.message_id  # known by now: the job that posted it ran before this one
            if message_id is None:
                return
            state.message_id = None
            if not state.closed:  # a closed table keeps no message to redraw
                self._storage.remember_table_message(state.ids.table_id, None)  # written behind: no wait
            await self.notifier.retire_table(snap, message_id, result)

        self.worker.put(retire)

    def post_table(self, *, replaces_hand: bool, picture: TableSnapshot | None = None) -> None:
        """Queue a new table message (a new hand, or /poker table); later edits go to it. The message it replaces,
        if any, is retired first (`retire_message`, with `picture`), so no edit meant for it lands on the new
        one and no old message keeps live buttons. replaces_hand: the replaced message showed the hand being
        played (a /poker table during a hand), not the table between hands (a new deal replaces only such a
        message)."""
        self.retire_message(None, showed_hand=replaces_hand, picture=picture)
        generation = self._generation

        async def post() -> None:
            async with self._lock:  # a picture of what is stored (see `refresh`)
                snap = self._picture()
            self._posted(await self.notifier.post_table(snap), generation)

        self.worker.put(post)

    def _posted(self, message_id: int | None, generation: int) -> None:
        """A table message was posted (its id, stored for restarts) by a job of `generation`, or the post failed
        (None): then the old message is forgotten so that the next refresh posts the table again rather than
        editing the previous hand's message."""
        self._state.message_id = message_id
        self._message_generation = generation
        if message_id is not None:
            self._storage.remember_table_message(self._state.ids.table_id, message_id)  # written behind: no wait
