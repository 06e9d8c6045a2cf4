"""The bot with its event loop's lag, its collections' pauses and its acknowledgements' steps timed, for
`benchmarks/load.py --bot-entry benchmarks.lag_entry:main` (a `--bot-entry` wrapper of the test entry, like
`gc_entry.py`): where the acknowledgement's tail comes from.

From `LAG_SKIP_S` seconds (default 12: load.py's warm-up) after the first slash command to the end of the process
(load.py signals its window to its own entries only), it records:

- **loop lag**: a task of the event loop sleeps `LAG_TICK_S` again and again; how late each wake-up is is the time
  the loop spent on other callbacks when it was due (what a new interaction waits before it is read);
- **stalls**: a watchdog thread looks at the loop's last wake-up every 2 ms; when it is more than
  `STALL_S` old, the event loop thread's stack is taken (once per stall), so the report says what ran then;
- **collections**: every garbage collection's wall time by generation (`gc.callbacks`), and each pause over 2 ms;
- **the oldest generation**: `CENSUS_AFTER_S` into the window, its objects counted by type and module;
- **slash commands**: for each, its arrival (now minus its snowflake's time, the stand-in's clock on
  the same machine), the bot's steps (gateway event read → `TableRunner.act` called → returned → the private
  answer's request answered) and whether the action ended the hand.

`LAG_GC_THRESHOLDS="a,b,c"` replaces the bot's collector thresholds (`bot.runtime.GC_THRESHOLDS`), to compare
settings A/B. The totals go as one JSON object to `LAG_OUT` (default `bot.lag.json`);
`python benchmarks/lag_entry.py FILE` prints them.

    LAG_OUT=/tmp/lag.json python benchmarks/load.py --bot-entry benchmarks.lag_entry:main
    python benchmarks/lag_entry.py /tmp/lag.json
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import contextvars
import gc
import json
import os
import signal
import sys
import threading
import time
import traceback
from typing import Any

OUT_ENV = "LAG_OUT"
SKIP_ENV = "LAG_SKIP_S"
THRESHOLDS_ENV = "LAG_GC_THRESHOLDS"
#: The lag monitor's period (seconds).
LAG_TICK_S = 0.005
#: A loop that has not woken its monitor for this long (seconds) is stalled: its stack is taken.
STALL_S = 0.020
DISCORD_EPOCH_MS = 1420070400000

_on = False
_main = threading.get_ident()
_lags: list[float] = []
_stalls: collections.Counter[str] = collections.Counter()
_stall_times: list[float] = []
_gc: dict[int, list[float]] = {}
_gc_pauses: list[tuple[float, int, float]] = []
_gc_started: dict[int, float] = {}
_arrived: dict[int, tuple[float, float]] = {}  # interaction id -> (perf_counter at the gateway event, its delay)
_slash: list[dict[str, Any]] = []
_heap: dict[str, Any] = {}
_deals: list[float] = []  # when each hand was dealt (ms into the window)
#: A slash command's marks: [TableRunner.act called, its action done, whether it ended the hand].
_marks: contextvars.ContextVar[list[Any]] = contextvars.ContextVar("lag_entry_marks")
#: Seconds into the measured window when the oldest generation's objects are counted by type.
CENSUS_AFTER_S = 20.0
CENSUS_ENV = "LAG_CENSUS_S"
_beat = time.perf_counter()
_t0 = time.perf_counter()
_started_at: float | None = None


def _start() -> None:
    global _on, _t0
    _t0 = time.perf_counter()
    _on = True
    asyncio.get_running_loop().call_later(float(os.environ.get(CENSUS_ENV, CENSUS_AFTER_S)), _census)


def _describe(obj: Any) -> str:
    if isinstance(obj, dict):
        return f"dict({sorted(map(str, obj))[:8]})"
    if isinstance(obj, list | tuple | set):
        return f"{type(obj).__name__}(len {len(obj)})"
    return type(obj).__qualname__


def _referrers(obj: Any, depth: int) -> list[Any]:
    """Who holds `obj` (types, `depth` levels up), skipping the census's own lists and frames."""
    found = []
    for ref in gc.get_referrers(obj):
        if (isinstance(ref, list) and len(ref) > 1000) or type(ref).__name__ == "frame":
            continue
        found.append([_describe(ref), _referrers(ref, depth - 1) if depth > 1 else []])
    return found[:8]


