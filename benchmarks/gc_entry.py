"""The bot with its garbage collections timed, for `benchmarks/load.py --bot-entry benchmarks.gc_entry:main`.

A `gc.callbacks` hook times every collection (`time.thread_time` of the collecting thread, so a collection that
waits for a core is not charged the wait) by generation and by thread (the event loop's, or another), from the
benchmark's SIGUSR1 (its measured window starts) to SIGUSR2 or the end of the process; the totals are written as
one JSON object to `LOAD_GC_OUT` (default `bot.gc.json`): `{"loop": {"0": [collections, cpu_s, collected], ...},
"other": {...}, "thresholds": [...]}` (`collected`: the objects those collections found to be garbage).
`LOAD_GC_THRESHOLDS="a,b,c"` replaces the bot's own thresholds (`bot.runtime.GC_THRESHOLDS`, which `run_bot` sets)
to compare settings A/B.

    python benchmarks/load.py --tables 30 --seconds 10 --warmup 5 --bot-entry benchmarks.gc_entry:main
"""

from __future__ import annotations

import atexit
import gc
import json
import os
import signal
import threading
import time
from types import FrameType
from typing import Any

OUT_ENV = "LOAD_GC_OUT"
THRESHOLDS_ENV = "LOAD_GC_THRESHOLDS"

_totals: dict[str, dict[int, list[Any]]] = {"loop": {}, "other": {}}
_started: dict[int, float] = {}
_on = False
_main = threading.get_ident()


def _callback(phase: str, info: dict[str, Any]) -> None:
    ident = threading.get_ident()
    if phase == "start":
        _started[ident] = time.thread_time()
        return
    began = _started.pop(ident, None)
    if began is None or not _on:
        return
    entry = _totals["loop" if ident == _main else "other"].setdefault(int(info["generation"]), [0, 0.0, 0])
    entry[0] += 1
    entry[1] += time.thread_time() - began
    entry[2] += int(info["collected"])


def _dump(*_: Any) -> None:
    global _on
    if not _on:
        return
    _on = False
    out = {kind: {str(g): v for g, v in sorted(by.items())} for kind, by in _totals.items()}
    out["thresholds"] = list(gc.get_threshold())  # type: ignore[assignment]
    with open(os.environ.get(OUT_ENV, "bot.gc.json"), "w", encoding="utf-8") as file:
        json.dump(out, file)


def main() -> None:
    """Run `tests.e2e.bot_entry:main` with its collections timed (see the module docstring)."""
    thresholds = os.environ.get(THRESHOLDS_ENV)
    if thresholds:
        import bot.runtime

        a, b, c = (int(part) for part in thresholds.split(","))
        bot.runtime.GC_THRESHOLDS = (a, b, c)

    def start(_signum: int, _frame: FrameType | None) -> None:
        global _on
        _on = True

    gc.callbacks.append(_callback)
    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, _dump)
    atexit.register(_dump)
    from tests.e2e import bot_entry

    bot_entry.main()
