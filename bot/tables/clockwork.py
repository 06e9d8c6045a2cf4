"""A table's clockwork, the runner's side of `core.Scheduler` (docs/architecture.md, "Who owns what"): the turn
timer of whoever is to act (or of the question "run it twice?"), a computer player's turn, the next-hand scheduler,
and the table's close.

`Clockwork` is what `TableRunner` (bot/tables/runner.py) mixes in; each timer's expiry runs as one of the runner's
operations (`Operations._operation`, bot/tables/operation.py); the turn timer itself is kept asleep from turn to
turn by `KeptTurnTimer` (bot/tables/turn_timer.py).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from typing import Any

from bot.tables.coaching import CoachDMs
from bot.tables.computers import Computers, pause
from bot.tables.delivery import Delivery
from bot.tables.errors import storage_cause, storage_outcome
from bot.tables.hands import Hands
from bot.tables.operation import Operations
from bot.tables.run_twice import RUN_TWICE_TIMEOUT_S, RunTwice
from bot.tables.turn_timer import KeptTurnTimer

log = logging.getLogger(__name__)


class Clockwork(Operations, KeptTurnTimer):
    """The timers of one table (see the module docstring), mixed into `TableRunner`."""

    _hands: Hands
    _outbox: Delivery
    _run_twice: RunTwice
    _computers: Computers
    _coach_dms: CoachDMs
    _turn: int  # moves on at each turn started: a timer of an older turn does nothing
    _next_hand: asyncio.Task[None] | None
    _next_hand_delay_s: float | None
    _computer_delay_s: float | None
    _on_closed: Callable[[Any], None] | None

    def start_turn(self, deadline: float | None = None) -> None:
        """Arm the turn timer for whoever is to act now, or for the question "run it twice?" (`RUN_TWICE_TIMEOUT_S`),
        or stop it when nobody is to act; a timer asleep that wakes by the new deadline is kept (`_turn_timer`)."""
        self._turn += 1
        state, clock = self._state, self._core.clock
        asking = self._run_twice.asking()
        if state.hand is None or (state.hand.actor is None and not asking):
            self.cancel_turn()
            state.deadline = None
            return
        if deadline is None:
            deadline = clock.time() + (RUN_TWICE_TIMEOUT_S if asking else state.options.turn_timeout)
        state.deadline = deadline
        if self._computers.to_act():
            self.cancel_turn()
            turn, name = self._turn, f"computer-turn-{self._state.ids.channel_id}"
            self._timer = asyncio.create_task(self._computer_turn(turn), name=name)
            return
        self._coach_dms.turn_started()  # the coach by DM, for a member who wants it (bot/tables/coaching.py)
        self._arm_turn(deadline)

    def _timer_name(self) -> str:
        return f"turn-timer-{self._state.ids.channel_id}"

    async def _turn_timed_out(self) -> None:
        turn = self._turn
        try:
            async with self._operation():
                if turn == self._turn and not self._state.closed:
                    await (self._run_twice.expire() if self._run_twice.asking() else self._hands.expire())
        except Exception as exc:
            self._log_failed("a turn timeout's action", exc)

    async def _computer_turn(self, turn: int) -> None:
        """A computer player's turn: its pause, then its decision, as one operation (bot/tables/computers.py)."""
        state, clock = self._state, self._core.clock
        mean = state.options.computer_delay if self._computer_delay_s is None else self._computer_delay_s
        await clock.sleep_until(clock.time() + pause(mean, random.Random()))
        try:
            async with self._operation():
                if turn == self._turn and not state.closed and self._computers.to_act():
                    await self._computers.act()
        except Exception as exc:
            self._log_failed("a computer player's action", exc)

    def _log_failed(self, what: str, exc: Exception) -> None:
        """Log what happened to a timer's decision (`what`) that failed: stored and a write after it failed, or
        not stored, each a warning with its storage error (the table reads storage again, `_operation`); anything
        else is a bug, logged with its traceback."""
        table_id = self._state.ids.table_id
        match storage_outcome(exc):
            case "stored":
                cause = storage_cause(exc)
                log.warning(
                    "table %s: %s is stored; a write after it failed (resumed later): %s", table_id, what, cause
                )
            case "not stored":
                log.warning("table %s: %s could not be stored (resumed later): %s", table_id, what, storage_cause(exc))
            case _:
                log.exception("table %s: %s failed (resumed later)", table_id, what)

    def cancel_turn(self) -> None:
        """Stop the turn timer."""
        if self._timer is not None and self._timer is not asyncio.current_task():
            self._timer.cancel()
        self._timer = None
        self._sleeps_until = self._turn_deadline = None

    def schedule_next_hand(self) -> None:
        """Deal the next hand after the table's delay (`next_hand_delay_s`, else the table's option), if the game
        runs and a hand can be dealt."""
        state, clock = self._state, self._core.clock
        if not state.running or state.closed or state.hand is not None:
            return
        if self._next_hand is not None and not self._next_hand.done():
            return
        if not state.table.can_start_hand():
            return  # the table message says what it waits for (`waiting`); a join or sit-in calls again
        delay = state.options.next_hand_delay if self._next_hand_delay_s is None else self._next_hand_delay_s
        when = clock.time() + delay
        state.next_hand_at = when

        async def deal_later() -> None:
            await clock.sleep_until(when)
            try:
                async with self._operation():
                    self._next_hand = None
                    state.next_hand_at = None
                    if state.running and not state.closed and state.hand is None and state.table.can_start_hand():
                        await self._hands.start_hand()
                    elif state.hand is None and not state.closed:
                        self._outbox.refresh()  # no deal after all: the table message says what the table waits for
            except Exception as exc:
                table_id = self._state.ids.table_id
                if storage_outcome(exc) is None:
                    log.exception("table %s: the next hand could not be dealt (resumed later)", table_id)
                else:  # a storage fault: the table reads storage again (`_operation`), and deals then
                    cause = storage_cause(exc)
                    log.warning("table %s: the next hand could not be stored (resumed later): %s", table_id, cause)

        self._next_hand = asyncio.create_task(deal_later(), name=f"next-hand-{self._state.ids.channel_id}")

    def table_closed(self) -> None:
        """The table is closed in storage: stop its timers and leave the registry."""
        self._state.closed = True
        self.cancel_turn()
        if self._next_hand is not None and self._next_hand is not asyncio.current_task():
            self._next_hand.cancel()
        self._state.hand = None
        self._state.hand_id = None
        if self._on_closed is not None:
            self._on_closed(self)
