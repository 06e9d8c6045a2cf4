"""Time for the table service: a real clock, and a manual one that tests advance without waiting."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from contextlib import AbstractAsyncContextManager
from types import TracebackType
from typing import Any, Protocol


class Clock(Protocol):
    """What the table service needs of time: Unix seconds now, and a sleep until a moment."""

    def time(self) -> float:
        """Unix time in seconds."""
        ...

    async def sleep_until(self, when: float) -> None:
        """Return once `time() >= when` (at once if it already is)."""
        ...

    def timeout(self, seconds: float) -> AbstractAsyncContextManager[object]:
        """A context like `asyncio.timeout(seconds)`, measured on this clock: its body is cancelled and
        TimeoutError raised once `seconds` of this clock's time have passed (storage writes use it)."""
        ...


class SystemClock:
    """The wall clock (`time.time`) with `asyncio.sleep`."""

    def time(self) -> float:
        """Unix time in seconds."""
        return time.time()

    async def sleep_until(self, when: float) -> None:
        """Sleep until the wall clock reaches `when`."""
        delay = when - time.time()
        if delay > 0:
            await asyncio.sleep(delay)

    def timeout(self, seconds: float) -> AbstractAsyncContextManager[object]:
        """`asyncio.timeout(seconds)`: the event loop's monotonic clock measures the same wall-clock seconds."""
        return asyncio.timeout(seconds)


class ManualClock:
    """A clock that only moves when told to (`advance`), for tests of turn timers and hand scheduling.

    Sleepers wake in deadline order when `advance` passes their moment; `advance` waits for each woken
    task to finish (timer and scheduler tasks end after their one job) before going on.
    """

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None], asyncio.Task[Any] | None]] = []
        self._counter = itertools.count()

    def time(self) -> float:
        """The manual time in Unix seconds."""
        return self._now

    async def sleep_until(self, when: float) -> None:
        """Wait until `advance` has moved the clock to `when` or later."""
        if when <= self._now:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (when, next(self._counter), future, asyncio.current_task()))
        await future

    def timeout(self, seconds: float) -> AbstractAsyncContextManager[object]:
        """A timeout that expires only when `advance` passes `time() + seconds` (never by itself): a test
        decides when a hung storage write has taken too long, however slow the machine is."""
        return _ManualTimeout(self, self._now + seconds)

    def _alarm(self, when: float) -> asyncio.Future[None]:
        """A future that `advance` resolves once the clock reaches `when` (no task waits on it)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if when <= self._now:
            future.set_result(None)
        else:
            heapq.heappush(self._sleepers, (when, next(self._counter), future, None))
        return future

    async def advance(self, seconds: float) -> None:
        """Move the clock forward by `seconds`, waking every sleeper whose moment has come, in order."""
        await settle()  # let freshly created tasks reach their sleep first
        target = self._now + seconds
        while self._sleepers and self._sleepers[0][0] <= target:
            when, _, future, task = heapq.heappop(self._sleepers)
            self._now = max(self._now, when)
            if not future.done():
                future.set_result(None)
                if task is not None:
                    # Let the woken task do its work (it may wait on storage threads) before going on.
                    await asyncio.wait({task}, timeout=5)
            await settle()
        self._now = target
        await settle()


class _ManualTimeout:
    """`ManualClock.timeout`: an `asyncio.timeout(None)` that the clock's alarm at `when` makes expire."""

    def __init__(self, clock: ManualClock, when: float) -> None:
        self._clock = clock
        self._when = when
        self._timeout = asyncio.timeout(None)
        self._alarm: asyncio.Future[None] | None = None

    async def __aenter__(self) -> None:
        await self._timeout.__aenter__()
        self._alarm = self._clock._alarm(self._when)
        self._alarm.add_done_callback(self._expire)

    def _expire(self, alarm: asyncio.Future[None]) -> None:
        if not alarm.cancelled():
            self._timeout.reschedule(asyncio.get_running_loop().time())

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._alarm is not None:
            self._alarm.cancel()
        await self._timeout.__aexit__(kind, exc, tb)  # raises TimeoutError if the alarm went off


async def settle(rounds: int = 50) -> None:
    """Let the event loop run pending callbacks and tasks a few times (tests use it after an input)."""
    for _ in range(rounds):
        await asyncio.sleep(0)
