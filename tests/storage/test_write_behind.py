"""Write-behind (bot/storage/behind.py): delivered marks and table-message ids gathered and written together, and
read back by the reads that depend on them; and the one-statement reads (`Executor.read_statement`)."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import Storage, StorageError
from bot.storage.executor import Tx
from tests.storage.conftest import DEFAULTS, FakeClock
from tests.storage.test_tables_hands import two_player_table


async def delivered_at(store: Storage) -> dict[str, float | None]:
    async def body(tx: Tx) -> dict[str, float | None]:
        return {row["key"]: row["delivered_at"] for row in await tx.all("SELECT key, delivered_at FROM outbox")}

    return await store.executor.read(body)


async def test_marks_asked_by_several_tables_are_one_write_committed_when_each_caller_returns(
    store: Storage, clock: FakeClock
) -> None:
    tables = [await two_player_table(store, channel) for channel in (700, 701, 702)]
    for table in tables:
        await store.save_table_state(table, {}, outbox=[{"key": f"k{table}", "payload": {}}])
    marks = []
    for table in tables:
        marks.append(asyncio.ensure_future(store.mark_delivered([f"k{table}"])))
        await asyncio.sleep(0.01)
        clock.advance(1)
    assert not any(mark.done() for mark in marks)  # gathered, not written one by one
    await asyncio.gather(*marks)
    # One write, after the last ask: every row has that write's time.
    assert await delivered_at(store) == {f"k{table}": clock.now for table in tables}
    assert await store.pending_outbox() == []


async def test_a_mark_not_yet_written_is_not_pending_for_a_reader(store: Storage) -> None:
    table = await two_player_table(store)
    await store.save_table_state(table, {}, outbox=[{"key": "a", "payload": {}}, {"key": "b", "payload": {}}])
    mark = asyncio.ensure_future(store.mark_delivered(["a"]))
    await asyncio.sleep(0)
    assert [row.key for row in await store.pending_outbox(table)] == ["b"]
    await mark


async def test_a_remembered_table_message_is_read_back_at_once_and_the_last_one_wins(store: Storage) -> None:
    table = await two_player_table(store)
    other = await two_player_table(store, 701)
    store.remember_table_message(table, 41)
    store.remember_table_message(other, 50)
    store.remember_table_message(table, 42)
    row, other_row = await store.table(table), await store.table(other)
    assert row is not None and row.message_id == 42
    assert other_row is not None and other_row.message_id == 50
    store.remember_table_message(table, None)
    row = await store.table_for_channel(700)
    assert row is not None and row.message_id is None


async def test_a_closed_table_s_message_is_not_changed_by_a_late_remembered_id(store: Storage) -> None:
    table = await two_player_table(store)
    await store.set_table_message(table, 42)
    await store.close_table(table)
    store.remember_table_message(table, 43)
    row = await store.table(table)
    assert row is not None and row.message_id == 42


async def test_what_waits_to_be_written_is_stored_when_the_database_closes(database_url: str) -> None:
    store = await Storage.open(database_url, defaults=DEFAULTS)
    table = await two_player_table(store)
    await store.save_table_state(table, {}, outbox=[{"key": "a", "payload": {}}])
    mark = asyncio.ensure_future(store.mark_delivered(["a"]))
    store.remember_table_message(table, 42)
    await asyncio.sleep(0)
    await store.close()
    assert mark.done() and mark.exception() is None
    again = await Storage.open(database_url, defaults=DEFAULTS)
    try:
        assert await again.pending_outbox() == []
        row = await again.table(table)
        assert row is not None and row.message_id == 42
    finally:
        await again.close()


async def test_a_mark_the_database_cannot_write_raises_for_its_caller(database_url: str) -> None:
    store = await Storage.open(database_url, defaults=DEFAULTS)
    table = await two_player_table(store)
    await store.save_table_state(table, {}, outbox=[{"key": "a", "payload": {}}])
    await store.executor.close()  # the database goes away under the storage
    with pytest.raises(StorageError):
        await store.mark_delivered(["a"])
    await store.close()


async def test_marks_remembered_without_waiting_are_written_by_a_flush(store: Storage, clock: FakeClock) -> None:
    table = await two_player_table(store)
    await store.save_table_state(table, {}, outbox=[{"key": "a", "payload": {}}, {"key": "b", "payload": {}}])
    store.remember_delivered(["a"])
    clock.advance(5)
    await store.flush_behind()
    assert await delivered_at(store) == {"a": clock.now, "b": None}


async def test_a_one_statement_read_refuses_a_second_statement(store: Storage) -> None:
    """`Executor.read_statement` (one round trip on PostgreSQL, outside a transaction block) runs one statement
    only: a second would see another committed state."""

    async def two(tx: Tx) -> None:
        await tx.all("SELECT 1")
        await tx.all("SELECT 2")

    async def one(tx: Tx) -> int:
        return await tx.count("SELECT 41 + 1")

    assert await store.executor.read_statement(one) == 42
    if store.executor.dialect == "postgresql":
        with pytest.raises(RuntimeError):
            await store.executor.read_statement(two)
