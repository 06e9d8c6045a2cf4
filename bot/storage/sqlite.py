"""The SQLite executor: one aiosqlite connection, WAL, every transaction body run whole in its thread in one hop.

aiosqlite runs the calls queued on a connection one at a time, in order, in its own thread. A whole transaction
given as one function therefore never interleaves with another caller's statements, and costs one trip to that
thread instead of one per statement (each trip waits for the event loop to resume the caller, which under load
made every transaction - and the table actions queued behind it - many times slower). aiosqlite has no public way
to queue a function: `_run_in_worker` is the one place that uses its private `Connection._execute` and
`Connection._conn` (pinned in pyproject.toml; tests/storage/test_aiosqlite_contract.py fails when they change).
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.storage.errors import Conflict, StorageError, StorageUnavailable, StorageUnreadable
from bot.storage.executor import Body, Dialect, Executor, Params, Tx, WouldWait
from bot.storage.models import Row

log = logging.getLogger(__name__)

T = TypeVar("T")

_PRAGMAS = (
    "PRAGMA journal_mode = WAL",
    "PRAGMA foreign_keys = ON",
    "PRAGMA busy_timeout = 5000",
    "PRAGMA synchronous = NORMAL",
)


def run_now(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine that never suspends (a transaction body over a `SQLiteTx`) to its end, here and now.

    Raises what the body raises; RuntimeError if it awaited anything that really waits (a body over SQLite may
    await only its transaction's methods, which return at once)."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        result: T = done.value
        return result
    coroutine.close()
    raise RuntimeError("a SQLite transaction body awaited something other than its transaction")


class SQLiteTx(Tx):
    """A transaction's statements on a `sqlite3` connection, run at once in the caller's thread."""

    dialect = Dialect.SQLITE

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    async def execute(self, sql: str, params: Params = ()) -> int:
        try:
            return self.db.execute(sql, params).rowcount
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from exc

    async def executemany(self, sql: str, rows: Sequence[Params]) -> None:
        try:
            self.db.executemany(sql, rows)
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from exc

    async def all(self, sql: str, params: Params = ()) -> list[Row]:
        try:
            return list(self.db.execute(sql, params).fetchall())
        except sqlite3.IntegrityError as exc:  # INSERT ... RETURNING
            raise Conflict(str(exc)) from exc


def transaction(db: sqlite3.Connection, body: Body[T], begin: str = "BEGIN IMMEDIATE") -> T:
    """Run `body` as one transaction on `db` (autocommit mode) in this thread: `begin`, the body, COMMIT; any
    exception rolls back and is raised."""
    db.execute(begin)
    try:
        result = run_now(body(SQLiteTx(db)))
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:  # SQLite may already have rolled back (e.g. disk full)
            db.execute("ROLLBACK")
        raise
    return result


async def _run_in_worker(connection: aiosqlite.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """Run `work(sqlite3 connection)` in aiosqlite's worker thread, queued behind the calls before it, in one hop.

    The worker thread keeps its last call and its outcome alive until the next call comes: neither may hold `work`
    (whose closure, or an exception's traceback through it, holds the caller and so the aiosqlite connection, which
    stops its thread only when collected), hence the hand-over in both directions through a list emptied on each
    side."""
    db = connection._conn
    box: list[Any] = [work]  # in: the work; out: (True, result) or (False, exception)

    def run() -> None:  # returns nothing: aiosqlite's worker keeps its last future (and result) alive
        fn = box.pop()
        try:
            box.append((True, fn(db)))
        except BaseException as exc:
            box.append((False, exc))

    await connection._execute(run)  # type: ignore[no-untyped-call]  # aiosqlite's own queue
    ok, value = box.pop()
    if not ok:
        raise value
    result: T = value
    return result


class SQLiteExecutor(Executor):
    """The embedded backend: a file in WAL mode (or ":memory:") behind one aiosqlite connection.

    `connection` is the aiosqlite connection (its thread runs every transaction); `path` the database file;
    `actions_connection` the second connection `write_now` commits on in the event loop (None: an in-memory
    database, or a file not in WAL mode; it is opened by `open_actions_connection` once the schema is migrated)."""

    dialect = Dialect.SQLITE

    def __init__(self, connection: aiosqlite.Connection, path: str) -> None:
        self.connection = connection
        self.path = path
        self.actions_connection: sqlite3.Connection | None = None
        self._closed = False

    @classmethod
    async def open(cls, path: str | Path) -> SQLiteExecutor:
        """Open (creating it and its folder if needed) the database at `path`, in WAL mode with foreign keys on.
        Raises StorageError if it cannot be opened."""
        try:
            if str(path) != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            connection = await aiosqlite.connect(str(path), isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise StorageError(f"cannot open the database at {path}: {exc}") from exc
        try:
            connection.row_factory = sqlite3.Row
            # Close each cursor: a PRAGMA that returns a row (journal_mode, busy_timeout) left unread keeps its
            # statement active until the cursor is freed, and COMMIT then fails ("SQL statements in progress").
            for pragma in _PRAGMAS:
                async with connection.execute(pragma):
                    pass
        except BaseException as exc:
            await connection.close()
            if (unreadable_error := unreadable(exc, f"sqlite:///{path}")) is not None:  # another kind of file
                raise unreadable_error from exc
            if isinstance(exc, sqlite3.DatabaseError):
                raise StorageError(f"cannot open the database at {path}: {exc}") from exc
            raise
        return cls(connection, str(path))

    @property
    def description(self) -> str:
        return f"sqlite:///{self.path}"

    @property
    def closed(self) -> bool:
        """True once `close` has begun: no transaction is accepted any more."""
        return self._closed

    async def in_thread(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run `work(connection)` in the database thread, in one hop (no transaction of its own). Raises
        StorageError once the database is closed."""
        if self._closed:
            raise StorageError("the database is closed")
        try:
            return await _run_in_worker(self.connection, work)
        except sqlite3.OperationalError as exc:
            if (outage := unavailable(exc)) is not None:
                raise outage from exc
            raise
        except sqlite3.DatabaseError as exc:  # a page found damaged (the migrations read the file first)
            if (unreadable_error := unreadable(exc, self.description)) is not None:
                raise unreadable_error from exc
            raise

    async def write(self, body: Body[T]) -> T:
        def work(db: sqlite3.Connection) -> T:
            return transaction(db, body)

        return await self.in_thread(work)

    def open_actions_connection(self) -> None:
        """Open `actions_connection` (see `open_actions_connection`)."""
        self.actions_connection = open_actions_connection(self.path)

    @property
    def can_write_now(self) -> bool:
        return self.actions_connection is not None and not self._closed

    def write_now(self, body: Body[T]) -> T:
        db = self.actions_connection
        if db is None or self._closed:
            raise WouldWait
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if is_busy(exc):
                raise WouldWait from exc
            if (outage := unavailable(exc)) is not None:
                raise outage from exc
            raise
        try:
            result = run_now(body(SQLiteTx(db)))
            db.execute("COMMIT")
        except BaseException as exc:
            with contextlib.suppress(sqlite3.Error):
                if db.in_transaction:
                    db.execute("ROLLBACK")
            if (outage := unavailable(exc)) is not None:
                raise outage from exc
            # A page found damaged on this connection too: the same StorageUnreadable as the database thread's
            # (`in_thread`), not the driver's DatabaseError (which the log would wrap as a generic StorageError).
            if (unreadable_error := unreadable(exc, self.description)) is not None:
                raise unreadable_error from exc
            raise
        return result

    async def read(self, body: Body[T]) -> T:
        # No other caller's statement runs in between (one thread, one call at a time): one committed state.
        def work(db: sqlite3.Connection) -> T:
            return run_now(body(SQLiteTx(db)))

        return await self.in_thread(work)

    async def _close(self) -> None:
        self._closed = True
        if self.actions_connection is not None:
            self.actions_connection.close()
        try:
            await self.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            await self.connection.close()


