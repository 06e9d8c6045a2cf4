"""PostgreSQL's own machinery: a deadlock the server breaks is run again, a cancelled read leaves its connection clean,
a cancelled write is done whole, a password never shows."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.storage import Storage, StorageError
from bot.storage.backends import redact
from bot.storage.executor import Body, Tx
from bot.storage.postgres import PostgresExecutor
from tests import postgres
from tests.storage.conftest import DEFAULTS, GUILD

ALICE, BOB = 101, 102


@pytest.fixture
async def pg() -> AsyncIterator[Storage]:
    storage = await Storage.open(await postgres.database_url(), defaults=DEFAULTS)
    yield storage
    await storage.close()


async def test_a_deadlock_broken_by_the_server_is_run_again_and_both_writes_go_through(pg: Storage) -> None:
    for user in (ALICE, BOB):
        await pg.ensure_account(GUILD, user)
    both_locked_one = asyncio.Barrier(2)
    runs = {"first": 0, "second": 0}

    def body(name: str, users: tuple[int, int]) -> Body[None]:
        async def run(tx: Tx) -> None:
            runs[name] += 1
            await tx.execute("UPDATE accounts SET balance = balance + 1 WHERE user_id = ?", (users[0],))
            if runs[name] == 1:  # the first run of each waits for the other: they lock in opposite orders
                await both_locked_one.wait()
            await tx.execute("UPDATE accounts SET balance = balance + 1 WHERE user_id = ?", (users[1],))

        return run

    await asyncio.gather(
        pg.executor.write(body("first", (ALICE, BOB))),
        pg.executor.write(body("second", (BOB, ALICE))),
    )
    assert sorted(runs.values()) == [1, 2]  # the server aborted one, which ran again
    assert await pg.balance(GUILD, ALICE) == await pg.balance(GUILD, BOB) == 1002


async def test_a_cancelled_read_leaves_its_connection_out_of_any_transaction(pg: Storage) -> None:
    started = asyncio.Event()

    async def slow(tx: Tx) -> None:
        await tx.all("SELECT 1")
        started.set()
        await asyncio.sleep(10)

    read = asyncio.ensure_future(pg.executor.read(slow))
    await started.wait()
    read.cancel()
    with pytest.raises(asyncio.CancelledError):
        await read
    executor = pg.executor
    assert isinstance(executor, PostgresExecutor)
    for _ in range(12):  # more than the pool holds: every connection is used again
        assert await pg.adjust(GUILD, ALICE, 1, "after") > 0
    async with executor.pool.acquire() as conn:
        assert not conn.is_in_transaction()


async def test_a_cancelled_write_is_done_whole(pg: Storage) -> None:
    started = asyncio.Event()

    async def slow(tx: Tx) -> None:
        await tx.execute("INSERT INTO meta (key, value) VALUES ('a', '1')")
        started.set()
        await asyncio.sleep(0.2)
        await tx.execute("INSERT INTO meta (key, value) VALUES ('b', '2')")

    write = asyncio.ensure_future(pg.executor.write(slow))
    await started.wait()
    write.cancel()
    with pytest.raises(asyncio.CancelledError):
        await write
    await asyncio.sleep(0.4)
    assert (await pg.get_meta("a"), await pg.get_meta("b")) == ("1", "2")


def test_a_url_s_password_is_hidden() -> None:
    assert redact("postgresql://poker:hunter2@db:5432/poker") == "postgresql://poker:***@db:5432/poker"
    assert redact("postgresql://db/poker") == "postgresql://db/poker"


@pytest.mark.parametrize("url", ["postgresql://poker:hunter2@[::1/poker", "postgresql://poker:hunter2@db:port/poker"])
async def test_a_malformed_url_is_a_storage_error_that_hides_its_password(url: str) -> None:
    assert "hunter2" not in redact(url) and redact(url).startswith("postgresql://poker:***@")
    with pytest.raises(StorageError) as caught:
        await Storage.open(url)
    assert "hunter2" not in str(caught.value) and "malformed" in str(caught.value)
