"""`poker-bot db copy`: a server's whole data moves from SQLite to another database (each backend) and reads back the
same; the audit of every server agrees; a target that is not empty is refused; the command line does it."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from bot.storage import LeaderboardBy, LedgerKind, PlayerOutcome, Storage, StorageError
from bot.storage.copy import TABLES, copy_database
from bot.storage.leases import ShardLeases
from tests.storage.conftest import DEFAULTS, FakeClock

ROOT = Path(__file__).resolve().parents[2]
GUILDS = (1, 2)
ALICE, BOB, CAROL = 101, 102, 103


async def fill(store: Storage, clock: FakeClock) -> None:
    """Two servers with settings, balances, an open cash table with a finished hand and one in progress, a closed
    table, a tournament with places, outbox rows delivered and owed, a bot-wide value."""
    await store.set_meta("command_sync_hash", "abc")
    await store.update_guild_settings(2, language="fr", starting_grant=500, table_defaults={"big_blind": 4})
    for guild in GUILDS:
        cash = await store.create_table(guild, 10 * guild, ALICE, "cash", {"big_blind": 2})
        await store.buy_in(cash, guild, ALICE, 1, 100, outbox=[{"key": f"in-{guild}", "payload": {"n": 1}}])
        await store.buy_in(cash, guild, BOB, 2, 80)
        await store.buy_in(cash, guild, BOB, 2, 20, LedgerKind.REBUY)
        seats = [{"seat": 1, "user_id": ALICE, "stack": 100}, {"seat": 2, "user_id": BOB, "stack": 100}]
        hand = await store.start_hand(cash, 1, {"deck": ["As", "Kd"]}, seats)
        for n in range(3):
            await store.append_action(hand, {"player": n % 2, "action": "call", "n": n})
        clock.advance(5)
        await store.finish_hand(hand, {"winners": [0]}, {1: 130, 2: 70}, {ALICE: PlayerOutcome(won=60, vpip=True)})
        seats = [{"seat": 1, "user_id": ALICE, "stack": 130}, {"seat": 2, "user_id": BOB, "stack": 70}]
        live = await store.start_hand(cash, 2, {"deck": []}, seats)
        await store.append_action(live, {"player": 0, "action": "raise", "amount": 6})
        await store.mark_delivered([f"in-{guild}"])
        await store.save_table_state(cash, {"button": 1}, 555, outbox=[{"key": f"owed-{guild}", "payload": {"x": 1}}])
        closed = await store.create_table(guild, 10 * guild + 1, BOB, "cash", {})
        await store.buy_in(closed, guild, CAROL, 3, 50)
        await store.close_table(closed)
        tournament = await store.create_table(guild, 10 * guild + 2, ALICE, "tournament", {})
        await store.join_tournament(tournament, CAROL, 1, 200)
        await store.record_place(tournament, BOB, 2)
        await store.adjust(guild, CAROL, 25, "gift")
        clock.advance(60)


async def everything(store: Storage) -> Any:
    """Every public read of the data."""
    seen: list[Any] = [await store.get_meta("command_sync_hash"), await store.pending_outbox()]
    for guild in GUILDS:
        seen += [await store.guild_settings(guild), await store.audit(guild), await store.ledger(guild, limit=1000)]
        for table in await store.open_tables(guild):
            seen += [table, await store.hands_for_table(table.id, 100), await store.places(table.id)]
        seen.append(await store.latest_table_for_channel(10 * guild + 1))
        for user in (ALICE, BOB, CAROL):
            seen += [await store.stats(guild, user), await store.account(guild, user)]
        seen += [await store.leaderboard(guild, by) for by in LeaderboardBy]
    return seen


@pytest.fixture
async def source(tmp_path: Path, clock: FakeClock) -> str:
    url = f"sqlite:///{tmp_path / 'source.sqlite3'}"
    store = await Storage.open(url, defaults=DEFAULTS, clock=clock)
    try:
        await fill(store, clock)
    finally:
        await store.close()
    return url


async def test_a_copy_reads_back_the_same_and_goes_on_from_there(source: str, database_url: str) -> None:
    report = await copy_database(source, database_url)
    assert report.rows["ledger"] > 10 and report.rows["hand_actions"] == 8 and report.rows["outbox"] == 4
    assert [a.guild_id for a in report.audits] == list(GUILDS) and all(a.ok for a in report.audits)
    old = await Storage.open(source, defaults=DEFAULTS)
    new = await Storage.open(database_url, defaults=DEFAULTS)
    try:
        assert await everything(new) == await everything(old)
        # The copy goes on where the source stopped: new ids after the copied ones, the hand in progress continues.
        table = (await new.open_tables(1))[0]
        live = await new.open_hand(table.id)
        assert live is not None and await new.append_action(live.id, {"player": 1, "action": "call"}) == 1
        assert await new.create_table(1, 99, ALICE, "cash", {}) > max(t.id for t in await old.open_tables())
        before = max([(await new.ledger(guild, limit=1))[0].id for guild in GUILDS])
        await new.adjust(1, ALICE, 1, "after the copy")
        assert (await new.ledger(1, limit=1))[0].id == before + 1
        assert (await new.audit(1)).ok
    finally:
        await old.close()
        await new.close()


async def test_a_target_that_is_not_empty_is_refused_and_left_as_it_was(source: str, database_url: str) -> None:
    target = await Storage.open(database_url, defaults=DEFAULTS)
    try:
        await target.ensure_account(7, 7)
        before = await everything(target)
    finally:
        await target.close()
    with pytest.raises(StorageError, match="not empty"):
        await copy_database(source, database_url)
    target = await Storage.open(database_url, defaults=DEFAULTS)
    try:
        assert await everything(target) == before
    finally:
        await target.close()


async def test_a_source_a_bot_still_runs_on_is_refused_until_its_lease_is_given_back(
    source: str, database_url: str
) -> None:
    """What a running bot writes after the copy's read would be lost: the copy waits for a stopped bot."""
    running = await Storage.open(source)
    try:
        leases = ShardLeases(running)
        assert (await leases.acquire(0, 1, "host:42:abc", now=time.time(), ttl_s=30)).held
        with pytest.raises(StorageError, match=r"a bot is still running on .* \(process host:42:abc holds shard 0"):
            await copy_database(source, database_url)
        assert await leases.release(0, "host:42:abc")  # the bot stops cleanly
    finally:
        await running.close()
    report = await copy_database(source, database_url)  # nothing was written by the refused copy
    assert [a.guild_id for a in report.audits] == list(GUILDS)


