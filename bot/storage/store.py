"""The Storage facade: the bot's one storage API over the executor and the modules that hold its SQL.

Each public method is one transaction (`Executor.write`) or one consistent read (`Executor.read`) of a body kept
in `settings`, `ledger`, `tables`, `outbox`, `hands` or `standings`; the hand actions go through `ActionLog`.
Every chip that enters or leaves a balance goes through `Ledger.move`, which writes the ledger row and the balance
in the caller's transaction. docs/storage.md describes the backends and their guarantees.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from bot.poker import TableKind
from bot.storage.backends import open_executor
from bot.storage.behind import WriteBehind
from bot.storage.executor import Dialect, Executor
from bot.storage.hands import ActionLog, Hands
from bot.storage.ledger import Ledger
from bot.storage.models import (
    AccountRow,
    AuditReport,
    Clock,
    GuildDefaults,
    GuildSettings,
    HandRow,
    LeaderboardBy,
    LeaderboardPage,
    LedgerKind,
    LedgerRow,
    OpenPuzzleRow,
    OutboxRow,
    PlayerOutcome,
    PuzzleRecord,
    StatsRow,
    TableRow,
)
from bot.storage.outbox import Outbox, Owed
from bot.storage.puzzles import Puzzles
from bot.storage.settings import Settings
from bot.storage.standings import computer_players, leaderboard, stats
from bot.storage.tables import Tables

log = logging.getLogger(__name__)

__all__ = ["Owed", "Storage"]


class Storage:
    """The bot's database. Create with `await Storage.open(path)`; close with `await storage.close()`.

    `executor` runs transaction bodies (`async def body(tx: Tx)`) on the backend: for tools (`db copy`) and tests
    that need a statement of their own."""

    def __init__(self, executor: Executor, defaults: GuildDefaults, clock: Clock) -> None:
        self.executor = executor
        self._actions = ActionLog(executor, clock)
        self._behind = WriteBehind(executor, clock)
        self._settings = Settings(defaults, clock)
        self._ledger = Ledger(self._settings, clock)
        self._outbox = Outbox(clock)
        self._tables = Tables(self._ledger, self._outbox, clock)
        self._hands = Hands(self._tables, self._outbox, clock)
        self._puzzles = Puzzles(clock)
        self._closing: asyncio.Future[None] | None = None

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(
        cls,
        target: str | Path,
        *,
        defaults: GuildDefaults | None = None,
        clock: Clock = time.time,
    ) -> Storage:
        """Open the database `target` names and migrate it: a URL (`sqlite:///data/poker.sqlite3`,
        `postgresql://user:pass@host:5432/db`) or a SQLite file path (":memory:" for a throwaway one).

        SQLite: the file and its folder are created if needed, WAL journal, foreign keys on. PostgreSQL: a pool of
        connections. Either way the pending migrations apply in one transaction. `defaults` are the settings of
        servers that chose none (from config); `clock` gives Unix seconds (tests inject one). Raises SchemaTooNew if
        the database is newer than this code, StorageError if it cannot be opened or on other schema problems;
        nothing stays open when it raises.
        """
        executor, version = await open_executor(target)
        log.info("database %s open at schema version %d", executor.description, version)
        return cls(executor, defaults or GuildDefaults(), clock)

    async def close(self) -> None:
        """Wait for the queued actions and the running work, then close the database (idempotent: a second call
        waits for the first to finish)."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close())
        await asyncio.shield(self._closing)

    async def _close(self) -> None:
        try:
            await self._actions.close()
            await self._behind.close()
        finally:
            await self.executor.close()
        log.info("database closed")

    # ------------------------------------------------------------------ meta and server settings

    async def get_meta(self, key: str) -> str | None:
        """A bot-wide value by name (e.g. "command_sync_hash"), or None."""
        return await self.executor.read_statement(lambda tx: self._settings.get_meta(tx, key))

    async def set_meta(self, key: str, value: str) -> None:
        """Store a bot-wide value by name."""
        await self.executor.write(lambda tx: self._settings.set_meta(tx, key, value))

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings: what it chose, else the bot's defaults (table_defaults merged key by key)."""
        return await self.executor.read_statement(lambda tx: self._settings.guild_settings(tx, guild_id))

    async def update_guild_settings(
        self,
        guild_id: int,
        *,
        language: str | None = None,
        starting_grant: int | None = None,
        refill_cooldown_s: int | None = None,
        table_defaults: Mapping[str, Any] | None = None,
    ) -> GuildSettings:
        """Change some of a server's settings (None = leave as is) and return the result.

        `table_defaults` is merged into the server's own table defaults; a key set to None goes back to
        the bot's default. Raises ValueError for a language other than 'en'/'fr', or a grant or cooldown that is not a
        whole number from 0 to 2**53 - 1 (a float such as 1e+20 was once stored: issue 12).
        """
        return await self.executor.write(
            lambda tx: self._settings.update_guild_settings(
                tx, guild_id, language, starting_grant, refill_cooldown_s, table_defaults
            )
        )

    # ------------------------------------------------------------------ accounts and the ledger

    async def ensure_account(self, guild_id: int, user_id: int) -> int:
        """Open the member's account on first touch, granting the server's starting grant (a GRANT ledger
        row: chips issued, as the audit counts them); return the balance. A member's first touch is anything
        that reads or moves their chips: a cash buy-in, a tournament entry, `balance`, a refill, an
        adjustment (and, in the Discord layer, their own /stats and /leaderboard)."""
        return await self.executor.write(lambda tx: self._ledger.ensure(tx, guild_id, user_id))

    async def balance(self, guild_id: int, user_id: int) -> int:
        """The member's balance, opening their account first if they have none (as `ensure_account`: the
        starting grant is issued, a GRANT ledger row). So a member is never shown chips that were not issued:
        whoever has a balance has an account, a rank by balance and their grant counted in the audit."""
        balance = await self.executor.read_statement(lambda tx: Ledger.balance_of(tx, guild_id, user_id))
        return await self.ensure_account(guild_id, user_id) if balance is None else balance

    async def account(self, guild_id: int, user_id: int) -> AccountRow | None:
        """The member's account, or None if they never touched chips on this server."""
        return await self.executor.read_statement(lambda tx: Ledger.account(tx, guild_id, user_id))

    async def adjust(self, guild_id: int, user_id: int, delta: int, reason: str) -> int:
        """An admin ADJUSTMENT of a balance by `delta` chips (issues or withdraws chips). Returns the new
        balance; raises InsufficientBalance if it would go negative (nothing changed)."""
        return await self.executor.write(lambda tx: self._ledger.adjust(tx, guild_id, user_id, delta, reason))

    async def refill(
        self, guild_id: int, user_id: int, amount: int | None = None, cooldown_s: int | None = None
    ) -> int:
        """Give a member who is out of chips a REFILL of `amount` (default: the server's starting grant),
        at most once per `cooldown_s` seconds (default: the server's refill cooldown). Returns the balance.

        Raises RefillDisabled if the server's starting grant is 0 (and no `amount` is given), RefillNotNeeded if
        the member has a balance or chips on an open cash table of this server,
        RefillCooldown (with `.retry_at`) if the last refill was too recent. Nothing changes when refused.
        """
        return await self.executor.write(lambda tx: self._ledger.refill(tx, guild_id, user_id, amount, cooldown_s))

    async def ledger(self, guild_id: int, user_id: int | None = None, limit: int = 50) -> list[LedgerRow]:
        """The server's ledger rows (one member's if `user_id`), newest first."""
        return await self.executor.read(lambda tx: Ledger.rows(tx, guild_id, user_id, limit))

    async def audit(self, guild_id: int) -> AuditReport:
        """Check the ledger invariant for one server (docs/architecture.md, "Chips").

        balances + chips on the seats of open cash tables == chips issued (GRANT + REFILL + ADJUSTMENT);
        also: each balance equals the sum of its ledger rows and each row's balance_after follows from the
        previous one; each open cash table holds exactly the chips the ledger sent to it; a closed table none;
        each player of a hand in progress (cash or tournament) has, in their seat, the stack they started it with.
        """
        return await self.executor.read(lambda tx: Ledger.audit(tx, guild_id))

    # ------------------------------------------------------------------ chips between balances and tables

    async def buy_in(
        self,
        table_id: int,
        guild_id: int,
        user_id: int,
        seat: int,
        amount: int,
        kind: LedgerKind = LedgerKind.BUY_IN,
        *,
        state: Mapping[str, Any] | None = None,
        outbox: Owed = (),
    ) -> int:
        """Move `amount` chips from the member's balance to their seat at an open cash table, atomically
        (ledger row + seat stack in one transaction). Returns the new balance.

        kind=BUY_IN takes a free seat (the member must not sit at this table); kind=REBUY adds to the
        member's own seat, not while they play in the table's unfinished hand. Creates the account (with
        its grant) on first touch. A computer player (a negative `user_id`) buys in from the server's house
        account instead (`HOUSE_USER_ID`), which is issued what it lacks (HOUSE_ISSUE; docs/practice.md, "Chips");
        the balance returned is then the house's. Raises InsufficientBalance, SeatTaken, NotSeated, HandInProgress,
        TableNotFound, WrongTableKind (tournament), ValueError (amount <= 0).
        Table limits (min/max buy-in, between hands) are the table service's to check.
        `state`/`outbox`: stored in the same transaction (see `Outbox.attach`).
        """
        return await self.executor.write(
            lambda tx: self._tables.buy_in(tx, table_id, guild_id, user_id, seat, amount, kind, state, outbox)
        )

    async def cash_out(
        self,
        table_id: int,
        guild_id: int,
        user_id: int,
        seat: int,
        *,
        place: int | None = None,
        state: Mapping[str, Any] | None = None,
        outbox: Owed = (),
    ) -> int:
        """The member leaves their seat: on a cash table its whole stack goes back to the balance (a
        CASH_OUT ledger row, none for an empty stack); on a tournament the seat is just removed (tournament
        chips are not balance chips). Returns the new balance. Raises NotSeated, TableNotFound, and
        HandInProgress while the member plays in the table's unfinished hand (fold, finish the hand, then
        cash out; `close_table` is the way to stop mid-hand). `place`: their tournament finishing place, recorded in
        the same transaction (as `record_place`). `state`/`outbox`: as `Outbox.attach`."""
        return await self.executor.write(
            lambda tx: self._tables.cash_out(tx, table_id, guild_id, user_id, seat, place, state, outbox)
        )

    async def join_tournament(
        self,
        table_id: int,
        user_id: int,
        seat: int,
        stack: int,
        *,
        state: Mapping[str, Any] | None = None,
        outbox: Owed = (),
    ) -> None:
        """Seat a member at an open tournament table with `stack` tournament chips (no balance movement; their
        account is opened with its starting grant if they have none, as any first touch). Raises SeatTaken,
        TableNotFound, WrongTableKind (cash table), ValueError (stack <= 0). `state`/`outbox`: as `Outbox.attach`."""
        await self.executor.write(
            lambda tx: self._tables.join_tournament(tx, table_id, user_id, seat, stack, state, outbox)
        )

    async def record_place(self, table_id: int, user_id: int, place: int) -> None:
        """Record a tournament finishing place (1 = winner), e.g. at elimination and for the last ones at
        the end. Each player once per tournament, and one winner (place 1); raises StorageError otherwise. Other
        places may be shared by players who bust in the same hand with equal starting stacks."""
        await self.executor.write(lambda tx: Tables.record_place(tx, table_id, user_id, place))

    async def places(self, table_id: int) -> dict[int, int]:
        """A tournament's recorded places: user id -> place."""
        return await self.executor.read(lambda tx: Tables.places(tx, table_id))

    # ------------------------------------------------------------------ tables

    async def create_table(
        self, guild_id: int, channel_id: int, host_id: int, kind: TableKind | str, settings: Mapping[str, Any]
    ) -> int:
        """Open a table in a channel; returns its id. `kind` is a TableKind ('cash' or 'tournament'); `settings` any
        JSON object (blinds, limits...). Raises TableExists if the channel has an open table, ValueError for an
        unknown kind."""
        if kind not in tuple(TableKind):
            raise ValueError(f"kind must be one of {tuple(k.value for k in TableKind)}")
        table_kind = TableKind(kind)
        return await self.executor.write(
            lambda tx: self._tables.create_table(tx, guild_id, channel_id, host_id, table_kind, settings)
        )

    async def _tables_where(self, where: str, params: Sequence[Any]) -> list[TableRow]:
        if self._behind.waiting:
            await self._behind.flush()  # the message ids remembered are read back
        return await self.executor.read(lambda tx: Tables.tables(tx, where, params))

    async def table(self, table_id: int) -> TableRow | None:
        """A table (open or closed) by id, with its seats."""
        rows = await self._tables_where("id = ?", (table_id,))
        return rows[0] if rows else None

    async def open_tables(self, guild_id: int | None = None) -> list[TableRow]:
        """Every open table (of one server if given), oldest first, with seats: for restoring at start."""
        if guild_id is None:
            return await self._tables_where("status = 'open'", ())
        return await self._tables_where("status = 'open' AND guild_id = ?", (guild_id,))

    async def table_for_channel(self, channel_id: int) -> TableRow | None:
        """The open table in a channel, or None."""
        rows = await self._tables_where("status = 'open' AND channel_id = ?", (channel_id,))
        return rows[0] if rows else None

    async def latest_table_for_channel(self, channel_id: int) -> TableRow | None:
        """The channel's open table, else the last one that was closed there (for its hand history), or None."""
        rows = await self._tables_where("channel_id = ?", (channel_id,))
        latest = [r for r in rows if r.status == "open"] or rows
        return latest[-1] if latest else None

    async def save_table_state(
        self, table_id: int, state: Mapping[str, Any], message_id: int | None = None, *, outbox: Owed = ()
    ) -> None:
        """Store the table service's JSON state of an open table (and its current message id when given), with the
        messages the change owes (`outbox`, as `Outbox.attach`), in one transaction (PostgreSQL: one statement,
        `Outbox.save_state_statement`)."""
        if self.executor.dialect is Dialect.POSTGRESQL:
            await self._tables.save_state_statement(self.executor, table_id, state, message_id, outbox)
            return
        await self.executor.write(lambda tx: self._tables.save_state(tx, table_id, state, message_id, outbox))

    async def set_table_message(self, table_id: int, message_id: int | None) -> None:
        """Remember the id of an open table's current table message (to edit it again after a restart); None:
        it has none now (its last one was retired)."""
        await self._tables.set_message(self.executor, table_id, message_id)

    def remember_table_message(self, table_id: int, message_id: int | None) -> None:
        """As `set_table_message`, written behind (bot/storage/behind.py): returns at once. A new message's id is
        written at once (with whatever else waits: a restart must know which message has the live buttons); None
        (the message was retired) within `WRITE_BEHIND_S`, with the other tables' marks. A table closed meanwhile
        is left as it is; a failure is logged. Reads of the table return it from now on."""
        self._behind.remember_message(table_id, message_id)

    async def update_table_settings(
        self,
        table_id: int,
        settings: Mapping[str, Any],
        *,
        state: Mapping[str, Any] | None = None,
        outbox: Owed = (),
    ) -> None:
        """Replace an open table's settings JSON (e.g. a tournament's blind schedule set before the start);
        `state`/`outbox` as `Outbox.attach`."""
        await self.executor.write(lambda tx: self._tables.update_settings(tx, table_id, settings, state, outbox))

    async def set_seat_stacks(self, table_id: int, stacks: Mapping[int, int]) -> None:
        """Set the stacks of some seats ({seat: stack}) of an open table. Their total must not change
        (chips only move between stacks of one table): raises ChipsNotConserved, NotSeated, TableNotFound."""
        await self.executor.write(lambda tx: self._tables.set_seat_stacks(tx, table_id, stacks))

    async def close_table(
        self, table_id: int, *, places: Mapping[int, int] | None = None, outbox: Owed = ()
    ) -> dict[int, int]:
        """Close an open table in one transaction: an unfinished hand is marked aborted (stacks stay as at
        its start), every seat is cashed out (cash tables) or removed (tournaments). Returns
        {user_id: chips returned to the balance}. `places` ({user id: place}): tournament places recorded in the
        same transaction (as `record_place`); `outbox`: as `Outbox.attach` (a function of `outbox` gets the returned
        chips). Raises TableNotFound."""
        return await self.executor.write(lambda tx: self._tables.close(tx, table_id, places, outbox))

    # ------------------------------------------------------------------ outbox (docs/outbox.md)

    async def pending_outbox(self, table_id: int | None = None) -> list[OutboxRow]:
        """The messages owed and not yet delivered, oldest first: of one table, or of every table (open or
        closed) when `table_id` is None."""
        if self._behind.waiting:
            await self._behind.flush()  # rows marked delivered are not pending
        return await self.executor.read(lambda tx: Outbox.pending(tx, table_id))

    async def mark_delivered(self, keys: Sequence[str]) -> None:
        """Mark outbox rows delivered (by key), committed on return; unknown or already delivered keys are ignored.
        Written behind (bot/storage/behind.py): the marks asked for within `WRITE_BEHIND_S` (0.2 s), of every table,
        are one transaction, so this returns within about that time. Raises StorageError when it failed."""
        await self._behind.mark_delivered(keys)

    def remember_delivered(self, keys: Sequence[str]) -> None:
        """As `mark_delivered`, without waiting (the delivery of a table's messages does not wait for the database):
        written within `WRITE_BEHIND_S`; a failure is logged (the rows are delivered again at the next start, once:
        docs/outbox.md). `pending_outbox` no longer returns them from now on; `flush_behind` waits for the write."""
        self._behind.remember_delivered(keys)

    async def flush_behind(self) -> None:
        """Write now what `remember_delivered` and `remember_table_message` keep (bot/storage/behind.py); return once
        it is committed or has failed (logged)."""
        await self._behind.flush()

    # ------------------------------------------------------------------ hands

    async def start_hand(
        self,
        table_id: int,
        number: int,
        record_json: Mapping[str, Any],
        seats: Sequence[Mapping[str, int]],
        *,
        state: Mapping[str, Any] | None = None,
        outbox: Owed = (),
    ) -> int:
        """Record the start of a hand and return its id.

        `record_json`: the stored hand as `bot.tables.record.StoredHand.to_json()` writes it: {"record": the
        engine's HandRecord.to_json() (settings, starting stacks, deck order...), "seats": [...], "users": [...]}
        (by the hand's player index); kept as given and read back as `HandRow.record`.
        `seats`: one dict per player in hand order: {"seat", "user_id", "stack"} and optionally "player"
        (the hand's player index; defaults to the position in the list). Raises HandInProgress if the
        table has an unfinished hand, TableNotFound if it is not open, StorageError if `number` is used,
        ValueError for fewer than two players. `state`/`outbox`: as `Outbox.attach` (a function gets the hand id).
        """
        return await self.executor.write(
            lambda tx: self._hands.start(tx, table_id, number, record_json, seats, state, outbox)
        )

    async def append_action(self, hand_id: int, action: Mapping[str, Any]) -> int:
        """Append one action (any JSON object) to an unfinished hand's record, committed on return
        (write-ahead: call before announcing it). Returns its sequence number from 0. Raises HandNotFound.
        The appends of one turn of the event loop are committed together (see `ActionLog`)."""
        return await self._actions.append(hand_id, action)

    async def finish_hand(
        self,
        hand_id: int,
        result: Mapping[str, Any],
        stacks: Mapping[int, int],
        players: Mapping[int, PlayerOutcome] | None = None,
        *,
        state: Mapping[str, Any] | None = None,
        outbox: Owed = (),
    ) -> None:
        """End a hand in one transaction: store its result JSON, set the table's seat stacks
        ({seat: finishing stack}, as set_seat_stacks: total unchanged) and each player's standings row.

        Seats not in `stacks` keep their stacks. A player's net is their seat's stack after this minus
        their starting stack; `players` gives the rest per user id (PlayerOutcome). `state`/`outbox`: as
        `Outbox.attach`. Raises HandNotFound, ChipsNotConserved, NotSeated; nothing changes when it raises.
        """
        await self.executor.write(lambda tx: self._hands.finish(tx, hand_id, result, stacks, players, state, outbox))

    async def show_cards(self, hand_id: int, entry: Mapping[str, Any], *, player: int, outbox: Owed = ()) -> int:
        """Append `entry` (any JSON object: cards shown by choice, issue 15) to the action log of a finished hand,
        in one transaction with the messages it owes (`outbox`, as `Outbox.attach`; a function gets the sequence
        number) and with the standings' count of it: the hand is one the player of index `player` showed
        (`HandPlayerRow.showed`, once per hand however many shows). Only while the hand is its table's last:
        refused once the next hand is dealt. Returns the entry's sequence number. Raises HandNotFound
        (unfinished, unknown, or no longer the table's last hand), TableNotFound (the table is closed); nothing
        changes when it raises."""
        return await self.executor.write(lambda tx: self._hands.show(tx, hand_id, entry, player, outbox))

    async def _hands_where(self, where: str, params: Sequence[Any], limit: int) -> list[HandRow]:
        return await self.executor.read(lambda tx: Hands.hands(tx, where, params, limit))

    async def open_hand(self, table_id: int) -> HandRow | None:
        """The table's unfinished hand with its actions so far (to rebuild it by replay), or None."""
        hands = await self._hands_where("table_id = ? AND ended_at IS NULL", (table_id,), 1)
        return hands[0] if hands else None

    async def hand(self, hand_id: int) -> HandRow | None:
        """One hand by id, or None."""
        hands = await self._hands_where("id = ?", (hand_id,), 1)
        return hands[0] if hands else None

    async def hand_by_number(self, table_id: int, number: int) -> HandRow | None:
        """One hand of a table by its number, or None."""
        hands = await self._hands_where("table_id = ? AND number = ?", (table_id, number), 1)
        return hands[0] if hands else None

    async def hands_for_table(self, table_id: int, limit: int = 10) -> list[HandRow]:
        """The table's last `limit` hands, newest first (finished or not)."""
        return await self._hands_where("table_id = ?", (table_id,), limit)

    # ------------------------------------------------------------------ decision puzzles (issue 17)

    async def answer_puzzle(self, guild_id: int, user_id: int, puzzle_id: str, spot_key: str, answer: str) -> bool:
        """Keep a member's answer ('fold', 'call' or 'raise') to a posted puzzle; a second answer replaces the
        first until the puzzle is revealed. Returns False (nothing changed) once it is revealed."""
        return await self.executor.write(
            lambda tx: self._puzzles.answer(tx, guild_id, user_id, puzzle_id, spot_key, answer)
        )

    async def open_puzzle(self, row: OpenPuzzleRow) -> bool:
        """Keep a puzzle posted in a channel until its reveal (restored after a restart). Returns False, and
        keeps nothing, when that channel already has one open."""
        return await self.executor.write(lambda tx: self._puzzles.open(tx, row))

    async def open_puzzles(self) -> list[OpenPuzzleRow]:
        """Every puzzle posted and not yet revealed, oldest first (all servers: the caller keeps its own)."""
        return await self.executor.read(self._puzzles.open_ones)

    async def close_puzzle(self, puzzle_id: str) -> None:
        """Close an open puzzle without revealing it (its answers stay answered, not marked)."""
        await self.executor.write(lambda tx: self._puzzles.close(tx, puzzle_id))

    async def reveal_puzzle(self, puzzle_id: str, favoured: Collection[str]) -> dict[str, int]:
        """Close a puzzle (it is no longer open) and mark every answer to it as favoured by the numbers or not,
        in one transaction; returns the votes by answer."""
        return await self.executor.write(lambda tx: self._puzzles.reveal(tx, puzzle_id, favoured))

    async def puzzle_record(self, guild_id: int, user_id: int) -> PuzzleRecord:
        """A member's puzzles on a server: answered, revealed, favoured answers."""
        return await self.executor.read(lambda tx: self._puzzles.record(tx, guild_id, user_id))

    # ------------------------------------------------------------------ standings

    async def stats(self, guild_id: int, user_id: int) -> StatsRow:
        """A member's standings on a server (see StatsRow for what counts: finished hands of both kinds of
        table, net in cash-table chips only). Reads only: a member without an account gets `balance` None."""
        return await self.executor.read(lambda tx: stats(tx, guild_id, user_id))

    async def computer_players(self, guild_id: int) -> list[int]:
        """The user ids of the computer players that finished a hand on this server (negative ids, nearest zero
        first: the beginners' seats, then the solid ones'), for `/stats` to name them."""
        return await self.executor.read(lambda tx: computer_players(tx, guild_id))

    async def leaderboard(
        self,
        guild_id: int,
        by: LeaderboardBy = LeaderboardBy.BALANCE,
        *,
        limit: int = 10,
        offset: int = 0,
        user_id: int | None = None,
    ) -> LeaderboardPage:
        """One page of the server's ranking, highest first (ties share a rank: 1, 1, 3; then by user id).

        Who is ranked, and by what (the figures of `stats`, so /stats and /leaderboard always agree):
        BALANCE ranks every account (every member who has a balance: see `balance`) by it; NET every member
        with a finished cash hand by their net in cash-table chips (`StatsRow.net`); TOURNAMENT_WINS every
        member who finished a tournament (a place recorded) by their first places. `own` is `user_id`'s row
        wherever it is (None if that ranking does not include them). Reads only.
        """
        return await self.executor.read(lambda tx: leaderboard(tx, guild_id, by, limit, offset, user_id))
