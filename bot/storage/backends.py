"""Which backend a database URL names, and opening it: `sqlite:///path` (embedded) or `postgresql://...` (server)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from bot.storage.errors import StorageError
from bot.storage.executor import Dialect, Executor
from bot.storage.migrations import migrate
from bot.storage.sqlite import SQLiteExecutor

SQLITE_PREFIX = "sqlite:///"
POSTGRESQL_PREFIXES = ("postgresql://", "postgres://")


#: `scheme://user:` then the password, up to the last `@` before the path (as urlsplit reads a netloc).
_PASSWORD = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://[^/?#@:]*:)[^/?#]*(@)")
#: A `password=` parameter of the query, which asyncpg reads as the password too (`postgresql://user@host/db?password=...`).
_QUERY_PASSWORD = re.compile(r"([?&]password=)([^&#]*)")


def redact(url: str) -> str:
    """The URL without its password, in the netloc or as the `password=` query parameter (for logs and errors);
    never raises, also for a malformed URL."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:  # e.g. "Invalid IPv6 URL": hide whatever stands where a password would
        return _QUERY_PASSWORD.sub(r"\1***", _PASSWORD.sub(r"\1***\2", url))
    if password is not None:
        netloc = parts.netloc.replace(f":{password}@", ":***@", 1)
        url = urlunsplit(parts._replace(netloc=netloc))
    return _QUERY_PASSWORD.sub(r"\1***", url)


def url_passwords(url: str) -> tuple[str, ...]:
    """The passwords `url` holds (in its netloc, as written, and its `password=` query parameters), to hide them
    from a message that may quote them; never raises."""
    try:
        netloc = urlsplit(url).password
    except ValueError:
        netloc = None
    return tuple(p for p in (netloc, *(m.group(2) for m in _QUERY_PASSWORD.finditer(url))) if p)


def dialect_of(target: str | Path) -> Dialect:
    """The dialect of a database URL; a plain path (or ":memory:") is a SQLite file."""
    return Dialect.POSTGRESQL if str(target).startswith(POSTGRESQL_PREFIXES) else Dialect.SQLITE


def sqlite_path(target: str | Path) -> str:
    """The file of a SQLite URL or path: `sqlite:///data/poker.sqlite3` is data/poker.sqlite3 (relative to the
    working directory), `sqlite:////var/poker.sqlite3` is /var/poker.sqlite3. Raises StorageError for another
    scheme."""
    text = str(target)
    if text.startswith(SQLITE_PREFIX):
        text = text[len(SQLITE_PREFIX) :]
    elif "://" in text:
        raise StorageError(
            f"unknown database URL scheme in {text.split('://', 1)[0]}://... (sqlite:/// or postgresql://)"
        )
    if not text:
        raise StorageError("a sqlite:/// URL needs a file path")
    return text


async def open_executor(target: str | Path) -> tuple[Executor, int]:
    """Open and migrate the database `target` names (a URL, or a SQLite file path); returns the executor and the
    schema version. Raises SchemaTooNew, StorageError; nothing stays open when it raises."""
    if dialect_of(target) is Dialect.POSTGRESQL:
        from bot.storage.postgres import PostgresExecutor  # asyncpg is imported only by a bot that uses it

        return await PostgresExecutor.open(str(target))
    executor = await SQLiteExecutor.open(sqlite_path(target))
    try:
        version = await migrate(executor.connection)
        executor.open_actions_connection()
    except BaseException:
        await executor.close()
        raise
    return executor, version
