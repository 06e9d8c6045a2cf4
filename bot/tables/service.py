"""The table service: the registry of table runners (one per channel), restoring them at start, and opening tables.

Callers reach a table through one lookup, `TableService.get(channel_id)` (or `find`), and call its runner: every
operation and reading of a table is a `TableRunner` method (docs/architecture.md, "Table orchestration").

It speaks in plain ints (guild, channel and user ids; chips) and never imports discord (docs/architecture.md, "Layers").
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from bot.storage import Storage, TableExists, TableRow
from bot.tables.clock import Clock, SystemClock
from bot.tables.core import DeckFactory, RngFactory
from bot.tables.delivery import IdleWait
from bot.tables.errors import STORAGE_REFUSALS, ServiceError, refusal
from bot.tables.notifier import Notifier, TableSnapshot
from bot.tables.operation import WRITE_TIMEOUT_S
from bot.tables.options import TableOptions
from bot.tables.runner import TableRunner

log = logging.getLogger(__name__)


class TableService:
    """Every open table of this process, by channel id (docs/architecture.md, Conventions 5: one registry, one
    lock per table).

    `storage` persists everything; `notifier` is the Discord layer (or a recording fake in tests);
    `clock` gives time and sleeps (a ManualClock in tests); `rng_factory` returns the random generator
    used to shuffle each hand (None = `secrets.SystemRandom`, the default); `deck_factory` returns the next
    hand's deck order, or None to shuffle (the default; tests stack the deck); `next_hand_delay_s`: seconds
    between a hand's end and the next deal at every table (None: each table's `options.next_hand_delay`);
    `computer_delay_s`: a computer player's mean pause at every table (None: each table's `computer_delay`);
    `idle_wait`: how a table's delivery worker waits for work (a simulator declares that wait);
    `write_timeout_s`: how long (in `clock` seconds) a table waits for a storage write before undoing the change
    (see TableRunner);
    `owns(guild_id)`: whether this process runs that guild's tables (the shard leases, bot/tables/ownership.py;
    every guild by default): only those are restored here.
    """

    def __init__(
        self,
        storage: Storage,
        notifier: Notifier,
        *,
        clock: Clock | None = None,
        rng_factory: RngFactory | None = None,
        deck_factory: DeckFactory | None = None,
        next_hand_delay_s: float | None = None,
        computer_delay_s: float | None = None,
        idle_wait: IdleWait | None = None,
        write_timeout_s: float = WRITE_TIMEOUT_S,
        owns: Callable[[int], bool] | None = None,
    ) -> None:
        self.storage = storage
        self.owns = owns or (lambda _guild_id: True)
        self.notifier = notifier
        self.clock = clock or SystemClock()
        self.rng_factory: RngFactory = rng_factory or (lambda: None)
        self.deck_factory: DeckFactory = deck_factory or (lambda: None)
        self.next_hand_delay_s = next_hand_delay_s
        self.computer_delay_s = computer_delay_s
        self.idle_wait = idle_wait
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
            deck_factory=self.deck_factory,
            next_hand_delay_s=self.next_hand_delay_s,
            computer_delay_s=self.computer_delay_s,
            idle_wait=self.idle_wait,
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
        self.runners[runner.ids.channel_id] = runner
        runner.start()
        return runner

    def _forget(self, runner: TableRunner) -> None:
        if self.runners.get(runner.ids.channel_id) is runner:
            del self.runners[runner.ids.channel_id]

    async def restore(self) -> int:
        """Rebuild every open table from storage (after a restart); returns how many. A table that fails
        to restore is logged and left for the next start (its chips stay in storage). Then what the stored
        changes still owe Discord (the outbox, docs/outbox.md) is delivered, for open and closed tables."""
        count = 0
        for row in await self.storage.open_tables():
            if row.channel_id in self.runners or not self.owns(row.guild_id):
                continue
            try:
                runner = self._register(self._new_runner(row, on_closed=self._forget))
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
        open_runners = {runner.ids.table_id: runner for runner in self.runners.values()}
        for table_id in sorted({row.table_id for row in pending}):
            rows = [row for row in pending if row.table_id == table_id]
            runner = open_runners.get(table_id)
            try:
                if runner is not None:
                    await runner.deliver_pending(rows)
                    continue
                table = await self.storage.table(table_id)
                if table is None or not self.owns(table.guild_id):
                    continue
                closed = self._new_runner(table)
                closed.load_closed(table)
                closed.start()
                await closed.deliver_pending(rows)
                await closed.drain()
                await closed.shutdown()
            except Exception:
                log.exception("could not deliver what table %s owes", table_id)

    async def release(self, guild_ids: Callable[[int], bool]) -> int:
        """Stop running the tables of the guilds `guild_ids` selects (this process lost their shard's lease):
        their timers stop and what is queued is delivered; they stay open in storage for the process that runs
        them now. Returns how many."""
        released = [runner for runner in self.runners.values() if guild_ids(runner.ids.guild_id)]
        for runner in released:
            self._forget(runner)
            await runner.shutdown()
        return len(released)

    async def close(self) -> None:
        """Stop every runner's timers and flush its announcements (tables stay open in storage)."""
        for runner in list(self.runners.values()):
            await runner.shutdown()

    # ------------------------------------------------------------------ chips

    async def refill(self, guild_id: int, user_id: int) -> int:
        """The server's starting grant again for a member out of chips (`Storage.refill`); returns the new balance.
        Raises ServiceError: refill_disabled (the server grants nothing), refill_not_broke (chips left),
        refill_cooldown (too soon)."""
        try:
            return await self.storage.refill(guild_id, user_id)
        except STORAGE_REFUSALS as exc:
            raise refusal(exc) from exc

    # ------------------------------------------------------------------ tables

    async def set_language(self, guild_id: int, language: str) -> int:
        """The server chose a language: its open tables speak it from now on (their next public message and
        table edit). Returns how many tables changed."""
        changed = 0
        for runner in list(self.runners.values()):
            if runner.ids.guild_id == guild_id and runner.language != language:
                await runner.set_language(language)
                changed += 1
        return changed

    async def set_pictures(self, guild_id: int, on: bool) -> int:
        """The server turned table pictures on or off (`/poker-admin settings pictures`): its open tables follow
        from their next street message (a table option, stored). Returns how many tables changed."""
        changed = 0
        for runner in list(self.runners.values()):
            if runner.ids.guild_id == guild_id and not runner.closed and runner.view().options.pictures != on:
                await runner.set_options(pictures=on)
                changed += 1
        return changed

    def get(self, channel_id: int) -> TableRunner:
        """The runner of the channel's table: every operation on a table (join, act, end …) and every reading
        (snapshot, hole cards, the turn check) is a method of it. Raises ServiceError("no_table")."""
        runner = self.find(channel_id)
        if runner is None:
            raise ServiceError("no_table")
        return runner

    def find(self, channel_id: int) -> TableRunner | None:
        """The runner of the channel's open table, or None (where no table is no refusal: autocomplete)."""
        runner = self.runners.get(channel_id)
        return None if runner is None or runner.closed else runner

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
                raise refusal(exc) from exc
            runner = self._runner(
                table_id=table_id,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                options=options,
                language=language,
            )
            return await runner.opened()
