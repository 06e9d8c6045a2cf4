"""Schema migrations, in both dialects: from empty, re-run, newer schema refused, a failing migration leaves nothing
behind, and the two dialects' migrations make the same tables and columns."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot.storage import SchemaTooNew, Storage, StorageError
from bot.storage.executor import Dialect
from bot.storage.migrations import (
    Migration,
    load_migrations,
    migrate,
    migrate_postgresql,
    split_statements,
    user_version,
)
from tests import postgres
from tests.storage.conftest import select


def _tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


def test_migration_files_are_numbered_from_one_without_gaps() -> None:
    migrations = load_migrations()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert migrations[0].name == "0001_initial.sql"


async def test_open_creates_folder_and_migrates_an_empty_file_to_the_latest_version(db_path: Path) -> None:
    assert not db_path.parent.exists()
    storage = await Storage.open(db_path)
    await storage.close()
    assert _version(db_path) == load_migrations()[-1].version
    assert {"accounts", "ledger", "poker_tables", "table_seats", "hands", "hand_actions", "hand_players"} <= _tables(
        db_path
    )


async def test_open_uses_wal_and_foreign_keys(db_path: Path) -> None:
    storage = await Storage.open(db_path)
    try:
        assert await select(storage, "PRAGMA journal_mode") == [("wal",)]
        assert await select(storage, "PRAGMA foreign_keys") == [(1,)]
    finally:
        await storage.close()


async def test_reopening_keeps_data_and_applies_nothing_twice(db_path: Path) -> None:
    storage = await Storage.open(db_path)
    await storage.ensure_account(1, 42)
    await storage.close()
    version = _version(db_path)

    storage = await Storage.open(db_path)
    try:
        assert await storage.balance(1, 42) == 1000
        assert len(await storage.ledger(1, 42)) == 1
    finally:
        await storage.close()
    assert _version(db_path) == version

    async with aiosqlite.connect(db_path, isolation_level=None) as db:
        assert await migrate(db) == version  # a second run is a no-op, not a "table exists" error


async def test_database_newer_than_the_code_is_refused_and_left_untouched(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    with sqlite3.connect(db_path) as conn:
        conn.execute("PRAGMA user_version = 999")
    with pytest.raises(SchemaTooNew, match="version 999 is newer than this bot supports"):
        await Storage.open(db_path)
    assert _version(db_path) == 999
    assert _tables(db_path) == set()


async def test_a_failing_migration_rolls_back_every_statement(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    broken = (
        Migration(1, "0001_a.sql", ("CREATE TABLE a (x INTEGER)",)),
        Migration(2, "0002_b.sql", ("CREATE TABLE b (x INTEGER)", "INSERT INTO nowhere VALUES (1)")),
    )
    async with aiosqlite.connect(db_path, isolation_level=None) as db:
        with pytest.raises(sqlite3.OperationalError):
            await migrate(db, broken)
        assert await user_version(db) == 0
    assert _tables(db_path) == set()


def test_statements_split_keeps_trigger_bodies_and_ignores_semicolons_in_comments() -> None:
    script = """
    -- a comment; with a semicolon
    CREATE TABLE t (x INTEGER);
    CREATE TRIGGER t_no_delete BEFORE DELETE ON t
    BEGIN
        SELECT RAISE(ABORT, 'no; never');
    END;
    -- trailing comment
    """
    statements = split_statements(script)
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")


def test_an_unfinished_statement_is_an_error() -> None:
    with pytest.raises(StorageError, match="incomplete"):
        split_statements("CREATE TABLE t (x INTEGER)")


def test_both_dialects_have_the_same_numbered_migrations() -> None:
    sqlite, postgresql = load_migrations(Dialect.SQLITE), load_migrations(Dialect.POSTGRESQL)
    assert [(m.version, m.name) for m in sqlite] == [(m.version, m.name) for m in postgresql]


async def _postgresql_columns(url: str) -> dict[str, list[str]]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            """
            SELECT table_name, column_name FROM information_schema.columns
            WHERE table_schema = 'public' AND table_name != 'schema_version'
            ORDER BY table_name, ordinal_position
            """
        )
    finally:
        await conn.close()
    columns: dict[str, list[str]] = {}
    for row in rows:
        columns.setdefault(row["table_name"], []).append(row["column_name"])
    return columns


def _sqlite_columns(path: Path) -> dict[str, list[str]]:
    with sqlite3.connect(path) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {
            t: [c[1] for c in conn.execute(f"PRAGMA table_info({t})")] for t in sorted(tables) if t != "sqlite_sequence"
        }


async def test_both_dialects_make_the_same_tables_and_columns(db_path: Path) -> None:
    url = await postgres.database_url()
    for target in (db_path, url):
        await (await Storage.open(target)).close()
    assert await _postgresql_columns(url) == _sqlite_columns(db_path)


async def test_postgresql_reopening_applies_nothing_twice_and_a_newer_schema_is_refused() -> None:
    url = await postgres.database_url()
    storage = await Storage.open(url)
    await storage.ensure_account(1, 42)
    await storage.close()
    storage = await Storage.open(url)
    try:
        assert len(await storage.ledger(1, 42)) == 1
    finally:
        await storage.close()
    conn = await asyncpg.connect(url)
    try:
        assert await conn.fetchval("SELECT version FROM schema_version") == load_migrations()[-1].version
        await conn.execute("UPDATE schema_version SET version = 999")
    finally:
        await conn.close()
    with pytest.raises(SchemaTooNew, match="version 999 is newer"):
        await Storage.open(url)


async def test_a_failing_postgresql_migration_rolls_back_every_statement() -> None:
    url = await postgres.database_url()
    broken = (
        Migration(1, "0001_a.sql", (), "CREATE TABLE a (x INTEGER);"),
        Migration(2, "0002_b.sql", (), "CREATE TABLE b (x INTEGER); INSERT INTO nowhere VALUES (1);"),
    )
    conn = await asyncpg.connect(url)
    try:
        with pytest.raises(asyncpg.UndefinedTableError):
            await migrate_postgresql(conn, broken)
        tables = await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        assert tables == []  # not even schema_version
    finally:
        await conn.close()
