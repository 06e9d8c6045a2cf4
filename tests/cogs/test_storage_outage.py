"""The database unavailable while members play (a SQLite file whose write lock another process holds): each
command gets the clear private refusal in the member's language, logged once as a warning with the cause; nothing
changed, nothing public; once the lock is gone the table plays on. (An action on a locked database:
tests/tables/test_storage_outage.py; SimCord's virtual clock cannot wait for the action log's retries.)"""

from __future__ import annotations

import logging
import sqlite3

import pytest

from bot.discord_ui.errors import unwrap
from bot.render.i18n import t
from bot.storage import StorageUnavailable
from bot.storage.sqlite import SQLiteExecutor
from tests.cogs.conftest import World
from tests.cogs.test_refusals import answer, state


async def test_a_locked_database_refuses_commands_clearly_in_the_members_language_and_changes_nothing(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    world.decks.queue(["9c4d", "8h3c", "QhQc"], "Kd7s2h5c6h")
    await world.seat({"alice": 100, "bob": 100, "chloe": 100})
    await world.slash("alice", "poker start")
    assert world.actor() == "chloe"
    dave, zoe = world.member("dave"), world.speaks("zoe", "fr")
    before = await state(world)
    executor = world.bot.storage.executor
    assert isinstance(executor, SQLiteExecutor)
    async with executor.connection.execute("PRAGMA busy_timeout = 50"):  # the test's patience (the bot: 5 s)
        pass
    other = sqlite3.connect(executor.path, isolation_level=None)  # another process, as far as SQLite knows
    caplog.set_level(logging.WARNING)
    try:
        other.execute("BEGIN IMMEDIATE")
        mark = len(world.env.http_requests)
        joined = await world.slash(dave, "poker join")
        assert answer(joined) == t("error.storage_unavailable", "en")
        french = await world.slash(zoe, "poker join")
        assert answer(french) == t("error.storage_unavailable", "fr")
        assert world.public_texts(mark) == []
    finally:
        other.execute("ROLLBACK")
        other.close()
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    refusals = [m for m in warnings if "the database is unavailable (SQLite: database is locked (SQLITE_BUSY))" in m]
    assert len(refusals) == 2, warnings
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]  # no "unexpected error" with a traceback
    assert [type(unwrap(error)) for error in world.env.errors] == [StorageUnavailable, StorageUnavailable]
    await world.advance(10)  # the table reads itself again from storage
    assert await state(world) == before
    await world.press("chloe", "Call 2")
    assert world.actor() == "alice"
