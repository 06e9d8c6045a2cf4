"""Tables and their seats: chips between balances and cash tables, tournament seats and places (transaction bodies).

A write on a table locks its row first (`open_table`): on PostgreSQL the writes of one table then run one after
the other, whatever process makes them, and a seat, a stack or the table's status read in a transaction stays
true until it commits. Locks are taken in one order, the table's row before any account's (accounts in user id
order), so that two transactions never wait for each other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.poker import TableKind
from bot.storage.errors import (
    ChipsNotConserved,
    Conflict,
    HandInProgress,
    NotSeated,
    SeatTaken,
    StorageError,
    TableExists,
    TableNotFound,
    WrongTableKind,
)
from bot.storage.executor import Executor, Tx
from bot.storage.ledger import Ledger
from bot.storage.models import (
    HOUSE_USER_ID,
    Clock,
    LedgerKind,
    Row,
    TableRow,
    TableStatus,
    dumps,
    ledger_account,
)
from bot.storage.outbox import Outbox, Owed

_BUY_IN_KINDS = (LedgerKind.BUY_IN, LedgerKind.REBUY)


class Tables:
    """The `poker_tables`, `table_seats` and `tournament_places` tables."""

    def __init__(self, ledger: Ledger, outbox: Outbox, clock: Clock) -> None:
        self._ledger = ledger
        self._outbox = outbox
        self._clock = clock

    @staticmethod
    async def open_table(tx: Tx, table_id: int) -> Row:
        """The open table's row, locked until the transaction ends; raises TableNotFound."""
        row = await tx.one(f"SELECT * FROM poker_tables WHERE id = ?{tx.dialect.for_update}", (table_id,))
        if row is None or row["status"] != TableStatus.OPEN:
            raise TableNotFound(f"no open table {table_id}")
        return row

    @staticmethod
    async def in_open_hand(tx: Tx, table_id: int, user_id: int) -> bool:
        """Whether the member plays in the table's unfinished hand."""
        row = await tx.one(
            """
            SELECT 1 FROM hands h JOIN hand_players p ON p.hand_id = h.id
            WHERE h.table_id = ? AND h.ended_at IS NULL AND p.user_id = ?
            """,
            (table_id, user_id),
        )
        return row is not None

    async def buy_in(
        self,
        tx: Tx,
        table_id: int,
        guild_id: int,
        user_id: int,
        seat: int,
        amount: int,
        kind: LedgerKind,
        state: Mapping[str, Any] | None,
        outbox: Owed,
    ) -> int:
        """Body of `Storage.buy_in`."""
        kind = LedgerKind(kind)
        if kind not in _BUY_IN_KINDS:
            raise ValueError("buy_in kind must be BUY_IN or REBUY")
        if amount <= 0:
            raise ValueError("buy-in amount must be positive")
        table = await self.open_table(tx, table_id)
        if table["guild_id"] != guild_id:
            raise TableNotFound(f"table {table_id} is not in guild {guild_id}")
        if table["kind"] != TableKind.CASH:
            raise WrongTableKind("buy-ins are for cash tables")
        # The seat's occupant and the member's own seat, in one statement (one round trip on PostgreSQL).
        seats = await tx.all(
            "SELECT seat, user_id FROM table_seats WHERE table_id = ? AND (seat = ? OR user_id = ?)",
            (table_id, seat, user_id),
        )
        occupant = next((r for r in seats if r["seat"] == seat), None)
        mine = next((r for r in seats if r["user_id"] == user_id), None)
        if kind is LedgerKind.BUY_IN:
            if occupant is not None or mine is not None:
                raise SeatTaken(f"seat {seat} is taken or user {user_id} already sits at table {table_id}")
        elif occupant is None or occupant["user_id"] != user_id:
            raise NotSeated(f"user {user_id} does not sit at seat {seat} of table {table_id}")
        elif await self.in_open_hand(tx, table_id, user_id):
            raise HandInProgress(f"user {user_id} is in a hand at table {table_id}: rebuy between hands")
        account = ledger_account(user_id)
        if account == HOUSE_USER_ID:
            await self._ledger.issue_to_house(tx, guild_id, amount, table_id)
        else:
            await self._ledger.open(tx, guild_id, user_id)
        balance = await self._ledger.move(
            tx, guild_id, account, -amount, kind, reason=f"seat {seat}", table_id=table_id
        )
        if kind is LedgerKind.BUY_IN:
            await tx.execute(
                "INSERT INTO table_seats (table_id, seat, user_id, stack) VALUES (?, ?, ?, ?)",
                (table_id, seat, user_id, amount),
            )
        else:
            await tx.execute(
                "UPDATE table_seats SET stack = stack + ? WHERE table_id = ? AND seat = ?", (amount, table_id, seat)
            )
        await self._outbox.attach(tx, table_id, state, outbox, balance)
        return balance

    async def _leave(self, tx: Tx, table: Row, seat: int, user_id: int | None) -> int:
        """Remove a seat; on a cash table its stack goes back to the balance (CASH_OUT). Returns the stack."""
        row = await tx.one(
            "SELECT user_id, stack FROM table_seats WHERE table_id = ? AND seat = ?", (table["id"], seat)
        )
        if row is None or (user_id is not None and row["user_id"] != user_id):
            raise NotSeated(f"user {user_id} does not sit at seat {seat} of table {table['id']}")
        stack = int(row["stack"])
        await tx.execute("DELETE FROM table_seats WHERE table_id = ? AND seat = ?", (table["id"], seat))
        if table["kind"] == TableKind.CASH and stack:
            await self._ledger.move(
                tx,
                table["guild_id"],
                ledger_account(row["user_id"]),
                stack,
                LedgerKind.CASH_OUT,
                reason=f"seat {seat}",
                table_id=table["id"],
            )
        return stack

    async def cash_out(
        self,
        tx: Tx,
        table_id: int,
        guild_id: int,
        user_id: int,
        seat: int,
        place: int | None,
        state: Mapping[str, Any] | None,
        outbox: Owed,
    ) -> int:
        """Body of `Storage.cash_out`."""
        table = await self.open_table(tx, table_id)
        if table["guild_id"] != guild_id:
            raise TableNotFound(f"table {table_id} is not in guild {guild_id}")
        if await self.in_open_hand(tx, table_id, user_id):
            # Their seat's stored stack is the one from the hand's start; the hand must end first.
            raise HandInProgress(f"user {user_id} is in a hand at table {table_id}: leave after it")
        await self._leave(tx, table, seat, user_id)
        if place is not None:
            await self.record_place(tx, table_id, user_id, place)
        balance = await self._ledger.balance_of(tx, guild_id, ledger_account(user_id))
        balance = 0 if balance is None else balance
        await self._outbox.attach(tx, table_id, state, outbox, balance)
        return balance

    async def join_tournament(
        self,
        tx: Tx,
        table_id: int,
        user_id: int,
        seat: int,
        stack: int,
        state: Mapping[str, Any] | None,
        outbox: Owed,
    ) -> None:
        """Body of `Storage.join_tournament`."""
        if stack <= 0:
            raise ValueError("a tournament stack must be positive")
        table = await self.open_table(tx, table_id)
        if table["kind"] != TableKind.TOURNAMENT:
            raise WrongTableKind("join_tournament is for tournament tables")
        taken = await tx.one(
            "SELECT 1 FROM table_seats WHERE table_id = ? AND (seat = ? OR user_id = ?)", (table_id, seat, user_id)
        )
        if taken is not None:
            raise SeatTaken(f"seat {seat} is taken or user {user_id} already sits at table {table_id}")
        await self._ledger.open(tx, table["guild_id"], user_id)
        await tx.execute(
            "INSERT INTO table_seats (table_id, seat, user_id, stack) VALUES (?, ?, ?, ?)",
            (table_id, seat, user_id, stack),
        )
        await self._outbox.attach(tx, table_id, state, outbox, None)

    @staticmethod
    async def record_place(tx: Tx, table_id: int, user_id: int, place: int) -> None:
        """Body of `Storage.record_place`."""
        table = await tx.one("SELECT kind FROM poker_tables WHERE id = ?", (table_id,))
        if table is None:
            raise TableNotFound(f"no table {table_id}")
        if table["kind"] != TableKind.TOURNAMENT:
            raise WrongTableKind("places are for tournaments")
        try:
            await tx.execute(
                "INSERT INTO tournament_places (table_id, user_id, place) VALUES (?, ?, ?)", (table_id, user_id, place)
            )
        except Conflict as exc:
            raise StorageError(f"place {place} or user {user_id} already recorded for table {table_id}") from exc

    @staticmethod
    async def places(tx: Tx, table_id: int) -> dict[int, int]:
        """Body of `Storage.places`."""
        rows = await tx.all("SELECT user_id, place FROM tournament_places WHERE table_id = ?", (table_id,))
        return {r["user_id"]: r["place"] for r in rows}

    @staticmethod
    async def tables(tx: Tx, where: str, params: Sequence[Any]) -> list[TableRow]:
        """The tables matching `where` (SQL over `poker_tables`), oldest first, with their seats."""
        rows = await tx.all(f"SELECT * FROM poker_tables WHERE {where} ORDER BY id", params)
        result = []
        for row in rows:
            seats = await tx.all(
                "SELECT seat, user_id, stack FROM table_seats WHERE table_id = ? ORDER BY seat", (row["id"],)
            )
            result.append(TableRow.from_row(row, seats))
        return result

    async def create_table(
        self, tx: Tx, guild_id: int, channel_id: int, host_id: int, kind: TableKind, settings: Mapping[str, Any]
    ) -> int:
        """Body of `Storage.create_table`."""
        # One statement, whoever else opens a table in this channel at the same moment (another process): the
        # partial unique index keeps one open table per channel, and the one who comes second reads the other's id.
        row = await tx.one(
            """
            INSERT INTO poker_tables (guild_id, channel_id, host_id, kind, settings, created_at)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (channel_id) WHERE status = 'open' DO NOTHING
            RETURNING id
            """,
            (guild_id, channel_id, host_id, kind.value, dumps(dict(settings)), self._clock()),
        )
        if row is None:
            existing = await tx.one(
                "SELECT id FROM poker_tables WHERE channel_id = ? AND status = 'open'", (channel_id,)
            )
            assert existing is not None
            raise TableExists(existing["id"])
        return int(row["id"])

    @staticmethod
    async def _update_open(tx: Tx, table_id: int, assignments: str, params: Sequence[Any]) -> None:
        """`UPDATE poker_tables SET <assignments>` of an open table, which the UPDATE locks as `open_table` does (one
        statement instead of a SELECT then an UPDATE: this is every action's path); raises TableNotFound."""
        changed = await tx.execute(
            f"UPDATE poker_tables SET {assignments} WHERE id = ? AND status = 'open'", (*params, table_id)
        )
        if not changed:
            raise TableNotFound(f"no open table {table_id}")

    async def save_state(
        self, tx: Tx, table_id: int, state: Mapping[str, Any], message_id: int | None, outbox: Owed
    ) -> None:
        """Body of `Storage.save_table_state`."""
        state_text = dumps(dict(state))
        await self._update_open(
            tx, table_id, "state = ?, message_id = COALESCE(?, message_id)", (state_text, message_id)
        )
        await self._outbox.attach(tx, table_id, None, outbox, None)

    async def save_state_statement(
        self, executor: Executor, table_id: int, state: Mapping[str, Any], message_id: int | None, outbox: Owed
    ) -> None:
        """`Storage.save_table_state` on PostgreSQL: `save_state` as one statement that commits itself (one round
        trip instead of four; `Outbox.save_state_statement`); raises TableNotFound, StorageError as it does."""
        rows = outbox(None) if callable(outbox) else outbox
        if not await self._outbox.save_state_statement(executor, table_id, dumps(dict(state)), message_id, rows):
            raise TableNotFound(f"no open table {table_id}")

    @staticmethod
    async def set_message(executor: Executor, table_id: int, message_id: int | None) -> None:
        """`Storage.set_table_message`: `_update_open` as a transaction of its own, one statement
        (`Executor.write_statement`: one round trip on PostgreSQL)."""
        changed = await executor.write_statement(
            "UPDATE poker_tables SET message_id = ? WHERE id = ? AND status = 'open'", (message_id, table_id)
        )
        if not changed:
            raise TableNotFound(f"no open table {table_id}")

    async def update_settings(
        self, tx: Tx, table_id: int, settings: Mapping[str, Any], state: Mapping[str, Any] | None, outbox: Owed
    ) -> None:
        """Body of `Storage.update_table_settings`."""
        await self._update_open(tx, table_id, "settings = ?", (dumps(dict(settings)),))
        await self._outbox.attach(tx, table_id, state, outbox, None)

    @staticmethod
    async def set_stacks(tx: Tx, table_id: int, stacks: Mapping[int, int]) -> dict[tuple[int, int], int]:
        """Set some seats' stacks ({seat: stack}) of a table whose row the caller locked; their total must not
        change: raises ChipsNotConserved, NotSeated. Returns every seat's stack after it, {(seat, user id): stack}
        (one read of the seats serves the check and the caller)."""
        rows = await tx.all("SELECT seat, user_id, stack FROM table_seats WHERE table_id = ?", (table_id,))
        current = {r["seat"]: r["stack"] for r in rows}
        missing = sorted(set(stacks) - set(current))
        if missing:
            raise NotSeated(f"no one sits at seats {missing} of table {table_id}")
        if any(s < 0 for s in stacks.values()):
            raise ChipsNotConserved("a stack cannot be negative")
        before = sum(current[seat] for seat in stacks)
        after = sum(stacks.values())
        if before != after:
            raise ChipsNotConserved(f"table {table_id}: stacks would go from {before} to {after} chips")
        await tx.executemany(
            "UPDATE table_seats SET stack = ? WHERE table_id = ? AND seat = ?",
            [(stack, table_id, seat) for seat, stack in stacks.items()],
        )
        return {(r["seat"], r["user_id"]): stacks.get(r["seat"], r["stack"]) for r in rows}

    async def set_seat_stacks(self, tx: Tx, table_id: int, stacks: Mapping[int, int]) -> None:
        """Body of `Storage.set_seat_stacks`."""
        await self.open_table(tx, table_id)
        await self.set_stacks(tx, table_id, stacks)

    async def close(self, tx: Tx, table_id: int, places: Mapping[int, int] | None, outbox: Owed) -> dict[int, int]:
        """Body of `Storage.close_table`."""
        table = await self.open_table(tx, table_id)
        now = self._clock()
        await tx.execute(
            "UPDATE hands SET ended_at = ?, result = ? WHERE table_id = ? AND ended_at IS NULL",
            (now, dumps({"aborted": True}), table_id),
        )
        seats = await tx.all("SELECT seat, user_id FROM table_seats WHERE table_id = ? ORDER BY seat", (table_id,))
        returned: dict[int, int] = {}
        for s in sorted(seats, key=lambda s: s["user_id"]):  # accounts are locked in user id order
            stack = await self._leave(tx, table, s["seat"], None)
            if table["kind"] == TableKind.CASH:
                returned[s["user_id"]] = stack
        returned = {s["user_id"]: returned[s["user_id"]] for s in seats if s["user_id"] in returned}  # seat order
        for user_id, place in (places or {}).items():
            await self.record_place(tx, table_id, user_id, place)
        await tx.execute("UPDATE poker_tables SET status = 'closed', closed_at = ? WHERE id = ?", (now, table_id))
        await self._outbox.attach(tx, table_id, None, outbox, returned)
        return returned
