"""Entry point (`poker-bot` and `python -m bot`): read the settings once, set up logging, run until a signal."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import sys
from typing import Any

import aiohttp
import discord

from bot.app import PokerBot, default_table_service_factory
from bot.config import ConfigError, load_settings
from bot.storage import StorageError
from bot.storage.backends import redact

log = logging.getLogger(__name__)

EXIT_CONFIG = 2
EXIT_RUNTIME = 1
#: How long (seconds) the event loop's thread may keep the GIL when another thread asks for it. The database runs
#: in aiosqlite's thread and needs the GIL back after every SQLite call: with Python's default (5 ms) a busy
#: event loop made each statement of a table action wait up to 5 ms. A thread that asks nothing costs nothing.
GIL_SWITCH_INTERVAL_S = 0.0002


async def run(bot: PokerBot, token: str) -> None:
    """Run the bot until it stops or SIGINT/SIGTERM arrives, then close it cleanly (timers, gateway, database)."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    handled: list[signal.Signals] = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # e.g. Windows, or not the main thread
            loop.add_signal_handler(sig, stop.set)
            handled.append(sig)
    try:
        async with bot:
            runner = asyncio.create_task(bot.start(token), name="poker-bot")
            freezer = asyncio.create_task(freeze_heap_when_ready(bot), name="poker-bot-gc-freeze")
            stopper = asyncio.create_task(stop.wait(), name="poker-bot-signal")
            done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if stopper in done:
                log.info("signal received; shutting down")
                await bot.close()
            else:
                stopper.cancel()
            freezer.cancel()
            await runner
    finally:
        for sig in handled:
            loop.remove_signal_handler(sig)


async def freeze_heap_when_ready(bot: PokerBot) -> None:
    """Once the bot is ready (modules, guild and member caches, restored tables loaded), move every object alive
    then out of the garbage collector's sight (`gc.freeze`): they live as long as the process, and the oldest
    generation's collections no longer walk them (at 100 busy tables such a walk stopped every table for
    50-80 ms, several times a minute)."""
    await bot.wait_until_ready()
    gc.collect()
    gc.freeze()
    log.info("heap frozen after start-up: %d objects", gc.get_freeze_count())


def event_loop_options() -> dict[str, Any]:
    """Use uvloop (a faster event loop on Linux and macOS) when it is installed; the standard loop otherwise."""
    try:
        import uvloop
    except ImportError:
        return {}
    if sys.version_info >= (3, 12):
        return {"loop_factory": uvloop.new_event_loop}
    uvloop.install()  # Python 3.11's asyncio.run has no loop_factory
    return {}


def _fail(message: str, code: int) -> None:
    sys.stderr.write(f"poker-bot: {message}\n")
    raise SystemExit(code)


def main() -> None:
    """Start the bot (or `poker-bot db ...`: bot.storage.copy). Exit code 2 with one line on stderr for a
    missing/malformed setting or a refused token."""
    if sys.argv[1:2] == ["db"]:  # the database tools need no token nor settings
        from bot.storage.copy import main as db_main

        raise SystemExit(db_main(sys.argv[2:]))
    try:
        settings = load_settings()
    except ConfigError as exc:
        _fail(f"configuration error: {exc}", EXIT_CONFIG)
        return
    discord.utils.setup_logging(level=settings.log_level_number)
    sys.setswitchinterval(GIL_SWITCH_INTERVAL_S)
    log.info("starting; database at %s", redact(settings.database))
    bot = PokerBot(settings, table_service_factory=default_table_service_factory())
    try:
        asyncio.run(run(bot, settings.discord_token.get_secret_value()), **event_loop_options())
    except discord.LoginFailure:
        _fail("DISCORD_TOKEN was refused by Discord (check the bot token in .env)", EXIT_CONFIG)
    except StorageError as exc:
        _fail(f"database error: {exc}", EXIT_RUNTIME)
    except (aiohttp.ClientError, discord.GatewayNotFound, TimeoutError) as exc:
        _fail(f"cannot reach Discord ({type(exc).__name__}: {exc}); check the network and try again", EXIT_RUNTIME)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