def open_actions_connection(path: str) -> sqlite3.Connection | None:
    """A second connection to write hand actions through in the event loop (`SQLiteExecutor.write_now`, used by
    `bot.storage.hands.ActionLog`);
    None for an in-memory database or a file not in WAL mode (where readers and this writer would block each
    other). It never waits for a lock (busy_timeout 0: the caller waits without blocking the loop) and never
    checkpoints the WAL (which may sync the disk: the database thread's connection does it)."""
    if path == ":memory:":
        return None
    db = sqlite3.connect(path, isolation_level=None)
    try:
        mode = str(db.execute("PRAGMA journal_mode").fetchone()[0]).lower()
        if mode != "wal":
            log.warning("database %s is in %s journal mode, not WAL: hand actions go through its thread", path, mode)
            db.close()
            return None
        for pragma in (
            "PRAGMA foreign_keys = ON",
            "PRAGMA synchronous = NORMAL",
            "PRAGMA busy_timeout = 0",
            "PRAGMA wal_autocheckpoint = 0",
        ):
            db.execute(pragma).close()
        db.row_factory = sqlite3.Row
    except BaseException:
        db.close()
        raise
    return db


#: SQLite's primary result codes that mean the database cannot be written or read now, not a wrong statement:
#: SQLITE_PERM, BUSY, READONLY, IOERR, FULL, CANTOPEN, PROTOCOL. Not SQLITE_LOCKED (6): a conflict inside one
#: connection (a statement of ours still reading a table the same connection changes), our own bug.
_UNAVAILABLE_CODES = frozenset({3, 5, 8, 10, 13, 14, 15})


def unavailable(exc: BaseException) -> StorageUnavailable | None:
    """The `StorageUnavailable` a SQLite error means (the file locked by another connection, read-only, full,
    unreadable), or None for any other error (a wrong statement, or SQLITE_LOCKED: a table locked by our own
    connection, is a bug, not an outage)."""
    if not isinstance(exc, sqlite3.OperationalError):
        return None
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None or code & 0xFF not in _UNAVAILABLE_CODES:
        return None
    return StorageUnavailable(f"SQLite: {exc} ({getattr(exc, 'sqlite_errorname', code)})")


#: SQLite's primary result codes of a file that is no SQLite database, or a damaged one: SQLITE_CORRUPT, NOTADB.
_UNREADABLE_CODES = frozenset({11, 26})


def unreadable(exc: BaseException, database: str) -> StorageUnreadable | None:
    """The `StorageUnreadable` a SQLite error means (the file at `database` is no SQLite database, or a damaged
    one), or None for any other error."""
    if not isinstance(exc, sqlite3.DatabaseError):
        return None
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None or code & 0xFF not in _UNREADABLE_CODES:
        return None
    return StorageUnreadable(database, str(exc))


def is_busy(exc: sqlite3.OperationalError) -> bool:
    """The statement was refused because another connection holds the write lock (SQLITE_BUSY: "database is
    locked"; SQLITE_LOCKED, "database table is locked", is a conflict inside one connection, not this)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return bool(code & 0xFF == sqlite3.SQLITE_BUSY)
    return "database is locked" in str(exc)
