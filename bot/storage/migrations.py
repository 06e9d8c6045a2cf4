"""Schema migrations: numbered SQL files, one folder per dialect (bot/storage/migrations/sqlite/, .../postgresql/).

Both folders hold the same numbers and names: migration N makes the same tables, columns and rules in each
dialect's words. SQLite records the version in PRAGMA user_version; PostgreSQL in the one-row table
`schema_version`. Either way all pending migrations apply in one transaction, and two processes starting at once
migrate once (SQLite: the write lock; PostgreSQL: an advisory lock).
"""

from __future__ import annotations

import logging
import re
import sqlite3
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING

import aiosqlite

from bot.storage.errors import SchemaTooNew, StorageError
from bot.storage.executor import Dialect

if TYPE_CHECKING:
    import asyncpg

log = logging.getLogger(__name__)

_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True)
class Migration:
    """One numbered migration file: `version` is its number, `statements` its SQL split into statements."""

    version: int
    name: str
    statements: tuple[str, ...]
    script: str = ""


def split_statements(script: str) -> tuple[str, ...]:
    """Split an SQL script into complete statements (trigger bodies and comments handled by SQLite itself).

    `executescript` cannot be used: it commits any open transaction first.
    """
    statements: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    leftover = "\n".join(ln for ln in pending.splitlines() if not ln.strip().startswith("--")).strip()
    if leftover:
        raise StorageError(f"incomplete SQL statement at the end of a migration: {leftover[:60]!r}")
    return tuple(statements)


def load_migrations(dialect: Dialect = Dialect.SQLITE) -> tuple[Migration, ...]:
    """Every migration shipped with the package for `dialect`, in order; their numbers must run 1, 2, 3... without
    gaps. A SQLite migration is split into statements; a PostgreSQL one runs as one script (its function bodies
    hold semicolons)."""
    root = resources.files("bot.storage").joinpath("migrations")
    stray = sorted(entry.name for entry in root.iterdir() if entry.name.endswith(".sql"))
    if stray:  # a migration written before the dialect folders: it would silently never run
        raise StorageError(f"migrations {stray} must be in migrations/sqlite/ and migrations/postgresql/ (one each)")
    folder = root.joinpath(dialect.value)
    found: list[Migration] = []
    for entry in folder.iterdir():
        match = _NAME.match(entry.name)
        if match:
            text = entry.read_text("utf-8")
            statements = split_statements(text) if dialect is Dialect.SQLITE else ()
            found.append(Migration(int(match.group(1)), entry.name, statements, text))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise StorageError(f"migration files are not numbered 1..n: {[m.name for m in found]}")
    return tuple(found)


def _pending(migrations: tuple[Migration, ...], current: int) -> list[Migration]:
    """The migrations above version `current`, in order; each is logged as it is about to apply."""
    pending = [m for m in migrations if m.version > current]
    for migration in pending:
        log.info("applying migration %s", migration.name)
    return pending


async def user_version(db: aiosqlite.Connection) -> int:
    """The schema version recorded in the database file (0 for a new file)."""
    async with db.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def migrate(db: aiosqlite.Connection, migrations: tuple[Migration, ...] | None = None) -> int:
    """Apply the pending SQLite migrations in one transaction and return the resulting version.

    `db` must be in autocommit mode (isolation_level=None). Raises SchemaTooNew, leaving the file
    untouched, when the database is newer than the newest migration. Re-running is a no-op.
    """
    migrations = load_migrations() if migrations is None else migrations
    latest = migrations[-1].version if migrations else 0
    await db.execute("BEGIN IMMEDIATE")
    try:
        # Read inside the write lock so that two processes opening one file do not both migrate.
        current = await user_version(db)
        if current > latest:
            raise SchemaTooNew(current, latest)
        for migration in _pending(migrations, current):
            for statement in migration.statements:
                await db.execute(statement)
        if latest != current:
            # PRAGMA takes no parameters; `latest` is an int computed above.
            await db.execute(f"PRAGMA user_version = {int(latest)}")
    except BaseException:
        await db.execute("ROLLBACK")
        raise
    await db.execute("COMMIT")
    return max(current, latest)


#: The advisory lock that serializes PostgreSQL migrations (any constant: the bot's own).
_MIGRATION_LOCK = 0x706F6B6572


async def migrate_postgresql(conn: asyncpg.Connection, migrations: tuple[Migration, ...] | None = None) -> int:
    """Apply the pending PostgreSQL migrations in one transaction and return the resulting version.

    Raises SchemaTooNew, leaving the database untouched, when it is newer than the newest migration. Re-running is
    a no-op; two processes running it at once wait for each other (an advisory lock held to the commit)."""
    migrations = load_migrations(Dialect.POSTGRESQL) if migrations is None else migrations
    latest = migrations[-1].version if migrations else 0
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        current = await conn.fetchval("SELECT MAX(version) FROM schema_version") or 0
        if current > latest:
            raise SchemaTooNew(current, latest)
        for migration in _pending(migrations, current):
            await conn.execute(migration.script)
        if latest > current:
            await conn.execute("DELETE FROM schema_version")
            await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", latest)
    return max(current, latest)
