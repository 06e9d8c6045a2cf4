"""The database unavailable (bot/storage/errors.py, `StorageUnavailable`), on real failing backends: a SQLite file
whose write lock another process holds, and a PostgreSQL server stopped under the storage. Each operation is
refused with `StorageUnavailable` (a `StorageError`), changes nothing, and its cause never holds the password of
the database URL; the Discord layer answers it as the `storage_unavailable` refusal, logged once as a warning."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from bot.discord_ui.errors import refusal_text
from bot.render.i18n import t
from bot.storage import Storage, StorageError, StorageUnavailable
from tests.storage.conftest import DEFAULTS, GUILD, create_login_role, sqlite_of

ALICE = 101
PASSWORD = "s3cret-Pa55word"


async def test_a_sqlite_file_locked_by_another_process_is_unavailable_and_nothing_is_written(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = await Storage.open(db_path, defaults=DEFAULTS)
    locked = sqlite3.connect(db_path, isolation_level=None)  # another process, as far as SQLite knows
    try:
        before = await store.balance(GUILD, ALICE)
        await sqlite_of(store).connection.execute("PRAGMA busy_timeout = 50")  # the test's patience, not 5 s
        locked.execute("BEGIN IMMEDIATE")
        with pytest.raises(StorageUnavailable) as refused:
            await store.adjust(GUILD, ALICE, 500, "test")
        assert isinstance(refused.value, StorageError)
        assert "database is locked" in refused.value.cause and "SQLITE_BUSY" in refused.value.cause
        caplog.set_level(logging.DEBUG, logger="bot.discord_ui.errors")
        assert refusal_text(refused.value, "fr", "the test") == t("error.storage_unavailable", "fr")
        warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert [r.getMessage() for r in warnings] == [
            f"refused the test: the database is unavailable ({refused.value.cause})"
        ]
        locked.execute("ROLLBACK")
        assert await store.balance(GUILD, ALICE) == before  # nothing was written; the storage works again
    finally:
        await store.close()


async def test_a_table_locked_by_our_own_connection_is_a_bug_not_an_outage(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """SQLITE_LOCKED ("database table is locked") comes from a conflict inside one connection: a statement of ours
    still reading a table that the same connection changes. In one process that is our bug, not the database being
    away: it surfaces as the driver's error (logged with its traceback, the generic answer to the member), not as
    `StorageUnavailable` ("try again in a moment", which would never help). On the old code it was an outage."""
    store = await Storage.open(db_path, defaults=DEFAULTS)

    def drop_while_reading(db: sqlite3.Connection) -> None:
        db.execute("CREATE TABLE scratch (x INTEGER)")
        db.execute("INSERT INTO scratch VALUES (1), (2)")
        reading = db.execute("SELECT x FROM scratch")
        try:
            reading.fetchone()  # the statement is still active
            db.execute("DROP TABLE scratch")
        finally:
            reading.close()

    try:
        with pytest.raises(sqlite3.OperationalError) as raised:
            await sqlite_of(store).in_thread(drop_while_reading)
        assert not isinstance(raised.value, StorageError)
        assert raised.value.sqlite_errorname == "SQLITE_LOCKED"
        caplog.set_level(logging.DEBUG, logger="bot.discord_ui.errors")
        text = refusal_text(raised.value, "en", "the test")
        assert text != t("error.storage_unavailable", "en") and "try again in a moment" not in text
        [logged] = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert logged.getMessage().startswith("unexpected error") and logged.exc_info is not None
        assert await store.balance(GUILD, ALICE) == DEFAULTS.starting_grant  # the storage still works
    finally:
        await store.close()


async def test_the_refusal_says_nothing_changed_in_both_languages() -> None:
    error = StorageUnavailable("SQLite: database is locked (SQLITE_BUSY)")
    english, french = refusal_text(error, "en", "x"), refusal_text(error, "fr", "x")
    assert english == "The bot's storage is unavailable right now: nothing was changed, try again in a moment"
    assert french.startswith("Les données du bot sont inaccessibles") and "rien n'a été changé, réessaie" in french
    assert "SQLITE" not in english + french  # the cause is for the log


def with_password(url: str, user: str, password: str) -> str:
    parts = urlsplit(url)
    host = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit(parts._replace(netloc=f"{user}:{password}@{host}"))


async def test_a_postgresql_server_stopped_under_the_storage_is_unavailable_without_its_password_in_any_log(
    own_server: Any, caplog: pytest.LogCaptureFixture
) -> None:
    admin = str(own_server.get_uri())
    await create_login_role(admin, "poker", PASSWORD)
    url = with_password(admin, "poker", PASSWORD)
    caplog.set_level(logging.DEBUG)
    store = await Storage.open(url, defaults=DEFAULTS)
    try:
        await store.adjust(GUILD, ALICE, 500, "test")
        balance = await store.balance(GUILD, ALICE)
        own_server.cleanup()  # the server stops: the pool's connections are lost, new ones refused
        for operation in (lambda: store.adjust(GUILD, ALICE, 500, "test"), lambda: store.account(GUILD, ALICE)):
            with pytest.raises(StorageUnavailable) as refused:
                await operation()
            assert (
                PASSWORD not in refused.value.cause and "PostgreSQL at postgresql://poker:***@" in refused.value.cause
            )
            assert refusal_text(refused.value, "en", "the test") == t("error.storage_unavailable", "en")
        own_server.ensure_postgres_running()
        assert await store.balance(GUILD, ALICE) == balance  # nothing was written while it was down
    finally:
        await store.close()
    assert PASSWORD not in caplog.text
    assert any("the database is unavailable (PostgreSQL at" in r.getMessage() for r in caplog.records)
