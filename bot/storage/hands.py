"""Hands and their action log: a hand's start, its actions appended one by one (write-ahead), its end.

`Hands` holds the transaction bodies; `ActionLog` commits the appends of one turn of the event loop together
(group commit); the database numbers the actions.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from bot.storage.errors import HandInProgress, HandNotFound, StorageError, TableNotFound
from bot.storage.executor import Dialect, Executor, Tx, WouldWait
from bot.storage.models import Clock, HandRow, PlayerOutcome, TableStatus, dumps
from bot.storage.outbox import Outbox, Owed
from bot.storage.tables import Tables

#: When the write lock is taken, a batch of hand actions is tried again after these pauses (seconds), then waits in
#: line in the database thread.
ACTIONS_RETRY_DELAYS_S = (0.0005, 0.001, 0.002, 0.004)

_Pending = tuple[int, str, float, "asyncio.Future[int]"]

#: PostgreSQL: a batch of actions in one statement, so one round trip that commits itself (`Executor.
#: write_ahead_statement`): the batch's rows (hand ids, JSON texts, times, in the callers' order) and its distinct
#: hand ids; those hands locked by their primary key (a hand cannot end between the read of its last number and the
#: insert), and of them the unfinished ones with their last number (one probe of the primary key's index); the rows
#: of those hands numbered on from there, in order. The rows of a hand that is not unfinished are not inserted
#: (their callers get HandNotFound). The hands are found by `id = ANY` alone and only then filtered on `ended_at`
#: (READ COMMITTED: the locked row is the latest version): with `ended_at IS NULL` in the lookup the planner could
#: read the whole partial index `hands_one_open_per_table` (every unfinished hand, and every hand ended since the
#: last VACUUM) or the whole table, and keep that plan as the table grew (docs/storage.md, "Plans").
APPEND_ACTIONS_POSTGRESQL = """
WITH batch AS (
    SELECT b.hand_id, b.action, b.created_at, b.n
    FROM unnest(CAST(? AS BIGINT[]), CAST(? AS TEXT[]), CAST(? AS DOUBLE PRECISION[]))
        WITH ORDINALITY AS b (hand_id, action, created_at, n)
), locked AS MATERIALIZED (
    SELECT h.id, h.ended_at FROM hands h WHERE h.id = ANY(CAST(? AS BIGINT[])) ORDER BY h.id FOR UPDATE
), open_hands AS (
    SELECT l.id, (SELECT MAX(a.seq) FROM hand_actions a WHERE a.hand_id = l.id) AS last
    FROM locked l WHERE l.ended_at IS NULL
)
INSERT INTO hand_actions (hand_id, seq, action, created_at)
SELECT b.hand_id, COALESCE(o.last, -1) + ROW_NUMBER() OVER (PARTITION BY b.hand_id ORDER BY b.n), b.action,
    b.created_at
