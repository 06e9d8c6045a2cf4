"""The PostgreSQL executor: an asyncpg connection pool; each write one transaction, retried when the server asks.

Writers from any number of processes run at once. A write is a READ COMMITTED transaction whose bodies lock what
they read to change it (`Dialect.for_update`: a table's row, an account's row through its guarded UPDATE, the
hands of a batch of actions), so no update is lost and no chip is spent twice; a transaction the server aborts
to break a deadlock or a serialization conflict is run again from the start (the body is a function of the
transaction only, so running it again is safe). A read is one REPEATABLE READ READ ONLY transaction: all its
statements see one committed state (the audit's sums agree with each other).
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any, TypeVar

import asyncpg

from bot.storage.backends import redact, url_passwords
from bot.storage.errors import Conflict, StorageError, StorageUnavailable
from bot.storage.executor import Body, Dialect, Executor, Params, Tx
from bot.storage.migrations import migrate_postgresql
from bot.storage.models import Row

log = logging.getLogger(__name__)

T = TypeVar("T")

#: A write the server aborted (deadlock, serialization failure) is run again after these pauses (seconds).
RETRY_DELAYS_S = (0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5)
_RETRIED = (asyncpg.exceptions.DeadlockDetectedError, asyncpg.exceptions.SerializationError)
#: What asyncpg raises when the server cannot be used now (not a wrong statement): the connection lost or refused
#: (class 08), the server shutting down or starting (57P01-57P03), out of resources (class 53: disk full, too many
#: connections), a read-only standby (25006); OSError: no server at the address (but a timeout: a write that may
#: still land, which the tables handle themselves).
_UNAVAILABLE = (
    asyncpg.exceptions.PostgresConnectionError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CrashShutdownError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.InsufficientResourcesError,
    asyncpg.exceptions.ReadOnlySQLTransactionError,
    OSError,
)
#: What the executor catches to classify: `_UNAVAILABLE`, and asyncpg's InterfaceError, which replaces the outage
#: when the connection is lost inside a transaction (its `__aexit__` cannot roll back on a closed connection:
#: "cannot call Transaction.__aexit__(): the underlying connection is closed"); `unavailable` reads its context.
_CAUGHT = (*_UNAVAILABLE, asyncpg.InterfaceError)
_TOKEN = re.compile(r"'(?:[^']|'')*'|\?|(?<![:\w]):([A-Za-z_]\w*)")


@lru_cache(maxsize=1024)
def _positional(sql: str) -> str:
    """`?` placeholders become $1, $2... (outside string literals)."""
    counter = iter(range(1, 10_000))

    def sub(match: re.Match[str]) -> str:
        return f"${next(counter)}" if match.group(0) == "?" else match.group(0)

    return _TOKEN.sub(sub, sql)


@lru_cache(maxsize=1024)
def _named(sql: str) -> tuple[str, tuple[str, ...]]:
    """`:name` placeholders become $1, $2... (one number per name); returns the SQL and the names in order."""
    names: list[str] = []

    def sub(match: re.Match[str]) -> str:
        name = match.group(1)
        if name is None:
            return match.group(0)
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    return _TOKEN.sub(sub, sql), tuple(names)


def translate(sql: str, params: Params) -> tuple[str, Sequence[Any]]:
    """The PostgreSQL form of a statement written with `?` (a sequence) or `:name` (a mapping) and its arguments."""
    if isinstance(params, Mapping):
        text, names = _named(sql)
        return text, [params[name] for name in names]
    return _positional(sql), params


async def _reset(conn: asyncpg.Connection) -> None:
    """What a connection needs when it goes back to the pool: only a transaction left open rolled back (a read
    cancelled midway). The bot keeps no other session state (no LISTEN, no session advisory lock, no SET), so
    asyncpg's default reset (four statements, one more round trip on every release) is not needed."""
    if conn.is_in_transaction():
        await conn.execute("ROLLBACK")


