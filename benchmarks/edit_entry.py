"""The bot with the path from a press to its table edit timed, for `benchmarks/load.py --bot-entry
benchmarks.edit_entry:main` (issue 14: where "table updated" goes).

From `EDIT_SKIP_S` (15) seconds after the first table edit to the end of the process, it records for every press of
a table button (`Presses.take`) that acted: its arrival (now minus its snowflake's time: the stand-in's clock on the
same machine), the press's start to `TableRunner.act` called (the acknowledgement, type 6, is awaited there by
default), the act (the table's lock, the write-ahead), then the delivery job that drew its edit: the wait in the
table's queue (with what ran ahead of it in that time, by kind), the lock and the picture, the streets flushed
before the edit, the edit's request. Every job of the tables' delivery workers is timed by kind too. The figures
go to `EDIT_OUT` (default `bot.edit.json`) at exit; `python benchmarks/edit_entry.py FILE` prints them.

    EDIT_OUT=/tmp/edit.json python benchmarks/load.py --bot-entry benchmarks.edit_entry:main
    python benchmarks/edit_entry.py /tmp/edit.json
"""

from __future__ import annotations

import atexit
import contextvars
import json
import os
import statistics
import sys
import time
from collections import defaultdict
from typing import Any

OUT_ENV = "EDIT_OUT"
SKIP_ENV = "EDIT_SKIP_S"
DISCORD_EPOCH_MS = 1420070400000

_press: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar("edit_entry_press", default=None)
_job_kind: contextvars.ContextVar[str] = contextvars.ContextVar("edit_entry_job", default="")
_first: float | None = None
_presses: list[dict[str, Any]] = []
_jobs: dict[str, list[float]] = defaultdict(list)  # kind -> durations (ms)
_ahead: dict[str, list[float]] = defaultdict(list)  # kind -> time (ms) run ahead of an edit that carried a press


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


def _on() -> bool:
    return _first is not None and time.perf_counter() >= _first + float(os.environ.get(SKIP_ENV, "15"))


