"""Membership of a table: join, rebuy, leave, kick, sit out, sit in, and freeing a seat (docs/architecture.md,
"Table orchestration": leaving and kicks, rebuys).

`Seating` works on the runner's `TableCore`, inside one of the runner's operations (under its lock): it checks,
changes the state, owes its notices and commits; the runner wraps each call in `_operation`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from bot.poker import TableKind
from bot.render.announce import NoticeKind
from bot.storage import InsufficientBalance, LedgerKind
from bot.tables.core import Scheduler, TableCore
from bot.tables.errors import ServiceError
from bot.tables.kinds import Departure
from bot.tables.notifier import PlayerAnnouncement
from bot.tables.outbox import InteractionReply, Owed, new_key
from bot.tables.places import place_on_leaving


class Seating:
    """Who sits at the table, and with how many chips (see the module docstring)."""

    def __init__(self, core: TableCore, scheduler: Scheduler) -> None:
        self._core = core
        self._state = core.state
        self._scheduler = scheduler

    async def join(self, user_id: int, name: str, seat: int | None, buy_in: int | None) -> int:
        """See `TableRunner.join`."""
        state, core = self._state, self._core
        options, ids = state.options, state.ids
        state.check_open()
        current = state.seat_of(user_id)
        if current is not None:
            raise ServiceError("already_seated", seat=current)
        free = state.free_seats()
        if not free:
            raise ServiceError("table_full", seats=options.seats)
        if seat is None:
            seat = free[0]
        elif not 1 <= seat <= options.seats:
            raise ServiceError("seat_out_of_range", seats=options.seats)
        elif seat not in free:
            raise ServiceError("seat_taken", seat=seat, free=", ".join(map(str, free)))
        if options.kind is TableKind.TOURNAMENT:
            if state.hand_number > 0:
                raise ServiceError("tournament_started")
            if buy_in is not None and buy_in != options.starting_stack:
                raise ServiceError("tournament_stack", stack=options.starting_stack)
            stack = options.starting_stack
        else:
            stack = options.buy_in if buy_in is None else buy_in
            if not options.min_buy_in <= stack <= options.max_buy_in:
                raise ServiceError("buy_in_range", min=options.min_buy_in, max=options.max_buy_in)
        chosen = seat
        state.table.sit(chosen, user_id, stack)
        state.names[user_id] = name
        state.expiries.pop(user_id, None)
        if options.learning:
            state.coached.add(user_id)  # the coach is on for everyone at a learning table (/poker coach off)
        core.announce(PlayerAnnouncement(NoticeKind.JOINED, user_id, name, seat=chosen, chips=stack))
        if options.kind is TableKind.TOURNAMENT:
            await core.commit(
                lambda data, rows: core.storage.join_tournament(
                    ids.table_id, user_id, chosen, stack, state=data, outbox=rows
                )
            )
        else:
            # Not enough chips: InsufficientBalance, a refusal the runner's operation raises as its ServiceError.
            await core.commit(
                lambda data, rows: core.storage.buy_in(
                    ids.table_id, ids.guild_id, user_id, chosen, stack, state=data, outbox=rows
                )
            )
        core.delivery.refresh()
        self._scheduler.schedule_next_hand()
        return chosen

    async def rebuy(self, user_id: int, amount: int, reply: InteractionReply | None) -> int:
        """See `TableRunner.rebuy`."""
        state, core = self._state, self._core
        options, ids = state.options, state.ids
        state.check_open()
        if options.kind is not TableKind.CASH:
            raise ServiceError("rebuy_cash_only")
        seat = state.require_seat(user_id)
        if user_id in state.leaving or user_id in state.kicked:
            raise ServiceError("rebuy_leaving")
        player = state.player_of(user_id)
        if state.hand is not None and player is not None:
            room = options.max_buy_in - state.hand.stacks[player]
            if room <= 0:
                raise ServiceError("rebuy_at_max", limit=options.max_buy_in)
            if amount < 1 or amount > room:
                raise ServiceError("rebuy_above_max", max=room, limit=options.max_buy_in)
            balance = await core.storage.balance(ids.guild_id, user_id)
            if balance < amount:
                raise ServiceError("insufficient_balance", balance=balance, needed=amount)
            previous = state.rebuys.get(user_id)
            state.rebuys[user_id] = amount  # one rebuy per hand: a second request replaces the first, and says so
            if reply is not None:
                if previous is not None and previous != amount:
                    payload = core.reply_payload(
                        reply, "rebuy.pending_replaces", {"amount": amount, "previous": previous}
                    )
                else:
                    payload = core.reply_payload(reply, "rebuy.pending", {"amount": amount})
                core.owe(Owed(new_key(), payload, core.snapshot()))
            await core.save()
            return 0
        stack = state.table.seats[seat].stack
        room = options.max_buy_in - stack
        if room <= 0:
            raise ServiceError("rebuy_at_max", limit=options.max_buy_in)
        if amount < 1 or amount > room:
            raise ServiceError("rebuy_above_max", max=max(room, 0), limit=options.max_buy_in)
        state.table.add_chips(seat, amount)
        snap = core.snapshot()
        owed: list[Owed] = []

        def rows_with_reply(base: list[dict[str, Any]]) -> Callable[[int], list[dict[str, Any]]]:
            def rows(balance: int) -> list[dict[str, Any]]:
                if reply is None:
                    return base
                params = {"amount": amount, "stack": stack + amount, "balance": balance}
                item = Owed(new_key(), core.reply_payload(reply, "rebuy.done", params), snap)
                owed.append(item)
                return [*base, item.row()]

            return rows

        await core.commit(  # InsufficientBalance: raised as its ServiceError by the runner's operation
            lambda data, rows: core.storage.buy_in(
                ids.table_id,
                ids.guild_id,
                user_id,
                seat,
                amount,
                kind=LedgerKind.REBUY,
                state=data,
                outbox=rows_with_reply(rows),
            )
        )
        for item in owed:
            core.delivery.queue(item, durable=True)
        core.delivery.refresh()
        self._scheduler.schedule_next_hand()
        return stack + amount

    async def make_rebuys(self) -> None:
        """The rebuys asked during the hand that just ended (`rebuy`): each adds chips from the balance to a
        player still seated and not leaving, topping up to the maximum buy-in at most (one ledger row, the
        same as a rebuy between hands); announced, or announced as not made when the balance no longer has
        the chips. Then forgotten."""
        state, core = self._state, self._core
        for user, amount in sorted(state.rebuys.items()):
            seat = state.seat_of(user)
            if seat is None or user in state.leaving or user in state.kicked:
                continue
            chips = min(amount, state.options.max_buy_in - state.table.seats[seat].stack)
            if chips <= 0:
                continue
            state.table.add_chips(seat, chips)
            stack = state.table.seats[seat].stack
            name = state.name(user)
            core.announce(PlayerAnnouncement(NoticeKind.REBUY, user, name, seat=seat, chips=chips, stack=stack))
            try:
                await core.commit(self._rebuy_write(user, seat, chips))
            except InsufficientBalance:  # memory is back as before this rebuy (`commit`)
                core.announce(PlayerAnnouncement(NoticeKind.REBUY_FAILED, user, state.name(user), chips=chips))
        state.rebuys.clear()

    def _rebuy_write(
        self, user: int, seat: int, chips: int
    ) -> Callable[[dict[str, Any], list[dict[str, Any]]], Awaitable[int]]:
        ids, storage = self._state.ids, self._core.storage

        def write(data: dict[str, Any], rows: list[dict[str, Any]]) -> Awaitable[int]:
            return storage.buy_in(
                ids.table_id, ids.guild_id, user, seat, chips, kind=LedgerKind.REBUY, state=data, outbox=rows
            )

        return write

    async def leave(self, user_id: int) -> int | None:
        """See `TableRunner.leave`. Between hands (or when not dealt in) the seat is freed at once: returns
        None. A player in the hand being played is marked leaving, with the one notice of their departure
        ("forfeited"), stored but held (told once the fold is stored too): returns their player index, whose hand
        the caller then forfeits. The mark is the intent: if the fold cannot be stored, the table completes it
        when it reads itself again (`Restorer.restore`)."""
        state, core = self._state, self._core
        state.check_open()
        state.require_seat(user_id)
        player = state.player_of(user_id)
        if player is not None and state.hand is not None:
            state.leaving.add(user_id)
            # The one notice of this departure (the seat is freed silently when the hand ends), stored with it.
            core.announce(PlayerAnnouncement(NoticeKind.FORFEITED, user_id, state.name(user_id), action="fold"))
            await core.save(hold=True)
            return player
        await self.stand(user_id, Departure.LEFT)
        return None

    async def kick(self, by_user: int, target: int, *, is_admin: bool) -> bool:
        """See `TableRunner.kick`: True when the seat was freed at once, False when the target leaves when the
        hand being played ends."""
        state, core = self._state, self._core
        state.check_open()
        state.check_host(by_user, is_admin)
        if state.seat_of(target) is None:
            raise ServiceError("target_not_seated", user=target)
        if state.player_of(target) is not None and state.hand is not None:
            state.kicked.add(target)
            core.announce(PlayerAnnouncement(NoticeKind.LEAVING, target, state.name(target)))
            await core.save()
            return False
        await self.stand(target, Departure.KICKED)
        return True

    async def stand(
        self, user_id: int, departure: Departure, *, announce: bool = True, place: int | None = None
    ) -> None:
        """Free the user's seat now (no hand of theirs in progress): cash out, forget their flags; announce it
        (`departure`: the notice's kind) unless `announce` is False (already announced); `place`: a tournament
        place to record with it (an elimination). One transaction."""
        state, core = self._state, self._core
        ids = state.ids
        seat = state.require_seat(user_id)
        stack = state.table.seats[seat].stack
        # A learning table ranks nobody.
        placed = state.options.kind is TableKind.TOURNAMENT and not state.options.learning
        finished = placed and state.hand_number > 0 and stack > 0
        if finished:
            place = place_on_leaving(state.table)
        state.table.stand(seat)
        state.leaving.discard(user_id)
        state.kicked.discard(user_id)
        state.rebuys.pop(user_id, None)
        state.away.discard(user_id)
        state.expiries.pop(user_id, None)
        # A cash stack goes back to the balance (the notice says how much); tournament chips never do.
        chips = None if state.options.kind is TableKind.TOURNAMENT else stack
        name = state.name(user_id)
        if announce:
            core.announce(PlayerAnnouncement(NoticeKind(departure.value), user_id, name, seat=seat, chips=chips))
        if finished:  # the place is public, also when the leave itself was announced earlier (a forfeit)
            core.announce(PlayerAnnouncement(NoticeKind.FINISHED, user_id, name, place=place))
        await core.commit(
            lambda data, rows: core.storage.cash_out(
                ids.table_id, ids.guild_id, user_id, seat, place=place, state=data, outbox=rows
            )
        )

    async def sit_out(self, user_id: int) -> None:
        """See `TableRunner.sit_out`."""
        state, core = self._state, self._core
        state.check_open()
        seat = state.require_seat(user_id)
        if user_id in state.away:
            raise ServiceError("already_sitting_out")
        self.set_away(user_id, seat, True)
        core.announce(PlayerAnnouncement(NoticeKind.SAT_OUT, user_id, state.name(user_id)))
        await core.save()
        core.delivery.refresh()

    async def sit_in(self, user_id: int, post: bool | None = None) -> None:
        """See `TableRunner.sit_in`."""
        state, core = self._state, self._core
        state.check_open()
        seat = state.require_seat(user_id)
        if user_id not in state.away:
            if post is not None and state.table.blinds_owed(seat) is not None:
                await self.choose_return(user_id, post)
                return
            raise ServiceError("not_sitting_out")
        self.set_away(user_id, seat, False)
        if post is not None and state.table.blinds_owed(seat) is not None:
            state.table.choose_return(seat, post)
        state.expiries.pop(user_id, None)
        core.announce(PlayerAnnouncement(NoticeKind.SAT_IN, user_id, state.name(user_id)))
        await core.save()
        core.delivery.refresh()
        self._scheduler.schedule_next_hand()

    def blinds_owed(self, user_id: int) -> tuple[int, int] | None:
        """See `TableRunner.blinds_owed`."""
        seat = self._state.seat_of(user_id)
        if seat is None:
            return None
        table = self._state.table
        dead = table.blinds_owed(seat)
        if dead is None or table.waiting_for_big_blind(seat) or seat in table.active_seats():
            return None
        return table.hand_settings().big_blind, dead

    async def choose_return(self, user_id: int, post: bool) -> None:
        """See `TableRunner.choose_return`."""
        state, core = self._state, self._core
        state.check_open()
        seat = state.require_seat(user_id)
        if state.table.blinds_owed(seat) is None:
            raise ServiceError("no_blinds_owed")
        if user_id in state.away:
            self.set_away(user_id, seat, False)
        state.table.choose_return(seat, post)
        await core.save()
        core.delivery.refresh()
        self._scheduler.schedule_next_hand()

    def set_away(self, user_id: int, seat: int, away: bool) -> None:
        """Mark the user sitting out (`away`) or back; at a cash table they are then not dealt in."""
        state = self._state
        if away:
            state.away.add(user_id)
        else:
            state.away.discard(user_id)
        if state.options.kind is TableKind.CASH:
            state.table.set_sitting_out(seat, away)
