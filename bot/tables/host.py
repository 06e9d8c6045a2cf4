"""What the host decides for a table beyond its seats: the blind schedule before the first hand, and the end of
the table — ended by the host, or a tournament won (docs/architecture.md, "Table orchestration").

`Host` works on the runner's `TableCore`, inside one of the runner's operations (under its lock).
"""

from __future__ import annotations

from typing import Any

from bot.poker import LevelBy, Table, TableKind
from bot.tables.core import Scheduler, TableCore
from bot.tables.errors import STORAGE_FAULTS, ServiceError
from bot.tables.kinds import OutboxKind
from bot.tables.notifier import Placing, TableClosedAnnouncement
from bot.tables.options import TableOptions
from bot.tables.outbox import InteractionReply, Owed, new_key
from bot.tables.places import final_places
from bot.tables.state import table_config


class Host:
    """The table's settings and its end (see the module docstring)."""

    def __init__(self, core: TableCore, scheduler: Scheduler) -> None:
        self._core = core
        self._state = core.state
        self._scheduler = scheduler

    async def set_blind_schedule(
        self, user_id: int, levels: tuple[tuple[int, int, int], ...], by: LevelBy, length: int, *, is_admin: bool
    ) -> TableOptions:
        """See `TableRunner.set_blind_schedule`."""
        state, core = self._state, self._core
        state.check_open()
        state.check_host(user_id, is_admin)
        if state.hand_number > 0:
            raise ServiceError("schedule_after_start")
        options = state.options.with_changes(blind_levels=tuple(levels), level_by=by, level_length=length)
        seated = state.table.seats
        state.options = options
        state.table = Table(table_config(options))
        for seat, occupant in seated.items():
            state.table.sit(seat, occupant.player_id, occupant.stack)
            if occupant.sitting_out:
                state.table.set_sitting_out(seat, True)
        table_id = state.ids.table_id
        await core.commit(
            lambda data, rows: core.storage.update_table_settings(table_id, options.to_json(), state=data, outbox=rows)
        )
        core.delivery.refresh()
        return options

    async def set_options(self, **changes: Any) -> TableOptions:
        """See `TableRunner.set_options`."""
        if set(changes) - {"pictures", "four_colour"}:
            raise ValueError(f"not an option that can change during play: {sorted(changes)}")
        state, core = self._state, self._core
        state.check_open()
        options = state.options.with_changes(**changes)
        state.options = options
        table_id = state.ids.table_id
        await core.commit(
            lambda data, rows: core.storage.update_table_settings(table_id, options.to_json(), state=data, outbox=rows)
        )
        return options

    async def end(self, user_id: int, *, is_admin: bool, reply: InteractionReply | None) -> TableClosedAnnouncement:
        """See `TableRunner.end`."""
        self._state.check_open()
        self._state.check_host(user_id, is_admin)
        return await self.close(reply=reply)

    async def end_tournament_if_won(self) -> bool:
        """A started tournament with one player left is over (rule book 000 §03): close it. True if closed."""
        state = self._state
        tournament = state.options.kind is TableKind.TOURNAMENT
        if state.closed or not tournament or state.hand_number == 0 or len(state.table.seats) > 1:
            return False
        await self.close(last_player_standing=True)
        return True

    async def end_tournament_after_stand_up(self) -> None:
        """`end_tournament_if_won` after a stand-up that is stored already (a leave or a kick between hands): when
        the close cannot be stored, the seat stays free and the table closes the tournament itself once storage
        answers (`Restorer.restore`); raises ServiceError("tournament_end_pending") then, not the storage error,
        whose refusal would say that nothing changed (docs/storage.md, "Outages")."""
        try:
            await self.end_tournament_if_won()
        except STORAGE_FAULTS as exc:
            raise ServiceError("tournament_end_pending") from exc

    async def close(
        self, *, last_player_standing: bool = False, reply: InteractionReply | None = None
    ) -> TableClosedAnnouncement:
        """Close the table. A tournament is over when one player holds every chip (`last_player_standing`);
        otherwise the host stopped it (the agreed time) and players are ranked by stack (rule book 000 §07).
        A hand in progress is voided: every player's stack is as at its start. The close, the places, the
        "table closed" notice, the edit that takes the buttons off the table message and the answer to `reply`
        are stored in one transaction."""
        state, core = self._state, self._core
        kind = state.options.kind
        voided = state.hand_number if state.hand is not None else None
        if state.hand is not None:
            stacks = dict(zip(state.hand_seats, state.hand.starting_stacks, strict=True))
        else:
            stacks = {}
        stacks_by_user = {
            occupant.player_id: stacks.get(seat, occupant.stack) for seat, occupant in state.table.seats.items()
        }
        placings: tuple[Placing, ...] = ()
        places: dict[int, int] = {}
        # A learning table ranks nobody.
        if kind is TableKind.TOURNAMENT and state.hand_number > 0 and not state.options.learning:
            recorded = await core.storage.places(state.ids.table_id)
            placings, places = final_places(stacks_by_user, recorded, state.name)
        # What close_table gives back to balances: each cash seat's stack (as at the start of a voided hand).
        returned = stacks_by_user if kind is TableKind.CASH else {}
        announcement = TableClosedAnnouncement(
            cashed_out=tuple((u, state.name(u), chips) for u, chips in sorted(returned.items())),
            placings=placings,
            voided_hand=voided,
            tournament_over=kind is TableKind.TOURNAMENT and last_player_standing,
        )
        state.closed = True
        state.hand = None
        state.hand_id = None
        core.announce(announcement)
        snap = core.snapshot()
        if state.message_id is not None:
            core.owe(Owed(new_key(), {"type": OutboxKind.CLOSED_TABLE, "message_id": state.message_id}, snap))
        if reply is not None:
            core.owe(Owed(new_key(), core.reply_payload(reply, "end.done", {}), snap))
        table_id = state.ids.table_id
        await core.commit(lambda _data, rows: core.storage.close_table(table_id, places=places, outbox=rows))
        self._scheduler.table_closed()
        return announcement
