"""The bot with its event loop's work counted, for `benchmarks/load.py --bot-entry benchmarks.loop_entry:main`.

From the benchmark's SIGUSR1 (its measured window starts) to SIGUSR2 (or the end of the process) it counts the
callbacks scheduled on the event loop by what they run (a task's step by its coroutine's name, a plain callback by
its function's, timers apart), the callbacks other threads hand over (`call_soon_threadsafe`), and the tasks
created by coroutine name; the totals go to `LOOP_OUT` (default `bot.loop.json`) as one JSON object. Divide by
the run's actions (load.py's report) for "per action". uvloop's own transport callbacks are not seen, only what
Python code schedules. The counting costs CPU: compare counts, not that run's CPU figures.

    LOOP_OUT=/tmp/loop.json python benchmarks/load.py --seconds 20 --bot-entry benchmarks.loop_entry:main
    python benchmarks/loop_entry.py /tmp/loop.json ACTIONS
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import json
import os
import signal
import sys
from types import FrameType
from typing import Any

OUT_ENV = "LOOP_OUT"

_on = False
_callbacks: collections.Counter[str] = collections.Counter()
_tasks: collections.Counter[str] = collections.Counter()
_threadsafe: collections.Counter[str] = collections.Counter()


def _name(callback: Any) -> str:
    owner = getattr(callback, "__self__", None)
    if isinstance(owner, asyncio.Task):
        coro = owner.get_coro()
        return "step " + str(getattr(coro, "__qualname__", coro))
    if isinstance(owner, asyncio.Future):
        return "future " + str(getattr(callback, "__qualname__", callback))
    return str(getattr(callback, "__qualname__", None) or type(callback).__qualname__)


def _install() -> None:
    """Count at the loop class's Python methods: the bot runs uvloop (whose `Loop` is a Python subclass of its
    Cython loop), and asyncio's C tasks and futures schedule their wake-ups through `loop.call_soon` by name."""
    import uvloop

    loop_class: Any = uvloop.Loop
    call_soon = loop_class.call_soon
    call_later = loop_class.call_later
    call_soon_threadsafe = loop_class.call_soon_threadsafe
    create_task = loop_class.create_task

    def counted_call_soon(self: Any, callback: Any, *args: Any, **kwargs: Any) -> Any:
        if _on:
            _callbacks[_name(callback)] += 1
        return call_soon(self, callback, *args, **kwargs)

    def counted_call_later(self: Any, delay: float, callback: Any, *args: Any, **kwargs: Any) -> Any:
        if _on:
            _callbacks["timer " + _name(callback)] += 1
        return call_later(self, delay, callback, *args, **kwargs)

    def counted_threadsafe(self: Any, callback: Any, *args: Any, **kwargs: Any) -> Any:
        if _on:
            _threadsafe[_name(callback)] += 1
        return call_soon_threadsafe(self, callback, *args, **kwargs)

    def counted_create_task(self: Any, coro: Any, **kwargs: Any) -> Any:
        if _on:
            _tasks[str(getattr(coro, "__qualname__", coro))] += 1
        return create_task(self, coro, **kwargs)

    loop_class.call_soon = counted_call_soon
    loop_class.call_later = counted_call_later
    loop_class.call_soon_threadsafe = counted_threadsafe
    loop_class.create_task = counted_create_task


def _dump(*_: Any) -> None:
    global _on
    if not _on:
        return
    _on = False
    out = {
        "callbacks": dict(_callbacks.most_common()),
        "tasks": dict(_tasks.most_common()),
        "threadsafe": dict(_threadsafe.most_common()),
    }
    with open(os.environ.get(OUT_ENV, "bot.loop.json"), "w", encoding="utf-8") as file:
        json.dump(out, file)


def main() -> None:
    """Run `tests.e2e.bot_entry:main` with its event loop's work counted (see the module docstring)."""

    def start(_signum: int, _frame: FrameType | None) -> None:
        global _on
        _on = True

    _install()
    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, _dump)
    atexit.register(_dump)
    from tests.e2e import bot_entry

    bot_entry.main()


def report(path: str, actions: int) -> None:
    """Print the counts of `path` per action (`actions`: the run's actions in its measured window)."""
    with open(path, encoding="utf-8") as file:
        data = json.load(file)
    for section in ("callbacks", "tasks", "threadsafe"):
        counts = data[section]
        print(f"{section}: {sum(counts.values()) / actions:.2f} per action")
        for name, count in list(counts.items())[:40]:
            print(f"  {count / actions:7.3f}  {name}")


if __name__ == "__main__":
    report(sys.argv[1], int(sys.argv[2]))
