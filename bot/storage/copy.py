"""`poker-bot db copy --from URL --to URL`: move a bot's whole database to another one (e.g. SQLite to PostgreSQL).

Every table is copied, ids included, in one transaction on the target, which must be empty (a new database: it is
migrated first). Before that transaction commits, the audit of every server is run on the copy and compared with
the audit of the source: any difference rolls the whole copy back. The source is read in one consistent read and
never changed (apart from being migrated to this bot's schema, as starting the bot would); a source on which a bot
still holds a live shard lease is refused (what it wrote after the read would be lost).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.render.counted import counted
from bot.storage.backends import dialect_of, redact, sqlite_path
from bot.storage.errors import StorageError, StorageUnreadable
from bot.storage.executor import Dialect, Tx
from bot.storage.ledger import Ledger
from bot.storage.models import AuditReport
from bot.storage.store import Storage

log = logging.getLogger(__name__)

#: Every table of the schema, each after the tables it refers to (tests/storage/test_copy.py checks the list is whole).
TABLES = (
    "meta",
    "guild_settings",
    "accounts",
    "poker_tables",
    "table_seats",
    "hands",
    "hand_actions",
    "hand_players",
    "ledger",
    "tournament_places",
    "outbox",
    "shard_leases",
    "puzzle_answers",
    "open_puzzles",
)
#: The tables whose ids the database makes (PostgreSQL's identity sequences move past the copied ids).
_IDENTITY = ("poker_tables", "hands", "ledger", "outbox")
_BATCH = 1000


class CopyMismatch(StorageError):
    """The copy's audit (or its row counts) differs from the source's: nothing was written."""


class SourceUnreadable(StorageUnreadable):
    """The source database is not a readable SQLite database (another kind of file, or damaged pages met while
    reading it): nothing was copied, and no target was created. `str()` says so, and to restore it first."""

    def __init__(self, database: str, cause: str) -> None:
        StorageError.__init__(
            self,
            f"the source database at {database} is not a readable SQLite database ({cause}): nothing was copied;"
            " restore it from a backup, then copy again",
        )
        self.database = database
        self.cause = cause


@dataclass(frozen=True)
class CopyReport:
    """What was copied: rows per table and, per server, the audit found identical on both sides."""

    rows: dict[str, int]
    audits: tuple[AuditReport, ...]


#: A table's rows read from the source: (column names, values) each.
_Rows = list[tuple[tuple[str, ...], list[Any]]]


async def _read_all(tx: Tx) -> dict[str, _Rows]:
    data: dict[str, _Rows] = {}
    for table in TABLES:
        rows = await tx.all(f"SELECT * FROM {table}")
        data[table] = []
        for row in rows:
            columns = tuple(row.keys())
            data[table].append((columns, [row[c] for c in columns]))
    return data


async def _guilds(tx: Tx) -> list[int]:
    rows = await tx.all(
        """
        SELECT guild_id FROM accounts UNION SELECT guild_id FROM poker_tables
        UNION SELECT guild_id FROM guild_settings UNION SELECT guild_id FROM ledger
        ORDER BY guild_id
        """
    )
    return [int(r["guild_id"]) for r in rows]


async def _audits(tx: Tx, guilds: Sequence[int]) -> tuple[AuditReport, ...]:
    return tuple([await Ledger.audit(tx, guild) for guild in guilds])


async def copy_database(source: str, target: str) -> CopyReport:
    """Copy every row of `source` into the empty database `target` (URLs or SQLite paths) and return what was
    copied. Raises StorageError if the target is not empty, the source's SQLite file does not exist or a database
    cannot be opened, CopyMismatch (nothing written) if any server's audit or any table's row count differs after
    the copy."""
    if dialect_of(source) is Dialect.SQLITE and not await asyncio.to_thread(Path(sqlite_path(source)).is_file):
        raise StorageError(f"there is no database file at {sqlite_path(source)}: nothing to copy (check --from)")

    async def read(tx: Tx) -> tuple[dict[str, _Rows], tuple[AuditReport, ...]]:
        return await _read_all(tx), await _audits(tx, await _guilds(tx))

    try:  # the whole source is read before the target is opened: an unreadable source leaves no empty copy
        old = await Storage.open(source)
        try:
            data, before = await old.executor.read(read)
            _refuse_a_running_source(old, data["shard_leases"], time.time())
        finally:
            await old.close()
    except StorageUnreadable as exc:
        raise SourceUnreadable(exc.database, exc.cause) from exc
    new = await Storage.open(target)
    try:
        return await _copy(new, data, before)
    finally:
        await new.close()


async def _copy(new: Storage, data: dict[str, _Rows], before: tuple[AuditReport, ...]) -> CopyReport:

    async def write(tx: Tx) -> CopyReport:
        for table in TABLES:
            if await tx.one(f"SELECT 1 FROM {table} LIMIT 1") is not None:
                raise StorageError(f"the target database is not empty (table {table} has rows): copy into a new one")
        counts: dict[str, int] = {}
        for table in TABLES:
            rows = data[table]
            counts[table] = len(rows)
            if not rows:
                continue
            columns = rows[0][0]
            sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
            values = [_fit(tx.dialect, table, columns, row) for _, row in rows]
            for start in range(0, len(values), _BATCH):
                await tx.executemany(sql, values[start : start + _BATCH])
        if tx.dialect is Dialect.POSTGRESQL:
            for table in _IDENTITY:
                await tx.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 0) + 1, false) "
                    f"FROM {table}"
                )
        for table in TABLES:
            copied = await tx.count(f"SELECT COUNT(*) FROM {table}")
            if copied != counts[table]:
                raise CopyMismatch(f"table {table}: {counted(counts[table], 'row')} read but {copied} written")
        after = await _audits(tx, await _guilds(tx))
        if after != before:
            differ = [f"guild {a.guild_id}" for a, b in zip(after, before, strict=False) if a != b]
            raise CopyMismatch(f"the audit differs after the copy ({', '.join(differ) or 'the servers differ'})")
        return CopyReport(counts, after)

    return await new.executor.write(write)


def _refuse_a_running_source(old: Storage, leases: _Rows, now: float) -> None:
    """Raise StorageError when a bot process still holds a live shard lease on the source: what it writes after the
    copy's read would be lost (the copy is of a stopped bot: README, "When to move to PostgreSQL")."""
    for columns, values in leases:
        lease = dict(zip(columns, values, strict=True))
        left = float(lease["expires_at"]) - now
        if left > 0:
            raise StorageError(
                f"a bot is still running on {old.executor.description} (process {lease['holder']} holds shard "
                f"{lease['shard_id']} for {left:.0f} s more): stop it first (after a crash, wait that long)"
            )


