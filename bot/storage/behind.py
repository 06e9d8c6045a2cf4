"""Write-behind: the small writes no change waits for, gathered for a moment and written together.

Two kinds (docs/outbox.md, "Exactly once"): the outbox rows marked delivered (`Storage.mark_delivered`,
`remember_delivered`) and each table's current message id (`Storage.remember_table_message`). Each was a
transaction of its own, seven or eight per hand of every table: most of the database thread's work under load
(each trip to that thread costs its GIL hand-overs, whatever the statement). Now what the tables ask for during
`WRITE_BEHIND_S` is one transaction (SQLite: one trip to the thread; PostgreSQL: one statement that commits
itself, one round trip). A mark lost in a crash makes its row delivered again (a post carries its key as nonce, so
Discord keeps one message). A new table message's id is written at once (with whatever waits): a restart must know
which message carries the live buttons; only the forgetting of a retired message's id waits (lost in a crash, the
restart redraws the retired message and the next deal retires it again, as after a crash at a hand's end).

Reads that depend on them see them: `Storage.pending_outbox` and the table reads (`Storage.table`, `open_tables`...)
write what is waiting first (`WriteBehind.flush`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from bot.render.counted import counted
from bot.storage.executor import Dialect, Executor, Tx
from bot.storage.models import Clock

log = logging.getLogger(__name__)

#: How long the writes asked for are gathered before they are written together (seconds).
WRITE_BEHIND_S = 0.2

#: SQLite: at most this many keys in one statement (its limit of host parameters is far above).
_KEYS_PER_STATEMENT = 500

#: PostgreSQL: the marks and the message ids in one statement that commits itself (one round trip; the outbox's
#: UPDATE runs whether or not the rest reads it). Rows are found by their unique key alone: with `delivered_at IS
#: NULL` (or `status = 'open'`) in the lookup the planner could read the whole partial index `outbox_pending`
#: (every row not delivered, and every row delivered since the last VACUUM) or `poker_tables_one_open_per_channel`,
#: and keep that plan as the tables grew (docs/storage.md, "Plans"). So a row delivered already keeps its first
#: time (COALESCE) and a closed table its message id (CASE): the same outcomes as the guarded UPDATEs.
_WRITE_POSTGRESQL = """
WITH marked AS (
    UPDATE outbox SET delivered_at = COALESCE(delivered_at, ?) WHERE key = ANY(CAST(? AS TEXT[]))
)
UPDATE poker_tables t SET message_id = CASE WHEN t.status = 'open' THEN m.message_id ELSE t.message_id END
FROM unnest(CAST(? AS BIGINT[]), CAST(? AS BIGINT[])) AS m (id, message_id)
WHERE t.id = m.id
"""


def sqlite_marks(count: int) -> str:
    """SQLite: the delivered marks of `count` keys (the time, then the keys)."""
    marks = ", ".join("?" * count)
    return f"UPDATE outbox SET delivered_at = ? WHERE key IN ({marks}) AND delivered_at IS NULL"


class WriteBehind:
    """Delivered marks and table-message ids, written together every `delay_s` seconds (at most one write at a
    time, in the order asked: a table's last message id wins). `mark_delivered` returns once its keys are
    committed; `remember_delivered` and `remember_message` return at once. `flush` writes what is waiting now;
    `close` flushes."""

    def __init__(self, executor: Executor, clock: Clock, delay_s: float = WRITE_BEHIND_S) -> None:
        self._executor = executor
        self._clock = clock
        self._delay_s = delay_s
        self._keys: list[str] = []
        self._messages: dict[int, int | None] = {}  # table id -> its message id (None: it has none now)
        self._waiters: list[asyncio.Future[None]] = []
        self._timer: asyncio.TimerHandle | None = None
        self._writing: asyncio.Task[None] | None = None
        self._urgent = False  # a new table message's id waits: written without gathering

    @property
    def waiting(self) -> bool:
        """Whether some write asked for is not committed yet."""
        return bool(self._keys or self._messages) or self._writing is not None

    async def mark_delivered(self, keys: Sequence[str]) -> None:
        """Mark outbox rows delivered (unknown or already delivered keys are ignored), committed on return (within
        about `delay_s`, with the other tables' marks). Raises what the write raised (StorageError)."""
        if not keys:
            return
        self._keys.extend(keys)
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(future)
        self._arm()
        await future

    def remember_delivered(self, keys: Sequence[str]) -> None:
        """As `mark_delivered`, without waiting: a failure is logged (the rows are then delivered again at the next
        start, as after a crash)."""
        if keys:
            self._keys.extend(keys)
            self._arm()

    def remember_message(self, table_id: int, message_id: int | None) -> None:
        """Write an open table's message id: a new message's at once (with whatever waits: a restart must know
        which message has the live buttons), None (it has none now) within about `delay_s` (lost in a crash, the
        restart redraws the retired message, and the next deal retires it again). A closed table's is not written.
        A failure is logged."""
        self._messages[table_id] = message_id
        if message_id is not None:
            self._urgent = True
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
        self._arm()

    async def flush(self) -> None:
        """Write everything asked for so far, now; return once it is committed (a failure is the waiters')."""
        while self.waiting:
            if self._writing is not None:
                await asyncio.wait([self._writing])
                continue
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            self._start()

    async def close(self) -> None:
        """Write what is waiting (before the database closes)."""
        await self.flush()

    def _arm(self) -> None:
        if self._timer is None and self._writing is None:
            delay = 0.0 if self._urgent else self._delay_s
            self._timer = asyncio.get_running_loop().call_later(delay, self._start)

    def _start(self) -> None:
        self._timer = None
        if self._writing is None and (self._keys or self._messages):
            self._writing = asyncio.ensure_future(self._write())

    async def _write(self) -> None:
        keys, self._keys = self._keys, []
        messages, self._messages = self._messages, {}
        waiters, self._waiters = self._waiters, []
        self._urgent = False
        error: Exception | None = None
        try:
            await self._store(keys, messages)
        except Exception as exc:
            error = exc
            log.warning(
                "could not write %s and the message ids of tables %s",
                counted(len(keys), "delivered mark"),
                sorted(messages),
                exc_info=True,
            )
        finally:
            self._writing = None
            for future in waiters:
                if not future.done():
                    if error is None:
                        future.set_result(None)
                    else:
                        future.set_exception(error)
            if self._keys or self._messages:
                self._arm()  # asked for meanwhile: the next gathering starts now

    async def _store(self, keys: list[str], messages: dict[int, int | None]) -> None:
        now = self._clock()
        unique = list(dict.fromkeys(keys))
        tables = sorted(messages)  # rows locked in one order (PostgreSQL)
        if self._executor.dialect is Dialect.POSTGRESQL:
            ids = [messages[t] for t in tables]
            await self._executor.write_statement(_WRITE_POSTGRESQL, (now, unique, tables, ids))
            return

        async def body(tx: Tx) -> None:
            for start in range(0, len(unique), _KEYS_PER_STATEMENT):
                chunk = unique[start : start + _KEYS_PER_STATEMENT]
                await tx.execute(sqlite_marks(len(chunk)), (now, *chunk))
            if tables:
                await tx.executemany(
                    "UPDATE poker_tables SET message_id = ? WHERE id = ? AND status = 'open'",
                    [(messages[t], t) for t in tables],
                )

        await self._executor.write(body)