def _census() -> None:
    """What the oldest generation holds (the objects a full collection walks; the frozen ones are not in it)."""
    old = gc.get_objects(generation=2)
    _heap["old_objects"] = len(old)
    _heap["frozen"] = gc.get_freeze_count()
    _heap["by_type"] = collections.Counter(type(o).__qualname__ for o in old).most_common(30)
    tasks = [o for o in old if isinstance(o, asyncio.Task)]
    _heap["tasks"] = collections.Counter(
        f"{o.get_name().rstrip('0123456789-')} {'done' if o.done() else 'pending'}" for o in tasks
    ).most_common(15)
    _heap["coroutines"] = collections.Counter(
        getattr(o, "__qualname__", "?") for o in old if asyncio.iscoroutine(o)
    ).most_common(15)
    done = [o for o in tasks if o.done()][:3]
    _heap["done_task_referrers"] = [_referrers(o, 2) for o in done]
    del tasks, done
    modules: collections.Counter[str] = collections.Counter(getattr(type(o), "__module__", "?") for o in old)
    _heap["by_module"] = modules.most_common(15)
    del old


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


def _gc_callback(phase: str, info: dict[str, Any]) -> None:
    ident = threading.get_ident()
    if phase == "start":
        _gc_started[ident] = time.perf_counter()
        return
    began = _gc_started.pop(ident, None)
    if began is None or not _on:
        return
    took = time.perf_counter() - began
    generation = int(info["generation"])
    entry = _gc.setdefault(generation, [0, 0.0, 0.0, 0])
    entry[0] += 1
    entry[1] += took
    entry[2] = max(entry[2], took)
    entry[3] += int(info.get("collected", 0))
    if took > 0.002:
        _gc_pauses.append((_ms(began - _t0), generation, _ms(took)))


async def _monitor() -> None:
    global _beat
    while True:
        due = time.perf_counter() + LAG_TICK_S  # uvloop's loop.time() counts whole milliseconds
        await asyncio.sleep(LAG_TICK_S)
        _beat = time.perf_counter()
        if _on:
            _lags.append(_beat - due)


def _watchdog() -> None:
    stalled_since: float | None = None
    while True:
        time.sleep(0.002)
        if not _on:
            continue
        beat = _beat
        if time.perf_counter() - beat > STALL_S:
            if stalled_since == beat:
                continue  # this stall's stack is taken already
            stalled_since = beat
            frame = sys._current_frames().get(_main)
            if frame is None:
                continue
            stack = traceback.extract_stack(frame)[-14:]
            _stalls["\n".join(f"{f.filename.split('site-packages/')[-1]}:{f.lineno} {f.name}" for f in stack)] += 1
            _stall_times.append(_ms(beat - _t0))


def _dump(*_: Any) -> None:
    global _on
    if not _on:
        return
    _on = False
    lags = sorted(_lags)

    def pct(values: list[float], q: float) -> float:
        return _ms(values[min(len(values) - 1, int(len(values) * q / 100))]) if values else 0.0

    out = {
        "lag": {
            "ticks": len(lags),
            "p50": pct(lags, 50),
            "p95": pct(lags, 95),
            "p99": pct(lags, 99),
            "p999": pct(lags, 99.9),
            "max": _ms(lags[-1]) if lags else 0.0,
            "over_10ms": sum(1 for x in lags if x > 0.010),
            "over_20ms": sum(1 for x in lags if x > 0.020),
            "over_40ms": sum(1 for x in lags if x > 0.040),
        },
        "stall_times_ms": _stall_times,
        "stalls": _stalls.most_common(40),
        "gc": {
            str(g): {"count": v[0], "total_ms": _ms(v[1]), "max_ms": _ms(v[2]), "collected": v[3]}
            for g, v in sorted(_gc.items())
        },
        "gc_pauses": _gc_pauses,
        "slash": _slash,
        "heap": _heap,
        "deals_ms": _deals,
    }
    with open(os.environ.get(OUT_ENV, "bot.lag.json"), "w", encoding="utf-8") as file:
        json.dump(out, file)


