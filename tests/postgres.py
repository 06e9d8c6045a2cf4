"""A real PostgreSQL for the tests, started by the tests themselves (the `pgserver` wheel ships its binaries).

`server_url()` starts one server per test process (in a temporary folder, stopped at exit) and returns the URL of
its `postgres` database; `new_database(url)` creates an empty database on it and returns its URL. When the server
cannot start, `unavailable()` fails the test under CI=true (it never skips there) and skips it, with the reason,
elsewhere.
"""

from __future__ import annotations

import atexit
import itertools
import os
import shutil
import tempfile
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from tests.requirements import missing

_server: Any = None
_error: str | None = None
_numbers = itertools.count(1)


def server_url() -> str | None:
    """The URL of the test server's `postgres` database, starting the server on first call; None if it cannot
    start (the reason is in `unavailable()`)."""
    global _server, _error
    if _server is None and _error is None:
        folder = tempfile.mkdtemp(prefix="poker-bot-pg-")
        try:
            import pgserver

            _server = pgserver.get_server(folder, cleanup_mode="stop")  # type: ignore[attr-defined]
        except Exception as exc:  # any failure to start is reported by unavailable()
            _error = f"{type(exc).__name__}: {exc}"
            shutil.rmtree(folder, ignore_errors=True)
        else:

            def stop() -> None:
                _server.cleanup()
                shutil.rmtree(folder, ignore_errors=True)

            atexit.register(stop)
    return None if _server is None else str(_server.get_uri())


def unavailable() -> None:
    """Fail (CI=true) or skip the calling test because the server could not start (tests.requirements.missing)."""
    missing(f"PostgreSQL could not be started for the tests ({_error})")


def with_database(url: str, name: str) -> str:
    """`url` with its database name replaced by `name`."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


async def new_database(url: str) -> str:
    """Create an empty database on the server of `url` and return its URL."""
    import asyncpg

    name = f"test_{os.getpid()}_{next(_numbers)}"
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return with_database(url, name)


async def database_url() -> str:
    """A fresh database on the test server (failing or skipping the test when there is none)."""
    url = server_url()
    if url is None:
        unavailable()
        raise AssertionError("unreachable")
    return await new_database(url)
