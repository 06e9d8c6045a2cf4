"""The database executor: runs one transaction body against a backend in one hop, with one interface for every SQL.

A transaction body is an `async def body(tx: Tx) -> T` written once for both backends: its statements use `?`
placeholders (or `:name` with a mapping) and the dialect's few differences are asked of `tx.dialect`. The SQLite
executor runs the whole body in its database thread (the body's awaits never suspend there: see
`bot.storage.sqlite.run_now`), so a transaction costs one trip to that thread; the PostgreSQL executor awaits it
on a pooled connection. Either way `Executor.write` runs the body as one transaction, done whole or not at all.
"""

from __future__ import annotations

import abc
import asyncio
from collections.abc import Callable, Coroutine, Mapping, Sequence
from enum import StrEnum
from typing import Any, TypeVar

from bot.storage.models import Row

T = TypeVar("T")

#: The parameters of one statement: positional for `?`, a mapping for `:name`.
Params = Sequence[Any] | Mapping[str, Any]


class Dialect(StrEnum):
    """The SQL a backend speaks (see docs/storage.md, "Dialects")."""

    SQLITE = "sqlite"
    POSTGRESQL = "postgresql"

    @property
    def for_update(self) -> str:
        """The clause that locks the rows a SELECT read until the transaction ends: PostgreSQL's writers run
        concurrently and must lock what they read to change it; SQLite's never do (BEGIN IMMEDIATE takes the one
        write lock first), so there it is empty."""
        return " FOR UPDATE" if self is Dialect.POSTGRESQL else ""


class Tx(abc.ABC):
    """One transaction's statements (given to a transaction body). Constraint violations (a unique key used twice,
    a CHECK refused, the ledger's append-only trigger) raise `bot.storage.errors.Conflict`."""

    dialect: Dialect

    @abc.abstractmethod
    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; return the number of rows it changed."""

    @abc.abstractmethod
    async def executemany(self, sql: str, rows: Sequence[Params]) -> None:
        """Run one statement once per parameter row."""

    @abc.abstractmethod
    async def all(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row a query returns."""

    async def one(self, sql: str, params: Params = ()) -> Row | None:
        """The first row a query returns, or None."""
        rows = await self.all(sql, params)
        return rows[0] if rows else None

    async def count(self, sql: str, params: Params = ()) -> int:
        """The single integer an aggregate query returns (0 for NULL; PostgreSQL's NUMERIC sums become ints)."""
        row = await self.one(sql, params)
        return 0 if row is None or row[0] is None else int(row[0])


#: A transaction body: a coroutine function of the transaction.
Body = Callable[[Tx], Coroutine[Any, Any, T]]


class WouldWait(Exception):
    """`Executor.write_now` cannot run the body without waiting (another writer holds the lock, or the backend has
    no such way): nothing was done."""


class Executor(abc.ABC):
    """Runs transaction bodies against one database; created by `bot.storage.backends.connect`."""

    dialect: Dialect

    @abc.abstractmethod
    async def write(self, body: Body[T]) -> T:
        """Run `body` as one write transaction and return its result; any exception rolls everything back and is
        raised here. A caller cancelled meanwhile does not stop it: the transaction is done whole or not at all.
        Raises StorageError once the executor is closed."""

    async def write_ahead(self, body: Body[T]) -> T:
        """As `write`, for a write on the path of every action's announcement (the hand-action log's batches): a
        backend whose writes queue for connections gives these one of their own (PostgreSQL)."""
        return await self.write(body)

    async def write_statement(self, sql: str, params: Params = ()) -> int:
        """Run one statement as a write transaction of its own and return the number of rows it changed: on
        PostgreSQL the statement commits itself, in one round trip to the server (a transaction of one statement
        needs no BEGIN and COMMIT around it: two round trips fewer); elsewhere as `write` of a body that runs it.
        Raises as `write` (and Conflict)."""

        async def body(tx: Tx) -> int:
            return await tx.execute(sql, params)

        return await self.write(body)

    async def write_ahead_statement(self, sql: str, params: Params = ()) -> list[Row]:
        """Run one statement as a write transaction of its own on the write-ahead path and return the rows it
        returns (`RETURNING`): on PostgreSQL the statement commits itself, in one round trip to the server (no
        BEGIN and COMMIT around it); elsewhere as `write_ahead` of a body that runs it. Raises as `write`."""

        async def body(tx: Tx) -> list[Row]:
            return await tx.all(sql, params)

        return await self.write_ahead(body)

    @property
    def can_write_now(self) -> bool:
        """Whether `write_now` may succeed on this backend (False: it always raises WouldWait)."""
        return False

    def write_now(self, body: Body[T]) -> T:
        """Run `body` as one write transaction right now, in the event loop's thread, if this backend can do it
        without waiting (SQLite: a second connection, when no other connection holds the write lock); raises
        WouldWait, with nothing done, otherwise. Any other exception rolls the transaction back and is raised."""
        raise WouldWait

    @abc.abstractmethod
    async def read(self, body: Body[T]) -> T:
        """Run the reads of `body` on one consistent committed state and return its result."""

    async def read_statement(self, body: Body[T]) -> T:
        """As `read`, for a body that runs one statement (a second one raises RuntimeError): on PostgreSQL it runs
        outside a transaction block (one statement sees one committed state by itself): one round trip instead of
        three (BEGIN, the statement, COMMIT); elsewhere as `read`."""
        return await self.read(body)

    _closing: asyncio.Future[None] | None = None

    async def close(self) -> None:
        """Wait for the running transactions, then close the connections (idempotent: a second call waits for the
        first to finish)."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close())
        await asyncio.shield(self._closing)

    @abc.abstractmethod
    async def _close(self) -> None:
        """The work of `close`, done once."""

    @property
    @abc.abstractmethod
    def description(self) -> str:
        """Where the database is, for logs (never with a password)."""
