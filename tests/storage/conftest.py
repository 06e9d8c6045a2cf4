"""Fixtures for the storage tests: a fresh database per test on each backend, and a controllable clock.

`store` (and `database_url`) run each test twice: on a SQLite file and on a fresh database of a real PostgreSQL
that the tests start themselves (tests/postgres.py). A module that tests SQLite's own machinery overrides
`database_url` with `sqlite_url`.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.storage import GuildDefaults, Storage
from bot.storage.executor import Tx
from bot.storage.sqlite import SQLiteExecutor
from tests import postgres

GUILD = 1
DEFAULTS = GuildDefaults(
    language="en", starting_grant=1000, refill_cooldown_s=3600, table_defaults={"small_blind": 1, "big_blind": 2}
)


class FakeClock:
    """Unix time that only moves when a test says so."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "poker.sqlite3"


@pytest.fixture
def sqlite_url(db_path: Path) -> str:
    return f"sqlite:///{db_path}"


@pytest.fixture(params=["sqlite", "postgresql"])
async def database_url(request: pytest.FixtureRequest, sqlite_url: str) -> str:
    """A fresh, empty database of each backend."""
    if request.param == "sqlite":
        return sqlite_url
    return await postgres.database_url()


@pytest.fixture
async def store(database_url: str, clock: FakeClock) -> AsyncIterator[Storage]:
    storage = await Storage.open(database_url, defaults=DEFAULTS, clock=clock)
    yield storage
    await storage.close()


def sqlite_of(storage: Storage) -> SQLiteExecutor:
    """The SQLite executor under a storage (for the tests of SQLite's own machinery)."""
    assert isinstance(storage.executor, SQLiteExecutor)
    return storage.executor


async def execute(storage: Storage, sql: str, params: Sequence[Any] = ()) -> None:
    """A statement of the test's own, in a transaction of its own (to break the data on purpose)."""

    async def body(tx: Tx) -> None:
        await tx.execute(sql, params)

    await storage.executor.write(body)


async def select(storage: Storage, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """The rows of a query of the test's own, as tuples."""

    async def body(tx: Tx) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in await tx.all(sql, params)]

    return await storage.executor.read(body)


@pytest.fixture
async def own_server() -> AsyncIterator[Any]:
    """A PostgreSQL server of this test's own (the shared one must stay up), stopped by the test."""
    if postgres.server_url() is None:
        postgres.unavailable()
    import pgserver

    folder = tempfile.mkdtemp(prefix="poker-bot-pg-outage-")
    server = pgserver.get_server(folder, cleanup_mode="stop")  # type: ignore[attr-defined]
    try:
        yield server
    finally:
        server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


async def create_login_role(admin_url: str, user: str, password: str) -> None:
    """Create a superuser `user` who logs in with `password` on the server of `admin_url` (a URL with a password,
    for the tests that check it never reaches a log)."""
    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f"CREATE ROLE {user} LOGIN SUPERUSER PASSWORD '{password}'")
    finally:
        await conn.close()
