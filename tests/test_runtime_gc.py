"""The bot process's collector thresholds (`bot.runtime.tune_interpreter`): a busy event loop's objects in flight
are not walked by a young collection every few hundred allocations (benchmarks/README.md, tenth session)."""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from bot.runtime import GC_THRESHOLDS, GIL_SWITCH_INTERVAL_S, tune_interpreter

#: About what is alive and young at any moment at 100 busy tables (benchmarks/README.md, tenth session: 1,000-6,500
#: objects in the youngest generation at its collections, 3,100 on average).
IN_FLIGHT = 3000


@pytest.fixture
def tuned() -> Iterator[None]:
    """The process tuned as a bot process is, put back afterwards."""
    thresholds, interval = gc.get_threshold(), sys.getswitchinterval()
    tune_interpreter()
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        sys.setswitchinterval(interval)


def collections_while(make: Any) -> dict[int, int]:
    """How many collections of each generation ran while `make()` ran (from a fresh start: `gc.collect()`)."""
    counts: dict[int, int] = {}

    def seen(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            counts[info["generation"]] = counts.get(info["generation"], 0) + 1

    gc.collect()
    gc.callbacks.append(seen)
    try:
        make()
    finally:
        gc.callbacks.remove(seen)
    return counts


def test_a_busy_loops_objects_in_flight_start_no_young_collection(tuned: None) -> None:
    # Python's 700 collected the youngest generation four times over for these (each time walking all of them).
    kept: list[dict[str, int]] = []
    counts = collections_while(lambda: kept.extend({"n": n} for n in range(IN_FLIGHT)))
    assert counts == {}, counts
    assert len(kept) == IN_FLIGHT
    assert sys.getswitchinterval() == pytest.approx(GIL_SWITCH_INTERVAL_S)


def test_cycles_are_still_collected_and_the_older_generations_in_turn(tuned: None) -> None:
    # Short-lived cycles (a young collection's garbage) are found within GC_THRESHOLDS[0] allocations; once
    # GC_THRESHOLDS[1] + 1 young collections ran, the next takes the middle generation too (what survived them).
    young, every = GC_THRESHOLDS[0], GC_THRESHOLDS[1] + 2

    def cycles() -> None:
        for _ in range(young * every + young // 2):
            a: list[Any] = []
            a.append(a)  # a cycle: only a collection frees it

    counts = collections_while(cycles)
    assert counts.get(0, 0) == every - 1, counts
    assert counts.get(1, 0) == 1, counts
