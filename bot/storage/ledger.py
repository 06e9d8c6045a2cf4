"""Accounts, the chip ledger and the audit: transaction bodies. `Ledger.move` is THE chip movement.

Every chip that enters or leaves a balance goes through `move`, which changes the balance and appends its ledger
row in the caller's transaction, in one statement each: the balance changes by an UPDATE guarded by "not below
zero", so two concurrent writers (PostgreSQL, two processes) can neither lose an update nor spend a chip twice.
"""

from __future__ import annotations

import logging
from typing import Any

from bot.storage.errors import InsufficientBalance, RefillCooldown, RefillDisabled, RefillNotNeeded, StorageError
from bot.storage.executor import Tx
from bot.storage.models import HOUSE_USER_ID, ISSUING_KINDS, AccountRow, AuditReport, Clock, LedgerKind, LedgerRow
from bot.storage.settings import Settings

log = logging.getLogger(__name__)


class Ledger:
    """The `accounts` and `ledger` tables, and the audit of a server's chips."""

    def __init__(self, settings: Settings, clock: Clock) -> None:
        self._settings = settings
        self._clock = clock

    async def move(
        self,
        tx: Tx,
        guild_id: int,
        user_id: int,
        delta: int,
        kind: LedgerKind,
        *,
        reason: str = "",
        table_id: int | None = None,
        hand_id: int | None = None,
    ) -> int:
        """Change a balance by `delta` and append its ledger row, in the caller's transaction. Returns the new
        balance; raises InsufficientBalance (the caller rolls back) if it would go negative, StorageError if the
        account does not exist, TypeError for an amount that is not an int."""
        if not isinstance(delta, int) or isinstance(delta, bool):
            raise TypeError("chip amounts are ints")
        row = await tx.one(
            """
            UPDATE accounts SET balance = balance + ?
            WHERE guild_id = ? AND user_id = ? AND balance + ? >= 0
            RETURNING balance
            """,
            (delta, guild_id, user_id, delta),
        )
        if row is None:
            balance = await self.balance_of(tx, guild_id, user_id)
            if balance is None:
                raise StorageError(f"no account for user {user_id} in guild {guild_id}")
            raise InsufficientBalance(balance, -delta)
        new_balance = int(row["balance"])
        await tx.execute(
            """
            INSERT INTO ledger (guild_id, user_id, delta, kind, reason, table_id, hand_id, balance_after, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            (guild_id, user_id, delta, LedgerKind(kind).value, reason, table_id, hand_id, new_balance, self._clock()),
        )
        return new_balance

    async def ensure(self, tx: Tx, guild_id: int, user_id: int) -> int:
        """Body of `Storage.ensure_account`: open the account on first touch with its GRANT; return the balance."""
        granted = await self.open(tx, guild_id, user_id)
        if granted is not None:
            return granted
        balance = await self.balance_of(tx, guild_id, user_id)
        assert balance is not None
        return balance

    async def open(self, tx: Tx, guild_id: int, user_id: int) -> int | None:
        """Open the account on first touch with its GRANT and return its balance; None when it was open already
        (its balance is not read: one statement for a member who has an account, the usual case of a buy-in)."""
        opened = await tx.execute(
            """
            INSERT INTO accounts (guild_id, user_id, balance, created_at) VALUES (?, ?, 0, ?)
            ON CONFLICT (guild_id, user_id) DO NOTHING
            """,
            (guild_id, user_id, self._clock()),
        )
        if not opened:
            return None
        grant = (await self._settings.guild_settings(tx, guild_id)).starting_grant
        if grant == 0:
            return 0
        return await self.move(tx, guild_id, user_id, grant, LedgerKind.GRANT, reason="starting grant")

    async def issue_to_house(self, tx: Tx, guild_id: int, amount: int, table_id: int) -> int:
        """Make the house hold at least `amount` chips for a computer player's buy-in (docs/practice.md, "Chips"):
        open its account (no grant) on first use and issue what it lacks as one HOUSE_ISSUE row. Returns its
        balance. The issue row names no table (it moves no chip to one; the buy-in that follows does)."""
        await tx.execute(
            """
            INSERT INTO accounts (guild_id, user_id, balance, created_at) VALUES (?, ?, 0, ?)
            ON CONFLICT (guild_id, user_id) DO NOTHING
            """,
            (guild_id, HOUSE_USER_ID, self._clock()),
        )
        balance = await self.balance_of(tx, guild_id, HOUSE_USER_ID)
        assert balance is not None
        if balance >= amount:
            return balance
        return await self.move(
            tx,
            guild_id,
            HOUSE_USER_ID,
            amount - balance,
            LedgerKind.HOUSE_ISSUE,
            reason=f"computer player at table {table_id}",
        )

    @staticmethod
    async def balance_of(tx: Tx, guild_id: int, user_id: int) -> int | None:
        """The member's balance, None if they have no account."""
        row = await tx.one("SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        return None if row is None else int(row["balance"])

    @staticmethod
    async def account(tx: Tx, guild_id: int, user_id: int) -> AccountRow | None:
        """Body of `Storage.account`."""
        row = await tx.one("SELECT * FROM accounts WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        return None if row is None else AccountRow.from_row(row)

    async def adjust(self, tx: Tx, guild_id: int, user_id: int, delta: int, reason: str) -> int:
        """Body of `Storage.adjust`."""
        await self.open(tx, guild_id, user_id)
        return await self.move(tx, guild_id, user_id, delta, LedgerKind.ADJUSTMENT, reason=reason)

    async def refill(self, tx: Tx, guild_id: int, user_id: int, amount: int | None, cooldown_s: int | None) -> int:
        """Body of `Storage.refill`."""
        settings = await self._settings.guild_settings(tx, guild_id)
        grant = settings.starting_grant if amount is None else amount
        cooldown = settings.refill_cooldown_s if cooldown_s is None else cooldown_s
        if grant <= 0 and amount is None:
            raise RefillDisabled()
        if grant <= 0:
            raise ValueError("refill amount must be positive")
        await self.open(tx, guild_id, user_id)
        # Locked first: the checks below hold until this transaction ends (two refills at once give one).
        row = await tx.one(
            f"""
            SELECT balance, last_refill_at FROM accounts WHERE guild_id = ? AND user_id = ?{tx.dialect.for_update}
            """,
            (guild_id, user_id),
        )
        assert row is not None
        balance = int(row["balance"])
        on_tables = await self.on_cash_tables(tx, guild_id, user_id)
        if balance or on_tables:
            raise RefillNotNeeded(balance, on_tables)
        now = self._clock()
        last = row["last_refill_at"]
        if last is not None and now < last + cooldown:
            raise RefillCooldown(last + cooldown)
        await tx.execute(
            "UPDATE accounts SET last_refill_at = ? WHERE guild_id = ? AND user_id = ?", (now, guild_id, user_id)
        )
        return await self.move(tx, guild_id, user_id, grant, LedgerKind.REFILL, reason="refill")

    @staticmethod
    async def on_cash_tables(tx: Tx, guild_id: int, user_id: int) -> int:
        """The chips the member has on the open cash tables of the server."""
        return await tx.count(
            """
            SELECT COALESCE(SUM(s.stack), 0) FROM table_seats s JOIN poker_tables t ON t.id = s.table_id
            WHERE t.guild_id = ? AND s.user_id = ? AND t.kind = 'cash' AND t.status = 'open'
            """,
            (guild_id, user_id),
        )

    @staticmethod
    async def rows(tx: Tx, guild_id: int, user_id: int | None, limit: int) -> list[LedgerRow]:
        """Body of `Storage.ledger`."""
        sql = "SELECT * FROM ledger WHERE guild_id = ?"
        params: list[Any] = [guild_id]
        if user_id is not None:
            sql += " AND user_id = ?"
            params.append(user_id)
        sql += " ORDER BY id DESC LIMIT ?"
        params.append(limit)
        return [LedgerRow.from_row(r) for r in await tx.all(sql, params)]

    @staticmethod
    async def audit(tx: Tx, guild_id: int) -> AuditReport:
        """Body of `Storage.audit`."""
        problems: list[str] = []
        issuing = tuple(k.value for k in ISSUING_KINDS)
        marks = ", ".join("?" * len(issuing))
        balances = await tx.count("SELECT COALESCE(SUM(balance), 0) FROM accounts WHERE guild_id = ?", (guild_id,))
        on_tables = await tx.count(
            """
            SELECT COALESCE(SUM(s.stack), 0) FROM table_seats s JOIN poker_tables t ON t.id = s.table_id
            WHERE t.guild_id = ? AND t.kind = 'cash' AND t.status = 'open'
            """,
            (guild_id,),
        )
        issued = await tx.count(
            f"SELECT COALESCE(SUM(delta), 0) FROM ledger WHERE guild_id = ? AND kind IN ({marks})",
            (guild_id, *issuing),
        )
        accounts = await tx.all(
            """
            SELECT a.user_id, a.balance, COALESCE(SUM(l.delta), 0) AS ledger_sum
            FROM accounts a LEFT JOIN ledger l ON l.guild_id = a.guild_id AND l.user_id = a.user_id
            WHERE a.guild_id = ? GROUP BY a.user_id, a.balance
            """,
            (guild_id,),
        )
        # Each row's balance_after must follow from the previous row of the same account: proves that no two
        # movements interleaved and that no balance changed outside the ledger.
        chain_breaks = await tx.all(
            """
            SELECT * FROM (
                SELECT id, user_id, delta, balance_after,
                       LAG(balance_after, 1, CAST(0 AS BIGINT)) OVER (PARTITION BY user_id ORDER BY id) AS prev
                FROM ledger WHERE guild_id = ?
            ) AS chain WHERE prev + delta != balance_after
            ORDER BY id
            """,
            (guild_id,),
        )
        tables = await tx.all(
            """
            SELECT t.id, t.kind, t.status,
                   (SELECT COALESCE(SUM(stack), 0) FROM table_seats WHERE table_id = t.id) AS seats,
                   (SELECT COALESCE(-SUM(delta), 0) FROM ledger WHERE table_id = t.id) AS sent
            FROM poker_tables t WHERE t.guild_id = ?
            ORDER BY t.id
            """,
            (guild_id,),
        )
        # While a hand is played, a seat holds the stack its player started the hand with (the hand's result sets
        # the new stacks); the chips of the hand in progress are those stacks.
        hand_breaks = await tx.all(
            """
            SELECT h.id AS hand_id, h.table_id, p.user_id, p.starting_stack, s.stack
            FROM hands h JOIN poker_tables t ON t.id = h.table_id
            JOIN hand_players p ON p.hand_id = h.id
            LEFT JOIN table_seats s ON s.table_id = h.table_id AND s.seat = p.seat AND s.user_id = p.user_id
            WHERE t.guild_id = ? AND t.status = 'open' AND h.ended_at IS NULL
              AND (s.stack IS NULL OR s.stack != p.starting_stack)
            ORDER BY h.id, p.player_index
            """,
            (guild_id,),
        )
        for r in chain_breaks:
            problems.append(
                f"ledger row {r['id']} (user {r['user_id']}): {r['prev']} + {r['delta']} != {r['balance_after']}"
            )
        if balances + on_tables != issued:
            problems.append(f"balances {balances} + on tables {on_tables} != issued {issued}")
        for r in accounts:
            if r["balance"] != r["ledger_sum"]:
                problems.append(f"user {r['user_id']}: balance {r['balance']} != ledger sum {r['ledger_sum']}")
        for t in tables:
            if t["status"] == "open" and t["kind"] == "cash" and t["seats"] != t["sent"]:
                problems.append(f"table {t['id']}: seats hold {t['seats']} but the ledger sent {t['sent']}")
            if t["status"] == "closed" and t["sent"] != 0:
                problems.append(f"closed table {t['id']} still holds {t['sent']} ledger chips")
        for r in hand_breaks:
            problems.append(
                f"hand {r['hand_id']} of table {r['table_id']}: user {r['user_id']} started it with "
                f"{r['starting_stack']} chips but their seat holds {r['stack']}"
            )
        report = AuditReport(guild_id, not problems, balances, on_tables, issued, tuple(problems))
        if not report.ok:
            log.error("audit of guild %d failed: %s", guild_id, "; ".join(problems))
        return report