def _fit(dialect: Dialect, table: str, columns: Sequence[str], row: Sequence[Any]) -> tuple[Any, ...]:
    """A source row as the target stores it: PostgreSQL wants floats in its DOUBLE PRECISION time columns (SQLite
    may hold a whole number there)."""
    if dialect is not Dialect.POSTGRESQL:
        return tuple(row)
    return tuple(
        float(value) if isinstance(value, int) and name.endswith(("_at",)) else value
        for name, value in zip(columns, row, strict=True)
    )


def add_db_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `db` and its subcommands (`db copy --from URL --to URL`) to a command line's subcommands; each sets
    `handler`, a function of the parsed arguments that returns the exit code."""
    db = commands.add_parser("db", help="database tools", description="Database tools.")
    tools = db.add_subparsers(dest="db_command", required=True, metavar="TOOL")
    copy = tools.add_parser("copy", help="copy every row into a new, empty database, checking every server's audit")
    copy.add_argument("--from", dest="source", required=True, help="sqlite:///path or postgresql://...")
    copy.add_argument("--to", dest="target", required=True, help="sqlite:///path or postgresql://... (empty)")
    copy.set_defaults(handler=copy_command)


def copy_command(args: argparse.Namespace) -> int:
    """`poker-bot db copy`: run the copy, print what it did; returns the exit code (0 done, 1 refused or failed,
    2 a database that is not a readable SQLite database: as `poker-bot run` exits, no retry helps)."""
    logging.basicConfig(level=logging.WARNING)
    try:
        report = asyncio.run(copy_database(args.source, args.target))
    except StorageUnreadable as exc:
        sys.stderr.write(f"poker-bot db copy: {exc}\n")
        return 2
    except StorageError as exc:
        sys.stderr.write(f"poker-bot db copy: {exc}\n")
        return 1
    total = sum(report.rows.values())
    print(f"copied {counted(total, 'row')} from {redact(args.source)} to {redact(args.target)}")
    for table, count in report.rows.items():
        print(f"  {table}: {count}")
    for audit in report.audits:
        state = "ok" if audit.ok else f"NOT ok ({counted(len(audit.problems), 'problem')}, the same in the source)"
        print(
            f"  guild {audit.guild_id}: audit {state}, the same before and after: balances {audit.balances} "
            f"+ on tables {audit.on_tables} = issued {audit.issued}"
        )
    return 0


def main(argv: Sequence[str]) -> int:
    """`poker-bot db ...` (argv: what follows `db`): parse, run, return the exit code (2 for bad arguments)."""
    parser = argparse.ArgumentParser(prog="poker-bot")
    add_db_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["db", *argv])
    handler = args.handler
    assert callable(handler)
    return int(handler(args))