async def test_the_copy_names_every_table_of_the_schema(tmp_path: Path) -> None:
    await (await Storage.open(tmp_path / "schema.sqlite3")).close()
    with sqlite3.connect(tmp_path / "schema.sqlite3") as db:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables - {"sqlite_sequence"} == set(TABLES)


async def test_the_command_copies_and_prints_each_server_s_audit(source: str, tmp_path: Path) -> None:
    target = f"sqlite:///{tmp_path / 'copy.sqlite3'}"
    command = [sys.executable, "-m", "bot", "db", "copy", "--from", source, "--to", target]
    done = await asyncio.to_thread(subprocess.run, command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "guild 1: audit ok, the same before and after" in done.stdout
    assert "guild 2: audit ok, the same before and after" in done.stdout
    again = await asyncio.to_thread(subprocess.run, command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert again.returncode == 1 and "not empty" in again.stderr


def db_copy(source: str, target: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`poker-bot db copy --from source --to target`, run from `cwd`."""
    command = [sys.executable, "-m", "bot", "db", "copy", "--from", source, "--to", target]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    ("source", "target", "message"),
    [
        ("sqlite:///missing/poker.sqlite3", "sqlite:///copy.sqlite3", "there is no database file at missing/poker"),
        ("sqlite:///poker.sqlite3", "postgresql://poker:hunter2@db:port/poker", "a malformed URL"),
        ("sqlite:///poker.sqlite3", "postgresql://poker:hunter2@[::1/poker", "a malformed URL"),
    ],
)
def test_a_copy_that_cannot_start_says_why_in_one_line_and_creates_nothing(
    tmp_path: Path, source: str, target: str, message: str
) -> None:
    (tmp_path / "notes.txt").write_text("not a database")
    sqlite3.connect(tmp_path / "poker.sqlite3").close()
    before = sorted(p.name for p in tmp_path.iterdir())
    done = db_copy(source, target, tmp_path)
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], done.stderr
    assert "hunter2" not in done.stderr + done.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no empty source or copy left behind


@pytest.mark.parametrize(
    ("damage", "cause"),
    [("another kind of file", "file is not a database"), ("one table's pages", "database disk image is malformed")],
)
def test_an_unreadable_source_says_so_in_one_line_exits_2_as_the_bot_and_creates_no_copy(
    tmp_path: Path, damage: str, cause: str
) -> None:
    """A source that is no SQLite database, or whose pages are damaged (found only when the copy reads them): one
    line that names it as the source and says nothing was copied, exit code 2 as `poker-bot run` (no retry helps);
    on the old code exit 1, "move it away to start with an empty one" (no sense for a copy's source), and for
    damaged pages an empty copy left behind."""
    source = tmp_path / "poker.sqlite3"
    if damage == "another kind of file":
        source.write_text("the minutes of the club's meeting, not a database\n" * 100)
    else:
        asyncio.run(made(source))
        db = sqlite3.connect(source)
        size = int(db.execute("PRAGMA page_size").fetchone()[0])
        query = "SELECT rootpage FROM sqlite_master WHERE tbl_name = 'ledger' AND rootpage > 0"
        roots = [int(root) for (root,) in db.execute(query)]
        db.close()
        with source.open("r+b") as file:
            for root in roots:
                file.seek((root - 1) * size)
                file.write(b"\x5a" * size)
    before = sorted(p.name for p in tmp_path.iterdir())
    done = db_copy("sqlite:///poker.sqlite3", "sqlite:///copy.sqlite3", tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        "poker-bot db copy: the source database at sqlite:///poker.sqlite3 is not a readable SQLite database"
        f" ({cause}): nothing was copied; restore it from a backup, then copy again"
    ], done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no empty copy left behind


async def made(path: Path) -> None:
    """A new database at `path` (migrated, empty), closed."""
    store = await Storage.open(path, defaults=DEFAULTS)
    await store.close()
