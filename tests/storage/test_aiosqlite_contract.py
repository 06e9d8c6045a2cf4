"""aiosqlite's private parts that bot.storage.sqlite uses (pinned in pyproject.toml): this fails when they change.

`_run_in_worker` queues a function on `Connection._execute` and gives it `Connection._conn`: the function must run
in the connection's worker thread, in order with the public calls queued before and after it, on the very
sqlite3 connection those calls use, and its result or exception must come back to the caller.
"""

from __future__ import annotations

import asyncio
import inspect
import sqlite3
import threading
from pathlib import Path

import aiosqlite
import pytest

from bot.storage.sqlite import _run_in_worker


def test_the_private_names_are_still_there() -> None:
    assert inspect.iscoroutinefunction(aiosqlite.Connection._execute)
    assert isinstance(inspect.getattr_static(aiosqlite.Connection, "_conn"), property)


async def test_a_queued_function_runs_in_the_worker_on_its_connection_in_order(tmp_path: Path) -> None:
    async with aiosqlite.connect(tmp_path / "contract.sqlite3", isolation_level=None) as connection:
        worker = connection._thread
        assert isinstance(worker, threading.Thread)
        await connection.execute("CREATE TABLE t (n INTEGER)")
        seen: list[object] = []

        def work(db: sqlite3.Connection) -> int:
            seen.append(threading.current_thread())
            seen.append(db)
            db.execute("INSERT INTO t VALUES (2)")
            return int(db.execute("SELECT COUNT(*) FROM t").fetchone()[0])

        first = asyncio.ensure_future(connection.execute("INSERT INTO t VALUES (1)"))
        await asyncio.sleep(0)  # queued
        counted = await _run_in_worker(connection, work)
        await first
        assert counted == 2  # the public call queued before it ran first, on the same connection
        assert seen == [worker, connection._conn]
        async with connection.execute("SELECT n FROM t ORDER BY rowid") as cursor:
            assert [row[0] for row in await cursor.fetchall()] == [1, 2]


async def test_a_queued_function_s_exception_reaches_the_caller(tmp_path: Path) -> None:
    async with aiosqlite.connect(tmp_path / "contract.sqlite3", isolation_level=None) as connection:

        def fail(db: sqlite3.Connection) -> None:
            db.execute("SELECT * FROM nowhere")

        with pytest.raises(sqlite3.OperationalError, match="no such table"):
            await _run_in_worker(connection, fail)
        async with connection.execute("SELECT 1") as cursor:  # the worker is still alive
            assert (await cursor.fetchone())[0] == 1  # type: ignore[index]