FROM batch b JOIN open_hands o ON o.id = b.hand_id
RETURNING hand_id, seq
"""

#: A hand's start: the table's unfinished hand and any hand of the new number, in one statement (one round trip).
START_CHECK = "SELECT number, ended_at FROM hands WHERE table_id = ? AND (ended_at IS NULL OR number = ?)"


def open_hands_sql(count: int, for_update: str = "") -> str:
    """A batch's hands that are unfinished, each with its last action's number (`ActionLog._store`), for `count`
    hand ids."""
    marks = ", ".join("?" * count)
    return f"""
            SELECT h.id, (SELECT MAX(a.seq) FROM hand_actions a WHERE a.hand_id = h.id) AS last
            FROM hands h WHERE h.id IN ({marks}) AND h.ended_at IS NULL{for_update}
            """


#: A hand's end, guarded: only an unfinished hand ends (two finishes of one hand at once end it once).
_END_HAND = "UPDATE hands SET ended_at = ?, result = ? WHERE id = ? AND ended_at IS NULL"


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
        # An unfinished hand and a hand of this number, in one statement (one round trip on PostgreSQL).
        found = await tx.all(START_CHECK, (table_id, number))
        if any(r["ended_at"] is None for r in found):
            raise HandInProgress(f"table {table_id} has an unfinished hand")
        if found:
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
        """Body of `Storage.finish_hand`. Seven statements (PostgreSQL: nine round trips with BEGIN and COMMIT;
        it was eleven): the hand's table and the table's row locked in one, the guarded end of the hand returning
        its players in one, one read of the seats for the stacks' check and the players' final stacks."""
        # The table's row first (every write of a table does, here found through the hand), then whether the hand
        # is still unfinished: another process's finish_hand or close_table of the same hand may have committed
        # while this one waited. (A closed table's hands are all ended: HandNotFound, as before the lock.)
        table = await tx.one(
            "SELECT t.id, t.status FROM hands h JOIN poker_tables t ON t.id = h.table_id WHERE h.id = ?"
            + (" FOR UPDATE OF t" if tx.dialect.for_update else ""),
            (hand_id,),
        )
        if table is None:
            raise HandNotFound(f"no unfinished hand {hand_id}")
        table_id = table["id"]
        # The hand ended by a guarded UPDATE, with its players' rows (none: it was not unfinished); PostgreSQL in
        # one statement (the UPDATE's RETURNING feeds the read), SQLite (no UPDATE in a WITH) in two.
        ending = (self._clock(), dumps(dict(result)), hand_id)
        players_sql = "SELECT p.user_id, p.seat, p.starting_stack FROM hand_players p"
        if tx.dialect is Dialect.POSTGRESQL:
            rows = await tx.all(
                f"WITH ended AS ({_END_HAND} RETURNING id) {players_sql} JOIN ended e ON p.hand_id = e.id", ending
            )
        elif await tx.execute(_END_HAND, ending):
            rows = await tx.all(f"{players_sql} WHERE p.hand_id = ?", (hand_id,))
        else:
            rows = []
        if not rows:
            raise HandNotFound(f"no unfinished hand {hand_id}")
        if table["status"] != TableStatus.OPEN:
            raise TableNotFound(f"no open table {table_id}")
        seated = await self._tables.set_stacks(tx, table_id, stacks)
        outcomes = players or {}
        updates = []
        for r in rows:
            final = seated.get((r["seat"], r["user_id"]))
            o = outcomes.get(r["user_id"], PlayerOutcome())
            updates.append(
                (
                    final,
                    None if final is None else final - r["starting_stack"],
                    o.won,
                    int(o.showed),
                    int(o.vpip),
                    int(o.pfr),
                    int(o.went_to_showdown),
                    int(o.won_at_showdown),
                    int(o.preflop_decision),
                    hand_id,
                    r["user_id"],
                )
            )
        # One executemany (PostgreSQL: the players' updates in one round trip, not one each).
        await tx.executemany(
            """
            UPDATE hand_players SET final_stack = ?, net = ?, won = ?, showed = ?, vpip = ?, pfr = ?,
                went_to_showdown = ?, won_at_showdown = ?, preflop_decision = ?
            WHERE hand_id = ? AND user_id = ?
            """,
            updates,
        )
        await self._outbox.attach(tx, table_id, state, outbox, None)

    async def show(self, tx: Tx, hand_id: int, entry: Mapping[str, Any], player: int, outbox: Owed) -> int:
        """Body of `Storage.show_cards`."""
        hand = await tx.one("SELECT table_id, number, ended_at FROM hands WHERE id = ?", (hand_id,))
        if hand is None or hand["ended_at"] is None:
            raise HandNotFound(f"no finished hand {hand_id}")
        table_id = hand["table_id"]
        # The table's row first (every write of a table does): no hand can be dealt there meanwhile.
        table = await tx.one(f"SELECT status FROM poker_tables WHERE id = ?{tx.dialect.for_update}", (table_id,))
        if table is None or table["status"] != TableStatus.OPEN:
            raise TableNotFound(f"no open table {table_id}")
        if await tx.one("SELECT 1 FROM hands WHERE table_id = ? AND number > ?", (table_id, hand["number"])):
            raise HandNotFound(f"hand {hand_id} is no longer the last hand of table {table_id}")
        last = await tx.one("SELECT MAX(seq) AS last FROM hand_actions WHERE hand_id = ?", (hand_id,))
        seq = 0 if last is None or last["last"] is None else int(last["last"]) + 1
        await tx.execute(
            "INSERT INTO hand_actions (hand_id, seq, action, created_at) VALUES (?, ?, ?, ?)",
            (hand_id, seq, dumps(dict(entry)), self._clock()),
        )
        await tx.execute("UPDATE hand_players SET showed = 1 WHERE hand_id = ? AND player_index = ?", (hand_id, player))
        await self._outbox.attach(tx, table_id, None, outbox, seq)
        return seq

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
    (PostgreSQL, an in-memory SQLite database) every batch goes through `Executor.write_ahead`, one at a time
    (PostgreSQL: on a connection kept for them, never queued behind the other writes; the writer starts at a
    turn's first append and sends the turn's batch on the next turn, then whatever was appended meanwhile). Each
    caller returns only once its own row is committed; a refused row (hand not open) refuses only its caller."""

    def __init__(self, executor: Executor, clock: Clock) -> None:
        self._executor = executor
        self._clock = clock
        self._closed = False
        self._pending: list[_Pending] = []
        self._writes: set[asyncio.Task[None]] = set()  # the backlog's task, while it runs
        self._backlog: list[_Pending] | None = None  # batches waiting, oldest first

    async def append(self, hand_id: int, action: Mapping[str, Any]) -> int:
        """Body of `Storage.append_action`."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[int] = loop.create_future()
        self._pending.append((hand_id, dumps(dict(action)), self._clock(), future))
        if len(self._pending) == 1:
            if self._executor.can_write_now or self._closed:
                loop.call_soon(self._send)
            elif self._backlog is None:
                # PostgreSQL: the writer starts now; its first step, on the loop's next turn, takes the appends
                # of this turn (a `call_soon(_send)` that then started it cost one more turn of the busy loop).
                self._backlog = []
                self._start_writer()
            # else a writer is running: it takes what is pending once its batch is stored
        return await future

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
        self._start_writer()

    def _start_writer(self) -> None:
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
            return [_as_storage_error(exc)] * len(rows)

    async def _write_backlog(self) -> None:
        """Store the batches that could not go in at once, oldest first; batches made meanwhile wait behind them.

        Each is tried again on the actions' connection after 0.5, 1, 2 and 4 ms (the database thread's
        transactions are short); if the lock is still taken (or there is no such connection) it goes to the
        executor as a transaction of its own, in line with its other work, so that a busy thread never starves
        the actions."""
        try:
            while self._backlog or self._pending:
                batch = [*(self._backlog or ()), *self._pending]  # the batches waiting, then this turn's appends
                self._backlog, self._pending = [], []
                rows = _rows(batch)
                try:
                    outcomes = await self._store_backlog(rows)
                except Exception as exc:
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
        if self._executor.dialect is Dialect.POSTGRESQL:
            return await self._store_in_one_statement(rows)

        async def store(tx: Tx) -> list[int | StorageError]:
            return await self._store(tx, rows)

        return await self._executor.write_ahead(store)

    async def _store_in_one_statement(self, rows: list[tuple[int, str, float]]) -> list[int | StorageError]:
        """PostgreSQL: the batch inserted by one statement that commits itself (APPEND_ACTIONS_POSTGRESQL), one
        round trip instead of four (BEGIN, the numbers' read, the inserts, COMMIT), each of which waited for the
        busy event loop to resume the batch while the actions queued behind it. Same outcomes as `_store`."""
        inserted = await self._executor.write_ahead_statement(
            APPEND_ACTIONS_POSTGRESQL,
            (
                [hand_id for hand_id, _, _ in rows],
                [text for _, text, _ in rows],
                [at for _, _, at in rows],
                sorted({hand_id for hand_id, _, _ in rows}),
            ),
        )
        numbers: dict[int, list[int]] = {}
        for row in inserted:
            numbers.setdefault(int(row["hand_id"]), []).append(int(row["seq"]))
        for seqs in numbers.values():
            seqs.sort(reverse=True)  # a hand's rows took its numbers in the batch's order: pop the lowest first
        outcomes: list[int | StorageError] = []
        for hand_id, _, _ in rows:
            taken = numbers.get(hand_id)
            outcomes.append(taken.pop() if taken else HandNotFound(f"no unfinished hand {hand_id}"))
        return outcomes

    @staticmethod
    async def _store(tx: Tx, rows: list[tuple[int, str, float]]) -> list[int | StorageError]:
        """Insert a batch of actions [(hand id, JSON text, time)] in the caller's transaction and return, per row,
        its sequence number or the HandNotFound its caller gets.

        The numbers are read in the batch's own transaction, once per batch: each unfinished hand's last number
        (one probe of the primary key's index per hand), its row locked until the commit (PostgreSQL: a hand
        cannot end between this read and the inserts; SQLite's writer is alone anyway). No number is kept
        anywhere between two batches, so a rolled-back batch leaves no gap and a hand ended by anyone refuses the
        rows that come after. (This replaced a cache of next numbers shared by the event loop's thread and the
        database thread: the same cost, measured in docs/storage.md, "The hand-action log".)"""
        hands = sorted({hand_id for hand_id, _, _ in rows})
        found = await tx.all(open_hands_sql(len(hands), tx.dialect.for_update), hands)
        next_seq = {int(r["id"]): 0 if r["last"] is None else int(r["last"]) + 1 for r in found}
        outcomes: list[int | StorageError] = []
        inserts: list[tuple[int, int, str, float]] = []
        for hand_id, text, at in rows:
            seq = next_seq.get(hand_id)
            if seq is None:
                outcomes.append(HandNotFound(f"no unfinished hand {hand_id}"))
                continue
            next_seq[hand_id] = seq + 1
            inserts.append((hand_id, seq, text, at))
            outcomes.append(seq)
        if inserts:
            await tx.executemany(
                "INSERT INTO hand_actions (hand_id, seq, action, created_at) VALUES (?, ?, ?, ?)", inserts
            )
        return outcomes
