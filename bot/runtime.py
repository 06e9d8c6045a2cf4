"""Running one bot process: settings read once, logging, the event loop, a clean stop on SIGINT/SIGTERM.

`poker-bot run` (bot/cli.py) calls `run_bot`; a cluster's child processes (bot/cluster.py) are `poker-bot run`
processes too, each with its own shards.
"""

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
from bot.render.counted import counted
from bot.storage import StorageError, StorageUnreadable
from bot.storage.backends import redact

log = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_CONFIG = 2
EXIT_RUNTIME = 1
#: How long (seconds) the event loop's thread may keep the GIL when another thread asks for it. The database runs
#: in aiosqlite's thread and needs the GIL back after every SQLite call: with Python's default (5 ms) a busy
#: event loop made each statement of a table action wait up to 5 ms. A thread that asks nothing costs nothing.
GIL_SWITCH_INTERVAL_S = 0.0002
#: The garbage collector's thresholds (`gc.set_threshold`). Not Python's (700, 10, 10): at 100 busy tables about
#: 3,000 young objects are alive at any moment (the requests, tasks and coroutines in flight), and a young
#: collection walks every one of them whatever it finds (2-3 of them garbage). With 700 the youngest generation was
#: collected 25-30 times a second, 2-3 ms each, and the middle one (every young collection's survivors) 2-3 times:
#: 0.25-0.35 ms of the event loop per action, a tenth of it (benchmarks/gc_entry.py; benchmarks/README.md, tenth
#: session). A youngest generation ten times larger is collected far less often for the same live objects;
#: collected with the middle one every second time (10 young collections of 700 per middle one before), so what
#: survives a young collection is looked at again about as soon as before, and the full collections (whatever is
#: left of short-lived cycles: the garbage the middle and oldest generations find) come about as often.
#: Measured with the memory per table (the seventh session's 5,000 with Python's 10 raised it; see the README).
GC_THRESHOLDS = (7000, 1, 10)


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
                if not bot.is_ready():  # still starting (e.g. waiting for a shard lease): that stops at once too
                    runner.cancel()
                await bot.close()
            else:
                stopper.cancel()
            freezer.cancel()
            await asyncio.wait({runner})
            if not runner.cancelled():
                runner.result()  # the bot's own error, if it stopped with one
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
    log.info("heap frozen after start-up: %s", counted(gc.get_freeze_count(), "object"))


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


def tune_interpreter() -> None:
    """Set this process's GIL switch interval (`GIL_SWITCH_INTERVAL_S`) and collector thresholds
    (`GC_THRESHOLDS`), as a bot process runs (`run_bot`)."""
    sys.setswitchinterval(GIL_SWITCH_INTERVAL_S)
    gc.set_threshold(*GC_THRESHOLDS)


def fail(message: str, code: int) -> int:
    """Write one line on stderr (`poker-bot: ...`); returns `code` for the caller to exit with."""
    sys.stderr.write(f"poker-bot: {message}\n")
    return code


#: What reaching Discord can raise at start: a refused token, no network, no gateway.
DISCORD_START_ERRORS = (discord.LoginFailure, discord.GatewayNotFound, aiohttp.ClientError, TimeoutError)


def discord_failure(exc: BaseException) -> int:
    """One line on stderr for an error of `DISCORD_START_ERRORS` (never the token); returns the exit code: 2 for a
    refused token (a configuration error: a cluster does not restart it), 1 for Discord unreachable."""
    if isinstance(exc, discord.LoginFailure):
        return fail("DISCORD_TOKEN was refused by Discord (check the bot token in .env)", EXIT_CONFIG)
    return fail(f"cannot reach Discord ({type(exc).__name__}: {exc}); check the network and try again", EXIT_RUNTIME)


def run_bot(
    *,
    shard_count: int | None = None,
    shard_ids: tuple[int, ...] | None = None,
    lease_holder: str | None = None,
    replaces: tuple[str, ...] = (),
) -> int:
    """Start one bot process: every shard by default; `shard_ids` of `shard_count` shards when given (without
    `shard_count`, Discord's recommended count, GET /gateway/bot); `lease_holder` / `replaces` as a cluster gives
    them to its children (`PokerBot`). Returns the exit code: 2 with one line on stderr
    for a missing/malformed setting, a refused token or a database file that is no SQLite database (restore it), 1
    for another database error or an unreachable Discord."""
    try:
        settings = load_settings()
    except ConfigError as exc:
        return fail(f"configuration error: {exc}", EXIT_CONFIG)
    discord.utils.setup_logging(level=settings.log_level_number)
    tune_interpreter()
    log.info("starting; database at %s", redact(settings.database))
    bot = PokerBot(
        settings,
        table_service_factory=default_table_service_factory(),
        shard_count=shard_count,
        shard_ids=shard_ids,
        lease_holder=lease_holder,
        replaces=replaces,
    )
    try:
        asyncio.run(run(bot, settings.discord_token.get_secret_value()), **event_loop_options())
    except StorageUnreadable as exc:  # no restart helps: someone must restore the file (a cluster stops too)
        return fail(str(exc), EXIT_CONFIG)
    except StorageError as exc:
        return fail(f"database error: {exc}", EXIT_RUNTIME)
    except DISCORD_START_ERRORS as exc:
        return discord_failure(exc)
    except KeyboardInterrupt:
        pass
    return EXIT_OK