def _count(status: str) -> int:
    """The number of rows an asyncpg status string ("UPDATE 3", "INSERT 0 1") says were changed."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PostgresTx(Tx):
    """A transaction's statements on one pooled asyncpg connection."""

    dialect = Dialect.POSTGRESQL

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        text, args = translate(sql, params)
        try:
            return _count(await self.conn.execute(text, *args))
        except asyncpg.exceptions.IntegrityConstraintViolationError as exc:
            raise Conflict(str(exc)) from exc

    async def executemany(self, sql: str, rows: Sequence[Params]) -> None:
        if not rows:
            return
        text = translate(sql, rows[0])[0]
        try:
            await self.conn.executemany(text, [translate(sql, row)[1] for row in rows])
        except asyncpg.exceptions.IntegrityConstraintViolationError as exc:
            raise Conflict(str(exc)) from exc

    async def all(self, sql: str, params: Params = ()) -> list[Row]:
        text, args = translate(sql, params)
        try:
            rows: list[Row] = await self.conn.fetch(text, *args)
        except asyncpg.exceptions.IntegrityConstraintViolationError as exc:
            raise Conflict(str(exc)) from exc
        return rows


class _OneStatementTx(PostgresTx):
    """A `PostgresTx` outside a transaction block that runs one statement only (`PostgresExecutor.read_statement`):
    a second statement would see another committed state, so it raises RuntimeError."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        super().__init__(conn)
        self._ran = False

    def _once(self) -> None:
        if self._ran:
            raise RuntimeError("read_statement: the body ran a second statement")
        self._ran = True

    async def execute(self, sql: str, params: Params = ()) -> int:
        self._once()
        return await super().execute(sql, params)

    async def executemany(self, sql: str, rows: Sequence[Params]) -> None:
        self._once()
        await super().executemany(sql, rows)

    async def all(self, sql: str, params: Params = ()) -> list[Row]:
        self._once()
        return await super().all(sql, params)


def unavailable(exc: BaseException, url: str, *, reading: bool = False) -> StorageUnavailable | None:
    """The `StorageUnavailable` an asyncpg error means (see `_UNAVAILABLE`), its message without the passwords of
    `url`; None for any other error (an InterfaceError raised over one of them, a connection lost inside a
    transaction, is that one). `reading`: in a read (`read`, `read_statement`), where a read-only refusal
    is a write of ours in a transaction we opened read-only, a bug, not a standby."""
    if isinstance(exc, asyncpg.InterfaceError) and isinstance(exc.__context__, _UNAVAILABLE):
        exc = exc.__context__  # the connection lost inside a transaction: the outage, not the failed rollback
    if not isinstance(exc, _UNAVAILABLE) or isinstance(exc, TimeoutError):
        return None
    if reading and isinstance(exc, asyncpg.exceptions.ReadOnlySQLTransactionError):
        return None
    cause = f"PostgreSQL at {redact(url)}: {type(exc).__name__}: {exc}"
    for password in url_passwords(url):
        cause = cause.replace(password, "***")
    return StorageUnavailable(cause)


def _in_transaction(body: Body[T]) -> Callable[[asyncpg.Connection], Awaitable[T]]:
    """`body` run in a READ COMMITTED transaction of the connection it is given."""

    async def run(conn: asyncpg.Connection) -> T:
        async with conn.transaction():
            return await body(PostgresTx(conn))

    return run


class PostgresExecutor(Executor):
    """The server backend: a pool of asyncpg connections to one PostgreSQL database (`url`, postgresql://...), and
    one more connection for `write_ahead`."""

    dialect = Dialect.POSTGRESQL

    def __init__(self, pool: asyncpg.Pool, ahead: asyncpg.Pool, url: str) -> None:
        self.pool = pool
        self._ahead = ahead  # one connection, for `write_ahead` only
        self._url = url
        self._closed = False
        self._running: set[asyncio.Task[Any]] = set()

    @classmethod
    async def open(cls, url: str, *, min_size: int = 1, max_size: int = 10) -> tuple[PostgresExecutor, int]:
        """Connect a pool to `url` and migrate the database; returns the executor and the schema version. Raises
        SchemaTooNew, StorageError if the server cannot be reached (the message never shows the password)."""
        pools: list[asyncpg.Pool] = []
        try:
            for size in ((min_size, max_size), (1, 1)):
                pools.append(await asyncpg.create_pool(url, min_size=size[0], max_size=size[1], reset=_reset))
            async with pools[0].acquire() as conn:
                version = await migrate_postgresql(conn)
        except BaseException as exc:
            for pool in pools:
                await pool.close()
            if isinstance(exc, ValueError) and not pools:  # asyncpg could not read the URL (e.g. a port "x")
                raise StorageError(f"cannot open the database at {redact(url)}: a malformed URL") from None
            if isinstance(exc, OSError | asyncpg.PostgresError | asyncpg.InterfaceError) and len(pools) < 2:
                raise StorageError(f"cannot open the database at {redact(url)}: {exc}") from exc
            raise
        return cls(pools[0], pools[1], url), version

    @property
    def description(self) -> str:
        return redact(self._url)

    async def write(self, body: Body[T]) -> T:
        return await self._shielded(_in_transaction(body), self.pool)

    async def write_ahead(self, body: Body[T]) -> T:
        return await self._shielded(_in_transaction(body), self._ahead)

    async def write_statement(self, sql: str, params: Params = ()) -> int:
        async def run(conn: asyncpg.Connection) -> int:
            return await PostgresTx(conn).execute(sql, params)  # outside a transaction block: it commits itself

        return await self._shielded(run, self.pool)

    async def write_ahead_statement(self, sql: str, params: Params = ()) -> list[Row]:
        """Run in the caller's task, not in one of its own behind a shield as the other writes: the caller is the
        hand-action log's writer (`ActionLog`), which no action's caller can cancel and which `Storage.close` waits
        for before closing this executor, and one statement that commits itself is done whole or not at all
        anyway. A task of its own cost two more turns of the busy event loop per batch (its start, then waking the
        caller), on the path of every action's announcement."""
        if self._closed:
            raise StorageError("the database is closed")

        async def run(conn: asyncpg.Connection) -> list[Row]:
            return await PostgresTx(conn).all(sql, params)  # outside a transaction block: it commits itself

        return await self._write(run, self._ahead)

    async def _shielded(self, run: Callable[[asyncpg.Connection], Awaitable[T]], pool: asyncpg.Pool) -> T:
        if self._closed:
            raise StorageError("the database is closed")
        task = asyncio.ensure_future(self._write(run, pool))
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        return await asyncio.shield(task)  # a cancelled caller does not stop it: done whole or not at all

    async def _write(self, run: Callable[[asyncpg.Connection], Awaitable[T]], pool: asyncpg.Pool) -> T:
        """`run` on a connection of `pool`, run again from the start when the server aborted its transaction."""
        for delay in (*RETRY_DELAYS_S, None):
            try:
                async with pool.acquire() as conn:
                    return await run(conn)
            except _CAUGHT as exc:
                if (outage := unavailable(exc, self._url)) is not None:
                    raise outage from exc
                raise
            except _RETRIED as exc:
                if delay is None:
                    raise StorageError(f"the database kept refusing the transaction: {exc}") from exc
                log.debug("transaction aborted by the server (%s); running it again", type(exc).__name__)
                await asyncio.sleep(delay * (1 + random.random()))
        raise AssertionError("unreachable")

    async def read(self, body: Body[T]) -> T:
        if self._closed:
            raise StorageError("the database is closed")
        try:
            async with self.pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
                return await body(PostgresTx(conn))
        except _CAUGHT as exc:
            if (outage := unavailable(exc, self._url, reading=True)) is not None:
                raise outage from exc
            raise

    async def read_statement(self, body: Body[T]) -> T:
        if self._closed:
            raise StorageError("the database is closed")
        try:
            async with self.pool.acquire() as conn:
                return await body(_OneStatementTx(conn))
        except _CAUGHT as exc:
            if (outage := unavailable(exc, self._url, reading=True)) is not None:
                raise outage from exc
            raise

    async def _close(self) -> None:
        self._closed = True
        while self._running:
            await asyncio.gather(*self._running, return_exceptions=True)
        await self.pool.close()
        await self._ahead.close()
