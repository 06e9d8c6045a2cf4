"""Fixtures for the storage tests: a fresh database file per test and a controllable clock."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import GuildDefaults, Storage

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
async def store(db_path: Path, clock: FakeClock) -> AsyncIterator[Storage]:
    storage = await Storage.open(db_path, defaults=DEFAULTS, clock=clock)
    yield storage
    await storage.close()
