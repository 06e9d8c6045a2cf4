"""The durable outbox (docs/outbox.md): the messages a committed change owes Discord, in the change's transaction."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.storage.errors import Conflict, StorageError
from bot.storage.executor import Tx
from bot.storage.models import Clock, OutboxRow, dumps

#: The messages a write owes Discord (see `Outbox.attach`): JSON objects {"key": unique text, "payload": JSON}, or
#: a function of the write's result giving them (a reply that quotes the new balance).
Owed = Sequence[Mapping[str, Any]] | Callable[[Any], Sequence[Mapping[str, Any]]]


class Outbox:
    """The `outbox` table, and the table service's state stored with a change."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock

    async def attach(self, tx: Tx, table_id: int, state: Mapping[str, Any] | None, outbox: Owed, result: Any) -> None:
        """In the caller's transaction: store the table service's state of the table (when given) and the messages
        the change owes Discord. `outbox`: rows {"key": unique text (the message nonce), "payload": JSON}, or a
        function of the write's `result` returning them. A key used before raises StorageError."""
        if state is not None:
            await tx.execute("UPDATE poker_tables SET state = ? WHERE id = ?", (dumps(dict(state)), table_id))
        rows = outbox(result) if callable(outbox) else outbox
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

    @staticmethod
    async def pending(tx: Tx, table_id: int | None) -> list[OutboxRow]:
        """Body of `Storage.pending_outbox`."""
        where = "delivered_at IS NULL" + ("" if table_id is None else " AND table_id = ?")
        params = () if table_id is None else (table_id,)
        rows = await tx.all(f"SELECT table_id, key, payload FROM outbox WHERE {where} ORDER BY id", params)
        return [OutboxRow.from_row(r) for r in rows]
