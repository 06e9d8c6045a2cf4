"""Hands and their action log: a hand's start, its actions appended one by one (write-ahead), its end.

`Hands` holds the transaction bodies; `ActionLog` commits the appends of one turn of the event loop together
(group commit) and is the only one to number actions.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from bot.storage.errors import HandInProgress, HandNotFound, StorageError
from bot.storage.executor import Executor, Tx, WouldWait
from bot.storage.models import Clock, HandRow, PlayerOutcome, Row, dumps
from bot.storage.outbox import Outbox, Owed
from bot.storage.tables import Tables

#: When the write lock is taken, a batch of hand actions is tried again after these pauses (seconds), then waits in
#: line in the database thread.
ACTIONS_RETRY_DELAYS_S = (0.0005, 0.001, 0.002, 0.004)

_Pending = tuple[int, str, float, "asyncio.Future[int]"]


class Hands:
    """The `hands`, `hand_players` and `hand_actions` tables (the actions are appended by `ActionLog`)."""

    def __init__(self, tables: Tables, outbox: Outbox, clock: Clock) -> None:
        self._tables = tables
        self._outbox = outbox
        self._clock = clock

    async def start(
        self,
        tx: Tx,
        table_id: int,
        number: int,
        record_json: Mapping[str, Any],
        seats: Sequence[Mapping[str, int]],
        state: Mapping[str, Any] | None,
        outbox: Owed,
    ) -> int:
        """Body of `Storage.start_hand`."""
        if len(seats) < 2:
            raise ValueError("a hand needs at least two players")
        await self._tables.open_table(tx, table_id)
        if await tx.one("SELECT 1 FROM hands WHERE table_id = ? AND ended_at IS NULL", (table_id,)):
            raise HandInProgress(f"table {table_id} has an unfinished hand")
        if await tx.one("SELECT 1 FROM hands WHERE table_id = ? AND number = ?", (table_id, number)):
            raise StorageError(f"table {table_id} already has a hand number {number}")
        row = await tx.one(
            "INSERT INTO hands (table_id, number, started_at, record) VALUES (?, ?, ?, ?) RETURNING id",
            (table_id, number, self._clock(), dumps(dict(record_json))),
        )
        assert row is not None
        hand_id = int(row["id"])
        await tx.executemany(
            "INSERT INTO hand_players (hand_id, user_id, seat, player_index, starting_stack) VALUES (?, ?, ?, ?, ?)",
            [(hand_id, s["user_id"], s["seat"], s.get("player", index), s["stack"]) for index, s in enumerate(seats)],
        )
        await self._outbox.attach(tx, table_id, state, outbox, hand_id)
        return hand_id

    async def finish(
        self,
        tx: Tx,
        hand_id: int,
        result: Mapping[str, Any],
        stacks: Mapping[int, int],
        players: Mapping[int, PlayerOutcome] | None,
        state: Mapping[str, Any] | None,
        outbox: Owed,
    ) -> None:
        """Body of `Storage.finish_hand`."""
        hand = await tx.one("SELECT table_id, ended_at FROM hands WHERE id = ?", (hand_id,))
        if hand is None or hand["ended_at"] is not None:
            raise HandNotFound(f"no unfinished hand {hand_id}")
        table_id = hand["table_id"]
        await self._tables.open_table(tx, table_id)
        await self._tables.set_stacks(tx, table_id, stacks)
        await tx.execute(
            "UPDATE hands SET ended_at = ?, result = ? WHERE id = ?", (self._clock(), dumps(dict(result)), hand_id)
        )
        outcomes = players or {}
        rows = await tx.all("SELECT user_id, seat, starting_stack FROM hand_players WHERE hand_id = ?", (hand_id,))
        seated = {
            (r["seat"], r["user_id"]): r["stack"]
            for r in await tx.all("SELECT seat, user_id, stack FROM table_seats WHERE table_id = ?", (table_id,))
        }
        for r in rows:
            final = seated.get((r["seat"], r["user_id"]))
            o = outcomes.get(r["user_id"], PlayerOutcome())
            await tx.execute(
                """
                UPDATE hand_players SET final_stack = ?, net = ?, won = ?, showed = ?, vpip = ?, pfr = ?,
                    went_to_showdown = ?, won_at_showdown = ?
                WHERE hand_id = ? AND user_id = ?
                """,
                (
                    final,
                    None if final is None else final - r["starting_stack"],
                    o.won,
                    int(o.showed),
                    int(o.vpip),
                    int(o.pfr),
                    int(o.went_to_showdown),
                    int(o.won_at_showdown),
                    hand_id,
                    r["user_id"],
                ),
            )
        await self._outbox.attach(tx, table_id, state, outbox, None)

    @staticmethod
    async def hands(tx: Tx, where: str, params: Sequence[Any], limit: int) -> list[HandRow]:
        """The hands matching `where` (SQL over `hands`), highest number first, with their actions and players."""
        rows = await tx.all(f"SELECT * FROM hands WHERE {where} ORDER BY number DESC LIMIT ?", (*params, limit))
        found = []
        for h in rows:
            actions = await tx.all("SELECT action FROM hand_actions WHERE hand_id = ? ORDER BY seq", (h["id"],))
            players = await tx.all("SELECT * FROM hand_players WHERE hand_id = ? ORDER BY player_index", (h["id"],))
            found.append(HandRow.from_row(h, actions, players))
        return found


def _as_storage_error(exc: Exception) -> StorageError:
    return exc if isinstance(exc, StorageError) else StorageError(f"could not store the actions: {exc}")


def _rows(batch: list[_Pending]) -> list[tuple[int, str, float]]:
    return [(hand_id, text, at) for hand_id, text, at, _ in batch]


def _settle(batch: list[_Pending], outcomes: list[int | StorageError]) -> None:
    """Tell each caller of a batch of appends its outcome (a sequence number, or the error to raise)."""
    for (_, _, _, future), outcome in zip(batch, outcomes, strict=True):
        if future.done():
            continue
        if isinstance(outcome, StorageError):
            future.set_exception(outcome)
        else:
            future.set_result(outcome)


class ActionLog:
    """Appends hand actions, committed before `append` returns (write-ahead), a batch per turn of the event loop.

    On SQLite the batch is committed right there in the event loop (`Executor.write_now`, on a second connection):
    an insert and a commit in WAL mode without fsync take tens of microseconds, far less than a trip to the
    database thread and back through a busy loop (which was most of a slash command's latency at 100 tables).
    While that thread holds the write lock, the batch is tried again a few times within milliseconds, then waits in
    line in the thread; later batches wait behind it (`_write_backlog`). Where `write_now` cannot be used
    (PostgreSQL, an in-memory SQLite database) every batch goes through `Executor.write`, one at a time. Each
    caller returns only once its own row is committed; a refused row (hand not open) refuses only its caller."""

    def __init__(self, executor: Executor, clock: Clock) -> None:
        self._executor = executor
        self._clock = clock
        self._closed = False
        self._pending: list[_Pending] = []
        self._writes: set[asyncio.Task[None]] = set()  # the backlog's task, while it runs
        self._backlog: list[_Pending] | None = None  # batches waiting, oldest first
        self._next_seq: dict[int, int] = {}  # next action number of unfinished hands, filled on first append

    async def append(self, hand_id: int, action: Mapping[str, Any]) -> int:
        """Body of `Storage.append_action`."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[int] = loop.create_future()
        self._pending.append((hand_id, dumps(dict(action)), self._clock(), future))
        if len(self._pending) == 1:
            loop.call_soon(self._send)
        return await future

    def forget(self, hand_id: int | None = None) -> None:
        """A hand ends (None: one hand of a table being closed): its next number is read again if it is needed."""
        if hand_id is None:
            self._next_seq.clear()
        else:
            self._next_seq.pop(hand_id, None)

    async def close(self) -> None:
        """Commit the queued appends and wait for the backlog; later appends are refused."""
        self._send()
        while self._writes:
            await asyncio.gather(*self._writes, return_exceptions=True)
        self._closed = True

    def _send(self) -> None:
        """Commit the appends queued during this turn of the loop, as one batch: at once on the actions'
        connection; behind the batches already waiting (order kept), or when the write lock is taken, in the
        backlog task (`_write_backlog`)."""
        batch, self._pending = self._pending, []
        if not batch:
            return
        if self._backlog is not None:
            self._backlog.extend(batch)
            return
        if self._executor.can_write_now and not self._closed:
            try:
                outcomes = self._commit_now(_rows(batch))
            except WouldWait:
                pass  # the database thread is writing
            else:
                _settle(batch, outcomes)
                return
        self._backlog = list(batch)
        task = asyncio.ensure_future(self._write_backlog())
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    def _commit_now(self, rows: list[tuple[int, str, float]]) -> list[int | StorageError]:
        """Insert and commit a batch at once, in the event loop (`Executor.write_now`). Raises WouldWait (nothing
        done) when another writer holds the lock; any other failure refuses the whole batch (rolled back)."""

        async def store(tx: Tx) -> list[int | StorageError]:
            return await self._store(tx, rows)

        try:
            return self._executor.write_now(store)
        except WouldWait:
            raise
        except Exception as exc:
            self._next_seq.clear()  # numbers handed out in this transaction are void
            return [_as_storage_error(exc)] * len(rows)

    async def _write_backlog(self) -> None:
        """Store the batches that could not go in at once, oldest first; batches made meanwhile wait behind them.

        Each is tried again on the actions' connection after 0.5, 1, 2 and 4 ms (the database thread's
        transactions are short); if the lock is still taken (or there is no such connection) it goes to the
        executor as a transaction of its own, in line with its other work, so that a busy thread never starves
        the actions."""
        try:
            while self._backlog:
                batch, self._backlog = self._backlog, []
                rows = _rows(batch)
                try:
                    outcomes = await self._store_backlog(rows)
                except Exception as exc:
                    self._next_seq.clear()  # a failed batch's numbers are void (no other batch ran meanwhile)
                    outcomes = [_as_storage_error(exc)] * len(rows)
                _settle(batch, outcomes)
        finally:
            self._backlog = None

    async def _store_backlog(self, rows: list[tuple[int, str, float]]) -> list[int | StorageError]:
        if self._executor.can_write_now:
            for delay in ACTIONS_RETRY_DELAYS_S:
                await asyncio.sleep(delay)
                if self._closed:
                    raise StorageError("the database is closed")
                try:
                    return self._commit_now(rows)
                except WouldWait:
                    continue

        async def store(tx: Tx) -> list[int | StorageError]:
            return await self._store(tx, rows)

        return await self._executor.write(store)

    async def _store(self, tx: Tx, rows: list[tuple[int, str, float]]) -> list[int | StorageError]:
        """Insert a batch of actions [(hand id, JSON text, time)] in the caller's transaction and return, per
        row, its sequence number or the HandNotFound its caller gets.

        Sequence numbers come from a cache (`_next_seq`, read once per hand); this batch works on its own copy of
        the entries it needs and writes them back at the end, so that a concurrent forgetting (a hand's end) never
        makes a live hand look unknown. Each insert is guarded by "the hand is still unfinished" and a guard that
        stored nothing (the hand ended behind the cache) refuses its row and forgets that hand. A failed
        transaction makes its caller clear the cache."""
        hands = {hand_id for hand_id, _, _ in rows}
        known = {hand_id: self._next_seq[hand_id] for hand_id in hands if hand_id in self._next_seq}
        unknown = sorted(hands - known.keys())
        if unknown:
            marks = ", ".join("?" * len(unknown))
            found = await tx.all(
                f"""
                SELECT h.id, (SELECT COALESCE(MAX(a.seq) + 1, 0) FROM hand_actions a WHERE a.hand_id = h.id) AS n
                FROM hands h WHERE h.id IN ({marks}) AND h.ended_at IS NULL
                """,
                unknown,
            )
            known.update({row["id"]: int(row["n"]) for row in found})
        outcomes: list[int | StorageError] = []
        inserts: list[tuple[int, int, str, float, int]] = []
        for hand_id, text, at in rows:
            seq = known.get(hand_id)
            if seq is None:
                outcomes.append(HandNotFound(f"no unfinished hand {hand_id}"))
                continue
            known[hand_id] = seq + 1
            inserts.append((hand_id, seq, text, at, hand_id))
            outcomes.append(seq)
        self._next_seq.update(known)
        stored = 0
        for insert in inserts:
            stored += await tx.execute(
                """
                INSERT INTO hand_actions (hand_id, seq, action, created_at)
                SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM hands WHERE id = ? AND ended_at IS NULL)
                """,
                insert,
            )
        if stored != len(inserts):
            outcomes = await self._recheck(tx, outcomes, inserts)
        return outcomes

    async def _recheck(
        self, tx: Tx, outcomes: list[int | StorageError], inserts: list[tuple[int, int, str, float, int]]
    ) -> list[int | StorageError]:
        """Some guarded inserts stored nothing (their hand ended meanwhile): find which, refuse those rows
        with HandNotFound and forget those hands' cached sequence numbers."""
        ids = sorted({row[0] for row in inserts})
        marks = ", ".join("?" * len(ids))
        found: list[Row] = await tx.all(f"SELECT hand_id, seq FROM hand_actions WHERE hand_id IN ({marks})", ids)
        stored = {(row["hand_id"], row["seq"]) for row in found}
        checked: list[int | StorageError] = []
        rows_by_outcome = iter(inserts)
        for outcome in outcomes:
            if isinstance(outcome, StorageError):
                checked.append(outcome)
                continue
            hand_id, seq, _, _, _ = next(rows_by_outcome)
            if (hand_id, seq) in stored:
                checked.append(outcome)
            else:
                self._next_seq.pop(hand_id, None)
                checked.append(HandNotFound(f"no unfinished hand {hand_id}"))
        return checked
