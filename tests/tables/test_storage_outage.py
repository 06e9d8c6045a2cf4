"""The database unavailable under a table (a SQLite file whose write lock another process holds): an action is
refused with `StorageUnavailable` and changes nothing, in memory or in storage; the Discord layer answers it with
the clear `storage_unavailable` refusal; once the lock is gone the table reads itself again and plays on."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.discord_ui.errors import refusal_text
from bot.poker import ActionKind
from bot.render.i18n import t
from bot.storage import Storage, StorageUnavailable
from bot.storage.sqlite import SQLiteExecutor
from bot.tables import ManualClock, TableOptions, TableService
from bot.tables.clock import settle
from bot.tables.errors import ServiceError
from bot.tables.operation import FAULT_RETRY_DELAYS_S

from .conftest import ALICE, BOB, CHANNEL, GUILD, HOST, NAMES


async def test_an_action_on_a_locked_database_is_refused_clearly_and_changes_nothing(
    service: TableService, storage: Storage, clock: ManualClock, db_path: Path
) -> None:
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    runner = service.get(CHANNEL)
    for user in (ALICE, BOB):
        await runner.join(user, NAMES[user])
    await runner.start_game(ALICE)
    before = runner.snapshot()
    hand_id = runner.view().hand_id
    assert hand_id is not None
    actions = len((await storage.hand(hand_id)).actions)
    executor = storage.executor
    assert isinstance(executor, SQLiteExecutor)
    async with executor.connection.execute("PRAGMA busy_timeout = 50"):  # the test's patience (the bot: 5 s)
        pass
    other = sqlite3.connect(db_path, isolation_level=None)  # another process, as far as SQLite knows
    try:
        other.execute("BEGIN IMMEDIATE")
        actor = before.actor_user_id
        assert actor is not None
        with pytest.raises(StorageUnavailable) as refused:
            await runner.act(actor, ActionKind.CALL)
        assert refusal_text(refused.value, "fr", "the test") == t("error.storage_unavailable", "fr")
        assert runner.snapshot().actor_user_id == actor and runner.snapshot().pots == before.pots
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert len((await storage.hand(hand_id)).actions) == actions
    await clock.advance(FAULT_RETRY_DELAYS_S[0] + 0.1)  # the table reads itself again from storage
    await settle()
    await runner.act(actor, ActionKind.CALL)
    assert runner.snapshot().actor_user_id != actor


async def test_an_action_whose_write_outlasts_the_timeout_is_refused_as_the_table_recovering(
    service: TableService, storage: Storage, clock: ManualClock, db_path: Path
) -> None:
    """SQLite waits up to 5 s for the lock, as long as the table's write timeout: the timeout may come first. The
    write may still land, so the member is told the table is catching up (not a bug with a reference)."""
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    runner = service.get(CHANNEL)
    for user in (ALICE, BOB):
        await runner.join(user, NAMES[user])
    await runner.start_game(ALICE)
    actor = runner.snapshot().actor_user_id
    assert actor is not None
    other = sqlite3.connect(db_path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        acting = asyncio.ensure_future(runner.act(actor, ActionKind.CALL))
        await asyncio.sleep(0.05)  # the write waits for the lock in the database thread
        await clock.advance(service.write_timeout_s + 0.1)
        with pytest.raises(ServiceError) as refused:
            await acting
        assert refused.value.code == "table_recovering"
        assert refusal_text(refused.value, "en", "the test") == t("error.table_recovering", "en")
    finally:
        other.execute("ROLLBACK")
        other.close()
    await asyncio.sleep(0.1)  # the late write lands
    await clock.advance(FAULT_RETRY_DELAYS_S[0] + 0.1)  # the table reads itself again from storage
    await settle()
    assert runner.snapshot().actor_user_id != actor  # the action landed late: the table shows it now
