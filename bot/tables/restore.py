"""A table read back from storage: after a restart or a storage fault (its seats, flags and unfinished hand, by
replay of the stored hand), what it still owes Discord (the outbox rows not delivered), and a closed table that
only delivers (docs/architecture.md, "The hand is its history"; docs/outbox.md).

`Restorer` works on the runner's `TableCore`, under the runner's lock.
"""

from __future__ import annotations

import logging

from bot.poker import Hand, Table
from bot.storage import HandRow, OutboxRow, TableRow
from bot.tables.core import Scheduler, TableCore
from bot.tables.hands import Hands
from bot.tables.host import Host
from bot.tables.kinds import OutboxKind
from bot.tables.notifier import Announcement
from bot.tables.outbox import Owed, UnknownKind, decode_announcement, known_kind
from bot.tables.record import StoredHand, replay, replay_actions
from bot.tables.results import hand_result
from bot.tables.run_twice import restored_deadline as run_twice_deadline
from bot.tables.shows import decode_shown
from bot.tables.timebank_turn import restored_deadline as time_bank_deadline

log = logging.getLogger(__name__)

#: The outbox rows of a kind this version does not know that this process has logged (each is logged once).
_KEPT_LOGGED: set[str] = set()

#: Seconds given to the player to act when a table resumes after a storage fault (their time had already run).
FAULT_RESUME_GRACE = 2.0


