"""The durable outbox (docs/outbox.md): the messages a committed change owes Discord, in the change's transaction."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.storage.errors import Conflict, StorageError
from bot.storage.executor import Dialect, Executor, Tx
from bot.storage.models import Clock, OutboxRow, dumps

#: The messages a write owes Discord (see `Outbox.attach`): JSON objects {"key": unique text, "payload": JSON}, or
#: a function of the write's result giving them (a reply that quotes the new balance).
Owed = Sequence[Mapping[str, Any]] | Callable[[Any], Sequence[Mapping[str, Any]]]

#: PostgreSQL: a table's outbox rows in one statement, in the order given (their ids follow it): the table id, the
#: time, the keys, the payloads.
_INSERT_POSTGRESQL = """
INSERT INTO outbox (table_id, key, payload, created_at)
SELECT ?, o.key, o.payload, ? FROM unnest(CAST(? AS TEXT[]), CAST(? AS TEXT[])) WITH ORDINALITY AS o (key, payload, n)
ORDER BY o.n
"""
#: ... with the table's state stored by the same statement: the state, the table id.
_WITH_STATE_POSTGRESQL = "WITH state AS (UPDATE poker_tables SET state = ? WHERE id = ?)"

#: A table's messages not yet delivered, oldest first (`Outbox.pending`; every table's: without the table's term).
PENDING = "SELECT table_id, key, payload FROM outbox WHERE delivered_at IS NULL{table} ORDER BY id"
PENDING_OF_TABLE = PENDING.format(table=" AND table_id = ?")

#: PostgreSQL: a table's state (and message id, when given) and the outbox rows of the change as one statement that
#: commits itself (`Outbox.save_state_statement`): the state, the message id, the table id, the time, the keys, the
#: payloads. The rows are inserted only for the table the UPDATE changed (an open one: `FROM t`), so a closed table
#: changes nothing and the statement says `INSERT 0 0`.
_SAVE_STATE_POSTGRESQL = """
WITH t AS (
    UPDATE poker_tables SET state = ?, message_id = COALESCE(?, message_id) WHERE id = ? AND status = 'open'
    RETURNING id
)
INSERT INTO outbox (table_id, key, payload, created_at)
SELECT t.id, o.key, o.payload, ?
FROM t, unnest(CAST(? AS TEXT[]), CAST(? AS TEXT[])) WITH ORDINALITY AS o (key, payload, n)
ORDER BY o.n
"""


class Outbox:
    """The `outbox` table, and the table service's state stored with a change."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock

    async def attach(self, tx: Tx, table_id: int, state: Mapping[str, Any] | None, outbox: Owed, result: Any) -> None:
        """In the caller's transaction: store the table service's state of the table (when given) and the messages
        the change owes Discord. `outbox`: rows {"key": unique text (the message nonce), "payload": JSON}, or a
        function of the write's `result` returning them. A key used before raises StorageError."""
        rows = outbox(result) if callable(outbox) else outbox
        state_text = None if state is None else dumps(dict(state))
        if rows and tx.dialect is Dialect.POSTGRESQL:
            # The state and the rows in one statement: one round trip (every table write on a hand's path has both).
            now = self._clock()
            keys, payloads = [str(row["key"]) for row in rows], [dumps(row["payload"]) for row in rows]
            sql, params = _INSERT_POSTGRESQL, [table_id, now, keys, payloads]
            if state_text is not None:
                sql, params = _WITH_STATE_POSTGRESQL + sql, [state_text, table_id, *params]
            try:
                await tx.execute(sql, params)
            except Conflict as exc:
                raise StorageError(f"an outbox key of table {table_id} is already used: {exc}") from exc
            return
        if state_text is not None:
            await tx.execute("UPDATE poker_tables SET state = ? WHERE id = ?", (state_text, table_id))
        if not rows:
            return
        now = self._clock()
        try:
            await tx.executemany(
                "INSERT INTO outbox (table_id, key, payload, created_at) VALUES (?, ?, ?, ?)",
                [(table_id, str(row["key"]), dumps(row["payload"]), now) for row in rows],
            )
        except Conflict as exc:
            raise StorageError(f"an outbox key of table {table_id} is already used: {exc}") from exc

    async def save_state_statement(
        self,
        executor: Executor,
        table_id: int,
        state_text: str,
        message_id: int | None,
        rows: Sequence[Mapping[str, Any]],
    ) -> bool:
        """PostgreSQL: `Tables.save_state` (the state of an open table, its message id when given, the rows the
        change owes) as one statement that commits itself: one round trip instead of four (BEGIN, the UPDATE, the
        rows' INSERT, COMMIT), the same guarantees (one statement is one transaction: all of it or nothing).
        Returns False when the table is not open (nothing written). A key used before raises StorageError."""
        if not rows:
            sql = "UPDATE poker_tables SET state = ?, message_id = COALESCE(?, message_id) WHERE id = ?"
            return await executor.write_statement(f"{sql} AND status = 'open'", (state_text, message_id, table_id)) == 1
        keys, payloads = [str(row["key"]) for row in rows], [dumps(row["payload"]) for row in rows]
        params = (state_text, message_id, table_id, self._clock(), keys, payloads)
        try:
            inserted = await executor.write_statement(_SAVE_STATE_POSTGRESQL, params)
        except Conflict as exc:
            raise StorageError(f"an outbox key of table {table_id} is already used: {exc}") from exc
        return inserted == len(rows)

    @staticmethod
    async def pending(tx: Tx, table_id: int | None) -> list[OutboxRow]:
        """Body of `Storage.pending_outbox`."""
        if table_id is None:
            rows = await tx.all(PENDING.format(table=""))
        else:
            rows = await tx.all(PENDING_OF_TABLE, (table_id,))
        return [OutboxRow.from_row(r) for r in rows]
