"""Test-only entry point for the real bot process: `bot.cli:main` with the hooks read from the environment.

Launched by the end-to-end tests and the load benchmark as ``BotProcess(stub, entry="tests.e2e.bot_entry:main")``
(through ``python -m tests.discord_stub.run_bot``, which points discord.py at the stand-in). The shipped bot is
unchanged: these hooks exist only in this process.

- ``E2E_SHUFFLE_SEED``: hand n of the process is shuffled with ``random.Random(seed * 1_000_003 + n)`` instead of
  ``secrets.SystemRandom`` (through `TableService`'s documented ``rng_factory``), so that a failing run can be
  replayed. The tests never rely on which cards come: they read whose turn it is from the channel.
- ``E2E_NEXT_HAND_DELAY``: seconds between a hand's end and the next deal (the table's own setting, 5 s by
  default, would make a ten-hand game wait 50 s for nothing).
- ``E2E_HOLD_FINISH_HAND``: when "1", `Storage.finish_hand` never returns (the hand's last action is stored,
  its result is not), so that a test can SIGKILL the process exactly at the showdown.
- ``E2E_KILL_AFTER``: ``"<Storage method>[:n]"``, e.g. ``"close_table"`` or ``"buy_in:4"``: the process SIGKILLs
  itself as soon as the n-th call (1 by default) of that storage write has committed, before anything else runs,
  so that a test can crash the bot right after each kind of commit (docs/outbox.md).
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import os
import random
import signal
from typing import Any

log = logging.getLogger(__name__)


def _install_hooks() -> None:
    import bot.runtime as entry
    from bot.discord_ui.wiring import create_table_service
    from bot.storage import Storage
    from bot.tables.runner import TableRunner

    seed_text = os.environ.get("E2E_SHUFFLE_SEED")
    if seed_text:
        seed = int(seed_text)
        counter = itertools.count(1)

        def rng_factory() -> random.Random:
            return random.Random(seed * 1_000_003 + next(counter))

        factory = functools.partial(create_table_service, rng_factory=rng_factory)
        entry.default_table_service_factory = lambda: factory  # type: ignore[attr-defined]

    delay_text = os.environ.get("E2E_NEXT_HAND_DELAY")
    if delay_text:
        delay = float(delay_text)
        schedule = TableRunner._maybe_schedule_next_hand

        def schedule_sooner(self: TableRunner, delay_s: float | None = None) -> None:
            schedule(self, delay if delay_s is None else delay_s)

        TableRunner._maybe_schedule_next_hand = schedule_sooner  # type: ignore[method-assign]

    if os.environ.get("E2E_HOLD_FINISH_HAND") == "1":

        async def hold_finish_hand(self: Storage, *args: Any, **kwargs: Any) -> None:
            log.warning("e2e hook: holding finish_hand until the process is killed")
            await asyncio.Event().wait()

        Storage.finish_hand = hold_finish_hand  # type: ignore[method-assign]

    kill_after = os.environ.get("E2E_KILL_AFTER")
    if kill_after:
        name, _, nth = kill_after.partition(":")
        original = getattr(Storage, name)
        calls = itertools.count(1)
        target = int(nth or 1)

        async def then_die(self: Storage, *args: Any, **kwargs: Any) -> Any:
            result = await original(self, *args, **kwargs)
            if next(calls) == target:
                log.warning("e2e hook: %s committed, killing the process", name)
                os.kill(os.getpid(), signal.SIGKILL)
            return result

        setattr(Storage, name, then_die)


def main() -> None:
    """Install the hooks asked for in the environment, then run the real bot's entry point (its command line:
    `run` with the shard options a cluster gives its children)."""
    _install_hooks()
    import bot.cli

    bot.cli.main()


def cluster_main() -> None:
    """`poker-bot cluster` whose children are this module's `main` against the stand-in (the same hooks)."""
    import sys

    import bot.cli

    bot.cli.main(
        child_command=[sys.executable, "-m", "tests.discord_stub.run_bot", "run"],
        child_env={"STUB_BOT_ENTRY": "tests.e2e.bot_entry:main"},
    )
