"""Errors raised by bot.storage; each is a StorageError and leaves the database unchanged."""

from __future__ import annotations


class StorageError(Exception):
    """Base of every storage error; the operation that raised it changed nothing."""


class StorageUnavailable(StorageError):
    """The database could not be reached or written right now, so the operation did not commit: nothing of it was
    written. SQLite: the file locked by another process past the busy timeout, read-only, out of space, an I/O
    error, or gone; PostgreSQL: the server unreachable, shutting down or out of resources, a read-only standby, or
    the connection lost. (A connection lost while its COMMIT was on the way is the one case where the server may
    have committed it: the tables read themselves again from storage after any failure.) `str()` is the driver's
    error in one line, `cause`, which never holds the database's password."""

    def __init__(self, cause: str) -> None:
        super().__init__(cause)
        self.cause = cause


class StorageUnreadable(StorageError):
    """The database file is not a SQLite database (SQLITE_NOTADB: another kind of file) or is damaged (SQLITE_CORRUPT):
    no retry helps, someone must restore it. `database`: the database as logged (`sqlite:///path`, no secret);
    `cause`: the driver's error. `str()` says both, and what to do (the one line `poker-bot` exits with at start)."""

    def __init__(self, database: str, cause: str) -> None:
        super().__init__(
            f"the database at {database} is not a readable SQLite database ({cause}): restore it from a backup,"
            " or move it away to start with an empty one"
        )
        self.database = database
        self.cause = cause


class SchemaTooNew(StorageError):
    """The database was written by a newer version of the bot (its `user_version` is above ours)."""

    def __init__(self, found: int, supported: int) -> None:
        super().__init__(
            f"database schema version {found} is newer than this bot supports ({supported}); "
            "upgrade the bot or point DATABASE_URL at another database"
        )
        self.found = found
        self.supported = supported


class InsufficientBalance(StorageError):
    """A movement would make a balance negative. `.balance` is what the member has, `.needed` what it asked."""

    def __init__(self, balance: int, needed: int) -> None:
        super().__init__(f"not enough chips: balance is {balance}, {needed} needed")
        self.balance = balance
        self.needed = needed


class RefillCooldown(StorageError):
    """A refill was claimed before the cooldown ran out; `.retry_at` is the Unix time when it will be allowed."""

    def __init__(self, retry_at: float) -> None:
        super().__init__(f"refill not available before {retry_at:.0f}")
        self.retry_at = retry_at


class RefillDisabled(StorageError):
    """A refill was claimed on a server whose starting grant is 0: it gives no chips, so there is nothing to refill."""

    def __init__(self) -> None:
        super().__init__("this server's starting grant is 0: no refills")


class RefillNotNeeded(StorageError):
    """A refill was claimed by a member who still has chips (`.balance` plus `.on_tables` on cash tables)."""

    def __init__(self, balance: int, on_tables: int) -> None:
        super().__init__(f"refill only when out of chips: balance {balance}, {on_tables} on tables")
        self.balance = balance
        self.on_tables = on_tables


class TableExists(StorageError):
    """The channel already has an open table (`.table_id`)."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"this channel already has an open table ({table_id})")
        self.table_id = table_id


class TableNotFound(StorageError):
    """No such table, or it is closed when an open one is needed."""


class WrongTableKind(StorageError):
    """A cash-table operation on a tournament, or the reverse."""


class SeatTaken(StorageError):
    """The seat belongs to someone else, or the member already sits elsewhere at this table."""


class NotSeated(StorageError):
    """The member does not sit at that seat of that table."""


class HandInProgress(StorageError):
    """The table already has an unfinished hand."""


class HandNotFound(StorageError):
    """No such hand, or it is already finished when an open one is needed."""


class ChipsNotConserved(StorageError):
    """New seat stacks do not add up to the old ones: a hand moves chips only between its table's stacks."""


class Conflict(StorageError):
    """The database refused a statement by one of its constraints (a unique key used twice, a CHECK such as a
    balance going negative, the ledger's append-only rule); the transaction is rolled back. The driver's message
    is kept."""
