"""Fixtures for the storage tests: a fresh database per test on each backend, and a controllable clock.

`store` (and `database_url`) run each test twice: on a SQLite file and on a fresh database of a real PostgreSQL
that the tests start themselves (tests/postgres.py). A module that tests SQLite's own machinery overrides
`database_url` with `sqlite_url`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

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
