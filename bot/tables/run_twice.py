"""The question "run it twice?" at the table (issue 15): an answer (stored first, like an action), no answer in time
(a no), and the time a question restored after a restart keeps (docs/architecture.md, "Run it twice and showing by
choice"; the rule itself, rule book 002, is the engine's: `Hand.answer_run_twice`).

`RunTwice` works on the runner's `TableCore`, inside one of the runner's operations (under its lock); the turn timer
(`TableRunner.start_turn`) times the question while it is open.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.render.announce import NoticeKind
from bot.tables.core import TableCore
from bot.tables.errors import ServiceError
from bot.tables.hands import Hands
from bot.tables.kinds import ActionBy
from bot.tables.notifier import PlayerAnnouncement
from bot.tables.record import RUN_TWICE

#: Seconds the players still in have to answer "run it twice?" (issue 15; no answer = no).
RUN_TWICE_TIMEOUT_S = 15.0
#: At least this many seconds are left to answer "run it twice?" when the question is restored after a restart.
RUN_TWICE_RESTORE_GRACE_S = 3.0


def restored_deadline(started_at: float, actions: Sequence[Mapping[str, Any]], now: float) -> float:
    """The end of a question restored at `now` (clock seconds): it keeps the time it had left, counted from the
    last action that is not an answer (`started_at`, the hand's deal, when there is none), and at least
    `RUN_TWICE_RESTORE_GRACE_S` from now."""
    asked_at = max([started_at] + [float(a["at"]) for a in actions if a["kind"] != RUN_TWICE])
    return max(asked_at + RUN_TWICE_TIMEOUT_S, now + RUN_TWICE_RESTORE_GRACE_S)


class RunTwice:
    """The open question "run it twice?" of the hand being played (see the module docstring)."""

    def __init__(self, core: TableCore, hands: Hands) -> None:
        self._core = core
        self._state = core.state
        self._hands = hands

    def asking(self) -> bool:
        """The hand being played waits for answers to "run it twice?"."""
        hand = self._state.hand
        return hand is not None and bool(hand.run_twice_pending)

    async def answer(self, user_id: int, yes: bool, *, hand_number: int | None, by: ActionBy) -> None:
        """See `TableRunner.answer_run_twice`: checked, stored (write-ahead, in the action log), then applied; the
        run-out and the showdown follow when the question is settled."""
        state, core = self._state, self._core
        state.check_open()
        hand = state.hand
        if hand is None or (hand_number is not None and hand_number != state.hand_number):
            raise ServiceError("no_run_twice_question")
        player = state.player_of(user_id)
        if player is None or player not in hand.run_twice_pending:
            raise ServiceError("no_run_twice_question")
        assert state.hand_id is not None
        hand_id = state.hand_id
        answer = {"player": player, "kind": RUN_TWICE, "yes": yes, "at": core.clock.time(), "by": by.value}
        said = "no" if not yes else "yes_last" if len(hand.run_twice_pending) == 1 else "yes"
        if by is ActionBy.TIMEOUT:
            said = "timeout"
        core.announce(PlayerAnnouncement(NoticeKind.RUN_TWICE, user_id, state.name(user_id), action=said))
        await core.commit(lambda _data, _rows: core.storage.append_action(hand_id, answer), carries=False)
        before = len(hand.events)
        hand.answer_run_twice(player, yes)
        await self._hands.after_stored(hand, before)  # stored: an outage from here on is action_stands

    async def expire(self) -> None:
        """The question ran out of time: the first player who has not answered says no (no answer = no)."""
        state = self._state
        hand = state.hand
        assert hand is not None and hand.run_twice_pending
        user = state.hand_users[hand.run_twice_pending[0]]
        await self.answer(user, False, hand_number=None, by=ActionBy.TIMEOUT)