class Restorer:
    """Rebuilds a table's memory from storage (see the module docstring)."""

    def __init__(self, core: TableCore, scheduler: Scheduler, hands: Hands, host: Host) -> None:
        self._core = core
        self._state = core.state
        self._scheduler = scheduler
        self._hands = hands
        self._host = host

    async def restore(self, row: TableRow, *, grace: float) -> None:
        """See `TableRunner.restore`."""
        state, core = self._state, self._core
        table_id = state.ids.table_id
        stored = dict(row.state or {})
        open_hand = await core.storage.open_hand(table_id)
        if "table" in stored:
            table_json = dict(stored["table"])
            if open_hand is None:
                # The process may have stopped between storing a hand's end and saving the table state.
                table_json["in_hand"] = False
            state.table = Table.from_json(table_json)
        state.table.sync_seats({s.seat: (s.user_id, s.stack) for s in row.seats})
        state.load_flags(stored)
        last = await core.storage.hands_for_table(table_id, limit=1)
        state.hand_number = max([int(stored.get("hand_number", 0))] + [h.number for h in last])
        state.message_id = row.message_id
        if open_hand is not None:
            dealt = StoredHand.from_json(open_hand.record)
            hand = Hand.from_record(dealt.record)
            last_at = replay_actions(hand, open_hand.actions)
            state.hand, state.hand_id, state.hand_number = hand, open_hand.id, open_hand.number
            state.hand_seats, state.hand_users = dealt.seats, dealt.users
            state.seal = dealt.seal
            state.table.resume_hand(hand, state.hand_seats)
            core.mark_committed()
            if await self._complete_forfeits(hand):
                pass  # the fold's own course: the next turn, or the hand's end
            elif hand.is_complete:
                await self._hands.finish_hand()
            elif hand.run_twice_pending:
                # The question "run it twice?" keeps the time it had left (from the action that closed the betting).
                now = core.clock.time()
                self._scheduler.start_turn(run_twice_deadline(open_hand.started_at, open_hand.actions, now))
            else:
                acted_at = open_hand.started_at if last_at is None else last_at
                now = core.clock.time()
                deadline = max(acted_at + state.options.turn_timeout, now + grace)
                deadline = time_bank_deadline(state, hand, acted_at, deadline, now, grace)
                self._scheduler.start_turn(deadline)
        elif last and last[0].ended_at is not None and self._after_hand_unfinished(last[0]):
            # The process stopped between storing a hand's end and what follows it (busted players unseated,
            # leavers and kicked players gone, rebuys made): do it now, so that no notice owed is lost.
            core.mark_committed()
            ended = StoredHand.from_json(last[0].record)
            seats, users = ended.seats, ended.users
            busted = tuple(s for s, u in zip(seats, users, strict=True) if state.seat_holds(s, u, stack=0))
            await self._hands.after_hand(busted, users, seats, Hand.from_record(ended.record))
        core.delivery.refresh()
        # A tournament left with one player whose close was not stored (an outage after the last stand-up, or a
        # stop): close it now, as the stand-up would have (docs/storage.md, "Outages"); else deal the next hand.
        if state.hand is None and not await self._host.end_tournament_if_won():
            self._scheduler.schedule_next_hand()

    async def reload(self) -> None:
        """After a storage failure whose outcome may be unknown (e.g. a timeout): make memory what storage holds (the
        turn given `FAULT_RESUME_GRACE`), then deliver what storage says is owed and not yet delivered. A table
        closed in storage meanwhile is closed (`Scheduler.table_closed`)."""
        state, core = self._state, self._core
        async with core.clock.timeout(core.write_timeout_s):
            row = await core.storage.table(state.ids.table_id)
        if row is None or row.status != "open":
            self._scheduler.table_closed()
            return
        self._scheduler.cancel_turn()
        state.clear_hand()
        await self.restore(row, grace=FAULT_RESUME_GRACE)
        core.stale = False
        await self.deliver_pending(None)

    async def _complete_forfeits(self, hand: Hand) -> bool:
        """A leave stored without its fold (an outage between its two writes, or a stop): the stored mark is the
        intent, so fold the leaver's live hand now (stored as the forfeit it is); the forfeit's notice, stored
        with the mark, is told after this by `deliver_pending`. True when a fold was played."""
        state = self._state
        played = False
        for player, user in enumerate(state.hand_users):
            if user in state.leaving and state.hand is hand and not hand.is_complete and hand.can_forfeit(player):
                await self._hands.forfeit(player)
                played = True
        return played

    def _after_hand_unfinished(self, ended: HandRow) -> bool:
        """After finished hand `ended`, is what follows a hand's end still to do? (A player of it still seated
        without chips, a leaver or a kicked player still seated, or a rebuy still pending: `Hands.after_hand`
        clears all of them.)"""
        state = self._state
        dealt = StoredHand.from_json(ended.record)
        busted = any(state.seat_holds(s, u, stack=0) for s, u in zip(dealt.seats, dealt.users, strict=True))
        return busted or bool(state.leaving or state.kicked or state.rebuys)

    async def deliver_pending(self, rows: list[OutboxRow] | None) -> int:
        """See `TableRunner.deliver_pending`."""
        state, core = self._state, self._core
        if rows is None:
            rows = await core.storage.pending_outbox(state.ids.table_id)
        snap = core.snapshot()
        queued = 0
        for row in rows:
            if core.delivery.in_flight(row.key):
                continue
            payload = row.payload
            announcement: Announcement | None = None
            try:
                match known_kind(payload):  # UnknownKind for a newer version's row, whatever its kind
                    case OutboxKind.ANNOUNCE:
                        announcement = decode_announcement(payload["announcement"])
                    case OutboxKind.HAND_RESULT:
                        announcement = await self._stored_result(int(payload["hand_number"]))
                    case OutboxKind.SHOWN:
                        announcement = decode_shown(payload)
            except UnknownKind as exc:  # a newer version's: kept for it (never marked), the rows after it go on
                if row.key not in _KEPT_LOGGED:
                    _KEPT_LOGGED.add(row.key)
                    log.warning(
                        "table %s: outbox row %s is of a kind this version does not know (%s): kept undelivered, for"
                        " a version that knows it",
                        state.ids.table_id,
                        row.key,
                        exc,
                    )
                continue
            except Exception:
                log.exception("table %s: outbox row %s cannot be read; dropped", state.ids.table_id, row.key)
                await core.storage.mark_delivered([row.key])
                continue
            core.delivery.queue(Owed(row.key, payload, snap, announcement), durable=True)
            queued += 1
        return queued

    async def _stored_result(self, number: int) -> Announcement:
        """A finished hand's result, built again from its stored record (the engine replays it exactly)."""
        state = self._state
        row = await self._core.storage.hand_by_number(state.ids.table_id, number)
        if row is None:
            raise ValueError(f"no hand {number} at table {state.ids.table_id}")
        users = StoredHand.from_json(row.record).users
        return hand_result(replay(row), number, users, [state.name(u) for u in users]).announcement

    def load_closed(self, row: TableRow) -> None:
        """See `TableRunner.load_closed`."""
        state = self._state
        stored = dict(row.state or {})
        state.names = {int(k): v for k, v in stored.get("names", {}).items()}
        state.hand_number = int(stored.get("hand_number", 0))
        state.message_id = row.message_id
        state.closed = True
