"""The bot under cProfile, for `benchmarks/load.py --profile FILE` (a `--bot-entry` wrapper of the test entry).

Every thread of the bot process (the event loop, aiosqlite's database thread, the picture thread, executors) is
profiled with its own `cProfile.Profile` timed by `time.thread_time`: the figures are each thread's **CPU time**,
not wall time, so a thread that waits for a core or for the GIL is not charged for it (cProfile's default timer
charged Pillow and SQLite calls with the time they spent waiting beside the event loop). The profiles are merged
and written to `LOAD_PROFILE_OUT` (pstats format; the event loop's thread alone to the same name + ".loop", each other
thread alone to the same name + ".thread-N-NAME": N its order of start, NAME its name)
when the process gets SIGUSR2 or ends.

The load benchmark sends SIGUSR1 when its measured window starts: the main thread's profile (the event loop:
where acknowledgements wait) is started then, so that it holds the measured window only; the other threads' are
started with the thread (their start-up work is small: the database thread's table creations and buy-ins).
A call still running in another thread when the profiles are written (an idle thread's queue `get`) is
closed with the writing thread's clock: its time means nothing (ignore the idle waits at the top).

    python benchmarks/load.py --tables 100 --profile /tmp/bot.prof
    python -c "import pstats; pstats.Stats('/tmp/bot.prof').sort_stats('tottime').print_stats(40)"
"""

from __future__ import annotations

import atexit
import cProfile
import os
import pstats
import signal
import threading
import time
from types import FrameType
from typing import Any

#: Where the merged profile is written.
OUT_ENV = "LOAD_PROFILE_OUT"

_profiles: list[cProfile.Profile] = []
_names: list[str] = []  # each profile's thread name, in the order of `_profiles`
_LOOP = 0  # the event loop's profile is the first
_dumped = False


def _dump(*_: Any) -> None:
    global _dumped
    if _dumped:
        return
    _dumped = True
    for profile in _profiles:
        profile.disable()  # only stops the calling thread's; the others' stats are read as they are
    merged: pstats.Stats | None = None
    for profile in _profiles:
        try:
            if merged is None:
                merged = pstats.Stats(profile)
            else:
                merged.add(profile)
        except TypeError:  # a profile that recorded nothing
            continue
    out = os.environ.get(OUT_ENV, "bot.prof")
    if merged is not None:
        merged.dump_stats(out)
    try:
        pstats.Stats(_profiles[_LOOP]).dump_stats(out + ".loop")  # the event loop's thread alone
    except (IndexError, TypeError):
        pass
    for index, (profile, name) in enumerate(zip(_profiles, _names, strict=True)):
        if index == _LOOP:
            continue
        try:  # every other thread alone, by its name (the database thread, the picture thread...)
            pstats.Stats(profile).dump_stats(f"{out}.thread-{index}-{name}")
        except TypeError:
            continue


def main() -> None:
    """Run `tests.e2e.bot_entry:main` with every thread profiled (see the module docstring)."""
    loop_profile = cProfile.Profile(time.thread_time)
    _profiles.append(loop_profile)
    _names.append("loop")
    original_run = threading.Thread.run

    def profiled_run(self: threading.Thread, *args: Any, **kwargs: Any) -> None:
        profile = cProfile.Profile(time.thread_time)
        _profiles.append(profile)
        _names.append("".join(c if c.isalnum() or c in "-_" else "_" for c in self.name))
        profile.enable()
        try:
            original_run(self, *args, **kwargs)
        finally:
            profile.disable()

    threading.Thread.run = profiled_run  # type: ignore[method-assign]

    def start(_signum: int, _frame: FrameType | None) -> None:
        loop_profile.enable()  # signal handlers run in the main thread: this profiles the event loop's thread

    def stop(_signum: int, _frame: FrameType | None) -> None:
        _dump()

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    atexit.register(_dump)
    from tests.e2e import bot_entry

    bot_entry.main()
