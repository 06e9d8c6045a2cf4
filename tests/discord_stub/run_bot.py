"""Test-only launcher: runs the real bot (or another entry point) against the Discord stand-in.

    STUB_URL=http://127.0.0.1:PORT DISCORD_TOKEN=stub-token python -m tests.discord_stub.run_bot

Environment: ``STUB_URL`` (or ``STUB_PORT``) says where the stand-in listens; ``STUB_BOT_ENTRY`` picks the
entry point as ``module:function`` (default ``bot.__main__:main``, imported only now so the launcher works
before the real bot exists); ``STUB_GUILD_READY_TIMEOUT`` (seconds, default 0.1) replaces discord.py's 2 s
wait for GUILD_CREATEs; ``STUB_FAST_IDENTIFY=0`` keeps discord.py's 5 s pause before a re-IDENTIFY.

Before the entry point runs, discord.py is pointed at the stand-in through its two class attributes
(``Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY``; /gateway/bot and READY's resume_gateway_url
also name the stand-in, so reconnects and RESUMEs come back to it), and ``on_ready`` is reported to the
stand-in (POST /__stub__/ready) so tests can wait for it.
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import logging
import os
from typing import Any

log = logging.getLogger(__name__)

_tasks: set[asyncio.Task[None]] = set()


def stub_url_from_env() -> str:
    """The stand-in's base URL from STUB_URL or STUB_PORT."""
    url = os.environ.get("STUB_URL")
    if url:
        return url.rstrip("/")
    port = os.environ.get("STUB_PORT")
    if not port:
        raise SystemExit("set STUB_URL (http://127.0.0.1:PORT) or STUB_PORT")
    return f"http://127.0.0.1:{port}"


def configure_discord(stub_url: str, *, guild_ready_timeout: float = 0.1, fast_identify: bool = True) -> None:
    """Point discord.py at the stand-in and add the test conveniences described in the module docstring."""
    import aiohttp
    import discord
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = f"{stub_url}/api/v10"
    ws_url = "ws" + stub_url[len("http") :] if stub_url.startswith("http") else stub_url
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"{ws_url}/gateway/")

    original_init = discord.Client.__init__

    @functools.wraps(original_init)
    def init(self: discord.Client, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("guild_ready_timeout", guild_ready_timeout)
        original_init(self, *args, **kwargs)

    discord.Client.__init__ = init  # type: ignore[method-assign]

    if fast_identify:

        async def before_identify_hook(self: discord.Client, shard_id: int | None, *, initial: bool = False) -> None:
            return None

        discord.Client.before_identify_hook = before_identify_hook  # type: ignore[method-assign]

    original_dispatch = discord.Client.dispatch

    async def report_ready() -> None:
        try:
            async with aiohttp.ClientSession() as session, session.post(f"{stub_url}/__stub__/ready") as response:
                await response.read()
        except aiohttp.ClientError:
            log.warning("could not report on_ready to the stand-in")

    def dispatch(self: discord.Client, event: str, /, *args: Any, **kwargs: Any) -> None:
        original_dispatch(self, event, *args, **kwargs)
        if event == "ready":
            task = asyncio.get_running_loop().create_task(report_ready())
            _tasks.add(task)
            task.add_done_callback(_tasks.discard)

    discord.Client.dispatch = dispatch  # type: ignore[method-assign]


def main() -> None:
    """Configure discord.py from the environment, then run the entry point."""
    configure_discord(
        stub_url_from_env(),
        guild_ready_timeout=float(os.environ.get("STUB_GUILD_READY_TIMEOUT", "0.1")),
        fast_identify=os.environ.get("STUB_FAST_IDENTIFY", "1") != "0",
    )
    module_name, _, function = os.environ.get("STUB_BOT_ENTRY", "bot.__main__:main").partition(":")
    entry = getattr(importlib.import_module(module_name), function or "main")
    entry()


if __name__ == "__main__":
    main()