def _instrument() -> None:
    from bot.discord_ui import notifier as notifier_module
    from bot.discord_ui import presses
    from bot.tables import delivery
    from bot.tables.runner import TableRunner

    # -- presses: arrival and the act
    run_press = presses.run_press

    async def timed_run_press(press: Any, answer_within: float = presses.ANSWER_WITHIN_S) -> None:
        mark: dict[str, Any] = {
            "start": time.perf_counter(),
            "arrival_ms": time.time() * 1000 - ((press.id >> 22) + DISCORD_EPOCH_MS),
            "action": press.button.action,
        }
        _press.set(mark)
        await run_press(press, answer_within)

    presses.run_press = timed_run_press  # type: ignore[assignment]

    act = TableRunner.act

    async def timed_act(self: Any, *args: Any, **kwargs: Any) -> Any:
        mark = _press.get()
        if mark is not None:
            mark["act"] = time.perf_counter()
        result = await act(self, *args, **kwargs)
        if mark is not None:
            mark["acted"] = time.perf_counter()
            if _on() and "job" in mark:
                _presses.append(mark)
        return result

    TableRunner.act = timed_act  # type: ignore[method-assign]

    # -- the delivery worker: every job timed by kind; the edit job that a press's refresh queued (or merged into)
    queue, refresh = delivery.Delivery.queue, delivery.Delivery.refresh
    put = delivery.OutboxWorker.put

    def tagged_queue(self: Any, owed: Any, *, durable: bool) -> None:
        payload = owed.payload or {}
        kind = str(payload.get("type") or type(owed.announcement).__name__)
        token = _job_kind.set(f"deliver:{kind}")
        try:
            queue(self, owed, durable=durable)
        finally:
            _job_kind.reset(token)

    def tagged_refresh(self: Any) -> None:
        token = _job_kind.set("edit")
        pending = self._pending_edit
        try:
            refresh(self)
        finally:
            _job_kind.reset(token)
        mark = _press.get()
        if mark is not None and "job" not in mark:
            mark["refresh"] = time.perf_counter()
            mark["job"] = self._edit_record if pending else self._edit_record_new
            mark["merged"] = pending

    def timed_put(self: Any, job: Any) -> None:
        kind = _job_kind.get() or getattr(job, "__qualname__", "job").split(".")[-1]
        record: dict[str, Any] = {"kind": kind, "put": time.perf_counter(), "worker": self}
        owner = getattr(self, "_owner", None)
        if kind == "edit" and owner is not None:
            owner._edit_record_new = record
            owner._edit_record = record
        log: list[dict[str, Any]] = self.__dict__.setdefault("_log", [])

        async def timed_job() -> None:
            record["start"] = time.perf_counter()
            try:
                await job()
            finally:
                record["end"] = time.perf_counter()
                if _on():
                    _jobs[kind].append(_ms(record["end"] - record["start"]))
                log.append(record)
                del log[:-64]

        put(self, timed_job)

    delivery.OutboxWorker.put = timed_put  # type: ignore[method-assign]
    delivery.Delivery.queue = tagged_queue  # type: ignore[method-assign]
    delivery.Delivery.refresh = tagged_refresh  # type: ignore[method-assign]

    init = delivery.Delivery.__init__

    def init_with_owner(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        self.worker._owner = self
        self._edit_record = self._edit_record_new = None

    delivery.Delivery.__init__ = init_with_owner  # type: ignore[method-assign]

    # -- inside the edit job: the lock and the picture, the streets flushed, the request
    edit_table, flush = notifier_module.DiscordNotifier.edit_table, notifier_module.DiscordNotifier._flush_streets

    async def timed_edit_table(self: Any, snapshot: Any, carrier: Any = None) -> None:
        global _first
        if _first is None:
            _first = time.perf_counter()
        record = _current_edit.get()
        if record is not None:
            record["edit"] = time.perf_counter()
        await edit_table(self, snapshot, carrier)
        if record is not None:
            record["edited"] = time.perf_counter()

    async def timed_flush(self: Any, snapshot: Any) -> None:
        record = _current_edit.get()
        before = time.perf_counter()
        await flush(self, snapshot)
        if record is not None and "edit" in record and "flushed" not in record:
            record["flush_ms"] = _ms(time.perf_counter() - before)
            record["flushed"] = True

    notifier_module.DiscordNotifier.edit_table = timed_edit_table  # type: ignore[method-assign]
    notifier_module.DiscordNotifier._flush_streets = timed_flush  # type: ignore[method-assign]


_current_edit: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar("edit_entry_edit", default=None)


def _install_current_edit() -> None:
    """The edit job's record is made current while it runs (the worker's task runs one job at a time)."""
    from bot.tables import delivery

    put = delivery.OutboxWorker.put

    def put_with_current(self: Any, job: Any) -> None:
        put(self, job)
        owner = getattr(self, "_owner", None)
        record = getattr(owner, "_edit_record_new", None) if owner is not None else None
        if record is None or record.get("wrapped"):
            return
        record["wrapped"] = True
        # The job just queued is the last in the queue: wrap it to set the current record.
        queue = self.queue._queue  # a deque
        inner = queue[-1]

        async def with_record() -> None:
            token = _current_edit.set(record)
            try:
                await inner()
            finally:
                _current_edit.reset(token)

        queue[-1] = with_record

    delivery.OutboxWorker.put = put_with_current  # type: ignore[method-assign]


def _summary() -> dict[str, Any]:
    rows = []
    ahead: dict[str, float] = defaultdict(float)
    for mark in _presses:
        job = mark["job"]
        if job is None or "end" not in job or "start" not in job:
            continue
        edited = job.get("edited", job["end"])
        row = {
            "action": mark["action"],
            "merged": mark["merged"],
            "arrival": mark["arrival_ms"],
            "to_act": _ms(mark["act"] - mark["start"]),
            "act": _ms(mark["refresh"] - mark["act"]),
            "queued": _ms(job["start"] - mark["refresh"]),
            "lock_picture": _ms(job.get("edit", job["end"]) - job["start"]),
            "flush": job.get("flush_ms", 0.0),
            "request": _ms(edited - job.get("edit", edited)) - job.get("flush_ms", 0.0),
            "total": mark["arrival_ms"] + _ms(edited - mark["start"]),
        }
        # what ran on the worker between the refresh and the job's start
        for other in job["worker"].__dict__.get("_log", []):
            if other is job or "start" not in other or "end" not in other:
                continue
            overlap = min(other["end"], job["start"]) - max(other["start"], mark["refresh"])
            if overlap > 0:
                ahead[other["kind"]] += overlap * 1000
        rows.append(row)
    return {"presses": rows, "ahead_ms_total": dict(ahead), "jobs_ms": {k: v for k, v in _jobs.items()}}


def _dump() -> None:
    with open(os.environ.get(OUT_ENV, "bot.edit.json"), "w", encoding="utf-8") as file:
        json.dump(_summary(), file)


def main() -> None:
    """Run `tests.e2e.bot_entry:main` with the press-to-edit path timed (see the module docstring)."""
    _instrument()
    _install_current_edit()
    atexit.register(_dump)
    from tests.e2e import bot_entry

    bot_entry.main()


def _dist(values: list[float]) -> str:
    if not values:
        return "-"
    ordered = sorted(values)

    def pick(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    mean = statistics.fmean(ordered)
    return f"n {len(ordered)} mean {mean:.1f} p50 {pick(0.5):.1f} p90 {pick(0.9):.1f} p99 {pick(0.99):.1f}"


def report(path: str) -> None:
    """Print an `EDIT_OUT` file."""
    with open(path, encoding="utf-8") as file:
        data = json.load(file)
    rows = data["presses"]
    print(f"presses timed: {len(rows)} ({sum(r['merged'] for r in rows)} merged into an edit already queued)")
    for key in ("arrival", "to_act", "act", "queued", "lock_picture", "flush", "request", "total"):
        print(f"  {key:13s} {_dist([r[key] for r in rows])}")
    slow = sorted(rows, key=lambda r: r["total"])[-max(1, len(rows) // 20) :]
    print("the slowest 5 %: mean of each step (ms)")
    for key in ("arrival", "to_act", "act", "queued", "lock_picture", "flush", "request", "total"):
        print(f"  {key:13s} {statistics.fmean(r[key] for r in slow):.1f}")
    total = sum(data["ahead_ms_total"].values()) or 1
    print("time run ahead of a press's edit on its worker, by job kind (ms, share):")
    for kind, ms in sorted(data["ahead_ms_total"].items(), key=lambda kv: -kv[1]):
        print(f"  {kind:28s} {ms:10.0f} {100 * ms / total:5.1f} %")
    print("delivery jobs (ms):")
    for kind, values in sorted(data["jobs_ms"].items()):
        print(f"  {kind:28s} {_dist(values)}")


if __name__ == "__main__":
    report(sys.argv[1])
