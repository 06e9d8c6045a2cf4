"""A transaction that fails at its COMMIT, and storages dropped after a failure: nothing half-done stays behind."""

from __future__ import annotations

import asyncio
import gc
import sqlite3
import threading
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

from bot.storage import HandNotFound, Storage, TableNotFound
from bot.storage.executor import Tx
from tests.storage.conftest import GUILD, sqlite_of

ALICE, BOB = 101, 102


@pytest.fixture
def database_url(sqlite_url: str) -> str:
    """SQLite only: these tests are about its database thread and its second connection."""
    return sqlite_url


SEATS = [{"seat": 1, "user_id": ALICE, "stack": 100}, {"seat": 2, "user_id": BOB, "stack": 100}]


async def refuse_next_commit(store: Storage, *, of_actions: bool = False) -> None:
    """The next COMMIT fails (as a COMMIT refused by SQLite would: busy, I/O error); later ones succeed. Of the
    database thread's connection, or of the one hand actions are written through (`of_actions`)."""
    refuse = {"next": True}

    def authorizer(action: int, arg1: Any, arg2: Any, database: Any, trigger: Any) -> int:
        if action == sqlite3.SQLITE_TRANSACTION and arg1 == "COMMIT" and refuse["next"]:
            refuse["next"] = False
            return sqlite3.SQLITE_DENY
        return sqlite3.SQLITE_OK

    executor = sqlite_of(store)
    if of_actions:
        assert executor.actions_connection is not None
        executor.actions_connection.set_authorizer(authorizer)
    else:
        await executor.connection.set_authorizer(authorizer)


async def test_a_failed_commit_rolls_back_and_the_next_caller_is_not_caught_in_it(store: Storage) -> None:
    await store.ensure_account(GUILD, ALICE)
    await refuse_next_commit(store)
    with pytest.raises(sqlite3.DatabaseError):
        await store.adjust(GUILD, ALICE, 500, "bonus")
    assert not sqlite_of(store).connection.in_transaction
    assert await store.balance(GUILD, ALICE) == 1000  # nothing of the failed transaction is visible
    assert await store.adjust(GUILD, ALICE, 1, "next caller") == 1001
    assert (await store.audit(GUILD)).ok


async def test_actions_of_a_failed_batch_leave_no_gap_in_the_sequence(store: Storage) -> None:
    table = await store.create_table(GUILD, 700, ALICE, "cash", {})
    await store.buy_in(table, GUILD, ALICE, 1, 100)
    await store.buy_in(table, GUILD, BOB, 2, 100)
    hand = await store.start_hand(table, 1, {"deck": []}, SEATS)
    assert [await store.append_action(hand, {"n": n}) for n in range(2)] == [0, 1]
    await refuse_next_commit(store, of_actions=True)
    with pytest.raises(Exception):  # noqa: B017 - any storage failure; what matters is what follows
        await store.append_action(hand, {"n": "lost"})
    assert await store.append_action(hand, {"n": 2}) == 2
    both = await asyncio.gather(store.append_action(hand, {"n": 3}), store.append_action(hand, {"n": 4}))
    assert both == [3, 4]
    stored = await store.hand(hand)
    assert stored is not None and [a["n"] for a in stored.actions] == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("last_call_fails", [False, True])
async def test_a_storage_dropped_unclosed_lets_its_database_thread_stop(tmp_path: Path, last_call_fails: bool) -> None:
    """The database thread keeps its last call, and that call's outcome, alive: neither may keep the connection alive
    too (a failure's traceback runs through the call's closure, and so the Storage), or an unclosed Storage (a test
    world, a crashed start) would keep its non-daemon thread, and the process, running."""
    store = await Storage.open(tmp_path / "dropped.sqlite3")
    # aiosqlite's worker thread (pinned versions: `Connection._thread`); found by object, not by ident, which the
    # threads of other tests ending meanwhile may reuse on a loaded machine.
    thread = sqlite_of(store).connection._thread
    assert isinstance(thread, threading.Thread) and thread.is_alive() and not thread.daemon
    assert await store.ensure_account(GUILD, ALICE) == 1000
    if last_call_fails:
        with pytest.raises(TableNotFound):
            await store.cash_out(999, GUILD, ALICE, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)  # aiosqlite's "deleted before being closed"
        del store
        gc.collect()
    thread.join(timeout=5)
    assert not thread.is_alive()


async def test_closing_twice_waits_for_the_first_close(tmp_path: Path) -> None:
    store = await Storage.open(tmp_path / "twice.sqlite3")
    await store.ensure_account(GUILD, ALICE)
    await asyncio.gather(store.close(), store.close())
    await store.close()
    with pytest.raises(ValueError):
        sqlite_of(store).connection._conn  # noqa: B018 - the connection is closed once both calls return


