"""Computer players at a table (issue 17; docs/practice.md): seating one, taking it away, and its decisions; and
the coach's switch and facts for the members who want it.

A computer player sits like a member, with a negative user id that says its level and seat
(`computer_id`): its decisions go through the same path as a member's (`Hands.apply`: write-ahead, the engine's
refusal rules), after a human-like pause (`TableOptions.computer_delay`, 0 in tests). It keeps no memory: after a
restart its pending turn is simply asked again (the turn is re-armed by the restore). Chips: at a cash table it
buys in from the server's house (bot.storage), at a tournament it gets the starting stack.
"""

from __future__ import annotations

import random

from bot.poker.coach import CoachFacts, coach_facts
from bot.poker.players import Level, make_player, view_of
from bot.storage import is_computer_player
from bot.tables.computer_names import computer_display_name, computer_id, computer_level, computer_name
from bot.tables.core import TableCore
from bot.tables.errors import ServiceError
from bot.tables.hands import Hands
from bot.tables.kinds import ActionBy, Departure
from bot.tables.seating import Seating
from bot.tables.state import TableState

__all__ = [
    "PLAYABLE_LEVELS",
    "Computers",
    "coach_facts_of",
    "computer_display_name",
    "computer_id",
    "computer_level",
    "computer_name",
    "pause",
]

#: The levels a host may seat (the baselines are for benchmarks/bots.py only).
PLAYABLE_LEVELS = (Level.BEGINNER, Level.SOLID)


def pause(mean: float, rng: random.Random) -> float:
    """A human-like pause before a computer player acts: uniform between half and one and a half times `mean`
    seconds (1 to 3 s at the default 2 s), 0 when `mean` is 0."""
    return 0.0 if mean <= 0 else rng.uniform(mean / 2, mean * 1.5)


def coach_facts_of(state: TableState, user_id: int) -> CoachFacts | None:
    """The coach's facts for `user_id` when they turned the coach on and it is their turn, else None
    (bot.poker.coach; Monte Carlo against the players still in, about 10 ms)."""
    hand = state.hand
    player = state.player_of(user_id)
    if user_id not in state.coached or hand is None or player is None or hand.actor != player:
        return None
    legal = hand.legal_actions()
    opponents = sum(1 for i, folded in enumerate(hand.folded) if not folded and i != player)
    return coach_facts(
        hand.hole_cards[player],
        hand.board,
        to_call=legal.call_amount,
        pot=hand.total_pot,
        opponents=max(1, opponents),
        big_blind=hand.settings.big_blind,
    )


class Computers:
    """Seat, remove and play computer players (under the runner's lock, inside one of its operations)."""

    def __init__(self, core: TableCore, seating: Seating, hands: Hands) -> None:
        self._core = core
        self._state = core.state
        self._seating = seating
        self._hands = hands

    async def set_coach(self, user_id: int, on: bool, *, dm: bool = False) -> None:
        """Turn the coach on or off for a seated member (kept with the table); `dm`: on, and by DM on their turn
        as well (bot/tables/coaching.py). Raises ServiceError("not_seated")."""
        state = self._state
        state.check_open()
        state.require_seat(user_id)
        if on or dm:
            state.coached.add(user_id)
        else:
            state.coached.discard(user_id)
        if dm:
            state.coach_dm.add(user_id)
        else:
            state.coach_dm.discard(user_id)
        await self._core.save()

    async def add(self, by_user: int, level: str, *, is_admin: bool) -> int:
        """Seat a computer player of `level` in the first free seat, before or between hands (the host or a member
        with Manage Server). Returns its seat. Raises ServiceError ("not_host", "computer_level",
        "computer_mid_hand", "table_full", "tournament_started")."""
        state = self._state
        state.check_open()
        state.check_host(by_user, is_admin)
        if level not in [lv.value for lv in PLAYABLE_LEVELS]:
            raise ServiceError("computer_level", levels=", ".join(lv.value for lv in PLAYABLE_LEVELS))
        if state.hand is not None:
            raise ServiceError("computer_mid_hand")
        free = state.free_seats()
        if not free:
            raise ServiceError("table_full", seats=state.options.seats)
        seat = free[0]
        chosen = Level(level)
        return await self._seating.join(
            computer_id(chosen, seat), computer_name(chosen, seat, state.language), seat, None
        )

    async def remove(self, by_user: int, seat: int, *, is_admin: bool) -> None:
        """Take away the computer player at `seat` between hands; its stack goes back to the house (cash).
        Raises ServiceError ("not_host", "computer_mid_hand", "not_a_computer")."""
        state = self._state
        state.check_open()
        state.check_host(by_user, is_admin)
        occupant = state.table.seats.get(seat)
        if occupant is None or computer_level(occupant.player_id) is None:
            raise ServiceError("not_a_computer", seat=seat)
        if state.hand is not None:
            raise ServiceError("computer_mid_hand")
        await self._seating.stand(occupant.player_id, Departure.LEFT)

    def to_act(self) -> bool:
        """The player to act now is a computer player."""
        hand = self._state.hand
        return hand is not None and hand.actor is not None and is_computer_player(self._state.hand_users[hand.actor])

    async def act(self) -> None:
        """The computer player to act decides from its seat's view and acts through `Hands.apply`. Its generator
        is seeded by the table, the hand and the point of the hand, so that a decision asked again after a
        restart is the same."""
        state = self._state
        hand = state.hand
        assert hand is not None and hand.actor is not None
        player = hand.actor
        level = computer_level(state.hand_users[player])
        assert level is not None
        rng = random.Random(f"{state.ids.table_id}:{state.hand_number}:{hand.event_count}")
        shown = dict(enumerate(hand.hole_cards)) if state.options.learning else None  # face up: public
        decision = make_player(level).decide(view_of(hand, player, shown=shown), rng)
        await self._hands.apply(player, decision.kind, decision.amount, by=ActionBy.COMPUTER)
