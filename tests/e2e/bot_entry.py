"""Test-only entry point for the real bot process: `bot.cli:main` with the hooks read from the environment.

Launched by the end-to-end tests and the load benchmark as ``BotProcess(stub, entry="tests.e2e.bot_entry:main")``
(through ``python -m tests.discord_stub.run_bot``, which points discord.py at the stand-in). The shipped bot is
unchanged: these hooks exist only in this process.

- ``E2E_SHUFFLE_SEED``: hand n of the process is shuffled with ``random.Random(seed * 1_000_003 + n)`` instead of
  ``secrets.SystemRandom`` (through `TableService`'s ``rng_factory``), so that a failing run can be
  replayed. The tests never rely on which cards come: they read whose turn it is from the channel.
- ``E2E_NEXT_HAND_DELAY``: seconds between a hand's end and the next deal (`TableService`'s
  ``next_hand_delay_s``; the table's own setting, 5 s by default, would make a ten-hand game wait 50 s for nothing).
- ``E2E_COMPUTER_DELAY``: a computer player's mean pause in seconds (`TableService`'s ``computer_delay_s``; the
  table's own 2 s would make twenty hands with three computer players last minutes).
- ``E2E_HOLD_FINISH_HAND``: when "1", the tables' `Storage.finish_hand` never returns (the hand's last action is stored,
  its result is not), so that a test can SIGKILL the process exactly at the showdown.
- ``E2E_KILL_AFTER``: ``"<Storage method>[:n]"``, e.g. ``"close_table"`` or ``"buy_in:4"``: the process SIGKILLs
  itself as soon as the n-th call (1 by default) of that storage write by the tables has committed, before
  anything else runs, so that a test can crash the bot right after each kind of commit (docs/outbox.md). Both
  storage hooks wrap the storage handed to the table service (`HookedStorage`), not the `Storage` class.
- ``E2E_ANSWER_WITHIN``: seconds a plain action's press waits for the table edit that shows it to answer it
  (`Presses.answer_within_s`; the bot's own 0.03 s would make a test of that answer depend on the machine's load).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import random
import signal
from typing import Any

log = logging.getLogger(__name__)


class HookedStorage:
    """The bot's storage as its tables see it (`create_table_service(storage=...)`), with the hooks asked for:
    `finish_hand` held forever (`hold_finish_hand`), or the process killed right after the n-th commit of one
    write (`kill_after`: method name, n). Every other attribute is the real storage's."""

    def __init__(self, inner: Any, *, hold_finish_hand: bool, kill_after: tuple[str, int] | None) -> None:
        self._inner = inner
        self._hold_finish_hand = hold_finish_hand
        self._kill_after = kill_after
        self._calls = itertools.count(1)

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._inner, name)
        if name == "finish_hand" and self._hold_finish_hand:

            async def hold_finish_hand(*args: Any, **kwargs: Any) -> None:
                log.warning("e2e hook: holding finish_hand until the process is killed")
                await asyncio.Event().wait()

            return hold_finish_hand
        if self._kill_after is not None and name == self._kill_after[0]:
            target = self._kill_after[1]

            async def then_die(*args: Any, **kwargs: Any) -> Any:
                result = await attr(*args, **kwargs)
                if next(self._calls) == target:
                    log.warning("e2e hook: %s committed, killing the process", name)
                    os.kill(os.getpid(), signal.SIGKILL)
                return result

            return then_die
        return attr


def _install_hooks() -> None:
    import bot.runtime as entry
    from bot.discord_ui.wiring import create_table_service

    options: dict[str, Any] = {}
    seed_text = os.environ.get("E2E_SHUFFLE_SEED")
    if seed_text:
        seed = int(seed_text)
        counter = itertools.count(1)

        def rng_factory() -> random.Random:
            return random.Random(seed * 1_000_003 + next(counter))

        options["rng_factory"] = rng_factory

    delay_text = os.environ.get("E2E_NEXT_HAND_DELAY")
    if delay_text:
        options["next_hand_delay_s"] = float(delay_text)

    computer_text = os.environ.get("E2E_COMPUTER_DELAY")
    if computer_text:
        options["computer_delay_s"] = float(computer_text)

    hold = os.environ.get("E2E_HOLD_FINISH_HAND") == "1"
    kill_after: tuple[str, int] | None = None
    if kill_text := os.environ.get("E2E_KILL_AFTER"):
        name, _, nth = kill_text.partition(":")
        kill_after = (name, int(nth or 1))

    within_text = os.environ.get("E2E_ANSWER_WITHIN")
    if not options and not hold and kill_after is None and not within_text:
        return

    def factory(bot: Any) -> Any:
        if within_text:
            bot.presses.answer_within_s = float(within_text)
        storage = HookedStorage(bot.storage, hold_finish_hand=hold, kill_after=kill_after)
        return create_table_service(bot, storage=storage if hold or kill_after else None, **options)

    entry.default_table_service_factory = lambda: factory  # type: ignore[attr-defined]


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
