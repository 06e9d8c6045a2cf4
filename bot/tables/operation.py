"""One change of a table at a time, and the way back after a storage fault (docs/architecture.md, "Table
orchestration"; docs/outbox.md).

`Operations` is what `TableRunner` (bot/tables/runner.py) mixes in to run every change — a command, a button press,
a timer expiry, the next deal — as one `_operation` under the table's lock: a change that fails is rolled back in
memory (`TableCore.roll_back`) and told to nobody; after a storage fault the table is read again from storage and
resumed by itself (`_resume_later`, retried with a growing pause until storage answers), so that it never hangs.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import AsyncIterator

from bot.poker import PokerError
from bot.storage import StorageUnavailable
from bot.tables.core import TableCore
from bot.tables.errors import STORAGE_REFUSALS, ServiceError, refusal
from bot.tables.restore import Restorer
from bot.tables.state import TableState

log = logging.getLogger(__name__)

#: Pauses (seconds) before a table whose storage failed is read again from storage and resumed; the last repeats.
FAULT_RETRY_DELAYS_S = (0.5, 1.0, 2.0, 4.0, 8.0)
#: Seconds a storage write may take before the runner gives up waiting (a hung disk): the change is undone in
#: memory and the table read again from storage later, since the write may still land.
WRITE_TIMEOUT_S = 5.0


class Operations:
    """What `TableRunner` mixes in to change its table one operation at a time (see the module docstring)."""

    _lock: asyncio.Lock
    _core: TableCore
    _state: TableState
    _restorer: Restorer
    _resume: asyncio.Task[None] | None  # the pending re-read after a storage fault
    _stopping: bool

    def settled(self) -> bool:
        """No change is being made and no resume after a storage fault is pending: memory is what storage holds."""
        return not self._lock.locked() and (self._resume is None or self._resume.done())

    @contextlib.asynccontextmanager
    async def _operation(self) -> AsyncIterator[None]:
        """One change of the table, under the lock. If it fails (a refusal, or storage) memory goes back to what
        storage holds (`TableCore.roll_back`) and nothing it owed is told; after a storage failure the table is
        read again from storage and resumed a little later (`_resume_later`), so that it never hangs; a storage
        error that is a refusal (`bot.tables.errors.refusal`: not enough chips) is raised as its ServiceError (the
        database unavailable, `StorageUnavailable`, is raised as it is: the Discord layer refuses with it). A write
        that timed out (it may still land) is refused as ServiceError("table_recovering"), and so is every change
        until then."""
        async with self._lock:
            if self._core.stale:
                raise ServiceError("table_recovering")
            with self._state.changing():
                self._core.begin()
                try:
                    yield
                except PokerError as exc:  # a refusal; one that storage caused (leave_pending...) reads storage again
                    self._core.roll_back()
                    if isinstance(exc.__cause__, StorageUnavailable | TimeoutError):
                        self._resume_later()
                    if isinstance(exc.__cause__, TimeoutError) and self._core.stale:  # action_stands, leave_pending
                        log.warning("table %s: a storage write timed out (it may still land)", self._state.ids.table_id)
                    raise
                except STORAGE_REFUSALS as exc:  # not a fault: the ledger refused (not enough chips...)
                    self._core.roll_back()
                    raise refusal(exc) from exc
                except BaseException as exc:
                    self._core.roll_back()
                    self._resume_later()
                    if isinstance(exc, TimeoutError) and self._core.stale:  # the database too slow to answer
                        log.warning("table %s: a storage write timed out (it may still land)", self._state.ids.table_id)
                        raise ServiceError("table_recovering") from exc
                    raise

    def _resume_later(self) -> None:
        """After a storage failure: read the table again from storage and resume it (timer re-armed, hand
        finished, next deal scheduled), after a short pause, retried with a growing pause until storage answers."""
        if self._stopping or (self._resume is not None and not self._resume.done()):
            return
        clock = self._core.clock

        async def resume() -> None:
            for attempt in itertools.count():
                delay = FAULT_RETRY_DELAYS_S[min(attempt, len(FAULT_RETRY_DELAYS_S) - 1)]
                await clock.sleep_until(clock.time() + delay)
                try:
                    async with self._lock:
                        with self._state.changing():
                            self._core.forget_owed()
                            await self._restorer.reload()
                    return
                except Exception:
                    table_id = self._state.ids.table_id
                    log.warning("table %s: storage still failing, resuming later", table_id, exc_info=True)

        self._resume = asyncio.create_task(resume(), name=f"table-resume-{self._state.ids.channel_id}")
