"""BotProcess: a bot running in its own process against the stand-in (``python -m tests.discord_stub.run_bot``)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import tempfile
from pathlib import Path

from .server import DiscordStub

REPO_ROOT = Path(__file__).resolve().parents[2]


class BotProcess:
    """Start, stop and SIGKILL a bot process. Output goes to ``log_path`` (a temp file unless given).

    ``entry`` is ``module:function`` (default: the real bot, ``bot.__main__:main``); ``env`` adds to the
    environment (e.g. ``DATABASE_PATH``), on top of the stand-in's STUB_URL and DISCORD_TOKEN; ``args`` is the
    entry point's command line (e.g. ``["run", "--shard-count", "2", "--shards", "1"]``).
    """

    def __init__(
        self,
        stub: DiscordStub,
        *,
        entry: str = "bot.__main__:main",
        env: dict[str, str] | None = None,
        log_path: str | Path | None = None,
        args: list[str] | None = None,
    ) -> None:
        self.stub = stub
        self.entry = entry
        self.args = list(args or [])
        self.extra_env = dict(env or {})
        if log_path is None:
            handle, name = tempfile.mkstemp(prefix="bot-", suffix=".log")
            os.close(handle)
            log_path = name
        self.log_path = Path(log_path)
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0

    @property
    def pid(self) -> int:
        """The running process id."""
        assert self.proc is not None, "not started"
        return self.proc.pid

    @property
    def running(self) -> bool:
        """Whether the process is alive."""
        return self.proc is not None and self.proc.returncode is None

    async def start(self, *, wait_ready: bool = True, timeout: float = 30.0) -> None:  # noqa: ASYNC109 - test helpers take a plain timeout
        """Launch the process; by default wait until the bot reported on_ready to the stand-in."""
        env = dict(os.environ)
        env.update(self.stub.env())
        env["STUB_BOT_ENTRY"] = self.entry
        env["PYTHONUNBUFFERED"] = "1"
        env.update(self.extra_env)
        pings = self.stub.ready_pings
        with self.log_path.open("ab") as out:
            out.write(f"--- start {self.starts + 1} ---\n".encode())
            out.flush()
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "tests.discord_stub.run_bot",
                *self.args,
                cwd=REPO_ROOT,
                env=env,
                stdout=out,
                stderr=out,
            )
        self.starts += 1
        if wait_ready:
            ready = asyncio.ensure_future(self.stub.wait_bot_ready(timeout, after=pings))
            died = asyncio.ensure_future(self.proc.wait())
            done, _ = await asyncio.wait({ready, died}, return_when=asyncio.FIRST_COMPLETED)
            if died in done and not ready.done():
                ready.cancel()
                raise RuntimeError(f"bot exited with {self.proc.returncode} before ready:\n{self.log_tail()}")
            died.cancel()
            ready.result()

    def kill(self) -> None:
        """SIGKILL: the process dies at once, as in a crash."""
        if self.running:
            assert self.proc is not None
            self.proc.send_signal(signal.SIGKILL)

    async def wait(self, timeout: float = 10.0) -> int:  # noqa: ASYNC109 - test helpers take a plain timeout
        """Wait for the process to exit; returns its exit code."""
        assert self.proc is not None
        return await asyncio.wait_for(self.proc.wait(), timeout)

    async def stop(self, timeout: float = 10.0) -> int | None:  # noqa: ASYNC109 - test helpers take a plain timeout
        """SIGTERM (discord.py closes cleanly), then SIGKILL after ``timeout``; returns the exit code."""
        if self.proc is None:
            return None
        if self.running:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), timeout)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        return self.proc.returncode

    def log_tail(self, lines: int = 60) -> str:
        """The end of the process output."""
        with contextlib.suppress(OSError):
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        return ""
