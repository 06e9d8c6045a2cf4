"""The table service: the registry of table runners (one per channel) and the entry points the cogs call.

It speaks in plain ints (guild, channel and user ids; chips) and never imports discord (docs/architecture.md, "Layers").
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from typing import Any

from bot.poker import ActionKind, LegalActions, PlayerActed
from bot.storage import Storage, TableExists, TableRow
from bot.tables.clock import Clock, SystemClock
from bot.tables.errors import ServiceError
from bot.tables.notifier import Notifier, TableClosedAnnouncement, TableSnapshot
from bot.tables.options import TableOptions
from bot.tables.outbox import InteractionReply
from bot.tables.runner import WRITE_TIMEOUT_S, TableRunner

log = logging.getLogger(__name__)


class TableService:
    """Every open table of this process, by channel id (house style 5: one registry, one lock per table).

    `storage` persists everything; `notifier` is the Discord layer (or a recording fake in tests);
    `clock` gives time and sleeps (a ManualClock in tests); `rng_factory` returns the random generator
    used to shuffle each hand (None = `secrets.SystemRandom`, the default; tests stack the deck);
    `write_timeout_s`: how long a table waits for a storage write before undoing the change (see TableRunner).
    """

    def __init__(
        self,
        storage: Storage,
        notifier: Notifier,
        *,
        clock: Clock | None = None,
        rng_factory: Callable[[], random.Random | None] | None = None,
        write_timeout_s: float = WRITE_TIMEOUT_S,
    ) -> None:
        self.storage = storage
        self.notifier = notifier
        self.clock = clock or SystemClock()
        self.rng_factory = rng_factory or (lambda: None)
        self.write_timeout_s = write_timeout_s
        self.runners: dict[int, TableRunner] = {}
        self._create_lock = asyncio.Lock()

    # ------------------------------------------------------------------ lifecycle

    def _make_runner(self, **kwargs: Any) -> TableRunner:
        """A runner with this service's storage, notifier, clock, rng and write timeout; not registered nor
        started. `kwargs`: the table's own (ids, options, language, on_closed)."""
        return TableRunner(
            storage=self.storage,
            notifier=self.notifier,
            clock=self.clock,
            rng_factory=self.rng_factory,
            write_timeout_s=self.write_timeout_s,
            **kwargs,
        )

    def _new_runner(self, row: TableRow, **kwargs: Any) -> TableRunner:
        """A runner for stored table `row` (its ids, options and language), not registered nor started."""
        return self._make_runner(
            table_id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            host_id=row.host_id,
            options=TableOptions.from_json(dict(row.settings)),
            language=(row.state or {}).get("language", "en"),
            **kwargs,
        )

    def _runner(self, **kwargs: Any) -> TableRunner:
        """A new table's runner, registered and started."""
        return self._register(self._make_runner(on_closed=self._forget, **kwargs))

    def _register(self, runner: TableRunner) -> TableRunner:
        self.runners[runner.channel_id] = runner
        runner.start()
        return runner

    def _forget(self, runner: TableRunner) -> None:
        if self.runners.get(runner.channel_id) is runner:
            del self.runners[runner.channel_id]

    async def restore(self) -> int:
        """Rebuild every open table from storage (after a restart); returns how many. A table that fails
        to restore is logged and left for the next start (its chips stay in storage). Then what the stored
        changes still owe Discord (the outbox, docs/outbox.md) is delivered, for open and closed tables."""
        count = 0
        for row in await self.storage.open_tables():
            if row.channel_id in self.runners:
                continue
            try:
                runner = self._register(self._new_runner(row, on_closed=self._forget))
                async with runner.lock:
                    await runner.restore(row)
                count += 1
            except Exception:
                log.exception("could not restore table %s in channel %s", row.id, row.channel_id)
                self.runners.pop(row.channel_id, None)
        await self._deliver_pending()
        return count

    async def _deliver_pending(self) -> None:
        """Deliver the outbox rows left by the previous process: through each open table's runner, and for a
        table closed meanwhile (its "table closed" notice, the edit of its last message, the host's reply)
        through a runner made only for that, stopped once they are out."""
        pending = await self.storage.pending_outbox()
        open_runners = {runner.table_id: runner for runner in self.runners.values()}
        for table_id in sorted({row.table_id for row in pending}):
            rows = [row for row in pending if row.table_id == table_id]
            runner = open_runners.get(table_id)
            try:
                if runner is not None:
                    async with runner.lock:
                        await runner.deliver_pending(rows)
                    continue
                table = await self.storage.table(table_id)
                if table is None:
                    continue
                closed = self._new_runner(table)
                closed.load_closed(table)
                closed.start()
                await closed.deliver_pending(rows)
                await closed.drain()
                await closed.shutdown()
            except Exception:
                log.exception("could not deliver what table %s owes", table_id)

    async def close(self) -> None:
        """Stop every runner's timers and flush its announcements (tables stay open in storage)."""
        for runner in list(self.runners.values()):
            await runner.shutdown()

    # ------------------------------------------------------------------ tables

    async def set_language(self, guild_id: int, language: str) -> int:
        """The server chose a language: its open tables speak it from now on (their next public message and
        table edit). Returns how many tables changed."""
        changed = 0
        for runner in list(self.runners.values()):
            if runner.guild_id == guild_id and runner.language != language:
                await runner.set_language(language)
                changed += 1
        return changed

    def get(self, channel_id: int) -> TableRunner:
        """The runner of the channel's table. Raises ServiceError("no_table")."""
        runner = self.runners.get(channel_id)
        if runner is None or runner.closed:
            raise ServiceError("no_table")
        return runner

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        options: TableOptions,
        *,
        language: str | None = None,
    ) -> TableSnapshot:
        """Open a table in a channel with validated options; the table message is posted. `language`
        defaults to the server's setting. Raises ServiceError: table_exists, bad_option."""
        options = options.validated()
        async with self._create_lock:
            if channel_id in self.runners:
                raise ServiceError("table_exists")
            if language is None:
                language = (await self.storage.guild_settings(guild_id)).language
            try:
                table_id = await self.storage.create_table(
                    guild_id, channel_id, host_id, options.kind, options.to_json()
                )
            except TableExists as exc:
                raise ServiceError("table_exists") from exc
            runner = self._runner(
                table_id=table_id,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                options=options,
                language=language,
            )
            return await runner.opened()

    async def join(
        self, channel_id: int, user_id: int, name: str, seat: int | None = None, buy_in: int | None = None
    ) -> int:
        """See TableRunner.join; raises ServiceError("no_table") first."""
        return await self.get(channel_id).join(user_id, name, seat, buy_in)

    async def leave(self, channel_id: int, user_id: int) -> bool:
        """See TableRunner.leave."""
        return await self.get(channel_id).leave(user_id)

    async def kick(self, channel_id: int, by_user: int, target: int, *, is_admin: bool) -> bool:
        """See TableRunner.kick."""
        return await self.get(channel_id).kick(by_user, target, is_admin=is_admin)

    async def rebuy(self, channel_id: int, user_id: int, amount: int, reply: InteractionReply | None = None) -> int:
        """See TableRunner.rebuy."""
        return await self.get(channel_id).rebuy(user_id, amount, reply)

    async def start(self, channel_id: int, user_id: int, *, is_admin: bool = False) -> None:
        """See TableRunner.start_game (`is_admin`: the member has Manage Server)."""
        await self.get(channel_id).start_game(user_id, is_admin=is_admin)

    async def sit_out(self, channel_id: int, user_id: int) -> None:
        """See TableRunner.sit_out."""
        await self.get(channel_id).sit_out(user_id)

    async def sit_in(self, channel_id: int, user_id: int) -> None:
        """See TableRunner.sit_in."""
        await self.get(channel_id).sit_in(user_id)

    async def set_blind_schedule(
        self,
        channel_id: int,
        user_id: int,
        levels: tuple[tuple[int, int, int], ...],
        by: str = "hands",
        length: int = 10,
        *,
        is_admin: bool = False,
    ) -> TableOptions:
        """See TableRunner.set_blind_schedule."""
        return await self.get(channel_id).set_blind_schedule(user_id, levels, by, length, is_admin=is_admin)

    async def end(
        self, channel_id: int, user_id: int, *, is_admin: bool, reply: InteractionReply | None = None
    ) -> TableClosedAnnouncement:
        """See TableRunner.end."""
        return await self.get(channel_id).end(user_id, is_admin=is_admin, reply=reply)

    async def repost(self, channel_id: int) -> None:
        """See TableRunner.repost."""
        await self.get(channel_id).repost()

    def snapshot(self, channel_id: int) -> TableSnapshot:
        """The public picture of the channel's table. Raises ServiceError("no_table")."""
        return self.get(channel_id).snapshot()

    def player_names(self, channel_id: int) -> tuple[str, ...]:
        """Names of the current hand's players by hand player index (to render its events); cheaper than a
        snapshot. Raises ServiceError("no_table")."""
        return self.get(channel_id).player_names()

    def hole_cards(self, channel_id: int, user_id: int) -> tuple[Any, ...]:
        """The user's hole cards in the current hand (private). Raises ServiceError: no_table, no_hand,
        not_in_hand."""
        return self.get(channel_id).hole_cards(user_id)

    def check_turn(self, channel_id: int, user_id: int, hand_number: int | None = None) -> LegalActions:
        """The user's legal actions if it is their turn (the same checks as `act`, without acting). Raises
        ServiceError: no_table, no_hand, stale_button, not_in_hand, not_your_turn_user."""
        runner = self.get(channel_id)
        runner.check_turn(user_id, hand_number)
        assert runner.hand is not None
        return runner.hand.legal_actions()

    def legal_actions(self, channel_id: int, user_id: int) -> LegalActions | None:
        """The user's legal actions if it is their turn, else None. Raises ServiceError("no_table")."""
        return self.get(channel_id).legal_actions_for(user_id)

    async def act(
        self,
        channel_id: int,
        user_id: int,
        kind: ActionKind,
        amount: int | None = None,
        *,
        hand_number: int | None = None,
        expected: int | None = None,
    ) -> PlayerActed:
        """A player's decision at the channel's table. `amount` is the total of a bet or raise on this
        street (a raise is always *to* a total, rule book 000 §05). `hand_number`, from a button, refuses
        presses on an old table message; `expected`, the amount a button named (Call N, All-in N), refuses
        the press when the amount changed since ("The call is now 19"). Raises ServiceError or the engine's
        PokerError; nothing changes."""
        return await self.get(channel_id).act(user_id, kind, amount, hand_number=hand_number, expected=expected)

    def amount_suggestions(self, channel_id: int, user_id: int) -> list[tuple[str, int]]:
        """Amounts to offer for /bet and /raise: (label key, total) for the minimum, half pot, pot and
        all-in, within the legal range, without duplicates; empty when it is not the user's turn or they
        cannot bet or raise."""
        runner = self.runners.get(channel_id)
        if runner is None or runner.hand is None:
            return []
        legal = runner.legal_actions_for(user_id)
        if legal is None or legal.min_raise_to is None or legal.max_raise_to is None:
            return []
        low, high = legal.min_raise_to, legal.max_raise_to
        hand = runner.hand
        pot = sum(p.amount for p in hand.pots()) + sum(hand.bets)
        facing = max(hand.bets)
        mine = hand.bets[legal.player]
        # A pot-sized raise: call first, then raise by the pot after the call.
        pot_raise = facing + (pot + (facing - mine))
        half_raise = facing + (pot + (facing - mine)) // 2
        options = [
            ("min", low),
            ("half_pot", half_raise),
            ("pot", pot_raise),
            ("all_in", high),
        ]
        seen: set[int] = set()
        result: list[tuple[str, int]] = []
        for key, amount in options:
            if low <= amount <= high and amount not in seen:
                seen.add(amount)
                result.append((key, amount))
        return result
