"""One table's orchestration: the lock, the turn timer and the next-hand scheduler (docs/architecture.md, "Table
orchestration", which names every module of a table and the points where a feature plugs in).

Everything that changes a table — a command, a button press, a timer expiry, the next deal — runs under the
runner's lock as one operation (`_operation`, bot/tables/operation.py): a change is computed in memory by the
runner's collaborators (`Seating`, `Hands`, `Host`, `Restorer`, sharing the table's `TableCore`), stored by one
commit with what it owes Discord, then told through the table's ordered delivery (`Delivery`), so that slow Discord
calls never hold the lock. A change that fails is rolled back in memory and told to nobody; after a storage fault
the table is read again from storage and resumes by itself. The timers (turn, computer player, next deal) are the
runner's clockwork (bot/tables/clockwork.py); this module holds the runner's parts and its public operations.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import Any

from bot.poker import ActionKind, Card, LevelBy, PlayerActed
from bot.storage import OutboxRow, Storage, TableRow
from bot.tables.clock import Clock
from bot.tables.clockwork import Clockwork
from bot.tables.coaching import CoachDMs
from bot.tables.computers import Computers
from bot.tables.core import DeckFactory, RngFactory, TableCore
from bot.tables.delivery import Delivery, IdleWait
from bot.tables.errors import STORAGE_FAULTS, ServiceError
from bot.tables.hands import Hands, Stored
from bot.tables.host import Host
from bot.tables.kinds import ActionBy
from bot.tables.notifier import CardsShown, Carrier, Notifier, TableClosedAnnouncement, TableSnapshot
from bot.tables.operation import WRITE_TIMEOUT_S
from bot.tables.options import TableOptions
from bot.tables.outbox import InteractionReply
from bot.tables.preactions import PreAction, PreChoice
from bot.tables.reader import TableReader
from bot.tables.restore import Restorer
from bot.tables.run_twice import RunTwice
from bot.tables.seating import Seating
from bot.tables.shows import Shows
from bot.tables.state import TableIds, TableState
from bot.tables.timebank_turn import TimeBankTurn

log = logging.getLogger(__name__)

#: Extra seconds given to the player to act when a turn is restored after a restart.
RESTORE_GRACE = 15.0


class TableRunner(TableReader, Clockwork):
    """The live table of one channel and every operation on it.

    Users are Discord user ids (ints); chips are ints. Public methods take the lock, check, persist,
    apply, then queue the announcements; a refused call raises `PokerError` (a `ServiceError` or an engine
    error) and changes nothing.
    """

    def __init__(
        self,
        *,
        storage: Storage,
        notifier: Notifier,
        clock: Clock,
        rng_factory: RngFactory,
        table_id: int,
        guild_id: int,
        channel_id: int,
        host_id: int,
        options: TableOptions,
        language: str = "en",
        on_closed: Callable[[TableRunner], None] | None = None,
        write_timeout_s: float = WRITE_TIMEOUT_S,
        deck_factory: DeckFactory = lambda: None,
        next_hand_delay_s: float | None = None,
        computer_delay_s: float | None = None,
        idle_wait: IdleWait | None = None,
    ) -> None:
        """`rng_factory` / `deck_factory`: the next hand's randomness and deck order (None: `secrets.SystemRandom`,
        a shuffled deck); `next_hand_delay_s`: seconds between a hand's end and the next deal, for every table
        (None: the table's `options.next_hand_delay`); `computer_delay_s`: a computer player's mean pause, for every
        table (None: the table's `options.computer_delay`); `idle_wait`: how the delivery worker waits for work
        (`delivery.IdleWait`); `write_timeout_s`: how long a storage write may take, on `clock` (`WRITE_TIMEOUT_S`)."""
        self._lock = asyncio.Lock()
        self._state = state = TableState(TableIds(table_id, guild_id, channel_id, host_id), options, language)
        self._outbox = Delivery(
            notifier=notifier,
            storage=storage,
            state=state,
            lock=self._lock,
            picture=self.snapshot,
            clock=clock,
            **({} if idle_wait is None else {"idle": idle_wait}),
        )
        self._core = TableCore(
            state=state,
            storage=storage,
            clock=clock,
            delivery=self._outbox,
            rng_factory=rng_factory,
            deck_factory=deck_factory,
            write_timeout_s=write_timeout_s,
        )
        self._next_hand_delay_s = next_hand_delay_s
        self._computer_delay_s = computer_delay_s
        seating, host, time_bank = Seating(self._core, self), Host(self._core, self), TimeBankTurn(self._core, self)
        hands = Hands(self._core, self, seating, host, time_bank)
        super().__init__(self._core, hands, seating, time_bank)
        self._host = host
        self._run_twice = RunTwice(self._core, hands)
        self._restorer = Restorer(self._core, self, hands, host)
        self._computers = Computers(self._core, self._seating, self._hands)
        self._shows = Shows(self._core)
        self._coach_dms = CoachDMs(state, self._outbox, self._lock, self.snapshot)
        self._on_closed = on_closed
        self._turn = 0
        self._timer: asyncio.Task[None] | None = None
        self._sleeps_until = self._turn_deadline = None  # the turn timer's (bot/tables/turn_timer.py)
        self._next_hand: asyncio.Task[None] | None = None
        self._resume: asyncio.Task[None] | None = None
        self._halted = False  # the database found damaged: changes refused until a re-read succeeds
        self._stopping = False

    # ------------------------------------------------------------------ setup

    def start(self) -> None:
        """Start the delivery worker (call once the runner is registered, inside the event loop)."""
        self._outbox.start()

    async def shutdown(self) -> None:
        """Stop the timers and deliver what is queued; the table stays open in storage (restored at start)."""
        self._stopping = True
        for task in (self._timer, self._next_hand, self._resume):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        self._timer = self._next_hand = self._resume = None
        await self._outbox.stop()

    async def drain(self) -> None:
        """Wait until every announcement queued so far is delivered, and marked so in storage (tests, shutdown)."""
        await self._outbox.drain()

    # ------------------------------------------------------------------ the table and its message

    async def opened(self) -> TableSnapshot:
        """A new table: store its state and post its first table message."""
        async with self._operation():
            await self._core.save()
            self._outbox.post_table(replaces_hand=False)
            return self.snapshot()

    async def set_language(self, language: str) -> None:
        """Speak `language` ("en"/"fr") in this table's public messages from now on (stored for restarts)."""
        async with self._operation():
            self._state.language = language
            await self._core.save()
            self._outbox.refresh()

    async def repost(self) -> None:
        """/poker table: post the table message again (the new one is edited from now on)."""
        async with self._lock:
            self._outbox.post_table(replaces_hand=self._state.hand is not None)

    # ------------------------------------------------------------------ seating (bot/tables/seating.py)

    async def join(self, user_id: int, name: str, seat: int | None = None, buy_in: int | None = None) -> int:
        """Sit a member down; returns the seat. Cash tables buy in from the balance (between the table's
        min and max, default `options.buy_in`); tournaments give `options.starting_stack` and refuse
        entries after the first hand. Raises ServiceError: already_seated, seat_taken, seat_out_of_range,
        table_full, buy_in_range, insufficient_balance, tournament_started. A join that cannot be stored
        changes nothing and is not announced."""
        async with self._operation():
            return await self._seating.join(user_id, name, seat, buy_in)

    async def rebuy(self, user_id: int, amount: int, reply: InteractionReply | None = None) -> int:
        """Add chips from the balance to the member's stack, up to the maximum buy-in (rule book 002: rebuys
        between hands). Between hands (or when not dealt in) the chips move at once: returns the new stack. In a
        hand it is kept with the table for the hand's end (restarts keep it; `Seating.make_rebuys`, within the
        maximum and the balance then; a second request replaces the first): returns 0. `reply`: a deferred
        interaction answered through the outbox ("rebuy.done" or "rebuy.pending"), stored with the rebuy.
        Raises ServiceError: rebuy_cash_only, not_seated, rebuy_leaving (the member leaves or is kicked when the
        hand ends), rebuy_at_max, rebuy_above_max, insufficient_balance."""
        async with self._operation():
            return await self._seating.rebuy(user_id, amount, reply)

    async def leave(self, user_id: int) -> bool:
        """Stand up. Between hands (or when not dealt in) the seat is freed at once, a cash stack back to the
        balance: True. In a hand, the member forfeits it at once (folded whoever is to act, even when checking is
        free: `Hand.forfeit`; announced once) and leaves when it ends with what is left of their stack: False.
        Raises ServiceError: not_seated; leave_pending, tournament_end_pending (docs/storage.md, "Outages")."""
        async with self._operation():
            player = await self._seating.leave(user_id)  # the mark and its notice: stored, held
            if player is not None:
                try:  # the fold stored, the notice is told
                    await self._hands.forfeit(player)
                except STORAGE_FAULTS as exc:
                    raise ServiceError("leave_pending") from exc  # the table reads storage again (`_operation`)
                return False
            await self._host.end_tournament_after_stand_up()
            self._outbox.refresh()
            return True

    async def kick(self, by_user: int, target: int, *, is_admin: bool) -> bool:
        """Host or admin removes a player. Between hands (or when not dealt in) the seat is freed at once:
        returns True. A player in the hand being played keeps playing it — a kick never folds a live hand —
        and leaves when it ends: returns False. Raises ServiceError: not_host, target_not_seated."""
        async with self._operation():
            if not await self._seating.kick(by_user, target, is_admin=is_admin):
                self._outbox.refresh()
                return False
            await self._host.end_tournament_after_stand_up()
            self._outbox.refresh()
            return True

    async def sit_out(self, user_id: int) -> None:
        """Stop being dealt in (cash) or auto-fold/check at once (tournament) from the next decision; the seat
        and chips stay. Raises ServiceError: not_seated, already_sitting_out."""
        async with self._operation():
            await self._seating.sit_out(user_id)

    async def sit_in(self, user_id: int, post: bool | None = None) -> None:
        """Be dealt in again from the next hand. With missed blinds (issue 16) a player who owes them is dealt in
        only once they chose: `post` True (post them and play the next hand) or False (wait for the big blind);
        None leaves the choice to `choose_return` (`blinds_owed` says what they owe). Raises ServiceError:
        not_seated, not_sitting_out."""
        async with self._operation():
            await self._seating.sit_in(user_id, post)

    async def choose_return(self, user_id: int, post: bool) -> None:
        """Missed blinds: a player who owes them posts (True: a live big blind and the dead small blind they
        missed, then plays the next hand) or waits for the big blind (False). Raises ServiceError: not_seated,
        no_blinds_owed."""
        async with self._operation():
            await self._seating.choose_return(user_id, post)

    async def use_time_bank(self, user_id: int, *, hand_number: int | None = None) -> float:
        """The Time button: the player to act starts their time bank now; returns the new deadline (clock
        seconds). Raises ServiceError: the turn's refusals (`check_turn`), time_bank_unavailable (empty, none
        at this table, or already running)."""
        async with self._operation():
            self._hands.check_turn(user_id, hand_number)
            return await self._time_bank.use(user_id)

    async def set_pre_action(
        self, user_id: int, action: PreAction | None, *, hand_number: int | None = None
    ) -> PreChoice | None:
        """Act in advance (issue 16): `action` is played when the user's turn comes (Call N for the amount they
        would call now), None clears it. Private: nothing is told to the table. Returns the choice kept.
        Raises ServiceError: no_hand, stale_button, not_in_hand, pre_action_not_now (it is their turn, or they
        can no longer act in this hand)."""
        async with self._operation():
            return self._hands.set_pre_action(user_id, action, hand_number)

    # ------------------------------------------------------------------ the host (bot/tables/host.py)

    async def add_computer(self, user_id: int, level: str, *, is_admin: bool = False) -> int:
        """Seat a computer player of `level` ('beginner' or 'solid') before or between hands (the host or a member
        with Manage Server); returns its seat. See `Computers.add`."""
        async with self._operation():
            return await self._computers.add(user_id, level, is_admin=is_admin)

    async def set_coach(self, user_id: int, on: bool, *, dm: bool = False) -> None:
        """Turn the coach on or off for a seated member (`/poker coach`); `dm`: on, and by DM on their turn too
        (sent at once when it is their turn now). Raises ServiceError("not_seated")."""
        async with self._operation():
            await self._computers.set_coach(user_id, on, dm=dm)
            self._coach_dms.turn_started()

    async def remove_computer(self, user_id: int, seat: int, *, is_admin: bool = False) -> None:
        """Take away the computer player at `seat` between hands. See `Computers.remove`."""
        async with self._operation():
            await self._computers.remove(user_id, seat, is_admin=is_admin)

    async def start_game(self, user_id: int, *, is_admin: bool = False) -> None:
        """Deal the first hand; from then on hands follow by themselves. At a tournament the host or a member
        with Manage Server (`is_admin`) may start; at a cash table also any seated player. Raises
        ServiceError: already_running, not_enough_players, not_host, not_seated."""
        async with self._operation():
            await self._hands.start_game(user_id, is_admin=is_admin)

    async def set_blind_schedule(
        self,
        user_id: int,
        levels: tuple[tuple[int, int, int], ...],
        by: LevelBy = LevelBy.HANDS,
        length: int = 10,
        *,
        is_admin: bool = False,
    ) -> TableOptions:
        """The host agrees a blind schedule before the first hand (rule book 000 §04: raising the blinds is an
        option agreed before playing): `levels` of (small blind, big blind, ante), each lasting `length`
        hands or minutes (`by`). An empty `levels` removes the schedule. Returns the new options.
        Raises ServiceError: not_host, schedule_after_start, bad_option."""
        async with self._operation():
            return await self._host.set_blind_schedule(user_id, levels, by, length, is_admin=is_admin)

    async def set_options(self, **changes: Any) -> TableOptions:
        """Change options that take effect at once and change nothing of the game (`pictures`, `four_colour`),
        stored with the table. Raises ServiceError("bad_option"), ValueError for another option."""
        async with self._operation():
            return await self._host.set_options(**changes)

    async def end(
        self, user_id: int, *, is_admin: bool, reply: InteractionReply | None = None
    ) -> TableClosedAnnouncement:
        """Close the table (host or Manage Server). A hand in progress is refunded (every player gets back
        their stack as it was at the start of the hand); cash stacks go back to balances; a tournament is
        ranked by stack (rule book 000 §07, the agreed time). `reply`: the host's deferred interaction, answered
        ("end.done") through the outbox with the close. Raises ServiceError("not_host")."""
        async with self._operation():
            return await self._host.end(user_id, is_admin=is_admin, reply=reply)

    # ------------------------------------------------------------------ hands (bot/tables/hands.py)

    async def act(
        self,
        user_id: int,
        kind: ActionKind,
        amount: int | None = None,
        *,
        hand_number: int | None = None,
        expected: int | None = None,
        carrier: Carrier | None = None,
        stored: Stored | None = None,
    ) -> PlayerActed:
        """A player's decision (fold, check, call, bet N, raise to N, all-in). Returns the engine's
        `PlayerActed` event. `expected`: the amount the pressed button named (Call N: chips to add; All-in N
        and Bet/Raise to N: the street total) — refused when it is no longer the amount (`check_expected`).
        `carrier`: the press of a table message's button that made it, not yet answered: once the action is
        stored, it is answered by the table edit that shows it (`Delivery.carry`); a refused action leaves it
        to the caller to answer. Raises ServiceError (see `check_turn`), or the engine's PokerError saying what
        is allowed ("Minimum raise is to 22"). Nothing changes then. `stored(acted)`: called under the lock once
        the action is stored if the hand's end is still to store (its author answered before those writes); the
        action stands from then on (docs/architecture.md, "Answering a slash command")."""
        async with self._operation():
            acted = await self._hands.act(
                user_id, kind, amount, hand_number=hand_number, expected=expected, stored=stored
            )
            if carrier is not None:
                self._outbox.carry(carrier)
            return acted

    async def answer_run_twice(self, user_id: int, yes: bool, *, hand_number: int | None = None) -> None:
        """A player still in the hand answers whether to run the rest of the board twice (issue 15; rule book
        002: by agreement of everyone involved). The first no settles it (one run, dealt at once); when the last
        player agrees, the board is run twice and each pot paid in halves. Stored first (write-ahead), like an
        action. `hand_number`: from a button, refused when it is not the current hand. Raises
        ServiceError("no_run_twice_question") when the user has no question to answer (a stranger, an answer
        already given, no question open), "table_closed"; nothing changes then."""
        async with self._operation():
            await self._run_twice.answer(user_id, yes, hand_number=hand_number, by=ActionBy.PLAYER)

    # ------------------------------------------------------------------ showing by choice (bot/tables/shows.py)

    async def cards_to_show(self, user_id: int, hand_number: int) -> tuple[tuple[int, Card], ...]:
        """The hole cards of finished hand `hand_number` that `user_id` may still show, with their index among
        the player's two (0: dealt first), for `show_cards` (private to them; changes nothing). Raises
        ServiceError: "show_not_dealt" (not dealt in), "show_not_over" (the hand is being played),
        "show_too_late" (the next hand is dealt), "show_at_showdown", "show_already", "table_closed"."""
        async with self._operation():
            return await self._shows.hidden_cards(user_id, hand_number)

    async def show_cards(self, user_id: int, hand_number: int, which: Sequence[int]) -> CardsShown:
        """The player shows cards of finished hand `hand_number` by choice (issue 15: folded, won without a
        showdown or mucked), until the next hand is dealt: `which`, their hole cards by index (0, 1 or both).
        Stored first (write-ahead, with its public line "Alice shows A♠ K♦", docs/outbox.md), then announced.
        Raises as `cards_to_show`; nothing changes then."""
        async with self._operation():
            return await self._shows.show(user_id, hand_number, which)

    # ------------------------------------------------------------------ restore (bot/tables/restore.py)

    async def restore(self, row: TableRow, *, grace: float = RESTORE_GRACE) -> None:
        """Rebuild the table from storage: seats and stacks, names and flags, and the unfinished hand by
        replaying its record; the turn deadline is restored (at least `grace` seconds from now) and the table
        message refreshed. Then call `deliver_pending` for what was owed and not delivered."""
        async with self._lock:
            with self._state.changing():
                await self._restorer.restore(row, grace=grace)

    async def deliver_pending(self, rows: list[OutboxRow] | None = None) -> int:
        """Queue the delivery of what storage says this table owes and was not delivered (after a restart, or a
        storage fault whose outcome was unknown): `rows`, or read from storage. Rows already queued in this
        process are skipped; each post carries its row's key as nonce. Returns how many were queued."""
        async with self._lock:
            return await self._restorer.deliver_pending(rows)

    def load_closed(self, row: TableRow) -> None:
        """A closed table, only to deliver what it still owes (its names and language from storage)."""
        with self._state.changing():
            self._restorer.load_closed(row)
