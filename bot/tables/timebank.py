"""Time banks (issue 16): each player's reserve of seconds, used when their turn timer runs out.

When the turn timer of a player runs out and their bank holds time, the bank starts instead of the automatic
check/fold: the deadline moves on by the whole bank (the table message shows the new one). A **Time** button
starts it earlier, the same way. Whatever part of the bank the player used (the time past their turn's own
deadline) is spent when they act or when the bank runs out too (then the automatic check/fold). Every hand dealt
refills each bank by `refill` seconds up to `size`; at a tournament a new blind level fills every bank again.

Pure bookkeeping on plain numbers (seconds, clock times): the turn timer that reads it lives in clockwork.py and
hands.py. Saved with the table (`to_json`), so a restart restores the banks and a bank that was running.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["DEFAULT_REFILL_S", "RunningBank", "TimeBanks"]

#: Seconds added to every bank at each hand dealt (up to the bank's size).
DEFAULT_REFILL_S = 5


@dataclass(frozen=True)
class RunningBank:
    """A bank in use: whose (user id), from when its time counts (the turn's own deadline, clock seconds), and
    until when (the new deadline)."""

    user_id: int
    counts_from: float
    deadline: float


@dataclass
class TimeBanks:
    """The banks of one table. size: seconds a bank holds at most (0 = no time bank); refill: seconds added per
    hand; seconds: each player's bank (user id -> seconds; a player not listed has a full bank); running: the
    bank in use on the current turn, if any."""

    size: int
    refill: int = DEFAULT_REFILL_S
    seconds: dict[int, float] = field(default_factory=dict)
    running: RunningBank | None = None

    def left(self, user_id: int) -> float:
        """Seconds left in `user_id`'s bank (a full bank for a player not seen yet)."""
        return self.seconds.get(user_id, float(self.size))

    def start(self, user_id: int, turn_deadline: float) -> float | None:
        """Start `user_id`'s bank on the turn whose own deadline is `turn_deadline`: the new deadline, or None when
        their bank is empty, the table has no time bank, or a bank already runs on this turn."""
        if self.running is not None or self.size <= 0:
            return None
        left = self.left(user_id)
        if left <= 0:
            return None
        self.running = RunningBank(user_id, turn_deadline, turn_deadline + left)
        return self.running.deadline

    def stop(self, now: float) -> None:
        """The turn is over (the player acted, or the bank ran out): spend the time used past the turn's own
        deadline."""
        running = self.running
        if running is None:
            return
        used = min(max(0.0, now - running.counts_from), running.deadline - running.counts_from)
        self.seconds[running.user_id] = max(0.0, self.left(running.user_id) - used)
        self.running = None

    def refill_for_hand(self, users: Iterable[int]) -> None:
        """A hand is dealt: each of `users`' banks gains `refill` seconds, up to the size."""
        for user in users:
            self.seconds[user] = min(float(self.size), self.left(user) + self.refill)

    def fill(self) -> None:
        """A new blind level at a tournament: every bank is full again."""
        self.seconds.clear()

    def copy(self) -> TimeBanks:
        """An independent copy (a `RunningBank` is immutable): what a rollback puts back."""
        return TimeBanks(self.size, self.refill, dict(self.seconds), self.running)

    def to_json(self) -> dict[str, Any]:
        """{"seconds": {user: s}, "running": [user, counts_from, deadline] | None} (size and refill are options)."""
        running = self.running
        return {
            "seconds": {str(user): round(s, 3) for user, s in self.seconds.items()},
            "running": None if running is None else [running.user_id, running.counts_from, running.deadline],
        }

    def restore(self, data: Mapping[str, Any] | None) -> None:
        """Read back `to_json` (missing data: every bank full, none running)."""
        data = data or {}
        self.seconds = {int(user): float(s) for user, s in (data.get("seconds") or {}).items()}
        running = data.get("running")
        self.running = None if not running else RunningBank(int(running[0]), float(running[1]), float(running[2]))
