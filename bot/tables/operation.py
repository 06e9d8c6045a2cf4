"""One change of a table at a time, and the way back after a storage fault (docs/architecture.md, "Table
orchestration"; docs/outbox.md).

`Operations` is what `TableRunner` (bot/tables/runner.py) mixes in to run every change — a command, a button press,
a timer expiry, the next deal — as one `_operation` under the table's lock: a change that fails is rolled back in
memory (`TableCore.roll_back`) and told to nobody; after a storage fault the table is read again from storage and
resumed by itself (`_resume_later`, retried with a growing pause until storage answers), so that it never hangs.
A database found damaged (`StorageUnreadable`: no retry helps until someone restores the file) halts the table
instead once its re-read fails too: one error line in the log, then a re-read every `UNREADABLE_RETRY_S` without a
line each time; every change meanwhile is refused as `storage_unreadable` (nothing is tried on the damaged file), and
one line says when the table reads again.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import AsyncIterator

from bot.poker import PokerError
from bot.storage import StorageUnreadable
from bot.tables.core import TableCore
from bot.tables.errors import STORAGE_FAULTS, STORAGE_REFUSALS, ServiceError, refusal
from bot.tables.restore import Restorer
from bot.tables.state import TableState

log = logging.getLogger(__name__)

#: Pauses (seconds) before a table whose storage failed is read again from storage and resumed; the last repeats.
FAULT_RETRY_DELAYS_S = (0.5, 1.0, 2.0, 4.0, 8.0)
#: Seconds a storage write may take before the runner gives up waiting (a hung disk): the change is undone in
#: memory and the table read again from storage later, since the write may still land.
WRITE_TIMEOUT_S = 5.0
#: Seconds between two re-reads of a table whose database was found damaged (`StorageUnreadable`): someone must
#: restore the file (or repair it), which takes minutes, so the table does not read it every few seconds.
UNREADABLE_RETRY_S = 300.0


class Operations:
    """What `TableRunner` mixes in to change its table one operation at a time (see the module docstring)."""

    _lock: asyncio.Lock
    _core: TableCore
    _state: TableState
    _restorer: Restorer
    _resume: asyncio.Task[None] | None  # the pending re-read after a storage fault
    _halted: bool  # the database found damaged (StorageUnreadable): every change refused until a re-read succeeds
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
        until then. While the table is halted (its database found damaged, `StorageUnreadable`), every change is
        refused as ServiceError("storage_unreadable") until a re-read succeeds."""
        async with self._lock:
            if self._halted:
                raise ServiceError("storage_unreadable")
            if self._core.stale:
                raise ServiceError("table_recovering")
            with self._state.changing():
                self._core.begin()
                try:
                    yield
                except PokerError as exc:  # a refusal; one that storage caused (leave_pending...) reads storage again
                    self._core.roll_back()
                    if isinstance(exc.__cause__, STORAGE_FAULTS):
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
        table_id = self._state.ids.table_id

        async def resume() -> None:
            halted = False  # the database found damaged: told once, then re-read every UNREADABLE_RETRY_S
            for attempt in itertools.count():
                delay = FAULT_RETRY_DELAYS_S[min(attempt, len(FAULT_RETRY_DELAYS_S) - 1)]
                await clock.sleep_until(clock.time() + (UNREADABLE_RETRY_S if halted else delay))
                try:
                    async with self._lock:
                        with self._state.changing():
                            self._core.forget_owed()
                            await self._restorer.reload()
                except StorageUnreadable as exc:
                    self._halted = True
                    if not halted:
                        log.error(
                            "table %s halted: %s (read again every %.0f s until then)",
                            table_id,
                            exc,
                            UNREADABLE_RETRY_S,
                        )
                    halted = True
                except Exception:
                    log.warning("table %s: storage still failing, resuming later", table_id, exc_info=True)
                else:
                    self._halted = False
                    if halted:
                        log.warning("table %s: its database is readable again, resumed", table_id)
                    return

        self._resume = asyncio.create_task(resume(), name=f"table-resume-{self._state.ids.channel_id}")
