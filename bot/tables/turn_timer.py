"""The turn timer of a table (`TableRunner`'s clockwork, bot/tables/clockwork.py), kept from turn to turn while the
deadline only moves later: no task made and cancelled at every action (docs/architecture.md, "A turn starts")."""

from __future__ import annotations

import asyncio

from bot.tables.core import TableCore


class KeptTurnTimer:
    """What `TableRunner` mixes in to time its turns: `_arm_turn(deadline)` keeps the timer asleep when it wakes by
    `deadline`, else arms a new one; at its wake the timer sleeps on, as a new task, to the deadline of the turn
    then if that is later, else the turn has timed out (`_turn_timed_out`, the runner's)."""

    _core: TableCore
    _timer: asyncio.Task[None] | None
    _sleeps_until: float | None  # when the turn timer wakes (None: not asleep, or no turn timer)
    _turn_deadline: float | None

    def _timer_name(self) -> str:
        raise NotImplementedError

    def cancel_turn(self) -> None:
        """Stop the turn timer."""
        raise NotImplementedError

    async def _turn_timed_out(self) -> None:
        raise NotImplementedError

    def _arm_turn(self, deadline: float) -> None:
        timer = self._timer
        if self._sleeps_until is None or self._sleeps_until > deadline or timer is None or timer.done():
            self.cancel_turn()
            self._sleep_to(deadline)
        self._turn_deadline = deadline

    def _sleep_to(self, until: float) -> None:
        self._sleeps_until = until
        self._timer = asyncio.create_task(self._turn_timer(until), name=self._timer_name())

    async def _turn_timer(self, until: float) -> None:
        await self._core.clock.sleep_until(until)
        self._sleeps_until = None  # awake: a turn started from now on arms a timer of its own
        if self._turn_deadline is not None and self._turn_deadline > until:
            self._sleep_to(self._turn_deadline)
            return
        await self._turn_timed_out()