def _instrument() -> None:
    import bot.runtime

    thresholds = os.environ.get(THRESHOLDS_ENV)
    if thresholds:
        a, b, c = (int(part) for part in thresholds.split(","))
        bot.runtime.GC_THRESHOLDS = (a, b, c)
    from bot.app import PokerBot

    run = bot.runtime.run

    async def run_with_monitor(*args: Any, **kwargs: Any) -> None:
        task = asyncio.create_task(_monitor(), name="lag-monitor")
        try:
            await run(*args, **kwargs)
        finally:
            task.cancel()

    bot.runtime.run = run_with_monitor  # type: ignore[assignment]

    hook = PokerBot._ignore_unowned_interactions

    def hook_with_arrival(self: Any) -> None:
        hook(self)
        parsers = self._connection.parsers
        parse = parsers["INTERACTION_CREATE"]

        def timed(data: Any) -> None:
            global _started_at
            if _started_at is None and data.get("type") == 2:
                _started_at = time.perf_counter()
                delay = float(os.environ.get(SKIP_ENV, "12"))
                asyncio.get_running_loop().call_later(delay, _start)
            if _on and data.get("type") == 2:  # application commands only
                ident = int(data["id"])
                _arrived[ident] = (time.perf_counter(), time.time() * 1000 - ((ident >> 22) + DISCORD_EPOCH_MS))
            parse(data)

        parsers["INTERACTION_CREATE"] = timed

    PokerBot._ignore_unowned_interactions = hook_with_arrival  # type: ignore[method-assign]

    # cogs/actions.py is loaded by discord.py as a fresh module (load_extension): it takes `send_private` from
    # bot.discord_ui.errors when loaded, and calls `TableRunner.act`, so those two are timed.
    from bot.discord_ui import errors
    from bot.tables.runner import TableRunner

    runner_act = TableRunner.act
    send_private = errors.send_private

    async def timed_runner_act(self: Any, *args: Any, **kwargs: Any) -> Any:
        # The marks go in a context variable: the answer sent from `stored` (the action ended the hand) runs in a
        # task started by the command's, which copies its context.
        marks: list[Any] = [time.perf_counter()]
        _marks.set(marks)
        number = self._state.hand_number
        stored = kwargs.get("stored")
        if stored is not None:

            def stored_then(acted: Any) -> None:
                marks.extend((time.perf_counter(), True))
                stored(acted)

            kwargs["stored"] = stored_then
        try:
            return await runner_act(self, *args, **kwargs)
        finally:
            if len(marks) == 1:
                marks.extend((time.perf_counter(), self._state.hand is None or self._state.hand_number != number))

    async def timed_send_private(interaction: Any, *args: Any, **kwargs: Any) -> None:
        marks = _marks.get(None)
        arrival = _arrived.pop(interaction.id, None)
        await send_private(interaction, *args, **kwargs)
        end = time.perf_counter()
        if _on and arrival is not None and marks is not None and len(marks) == 3:
            start, acted, ended = marks
            _slash.append(
                {
                    "arrival_ms": round(arrival[1], 1),
                    "dispatch_ms": _ms(start - arrival[0]),
                    "act_ms": _ms(acted - start),
                    "answer_ms": _ms(end - acted),
                    "total_ms": _ms(end - arrival[0]),
                    "hand_ended": ended,
                    "at_ms": _ms(start - _t0),
                }
            )

    TableRunner.act = timed_runner_act  # type: ignore[method-assign]

    from bot.tables.hands import Hands

    start_hand = Hands.start_hand

    async def timed_start_hand(self: Any) -> None:
        if _on:
            _deals.append(_ms(time.perf_counter() - _t0))
        await start_hand(self)

    Hands.start_hand = timed_start_hand  # type: ignore[method-assign]
    errors.send_private = timed_send_private  # type: ignore[assignment]


def main() -> None:
    """Run `tests.e2e.bot_entry:main` with the loop's lag, stalls, collections and slash commands timed."""
    gc.callbacks.append(_gc_callback)
    signal.signal(signal.SIGUSR2, _dump)
    atexit.register(_dump)
    threading.Thread(target=_watchdog, name="lag-watchdog", daemon=True).start()
    _instrument()
    from tests.e2e import bot_entry

    bot_entry.main()


def report(path: str) -> None:
    """Print a `LAG_OUT` file."""
    with open(path, encoding="utf-8") as file:
        data = json.load(file)
    print("loop lag (ms):", data["lag"])
    print("collections:", data["gc"])
    print("collection pauses > 2 ms (at ms, generation, ms):", data["gc_pauses"][:40])
    slash = data["slash"]
    if slash:
        for key in ("arrival_ms", "dispatch_ms", "act_ms", "answer_ms", "total_ms"):
            values = sorted(s[key] for s in slash)
            n = len(values)
            print(
                f"slash {key:12s} p50 {values[n // 2]:7.1f}  p95 {values[int(n * 0.95)]:7.1f}  "
                f"p99 {values[int(n * 0.99)]:7.1f}  max {values[-1]:7.1f}  (n={n})"
            )
        worst = sorted(slash, key=lambda s: -s["total_ms"])[: max(1, len(slash) // 50)]
        ended = sum(1 for s in slash if s["hand_ended"])
        print(
            f"hand ended by the command: {ended} of {len(slash)}; among the worst 2 %: "
            f"{sum(1 for s in worst if s['hand_ended'])} of {len(worst)}"
        )
        for s in worst[:15]:
            print("  worst:", s)
    print("oldest generation (not frozen):", data.get("heap"))
    deals = data.get("deals_ms", [])
    if deals:
        buckets = collections.Counter(int(at // 100) for at in deals)
        crowded = sum(n for n in buckets.values() if n >= 5)
        print(
            f"deals: {len(deals)}; most in one 100 ms: {max(buckets.values())}; dealt in a 100 ms with 5 or more: "
            f"{crowded} ({100 * crowded / len(deals):.0f} %)"
        )
    print(f"stalls over {STALL_S * 1000:.0f} ms: {len(data['stall_times_ms'])}")
    for stack, count in data["stalls"][:12]:
        print(f"--- {count}x\n{stack}")


if __name__ == "__main__":
    report(sys.argv[1])
