"""The time bank on a player's turn (issue 16): started when their turn timer runs out or by the Time button (the
deadline moves on by the whole bank), what is left of it, and the deadline a turn restored after a restart keeps
while a bank was running. The banks' bookkeeping (seconds per player, refills, a bank in use) is pure:
bot/tables/timebank.py.

`TimeBankTurn` works on the runner's `TableCore`, inside one of the runner's operations (under its lock); the
runner's clockwork (`Scheduler`) re-arms the turn timer for the new deadline.
"""

from __future__ import annotations

from bot.poker import Hand
from bot.tables.core import Scheduler, TableCore
from bot.tables.errors import ServiceError
from bot.tables.state import TableState


def restored_deadline(
    state: TableState, hand: Hand, acted_at: float, deadline: float, now: float, grace: float
) -> float:
    """The deadline of the turn of a hand restored at `now` (clock seconds), whose last action was at `acted_at`
    and whose own deadline is `deadline`: when the actor's time bank was running, the turn ends when the bank
    does (at least `grace` seconds from now); a bank whose player acted before the stop spends what they used
    until then (changes `state.time_banks`)."""
    bank = state.time_banks.running
    if bank is None:
        return deadline
    actor = hand.actor
    if actor is not None and state.hand_users[actor] == bank.user_id and bank.counts_from >= acted_at:
        return max(bank.deadline, now + grace)
    state.time_banks.stop(acted_at)
    return deadline


class TimeBankTurn:
    """The time bank of the player to act (see the module docstring)."""

    def __init__(self, core: TableCore, scheduler: Scheduler) -> None:
        self._core = core
        self._state = core.state
        self._scheduler = scheduler

    def left(self, user_id: int) -> float:
        """See `TableRunner.time_bank_left`."""
        banks = self._state.time_banks
        return banks.left(user_id) if banks.size > 0 else 0.0

    async def start(self, user: int) -> bool:
        """Start the time bank of `user`, the player to act (their timer ran out, or they pressed Time): the turn's
        deadline moves on by the whole bank; stored with the table. False when the bank is empty or already
        running."""
        state, core = self._state, self._core
        turn_deadline = state.deadline if state.deadline is not None else core.clock.time()
        deadline = state.time_banks.start(user, turn_deadline)
        if deadline is None:
            return False
        self._scheduler.start_turn(deadline)
        await core.save()
        core.delivery.refresh()
        return True

    async def use(self, user: int) -> float:
        """The Time button of `user`, the player to act (the turn checked by the caller): their bank starts now;
        returns the new deadline (clock seconds). Raises ServiceError("time_bank_unavailable"): empty, none at this
        table, or already running."""
        if not await self.start(user):
            raise ServiceError("time_bank_unavailable")
        deadline = self._state.deadline
        assert deadline is not None
        return deadline