async def test_actions_wait_for_a_transaction_of_the_database_thread_then_go_in_order(store: Storage) -> None:
    """Hand actions are committed in the event loop on their own connection; while the database thread holds the
    write lock, they wait (without blocking the loop) and go in after it, numbered in order."""
    table = await store.create_table(GUILD, 700, ALICE, "cash", {})
    await store.buy_in(table, GUILD, ALICE, 1, 100)
    await store.buy_in(table, GUILD, BOB, 2, 100)
    hand = await store.start_hand(table, 1, {"deck": []}, SEATS)
    assert await store.append_action(hand, {"n": 0}) == 0

    async def slow_transaction(tx: Tx) -> None:
        await tx.execute("UPDATE poker_tables SET state = '{}' WHERE id = ?", (table,))
        time.sleep(0.2)  # noqa: ASYNC251 - holds the write lock: the body runs in the database thread

    slow = asyncio.ensure_future(store.executor.write(slow_transaction))
    await asyncio.sleep(0.05)  # the thread has taken the lock
    ticks = 0

    async def loop_runs() -> None:
        nonlocal ticks
        while not slow.done():
            ticks += 1
            await asyncio.sleep(0.01)

    order: list[str] = []
    slow.add_done_callback(lambda _: order.append("thread"))
    append = asyncio.ensure_future(store.append_action(hand, {"n": 1}))
    append.add_done_callback(lambda _: order.append("action"))
    numbers, _, _ = await asyncio.gather(append, slow, loop_runs())
    assert numbers == 1 and order == ["thread", "action"]  # it waited for the lock...
    assert ticks >= 5  # ...and the event loop kept running meanwhile
    assert await store.append_action(hand, {"n": 2}) == 2
    stored = await store.hand(hand)
    assert stored is not None and [a["n"] for a in stored.actions] == [0, 1, 2]


async def test_an_in_memory_database_stores_actions_in_the_database_thread() -> None:
    store = await Storage.open(":memory:")
    try:
        assert sqlite_of(store).actions_connection is None
        table = await store.create_table(GUILD, 700, ALICE, "cash", {})
        await store.buy_in(table, GUILD, ALICE, 1, 100)
        await store.buy_in(table, GUILD, BOB, 2, 100)
        hand = await store.start_hand(table, 1, {"deck": []}, SEATS)
        numbers = await asyncio.gather(*(store.append_action(hand, {"n": n}) for n in range(5)))
        assert numbers == [0, 1, 2, 3, 4]
        await store.finish_hand(hand, {}, {})
        with pytest.raises(HandNotFound):
            await store.append_action(hand, {"n": "late"})
    finally:
        await store.close()


async def start_a_hand(store: Storage) -> int:
    table = await store.create_table(GUILD, 700, ALICE, "cash", {})
    await store.buy_in(table, GUILD, ALICE, 1, 100)
    await store.buy_in(table, GUILD, BOB, 2, 100)
    return await store.start_hand(table, 1, {"deck": []}, SEATS)


async def test_a_busy_database_thread_never_starves_the_actions(store: Storage) -> None:
    """Found by review: with the thread's queue never empty, an action retried against the lock forever (and
    failed after 5 s) while thousands of transactions went first. It now waits in line after a few retries."""
    hand = await start_a_hand(store)
    assert await store.append_action(hand, {"n": 0}) == 0
    stop = False

    async def busy(tx: Tx) -> None:
        for i in range(200):
            await tx.execute(
                "INSERT INTO meta (key, value) VALUES (?, 'v') ON CONFLICT (key) DO UPDATE SET value = 'w'", (i,)
            )

    async def writer() -> None:
        while not stop:
            await store.executor.write(busy)

    writers = [asyncio.ensure_future(writer()) for _ in range(16)]
    await asyncio.sleep(0.1)
    try:
        for n in (1, 2, 3):
            assert await asyncio.wait_for(store.append_action(hand, {"n": n}), timeout=1.0) == n
    finally:
        stop = True
        await asyncio.gather(*writers)


async def test_a_batch_waiting_for_the_lock_keeps_its_place_before_later_ones(store: Storage) -> None:
    """Found by review: a later batch went in at once while an earlier one waited for the lock (numbers out of
    the order of the calls)."""
    hand = await start_a_hand(store)

    async def hold_the_lock(tx: Tx) -> None:
        await tx.execute("UPDATE meta SET value = value")
        time.sleep(0.1)  # noqa: ASYNC251 - holds the write lock: the body runs in the database thread

    slow = asyncio.ensure_future(store.executor.write(hold_the_lock))
    await asyncio.sleep(0.03)
    first = asyncio.ensure_future(store.append_action(hand, {"n": "first"}))
    await slow
    second = asyncio.ensure_future(store.append_action(hand, {"n": "second"}))
    assert (await first, await second) == (0, 1)
    stored = await store.hand(hand)
    assert stored is not None and [a["n"] for a in stored.actions] == ["first", "second"]


async def test_in_memory_a_failed_batch_leaves_no_gap_for_the_next(tmp_path: Path) -> None:
    """Found by review: in the database thread's path, the next batch could use the number of a rolled-back one."""
    store = await Storage.open(":memory:")
    try:
        hand = await start_a_hand(store)
        assert await store.append_action(hand, {"n": 0}) == 0
        await refuse_next_commit(store)
        failed = asyncio.ensure_future(store.append_action(hand, {"n": "lost"}))
        await asyncio.sleep(0)
        later = asyncio.ensure_future(store.append_action(hand, {"n": 1}))
        outcomes = await asyncio.gather(failed, later, return_exceptions=True)
        assert isinstance(outcomes[0], Exception) and outcomes[1] == 1
        assert await store.append_action(hand, {"n": 2}) == 2
        stored = await store.hand(hand)
        assert stored is not None and [a["n"] for a in stored.actions] == [0, 1, 2]
    finally:
        await store.close()
