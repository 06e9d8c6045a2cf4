"""A database file that is not a SQLite database (another kind of file, or one damaged beyond its header) stops the
bot at start with one clear line naming the database (redacted) and what to do, and exit code 2, as the other
configuration errors do (bot/runtime.py): not a traceback, and not the exit code of a passing fault, which a cluster
would restart for ever."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage import Storage, StorageUnavailable, StorageUnreadable
from tests.discord_stub import DiscordStub
from tests.storage.conftest import DEFAULTS

ROOT = Path(__file__).resolve().parents[1]


async def test_a_file_that_is_not_a_database_exits_2_in_one_line_naming_it(tmp_path: Path) -> None:
    database = tmp_path / "poker.sqlite3"
    database.write_bytes(b"these are the minutes of the club's meeting, not a database\n" * 100)
    stub = await DiscordStub().start()
    env = {
        "PATH": "/usr/bin:/bin",
        "DISCORD_TOKEN": stub.token,
        "STUB_BOT_ENTRY": "bot.__main__:main",
        "STUB_URL": stub.env()["STUB_URL"],
        "DATABASE_PATH": str(database),
    }
    command = [sys.executable, "-m", "tests.discord_stub.run_bot", "run", "--shard-count", "1"]
    try:
        result = await asyncio.to_thread(
            subprocess.run, command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
        )
    finally:
        await stub.stop()
    assert result.returncode == 2, result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last == (
        f"poker-bot: the database at sqlite:///{database} is not a readable SQLite database (file is not a database):"
        " restore it from a backup, or move it away to start with an empty one"
    ), result.stderr
    assert "Traceback" not in result.stderr and stub.token not in result.stderr
    assert database.read_bytes().startswith(b"these are the minutes")  # left as it was


async def test_a_damaged_sqlite_file_is_unreadable_not_a_passing_fault(tmp_path: Path) -> None:
    """A real SQLite file whose pages past its header are overwritten: opening it (the migrations read it) raises
    `StorageUnreadable`, which says the file and what to do, not a driver's DatabaseError or a passing outage."""
    database = tmp_path / "poker.sqlite3"
    store = await Storage.open(database, defaults=DEFAULTS)
    await store.close()
    data = bytearray(database.read_bytes())
    data[100:] = b"\x5a" * (len(data) - 100)  # the header stays: SQLite finds the damage when it reads a page
    database.write_bytes(bytes(data))
    with pytest.raises(StorageUnreadable) as raised:
        await Storage.open(database, defaults=DEFAULTS)
    assert not isinstance(raised.value, StorageUnavailable)
    assert raised.value.database == f"sqlite:///{database}"
    assert str(raised.value) == (
        f"the database at sqlite:///{database} is not a readable SQLite database (database disk image is malformed):"
        " restore it from a backup, or move it away to start with an empty one"
    )
