"""A throwaway PostgreSQL for the benchmarks: started in a temporary folder through the `pgserver` wheel (its own
PostgreSQL 16 binaries, the dev extra; it runs as root too), a fresh database per run, stopped and removed at the
end (the folder kept on request).

    async with ThrowawayPostgres.start(keep=False) as server:
        url = await server.new_database()   # postgresql://postgres:@/load_1?host=/tmp/...
        cpu = server.cpu()                  # CPU seconds of the server's processes so far

The server listens on a Unix socket in its folder only (no port), with PostgreSQL's default settings (fsync and
synchronous commit on: a commit waits for its WAL to reach the disk, as a production server's does).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import shutil
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psutil


class ThrowawayPostgres:
    """A running pgserver PostgreSQL in `folder` (see the module docstring); `url` is its `postgres` database."""

    def __init__(self, server: Any, folder: Path) -> None:
        self._server = server
        self.folder = folder
        self.url: str = str(server.get_uri())
        self._numbers = itertools.count(1)
        self._cpu: dict[int, tuple[psutil.Process, float]] = {}
        self.postmaster = psutil.Process(int(server.get_pid()))

    @classmethod
    @contextlib.asynccontextmanager
    async def start(cls, *, keep: bool = False) -> AsyncIterator[ThrowawayPostgres]:
        """Start a server in a new temporary folder; on exit stop it and remove the folder (unless `keep`: then
        its path is printed, and `pgserver.get_server(path)` starts it again). Raises what pgserver raises when
        the server cannot start (ImportError when pgserver is not installed: pip install -e '.[dev]')."""
        import pgserver

        folder = Path(tempfile.mkdtemp(prefix="poker-load-pg-"))
        try:
            get_server = pgserver.get_server  # type: ignore[attr-defined]
            server = await asyncio.to_thread(get_server, folder / "pgdata", cleanup_mode="stop")
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        try:
            yield cls(server, folder)
        finally:
            await asyncio.to_thread(server.cleanup)
            if keep:
                print(f"PostgreSQL data kept in {folder / 'pgdata'} (pgserver.get_server(path) starts it again)")
            else:
                shutil.rmtree(folder, ignore_errors=True)

    async def new_database(self) -> str:
        """Create an empty database and return its URL."""
        import asyncpg

        name = f"load_{next(self._numbers)}"
        conn = await asyncpg.connect(self.url)
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()
        return urlunsplit(urlsplit(self.url)._replace(path=f"/{name}"))

    def cpu(self) -> float:
        """CPU seconds used so far by the server's processes (the postmaster and its backends; a backend that has
        ended keeps the time it was last seen with)."""
        with contextlib.suppress(psutil.Error):
            for proc in [self.postmaster, *self.postmaster.children(recursive=True)]:
                with contextlib.suppress(psutil.Error):
                    times = proc.cpu_times()
                    self._cpu[proc.pid] = (proc, times.user + times.system)
        return sum(cpu for _, cpu in self._cpu.values())
