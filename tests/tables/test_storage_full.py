"""A SQLite database that fills up under a cash table (a real file capped by `PRAGMA max_page_count`: SQLite's own
SQLITE_FULL, wherever in a hand the next page is needed): each refused change is `StorageUnavailable`, and once
there is room again the table reads itself back and plays on with the ledger exact (balances + chips on the table
== chips issued) and every chip of the table accounted for."""

from __future__ import annotations

import logging
import sqlite3

import pytest

from bot.poker import ActionKind
from bot.storage import Storage, StorageUnavailable
from bot.storage.sqlite import SQLiteExecutor
from bot.tables import ManualClock, TableOptions, TableService
from bot.tables.clock import settle
from bot.tables.operation import FAULT_RETRY_DELAYS_S
from bot.tables.runner import TableRunner

from .conftest import ALICE, BOB, CHANNEL, GUILD, HOST, NAMES


async def _cap(executor: SQLiteExecutor, pages: int | None) -> None:
    """Cap the database at `pages` (None: its current size) on both of the storage's connections."""
    if pages is None:
        async with executor.connection.execute("PRAGMA page_count") as cursor:
            row = await cursor.fetchone()
        assert row is not None
        pages = int(row[0])
    async with executor.connection.execute(f"PRAGMA max_page_count = {pages}"):
        pass
    if executor.actions_connection is not None:
        executor.actions_connection.execute(f"PRAGMA max_page_count = {pages}").close()


def in_play(runner: TableRunner) -> int:
    """The chips of a table in its memory: stacks, bets in front of the seats, pots."""
    snapshot = runner.snapshot()
    return sum(s.stack + s.bet for s in snapshot.seats) + sum(p.amount for p in snapshot.pots)


async def test_a_full_disk_in_the_middle_of_hands_leaves_the_ledger_exact(
    service: TableService, storage: Storage, clock: ManualClock, caplog: pytest.LogCaptureFixture
) -> None:
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    runner = service.get(CHANNEL)
    for user in (ALICE, BOB):
        await runner.join(user, NAMES[user])
    await runner.start_game(ALICE)
    executor = storage.executor
    assert isinstance(executor, SQLiteExecutor)
    issued = (await storage.audit(GUILD)).issued
    assert in_play(runner) == (await storage.audit(GUILD)).on_tables
    for round_ in range(5):  # five times full, each time wherever the next page happens to be needed
        await _cap(executor, None)
        fills = caplog.text.count("SQLITE_FULL")
        for _ in range(60):  # hands of one fold, on until the file is full somewhere in them (or between them)
            if caplog.text.count("SQLITE_FULL") > fills:
                break
            actor = runner.snapshot().actor_user_id
            if actor is None:
                await clock.advance(10)
                await settle()
                continue
            try:
                await runner.act(actor, ActionKind.FOLD)
            except StorageUnavailable as exc:
                logging.getLogger("test").warning("refused: %s", exc)
            except sqlite3.Error as exc:  # pragma: no cover - the point of the test
                raise AssertionError(f"a full disk surfaced as the driver's error: {exc!r}") from exc
            await settle()
        assert caplog.text.count("SQLITE_FULL") > fills, f"round {round_}: the file never filled up"
        await _cap(executor, 1_000_000)
        await clock.advance(FAULT_RETRY_DELAYS_S[0] + 0.1)
        await settle()
    audit = await storage.audit(GUILD)
    assert audit.ok and audit.issued == issued, audit.problems
    assert in_play(runner) == audit.on_tables  # memory holds what storage holds, chip for chip
    actor = runner.snapshot().actor_user_id
    for _ in range(20):  # and it plays on
        if actor is not None:
            break
        await clock.advance(10)
        await settle()
        actor = runner.snapshot().actor_user_id
    assert actor is not None
    await runner.act(actor, ActionKind.FOLD)
