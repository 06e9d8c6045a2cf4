"""The Storage class: one aiosqlite connection holding accounts, the chip ledger, tables, hands and standings.

Every call runs as one function in the connection's own thread (aiosqlite's queue runs them one at a time,
in order): a write is one `BEGIN IMMEDIATE` transaction, a read sees one committed state, concurrent callers
never interleave, and each call costs one trip to that thread whatever its number of statements.
Every chip that enters or leaves a balance goes through `_move`, which writes the ledger row and
the balance in the caller's transaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.storage.errors import (
    ChipsNotConserved,
    HandInProgress,
    HandNotFound,
    InsufficientBalance,
    NotSeated,
    RefillCooldown,
    RefillDisabled,
    RefillNotNeeded,
    SeatTaken,
    StorageError,
    TableExists,
    TableNotFound,
    WrongTableKind,
)
from bot.storage.migrations import migrate
from bot.storage.models import (
    ISSUING_KINDS,
    AccountRow,
    AuditReport,
    GuildDefaults,
    GuildSettings,
    HandPlayerRow,
    HandRow,
    LeaderboardBy,
    LeaderboardPage,
    LeaderboardRow,
    LedgerKind,
    LedgerRow,
    OutboxRow,
    PlayerOutcome,
    SeatRow,
    StatsRow,
    TableRow,
)

log = logging.getLogger(__name__)

Clock = Callable[[], float]
_Params = Sequence[Any] | Mapping[str, Any]
T = TypeVar("T")
#: The messages a write owes Discord (see `Storage._attach`): JSON objects {"key": unique text, "payload": JSON}, or
#: a function of the write's result giving them (a reply that quotes the new balance).
Owed = Sequence[Mapping[str, Any]] | Callable[[Any], Sequence[Mapping[str, Any]]]

_LANGUAGES = ("en", "fr")
_TABLE_KINDS = ("cash", "tournament")
_BUY_IN_KINDS = (LedgerKind.BUY_IN, LedgerKind.REBUY)


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


#: The finished hands a member was dealt on a server (`p` their row, `h` the hand, `t` its table): the one
#: definition every hand figure counts (a hand cancelled by /poker end never finished: its rows have no final
#: stack). Named parameter :guild.
_PLAYED_HANDS = """
    hand_players p JOIN hands h ON h.id = p.hand_id JOIN poker_tables t ON t.id = h.table_id
    WHERE t.guild_id = :guild AND h.ended_at IS NOT NULL AND p.final_stack IS NOT NULL
"""
#: Tournament finishing places recorded on a server (`tp`, `t` its table). Named parameter :guild.
_PLACES = "tournament_places tp JOIN poker_tables t ON t.id = tp.table_id WHERE t.guild_id = :guild"


#: The largest grant or cooldown a server may store (Discord's largest integer).
_WHOLE_MAX = 2**53 - 1


def _whole(value: Any, default: int) -> int:
    """A stored whole number of 0 to _WHOLE_MAX, else `default` (NULL, or a REAL such as 1e+20 stored before every
    option was checked at the command's door: issue 12)."""
    return value if type(value) is int and 0 <= value <= _WHOLE_MAX else default


_LEADERBOARD_VALUES = {
    LeaderboardBy.BALANCE: "SELECT user_id, balance AS value FROM accounts WHERE guild_id = :guild",
    LeaderboardBy.NET: f"""
        SELECT p.user_id, SUM(p.net) AS value FROM {_PLAYED_HANDS} AND t.kind = 'cash' GROUP BY p.user_id
    """,
    LeaderboardBy.TOURNAMENT_WINS: f"SELECT tp.user_id, SUM(tp.place = 1) AS value FROM {_PLACES} GROUP BY tp.user_id",
}


#: When the write lock is taken, a batch of hand actions is tried again after these pauses (seconds), then waits in
#: line in the database thread.
ACTIONS_RETRY_DELAYS_S = (0.0005, 0.001, 0.002, 0.004)


class _Busy(Exception):
    """The write lock is held by another connection: nothing was done, try again once it is free."""


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    return getattr(exc, "sqlite_errorcode", None) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "locked" in str(
        exc
    )


def _as_storage_error(exc: Exception) -> StorageError:
    return exc if isinstance(exc, StorageError) else StorageError(f"could not store the actions: {exc}")


def _rows(batch: list[tuple[int, str, float, asyncio.Future[int]]]) -> list[tuple[int, str, float]]:
    return [(hand_id, text, at) for hand_id, text, at, _ in batch]


def _settle(batch: list[tuple[int, str, float, asyncio.Future[int]]], outcomes: list[int | StorageError]) -> None:
    """Tell each caller of a batch of appends its outcome (a sequence number, or the error to raise)."""
    for (_, _, _, future), outcome in zip(batch, outcomes, strict=True):
        if future.done():
            continue
        if isinstance(outcome, StorageError):
            future.set_exception(outcome)
        else:
            future.set_result(outcome)


def _open_actions_connection(path: str | Path) -> sqlite3.Connection | None:
    """The connection hand actions are written through, in the event loop (see `Storage.append_action`); None for
    an in-memory database or a file not in WAL mode (where readers and this writer would block each other).
    It never waits for a lock (busy_timeout 0: the caller waits without blocking the loop) and never
    checkpoints the WAL (which may sync the disk: the database thread's connection does it)."""
    if str(path) == ":memory:":
        return None
    db = sqlite3.connect(str(path), isolation_level=None)
    try:
        mode = str(db.execute("PRAGMA journal_mode").fetchone()[0]).lower()
        if mode != "wal":
            log.warning("database %s is in %s journal mode, not WAL: hand actions go through its thread", path, mode)
            db.close()
            return None
        for pragma in (
            "PRAGMA foreign_keys = ON",
            "PRAGMA synchronous = NORMAL",
            "PRAGMA busy_timeout = 0",
            "PRAGMA wal_autocheckpoint = 0",
        ):
            db.execute(pragma).close()
        db.row_factory = sqlite3.Row
    except BaseException:
        db.close()
        raise
    return db


class Storage:
    """The bot's database. Create with `await Storage.open(path)`; close with `await storage.close()`."""

    def __init__(
        self,
        db: aiosqlite.Connection,
        defaults: GuildDefaults,
        clock: Clock,
        actions_db: sqlite3.Connection | None = None,
    ) -> None:
        self._db = db
        self._actions_db = actions_db  # hand actions, written in the event loop (append_action)
        self._defaults = defaults
        self._clock = clock
        self._closed = False
        self._closing: asyncio.Future[None] | None = None
        self._pending_actions: list[tuple[int, str, float, asyncio.Future[int]]] = []
        self._action_writes: set[asyncio.Task[None]] = set()  # the backlog's task, while it runs
        self._backlog: list[tuple[int, str, float, asyncio.Future[int]]] | None = None  # batches waiting, oldest first
        self._next_seq: dict[int, int] = {}  # next action number of unfinished hands, filled on first append

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        defaults: GuildDefaults | None = None,
        clock: Clock = time.time,
    ) -> Storage:
        """Open (creating it and its folder if needed) the database at `path` and migrate it.

        WAL journal, foreign keys on, pending migrations applied in one transaction. `defaults` are
        the settings of servers that chose none (from config); `clock` gives Unix seconds (tests
        inject one). Raises SchemaTooNew if the file is newer than this code, StorageError on other
        schema problems; the connection is closed in both cases.
        """
        try:
            if str(path) != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            db = await aiosqlite.connect(str(path), isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise StorageError(f"cannot open the database at {path}: {exc}") from exc
        try:
            db.row_factory = sqlite3.Row
            # Close each cursor: a PRAGMA that returns a row (journal_mode, busy_timeout) left unread keeps its
            # statement active until the cursor is freed, and COMMIT then fails ("SQL statements in progress").
            for pragma in (
                "PRAGMA journal_mode = WAL",
                "PRAGMA foreign_keys = ON",
                "PRAGMA busy_timeout = 5000",
                "PRAGMA synchronous = NORMAL",
            ):
                async with db.execute(pragma):
                    pass
            version = await migrate(db)
            actions_db = _open_actions_connection(path)
        except BaseException:
            await db.close()
            raise
        log.info("database %s open at schema version %d", path, version)
        return cls(db, defaults or GuildDefaults(), clock, actions_db)

    async def close(self) -> None:
        """Wait for the queued actions and the running work, checkpoint the WAL and close the connection
        (idempotent: a second call waits for the first to finish)."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close())
        await asyncio.shield(self._closing)

    async def _close(self) -> None:
        self._send_actions()
        while self._action_writes:
            await asyncio.gather(*self._action_writes, return_exceptions=True)
        self._closed = True
        try:
            if self._actions_db is not None:
                self._actions_db.close()
            await self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            await self._db.close()
        log.info("database closed")

    async def _in_thread(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run `work(connection)` in the database's thread, in one hop.

        aiosqlite runs the calls queued on a connection one at a time, in order, in its own thread: a whole
        transaction given as one function therefore never interleaves with another caller's statements, and
        costs one trip to that thread instead of one per statement (each trip waits for the event loop to
        resume the caller, which under load made every transaction - and the table actions queued behind
        it - many times slower). Raises StorageError once the database is closed."""
        if self._closed:
            raise StorageError("the database is closed")
        connection = self._db._conn
        # The worker thread keeps its last call and its outcome alive until the next call comes: neither may hold
        # `work` (whose closure, or an exception's traceback through it, holds this Storage and so the aiosqlite
        # connection, which stops its thread only when collected), hence the hand-over in both directions
        # through a list emptied on each side.
        box: list[Any] = [work]  # in: the work; out: (True, result) or (False, exception)

        def run() -> None:  # returns nothing: aiosqlite's worker keeps its last future (and result) alive
            fn = box.pop()
            try:
                box.append((True, fn(connection)))
            except BaseException as exc:
                box.append((False, exc))

        await self._db._execute(run)  # type: ignore[no-untyped-call]  # aiosqlite's own queue
        ok, value = box.pop()
        if not ok:
            raise value
        result: T = value
        return result

    async def _write(self, work: Callable[[sqlite3.Connection], T], on_failure: Callable[[], None] | None = None) -> T:
        """Run `work(connection)` as one write transaction (BEGIN IMMEDIATE ... COMMIT) in the database's
        thread and return its result; any exception rolls everything back and is raised here (`on_failure`
        runs first, in the thread, before any later call). A caller cancelled meanwhile does not stop it: the
        transaction is done whole or not at all."""

        def transaction(db: sqlite3.Connection) -> T:
            db.execute("BEGIN IMMEDIATE")
            try:
                result = work(db)
                db.execute("COMMIT")
            except BaseException:
                if on_failure is not None:
                    on_failure()
                if db.in_transaction:  # SQLite may already have rolled back (e.g. disk full)
                    db.execute("ROLLBACK")
                raise
            return result

        return await self._in_thread(transaction)

    async def _query(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run the reads of `work(connection)` in the database's thread and return its result (no other
        caller's statement runs in between, so it sees one committed state)."""
        return await self._in_thread(work)

    @staticmethod
    def _one(db: sqlite3.Connection, sql: str, params: _Params = ()) -> sqlite3.Row | None:
        row: sqlite3.Row | None = db.execute(sql, params).fetchone()
        return row

    @classmethod
    def _count(cls, db: sqlite3.Connection, sql: str, params: _Params = ()) -> int:
        """The single integer an aggregate query returns (0 for NULL)."""
        row = cls._one(db, sql, params)
        return 0 if row is None or row[0] is None else int(row[0])

    @staticmethod
    def _all(db: sqlite3.Connection, sql: str, params: _Params = ()) -> list[sqlite3.Row]:
        return list(db.execute(sql, params).fetchall())

    # ------------------------------------------------------------------ meta

    async def get_meta(self, key: str) -> str | None:
        """A bot-wide value by name (e.g. "command_sync_hash"), or None."""

        def work(db: sqlite3.Connection) -> str | None:
            row = self._one(db, "SELECT value FROM meta WHERE key = ?", (key,))
            return None if row is None else str(row["value"])

        return await self._query(work)

    async def set_meta(self, key: str, value: str) -> None:
        """Store a bot-wide value by name."""

        def work(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

        return await self._write(work)

    # ------------------------------------------------------------------ guild settings

    def _guild_settings(self, db: sqlite3.Connection, guild_id: int) -> GuildSettings:
        row = self._one(db, "SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
        d = self._defaults
        table_defaults = dict(d.table_defaults)
        if row is None:
            return GuildSettings(guild_id, d.language, d.starting_grant, d.refill_cooldown_s, table_defaults, None)
        table_defaults.update(_loads(row["table_defaults"]) or {})
        return GuildSettings(
            guild_id=guild_id,
            language=row["language"] if row["language"] is not None else d.language,
            starting_grant=_whole(row["starting_grant"], d.starting_grant),
            refill_cooldown_s=_whole(row["refill_cooldown_s"], d.refill_cooldown_s),
            table_defaults=table_defaults,
            chosen_language=row["language"],
        )

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings: what it chose, else the bot's defaults (table_defaults merged key by key)."""

        def work(db: sqlite3.Connection) -> GuildSettings:
            return self._guild_settings(db, guild_id)

        return await self._query(work)

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
        if language is not None and language not in _LANGUAGES:
            raise ValueError(f"language must be one of {_LANGUAGES}")
        if starting_grant is not None and (type(starting_grant) is not int or not 0 <= starting_grant <= _WHOLE_MAX):
            raise ValueError("starting_grant must be a whole number of chips, not negative")
        if refill_cooldown_s is not None and (
            type(refill_cooldown_s) is not int or not 0 <= refill_cooldown_s <= _WHOLE_MAX
        ):
            raise ValueError("refill_cooldown_s must be a whole number of seconds, not negative")

        def work(db: sqlite3.Connection) -> GuildSettings:
            row = self._one(db, "SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
            own: dict[str, Any] = _loads(row["table_defaults"]) if row is not None else {}
            for key, value in (table_defaults or {}).items():
                if value is None:
                    own.pop(key, None)
                else:
                    own[key] = value
            db.execute(
                """
                INSERT INTO guild_settings (guild_id, language, starting_grant, refill_cooldown_s, table_defaults,
                                            updated_at)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (guild_id) DO UPDATE SET
                    language = COALESCE(excluded.language, language),
                    starting_grant = COALESCE(excluded.starting_grant, starting_grant),
                    refill_cooldown_s = COALESCE(excluded.refill_cooldown_s, refill_cooldown_s),
                    table_defaults = excluded.table_defaults,
                    updated_at = excluded.updated_at
                """,
                (guild_id, language, starting_grant, refill_cooldown_s, _dumps(own), self._clock()),
            )
            return self._guild_settings(db, guild_id)

        return await self._write(work)

    # ------------------------------------------------------------------ accounts and the ledger

    def _move(
        self,
        db: sqlite3.Connection,
        guild_id: int,
        user_id: int,
        delta: int,
        kind: LedgerKind,
        *,
        reason: str = "",
        table_id: int | None = None,
        hand_id: int | None = None,
    ) -> int:
        """THE chip movement: change a balance by `delta` and append its ledger row, in the caller's
        transaction. Returns the new balance; raises InsufficientBalance (caller rolls back) if it would
        go negative. The account must exist."""
        if not isinstance(delta, int) or isinstance(delta, bool):
            raise TypeError("chip amounts are ints")
        row = self._one(db, "SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        if row is None:
            raise StorageError(f"no account for user {user_id} in guild {guild_id}")
        balance = int(row["balance"])
        new_balance = balance + delta
        if new_balance < 0:
            raise InsufficientBalance(balance, -delta)
        db.execute(
            "UPDATE accounts SET balance = ? WHERE guild_id = ? AND user_id = ?", (new_balance, guild_id, user_id)
        )
        db.execute(
            """
            INSERT INTO ledger (guild_id, user_id, delta, kind, reason, table_id, hand_id, balance_after, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            (guild_id, user_id, delta, LedgerKind(kind).value, reason, table_id, hand_id, new_balance, self._clock()),
        )
        return new_balance

    def _ensure(self, db: sqlite3.Connection, guild_id: int, user_id: int) -> int:
        row = self._one(db, "SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        if row is not None:
            return int(row["balance"])
        db.execute(
            "INSERT INTO accounts (guild_id, user_id, balance, created_at) VALUES (?, ?, 0, ?)",
            (guild_id, user_id, self._clock()),
        )
        grant = (self._guild_settings(db, guild_id)).starting_grant
        if grant == 0:
            return 0
        return self._move(db, guild_id, user_id, grant, LedgerKind.GRANT, reason="starting grant")

    async def ensure_account(self, guild_id: int, user_id: int) -> int:
        """Open the member's account on first touch, granting the server's starting grant (a GRANT ledger
        row: chips issued, as the audit counts them); return the balance. A member's first touch is anything
        that reads or moves their chips: a cash buy-in, a tournament entry, `balance`, a refill, an
        adjustment (and, in the Discord layer, their own /stats and /leaderboard)."""

        def work(db: sqlite3.Connection) -> int:
            return self._ensure(db, guild_id, user_id)

        return await self._write(work)

    def _balance_of(self, db: sqlite3.Connection, guild_id: int, user_id: int) -> int | None:
        row = self._one(db, "SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        return None if row is None else int(row["balance"])

    async def balance(self, guild_id: int, user_id: int) -> int:
        """The member's balance, opening their account first if they have none (as `ensure_account`: the
        starting grant is issued, a GRANT ledger row). So a member is never shown chips that were not issued:
        whoever has a balance has an account, a rank by balance and their grant counted in the audit."""

        def read(db: sqlite3.Connection) -> int | None:
            return self._balance_of(db, guild_id, user_id)

        balance = await self._query(read)
        return await self.ensure_account(guild_id, user_id) if balance is None else balance

    async def account(self, guild_id: int, user_id: int) -> AccountRow | None:
        """The member's account, or None if they never touched chips on this server."""

        def work(db: sqlite3.Connection) -> AccountRow | None:
            row = self._one(db, "SELECT * FROM accounts WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
            if row is None:
                return None
            return AccountRow(row["guild_id"], row["user_id"], row["balance"], row["created_at"], row["last_refill_at"])

        return await self._query(work)

    async def adjust(self, guild_id: int, user_id: int, delta: int, reason: str) -> int:
        """An admin ADJUSTMENT of a balance by `delta` chips (issues or withdraws chips). Returns the new
        balance; raises InsufficientBalance if it would go negative (nothing changed)."""

        def work(db: sqlite3.Connection) -> int:
            self._ensure(db, guild_id, user_id)
            return self._move(db, guild_id, user_id, delta, LedgerKind.ADJUSTMENT, reason=reason)

        return await self._write(work)

    async def refill(
        self, guild_id: int, user_id: int, amount: int | None = None, cooldown_s: int | None = None
    ) -> int:
        """Give a member who is out of chips a REFILL of `amount` (default: the server's starting grant),
        at most once per `cooldown_s` seconds (default: the server's refill cooldown). Returns the balance.

        Raises RefillDisabled if the server's starting grant is 0 (and no `amount` is given), RefillNotNeeded if
        the member has a balance or chips on an open cash table of this server,
        RefillCooldown (with `.retry_at`) if the last refill was too recent. Nothing changes when refused.
        """

        def work(db: sqlite3.Connection) -> int:
            settings = self._guild_settings(db, guild_id)
            grant = settings.starting_grant if amount is None else amount
            cooldown = settings.refill_cooldown_s if cooldown_s is None else cooldown_s
            if grant <= 0 and amount is None:
                raise RefillDisabled()
            if grant <= 0:
                raise ValueError("refill amount must be positive")
            balance = self._ensure(db, guild_id, user_id)
            on_tables = self._user_on_cash_tables(db, guild_id, user_id)
            if balance or on_tables:
                raise RefillNotNeeded(balance, on_tables)
            row = self._one(
                db, "SELECT last_refill_at FROM accounts WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
            )
            now = self._clock()
            last = row["last_refill_at"] if row else None
            if last is not None and now < last + cooldown:
                raise RefillCooldown(last + cooldown)
            db.execute(
                "UPDATE accounts SET last_refill_at = ? WHERE guild_id = ? AND user_id = ?", (now, guild_id, user_id)
            )
            return self._move(db, guild_id, user_id, grant, LedgerKind.REFILL, reason="refill")

        return await self._write(work)

    def _user_on_cash_tables(self, db: sqlite3.Connection, guild_id: int, user_id: int) -> int:
        return self._count(
            db,
            """
            SELECT COALESCE(SUM(s.stack), 0) FROM table_seats s JOIN poker_tables t ON t.id = s.table_id
            WHERE t.guild_id = ? AND s.user_id = ? AND t.kind = 'cash' AND t.status = 'open'
            """,
            (guild_id, user_id),
        )

    async def ledger(self, guild_id: int, user_id: int | None = None, limit: int = 50) -> list[LedgerRow]:
        """The server's ledger rows (one member's if `user_id`), newest first."""
        sql = "SELECT * FROM ledger WHERE guild_id = ?"
        params: list[Any] = [guild_id]
        if user_id is not None:
            sql += " AND user_id = ?"
            params.append(user_id)
        sql += " ORDER BY id DESC LIMIT ?"
        params.append(limit)

        def work(db: sqlite3.Connection) -> list[LedgerRow]:
            rows = self._all(db, sql, params)
            return [
                LedgerRow(
                    r["id"],
                    r["guild_id"],
                    r["user_id"],
                    r["delta"],
                    LedgerKind(r["kind"]),
                    r["reason"],
                    r["table_id"],
                    r["hand_id"],
                    r["balance_after"],
                    r["created_at"],
                )
                for r in rows
            ]

        return await self._query(work)

    # ------------------------------------------------------------------ chips between balances and tables

    def _open_table(self, db: sqlite3.Connection, table_id: int) -> sqlite3.Row:
        row = self._one(db, "SELECT * FROM poker_tables WHERE id = ?", (table_id,))
        if row is None or row["status"] != "open":
            raise TableNotFound(f"no open table {table_id}")
        return row

    def _in_open_hand(self, db: sqlite3.Connection, table_id: int, user_id: int) -> bool:
        row = self._one(
            db,
            """
            SELECT 1 FROM hands h JOIN hand_players p ON p.hand_id = h.id
            WHERE h.table_id = ? AND h.ended_at IS NULL AND p.user_id = ?
            """,
            (table_id, user_id),
        )
        return row is not None

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
        its grant) on first touch. Raises InsufficientBalance, SeatTaken, NotSeated, HandInProgress,
        TableNotFound, WrongTableKind (tournament), ValueError (amount <= 0).
        Table limits (min/max buy-in, between hands) are the table service's to check.
        `state`/`outbox`: stored in the same transaction (see `_attach`).
        """
        kind = LedgerKind(kind)
        if kind not in _BUY_IN_KINDS:
            raise ValueError("buy_in kind must be BUY_IN or REBUY")
        if amount <= 0:
            raise ValueError("buy-in amount must be positive")

        def work(db: sqlite3.Connection) -> int:
            table = self._open_table(db, table_id)
            if table["guild_id"] != guild_id:
                raise TableNotFound(f"table {table_id} is not in guild {guild_id}")
            if table["kind"] != "cash":
                raise WrongTableKind("buy-ins are for cash tables")
            occupant = self._one(
                db, "SELECT user_id FROM table_seats WHERE table_id = ? AND seat = ?", (table_id, seat)
            )
            mine = self._one(db, "SELECT seat FROM table_seats WHERE table_id = ? AND user_id = ?", (table_id, user_id))
            if kind is LedgerKind.BUY_IN:
                if occupant is not None or mine is not None:
                    raise SeatTaken(f"seat {seat} is taken or user {user_id} already sits at table {table_id}")
            elif occupant is None or occupant["user_id"] != user_id:
                raise NotSeated(f"user {user_id} does not sit at seat {seat} of table {table_id}")
            elif self._in_open_hand(db, table_id, user_id):
                raise HandInProgress(f"user {user_id} is in a hand at table {table_id}: rebuy between hands")
            self._ensure(db, guild_id, user_id)
            balance = self._move(db, guild_id, user_id, -amount, kind, reason=f"seat {seat}", table_id=table_id)
            if kind is LedgerKind.BUY_IN:
                db.execute(
                    "INSERT INTO table_seats (table_id, seat, user_id, stack) VALUES (?, ?, ?, ?)",
                    (table_id, seat, user_id, amount),
                )
            else:
                db.execute(
                    "UPDATE table_seats SET stack = stack + ? WHERE table_id = ? AND seat = ?",
                    (amount, table_id, seat),
                )
            self._attach(db, table_id, state, outbox, balance)
            return balance

        return await self._write(work)

    def _leave(self, db: sqlite3.Connection, table: sqlite3.Row, seat: int, user_id: int | None) -> int:
        """Remove a seat; on a cash table its stack goes back to the balance (CASH_OUT). Returns the stack."""
        row = self._one(
            db, "SELECT user_id, stack FROM table_seats WHERE table_id = ? AND seat = ?", (table["id"], seat)
        )
        if row is None or (user_id is not None and row["user_id"] != user_id):
            raise NotSeated(f"user {user_id} does not sit at seat {seat} of table {table['id']}")
        stack = int(row["stack"])
        db.execute("DELETE FROM table_seats WHERE table_id = ? AND seat = ?", (table["id"], seat))
        if table["kind"] == "cash" and stack:
            self._move(
                db,
                table["guild_id"],
                row["user_id"],
                stack,
                LedgerKind.CASH_OUT,
                reason=f"seat {seat}",
                table_id=table["id"],
            )
        return stack

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
        the same transaction (as `record_place`). `state`/`outbox`: as `_attach`."""

        def work(db: sqlite3.Connection) -> int:
            table = self._open_table(db, table_id)
            if table["guild_id"] != guild_id:
                raise TableNotFound(f"table {table_id} is not in guild {guild_id}")
            if self._in_open_hand(db, table_id, user_id):
                # Their seat's stored stack is the one from the hand's start; the hand must end first.
                raise HandInProgress(f"user {user_id} is in a hand at table {table_id}: leave after it")
            self._leave(db, table, seat, user_id)
            if place is not None:
                self._record_place(db, table_id, user_id, place)
            row = self._one(db, "SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
            balance = 0 if row is None else int(row["balance"])
            self._attach(db, table_id, state, outbox, balance)
            return balance

        return await self._write(work)

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
        TableNotFound, WrongTableKind (cash table). `state`/`outbox`: as `_attach`."""
        if stack <= 0:
            raise ValueError("a tournament stack must be positive")

        def work(db: sqlite3.Connection) -> None:
            table = self._open_table(db, table_id)
            if table["kind"] != "tournament":
                raise WrongTableKind("join_tournament is for tournament tables")
            taken = self._one(
                db,
                "SELECT 1 FROM table_seats WHERE table_id = ? AND (seat = ? OR user_id = ?)",
                (table_id, seat, user_id),
            )
            if taken is not None:
                raise SeatTaken(f"seat {seat} is taken or user {user_id} already sits at table {table_id}")
            self._ensure(db, table["guild_id"], user_id)
            db.execute(
                "INSERT INTO table_seats (table_id, seat, user_id, stack) VALUES (?, ?, ?, ?)",
                (table_id, seat, user_id, stack),
            )
            self._attach(db, table_id, state, outbox, None)

        return await self._write(work)

    async def record_place(self, table_id: int, user_id: int, place: int) -> None:
        """Record a tournament finishing place (1 = winner), e.g. at elimination and for the last ones at
        the end. Each player once per tournament, and one winner (place 1); raises StorageError otherwise. Other
        places may be shared by players who bust in the same hand with equal starting stacks."""

        def work(db: sqlite3.Connection) -> None:
            self._record_place(db, table_id, user_id, place)

        return await self._write(work)

    def _record_place(self, db: sqlite3.Connection, table_id: int, user_id: int, place: int) -> None:
        table = self._one(db, "SELECT kind FROM poker_tables WHERE id = ?", (table_id,))
        if table is None:
            raise TableNotFound(f"no table {table_id}")
        if table["kind"] != "tournament":
            raise WrongTableKind("places are for tournaments")
        try:
            db.execute(
                "INSERT INTO tournament_places (table_id, user_id, place) VALUES (?, ?, ?)",
                (table_id, user_id, place),
            )
        except aiosqlite.IntegrityError as exc:
            raise StorageError(f"place {place} or user {user_id} already recorded for table {table_id}") from exc

    async def places(self, table_id: int) -> dict[int, int]:
        """A tournament's recorded places: user id -> place."""

        def work(db: sqlite3.Connection) -> dict[int, int]:
            rows = self._all(db, "SELECT user_id, place FROM tournament_places WHERE table_id = ?", (table_id,))
            return {r["user_id"]: r["place"] for r in rows}

        return await self._query(work)

    # ------------------------------------------------------------------ audit

    async def audit(self, guild_id: int) -> AuditReport:
        """Check the ledger invariant for one server (docs/architecture.md, "Chips").

        balances + chips on the seats of open cash tables == chips issued (GRANT + REFILL + ADJUSTMENT);
        also: each balance equals the sum of its ledger rows and each row's balance_after follows from the
        previous one; each open cash table holds exactly the chips the ledger sent to it; a closed table none;
        each player of a hand in progress (cash or tournament) has, in their seat, the stack they started it with.
        """
        problems: list[str] = []
        issuing = tuple(k.value for k in ISSUING_KINDS)

        def work(db: sqlite3.Connection) -> AuditReport:
            balances = self._count(db, "SELECT COALESCE(SUM(balance), 0) FROM accounts WHERE guild_id = ?", (guild_id,))
            on_tables = self._count(
                db,
                """
                SELECT COALESCE(SUM(s.stack), 0) FROM table_seats s JOIN poker_tables t ON t.id = s.table_id
                WHERE t.guild_id = ? AND t.kind = 'cash' AND t.status = 'open'
                """,
                (guild_id,),
            )
            issued = self._count(
                db,
                "SELECT COALESCE(SUM(delta), 0) FROM ledger WHERE guild_id = ? AND kind IN (?, ?, ?)",
                (guild_id, *issuing),
            )
            accounts = self._all(
                db,
                """
                SELECT a.user_id, a.balance, COALESCE(SUM(l.delta), 0) AS ledger_sum
                FROM accounts a LEFT JOIN ledger l ON l.guild_id = a.guild_id AND l.user_id = a.user_id
                WHERE a.guild_id = ? GROUP BY a.user_id, a.balance
                """,
                (guild_id,),
            )
            # Each row's balance_after must follow from the previous row of the same account: proves that no
            # two movements interleaved and that no balance changed outside the ledger.
            chain_breaks = self._all(
                db,
                """
                SELECT * FROM (
                    SELECT id, user_id, delta, balance_after,
                           LAG(balance_after, 1, 0) OVER (PARTITION BY user_id ORDER BY id) AS prev
                    FROM ledger WHERE guild_id = ?
                ) WHERE prev + delta != balance_after
                """,
                (guild_id,),
            )
            tables = self._all(
                db,
                """
                SELECT t.id, t.kind, t.status,
                       (SELECT COALESCE(SUM(stack), 0) FROM table_seats WHERE table_id = t.id) AS seats,
                       (SELECT COALESCE(-SUM(delta), 0) FROM ledger WHERE table_id = t.id) AS sent
                FROM poker_tables t WHERE t.guild_id = ?
                """,
                (guild_id,),
            )
            # While a hand is played, a seat holds the stack its player started the hand with (the hand's result
            # sets the new stacks); the chips of the hand in progress are those stacks.
            hand_breaks = self._all(
                db,
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

        return await self._query(work)

    # ------------------------------------------------------------------ tables

    @staticmethod
    def _table_row(row: sqlite3.Row, seats: Iterable[sqlite3.Row]) -> TableRow:
        return TableRow(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            host_id=row["host_id"],
            kind=row["kind"],
            settings=_loads(row["settings"]),
            state=_loads(row["state"]),
            message_id=row["message_id"],
            status=row["status"],
            created_at=row["created_at"],
            closed_at=row["closed_at"],
            seats=tuple(SeatRow(s["seat"], s["user_id"], s["stack"]) for s in seats),
        )

    def _tables(self, db: sqlite3.Connection, where: str, params: Sequence[Any]) -> list[TableRow]:
        rows = self._all(db, f"SELECT * FROM poker_tables WHERE {where} ORDER BY id", params)
        result = []
        for row in rows:
            seats = self._all(
                db, "SELECT seat, user_id, stack FROM table_seats WHERE table_id = ? ORDER BY seat", (row["id"],)
            )
            result.append(self._table_row(row, seats))
        return result

    async def create_table(
        self, guild_id: int, channel_id: int, host_id: int, kind: str, settings: Mapping[str, Any]
    ) -> int:
        """Open a table in a channel; returns its id. `kind` is 'cash' or 'tournament'; `settings` any JSON
        object (blinds, limits...). Raises TableExists if the channel has an open table."""
        if kind not in _TABLE_KINDS:
            raise ValueError(f"kind must be one of {_TABLE_KINDS}")

        def work(db: sqlite3.Connection) -> int:
            existing = self._one(
                db, "SELECT id FROM poker_tables WHERE channel_id = ? AND status = 'open'", (channel_id,)
            )
            if existing is not None:
                raise TableExists(existing["id"])
            cursor = db.execute(
                """
                INSERT INTO poker_tables (guild_id, channel_id, host_id, kind, settings, created_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                (guild_id, channel_id, host_id, kind, _dumps(dict(settings)), self._clock()),
            )
            assert cursor.lastrowid is not None
            return cursor.lastrowid

        return await self._write(work)

    async def table(self, table_id: int) -> TableRow | None:
        """A table (open or closed) by id, with its seats."""

        def work(db: sqlite3.Connection) -> TableRow | None:
            rows = self._tables(db, "id = ?", (table_id,))
            return rows[0] if rows else None

        return await self._query(work)

    async def open_tables(self, guild_id: int | None = None) -> list[TableRow]:
        """Every open table (of one server if given), oldest first, with seats: for restoring at start."""

        def work(db: sqlite3.Connection) -> list[TableRow]:
            if guild_id is None:
                return self._tables(db, "status = 'open'", ())
            return self._tables(db, "status = 'open' AND guild_id = ?", (guild_id,))

        return await self._query(work)

    async def table_for_channel(self, channel_id: int) -> TableRow | None:
        """The open table in a channel, or None."""

        def work(db: sqlite3.Connection) -> TableRow | None:
            rows = self._tables(db, "status = 'open' AND channel_id = ?", (channel_id,))
            return rows[0] if rows else None

        return await self._query(work)

    async def latest_table_for_channel(self, channel_id: int) -> TableRow | None:
        """The channel's open table, else the last one that was closed there (for its hand history), or None."""

        def work(db: sqlite3.Connection) -> TableRow | None:
            rows = self._tables(db, "channel_id = ?", (channel_id,))
            open_rows = [r for r in rows if r.status == "open"]
            latest = open_rows or rows
            return latest[-1] if latest else None

        return await self._query(work)

    async def save_table_state(
        self, table_id: int, state: Mapping[str, Any], message_id: int | None = None, *, outbox: Owed = ()
    ) -> None:
        """Store the table service's JSON state of an open table (and its current message id when given), with the
        messages the change owes (`outbox`, as `_attach`), in one transaction."""

        def work(db: sqlite3.Connection) -> None:
            self._open_table(db, table_id)
            db.execute(
                "UPDATE poker_tables SET state = ?, message_id = COALESCE(?, message_id) WHERE id = ?",
                (_dumps(dict(state)), message_id, table_id),
            )
            self._attach(db, table_id, None, outbox, None)

        return await self._write(work)

    async def set_table_message(self, table_id: int, message_id: int | None) -> None:
        """Remember the id of an open table's current table message (to edit it again after a restart); None:
        it has none now (its last one was retired)."""

        def work(db: sqlite3.Connection) -> None:
            self._open_table(db, table_id)
            db.execute("UPDATE poker_tables SET message_id = ? WHERE id = ?", (message_id, table_id))

        return await self._write(work)

    async def update_table_settings(
        self,
        table_id: int,
        settings: Mapping[str, Any],
        *,
        state: Mapping[str, Any] | None = None,
        outbox: Owed = (),
    ) -> None:
        """Replace an open table's settings JSON (e.g. a tournament's blind schedule set before the start);
        `state`/`outbox` as `_attach`."""

        def work(db: sqlite3.Connection) -> None:
            self._open_table(db, table_id)
            db.execute("UPDATE poker_tables SET settings = ? WHERE id = ?", (_dumps(dict(settings)), table_id))
            self._attach(db, table_id, state, outbox, None)

        return await self._write(work)

    def _set_stacks(self, db: sqlite3.Connection, table_id: int, stacks: Mapping[int, int]) -> None:
        rows = self._all(db, "SELECT seat, stack FROM table_seats WHERE table_id = ?", (table_id,))
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
        db.executemany(
            "UPDATE table_seats SET stack = ? WHERE table_id = ? AND seat = ?",
            [(stack, table_id, seat) for seat, stack in stacks.items()],
        )

    async def set_seat_stacks(self, table_id: int, stacks: Mapping[int, int]) -> None:
        """Set the stacks of some seats ({seat: stack}) of an open table. Their total must not change
        (chips only move between stacks of one table): raises ChipsNotConserved, NotSeated, TableNotFound."""

        def work(db: sqlite3.Connection) -> None:
            self._open_table(db, table_id)
            self._set_stacks(db, table_id, stacks)

        return await self._write(work)

    async def close_table(
        self, table_id: int, *, places: Mapping[int, int] | None = None, outbox: Owed = ()
    ) -> dict[int, int]:
        """Close an open table in one transaction: an unfinished hand is marked aborted (stacks stay as at
        its start), every seat is cashed out (cash tables) or removed (tournaments). Returns
        {user_id: chips returned to the balance}. `places` ({user id: place}): tournament places recorded in the
        same transaction (as `record_place`); `outbox`: as `_attach` (a function of `outbox` gets the returned
        chips). Raises TableNotFound."""

        self._next_seq.clear()  # its unfinished hand is about to end; the others are read again when needed

        def work(db: sqlite3.Connection) -> dict[int, int]:
            table = self._open_table(db, table_id)
            now = self._clock()
            db.execute(
                "UPDATE hands SET ended_at = ?, result = ? WHERE table_id = ? AND ended_at IS NULL",
                (now, _dumps({"aborted": True}), table_id),
            )
            seats = self._all(db, "SELECT seat, user_id FROM table_seats WHERE table_id = ?", (table_id,))
            returned: dict[int, int] = {}
            for s in seats:
                stack = self._leave(db, table, s["seat"], None)
                if table["kind"] == "cash":
                    returned[s["user_id"]] = stack
            for user_id, place in (places or {}).items():
                self._record_place(db, table_id, user_id, place)
            db.execute("UPDATE poker_tables SET status = 'closed', closed_at = ? WHERE id = ?", (now, table_id))
            self._attach(db, table_id, None, outbox, returned)
            return returned

        return await self._write(work)

    # ------------------------------------------------------------------ outbox (docs/outbox.md)

    def _attach(
        self, db: sqlite3.Connection, table_id: int, state: Mapping[str, Any] | None, outbox: Owed, result: Any
    ) -> None:
        """In the caller's transaction: store the table service's state of the table (when given) and the
        messages the change owes Discord. `outbox`: rows {"key": unique text (the message nonce), "payload": JSON},
        or a function of the write's `result` returning them. A key used before raises StorageError."""
        if state is not None:
            db.execute("UPDATE poker_tables SET state = ? WHERE id = ?", (_dumps(dict(state)), table_id))
        rows = outbox(result) if callable(outbox) else outbox
        if not rows:
            return
        now = self._clock()
        try:
            db.executemany(
                "INSERT INTO outbox (table_id, key, payload, created_at) VALUES (?, ?, ?, ?)",
                [(table_id, str(row["key"]), _dumps(row["payload"]), now) for row in rows],
            )
        except sqlite3.IntegrityError as exc:
            raise StorageError(f"an outbox key of table {table_id} is already used: {exc}") from exc

    async def pending_outbox(self, table_id: int | None = None) -> list[OutboxRow]:
        """The messages owed and not yet delivered, oldest first: of one table, or of every table (open or
        closed) when `table_id` is None."""

        def work(db: sqlite3.Connection) -> list[OutboxRow]:
            where = "delivered_at IS NULL" + ("" if table_id is None else " AND table_id = ?")
            params = () if table_id is None else (table_id,)
            rows = self._all(db, f"SELECT table_id, key, payload FROM outbox WHERE {where} ORDER BY id", params)
            return [OutboxRow(r["table_id"], r["key"], _loads(r["payload"])) for r in rows]

        return await self._query(work)

    async def mark_delivered(self, keys: Sequence[str]) -> None:
        """Mark outbox rows delivered (by key); unknown or already delivered keys are ignored."""
        if not keys:
            return

        def work(db: sqlite3.Connection) -> None:
            db.executemany(
                "UPDATE outbox SET delivered_at = ? WHERE key = ? AND delivered_at IS NULL",
                [(self._clock(), key) for key in keys],
            )

        await self._write(work)

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
        ValueError for fewer than two players. `state`/`outbox`: as `_attach` (a function gets the hand id).
        """
        if len(seats) < 2:
            raise ValueError("a hand needs at least two players")

        def work(db: sqlite3.Connection) -> int:
            self._open_table(db, table_id)
            if self._one(db, "SELECT 1 FROM hands WHERE table_id = ? AND ended_at IS NULL", (table_id,)):
                raise HandInProgress(f"table {table_id} has an unfinished hand")
            if self._one(db, "SELECT 1 FROM hands WHERE table_id = ? AND number = ?", (table_id, number)):
                raise StorageError(f"table {table_id} already has a hand number {number}")
            cursor = db.execute(
                "INSERT INTO hands (table_id, number, started_at, record) VALUES (?, ?, ?, ?)",
                (table_id, number, self._clock(), _dumps(dict(record_json))),
            )
            hand_id = cursor.lastrowid
            db.executemany(
                """
                INSERT INTO hand_players (hand_id, user_id, seat, player_index, starting_stack)
                VALUES (?, ?, ?, ?, ?)
                """,
                [
                    (hand_id, s["user_id"], s["seat"], s.get("player", index), s["stack"])
                    for index, s in enumerate(seats)
                ],
            )
            assert hand_id is not None
            self._attach(db, table_id, state, outbox, hand_id)
            return hand_id

        return await self._write(work)

    def _open_hand_row(self, db: sqlite3.Connection, hand_id: int) -> sqlite3.Row:
        row = self._one(db, "SELECT * FROM hands WHERE id = ?", (hand_id,))
        if row is None or row["ended_at"] is not None:
            raise HandNotFound(f"no unfinished hand {hand_id}")
        return row

    async def append_action(self, hand_id: int, action: Mapping[str, Any]) -> int:
        """Append one action (any JSON object) to an unfinished hand's record, committed on return
        (write-ahead: call before announcing it). Returns its sequence number from 0. Raises HandNotFound.

        The appends of one turn of the event loop (tables acting at the same moment) are committed together, as
        one transaction (group commit), on the actions' own connection, right there in the event loop: an
        insert and a commit in WAL mode without fsync take tens of microseconds, far less than a trip to the
        database thread and back through a busy loop (which was most of a slash command's latency at 100
        tables). While that thread holds the write lock, the batch is tried again a few times within milliseconds,
        then waits in line in the thread; later batches wait behind it (`_write_backlog`). Each caller returns
        only once its own row is committed; a refused row (hand not open) refuses only its caller."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[int] = loop.create_future()
        self._pending_actions.append((hand_id, _dumps(dict(action)), self._clock(), future))
        if len(self._pending_actions) == 1:
            loop.call_soon(self._send_actions)
        return await future

    def _send_actions(self) -> None:
        """Commit the appends queued during this turn of the loop, as one batch: at once on the actions'
        connection; behind the batches already waiting (order kept), or when the write lock is taken, in the
        backlog task (`_write_backlog`)."""
        batch, self._pending_actions = self._pending_actions, []
        if not batch:
            return
        if self._backlog is not None:
            self._backlog.extend(batch)
            return
        if self._actions_db is not None and not self._closed:
            try:
                outcomes = self._commit_actions_now(_rows(batch))
            except _Busy:
                pass  # the database thread is writing
            else:
                _settle(batch, outcomes)
                return
        self._backlog = list(batch)
        task = asyncio.ensure_future(self._write_backlog())
        self._action_writes.add(task)
        task.add_done_callback(self._action_writes.discard)

    def _commit_actions_now(self, rows: list[tuple[int, str, float]]) -> list[int | StorageError]:
        """Insert and commit a batch on the actions' connection, in the event loop. Raises _Busy (nothing done)
        when another writer holds the lock; any other failure refuses the whole batch (rolled back)."""
        db = self._actions_db
        assert db is not None
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if _is_busy(exc):
                raise _Busy from exc
            return [_as_storage_error(exc)] * len(rows)
        try:
            outcomes = self._store_actions(db, rows)
            db.execute("COMMIT")
        except Exception as exc:
            self._next_seq.clear()  # numbers handed out in this transaction are void
            with contextlib.suppress(sqlite3.Error):
                if db.in_transaction:
                    db.execute("ROLLBACK")
            return [_as_storage_error(exc)] * len(rows)
        return outcomes

    async def _write_backlog(self) -> None:
        """Store the batches that could not go in at once, oldest first; batches made meanwhile wait behind them.

        Each is tried again on the actions' connection after 0.5, 1, 2 and 4 ms (the database thread's
        transactions are short); if the lock is still taken (or there is no such connection: an in-memory
        database) it goes to the database thread as a transaction of its own, in line with the thread's other
        work, so that a busy thread never starves the actions."""
        try:
            while self._backlog:
                batch, self._backlog = self._backlog, []
                rows = _rows(batch)
                try:
                    outcomes = await self._store_backlog(rows)
                except Exception as exc:
                    outcomes = [_as_storage_error(exc)] * len(rows)
                _settle(batch, outcomes)
        finally:
            self._backlog = None

    async def _store_backlog(self, rows: list[tuple[int, str, float]]) -> list[int | StorageError]:
        if self._actions_db is not None:
            for delay in ACTIONS_RETRY_DELAYS_S:
                await asyncio.sleep(delay)
                if self._closed:
                    raise StorageError("the database is closed")
                try:
                    return self._commit_actions_now(rows)
                except _Busy:
                    continue

        def store(db: sqlite3.Connection) -> list[int | StorageError]:
            return self._store_actions(db, rows)

        # A failed batch's numbers are void: forgotten in the thread, before any later batch runs.
        return await self._write(store, on_failure=self._next_seq.clear)

    def _store_actions(self, db: sqlite3.Connection, rows: list[tuple[int, str, float]]) -> list[int | StorageError]:
        """Insert a batch of actions [(hand id, JSON text, time)] in the caller's transaction and return, per
        row, its sequence number or the HandNotFound its caller gets.

        Sequence numbers come from a cache (`_next_seq`, read once per hand, changed only in the event loop's
        thread except by this function in the in-memory case); this batch works on its own copy of the entries
        it needs and writes them back at the end, so that a concurrent forgetting (a hand's end) never makes a
        live hand look unknown. Each insert is guarded by "the hand is still unfinished" and a guard that
        stored nothing (the hand ended behind the cache) refuses its row and forgets that hand. A failed
        transaction makes its caller clear the cache."""
        hands = {hand_id for hand_id, _, _ in rows}
        known = {hand_id: self._next_seq[hand_id] for hand_id in hands if hand_id in self._next_seq}
        unknown = sorted(hands - known.keys())
        if unknown:
            marks = ", ".join("?" * len(unknown))
            found = self._all(
                db,
                f"""
                SELECT h.id, (SELECT COALESCE(MAX(a.seq) + 1, 0) FROM hand_actions a WHERE a.hand_id = h.id) AS n
                FROM hands h WHERE h.id IN ({marks}) AND h.ended_at IS NULL
                """,
                unknown,
            )
            known.update({row["id"]: int(row["n"]) for row in found})
        outcomes: list[int | StorageError] = []
        inserts: list[tuple[int, int, str, float, int]] = []
        for hand_id, text, at in rows:
            seq = known.get(hand_id)
            if seq is None:
                outcomes.append(HandNotFound(f"no unfinished hand {hand_id}"))
                continue
            known[hand_id] = seq + 1
            inserts.append((hand_id, seq, text, at, hand_id))
            outcomes.append(seq)
        self._next_seq.update(known)
        cursor = db.executemany(
            """
            INSERT INTO hand_actions (hand_id, seq, action, created_at)
            SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM hands WHERE id = ? AND ended_at IS NULL)
            """,
            inserts,
        )
        if cursor.rowcount != len(inserts):
            outcomes = self._recheck_actions(db, outcomes, inserts)
        return outcomes

    def _recheck_actions(
        self,
        db: sqlite3.Connection,
        outcomes: list[int | StorageError],
        inserts: list[tuple[int, int, str, float, int]],
    ) -> list[int | StorageError]:
        """Some guarded inserts stored nothing (their hand ended meanwhile): find which, refuse those rows
        with HandNotFound and forget those hands' cached sequence numbers."""
        ids = sorted({row[0] for row in inserts})
        marks = ", ".join("?" * len(ids))
        found = self._all(db, f"SELECT hand_id, seq FROM hand_actions WHERE hand_id IN ({marks})", ids)
        stored = {(row["hand_id"], row["seq"]) for row in found}
        checked: list[int | StorageError] = []
        rows_by_outcome = iter(inserts)
        for outcome in outcomes:
            if isinstance(outcome, StorageError):
                checked.append(outcome)
                continue
            hand_id, seq, _, _, _ = next(rows_by_outcome)
            if (hand_id, seq) in stored:
                checked.append(outcome)
            else:
                self._next_seq.pop(hand_id, None)
                checked.append(HandNotFound(f"no unfinished hand {hand_id}"))
        return checked

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
        `_attach`. Raises HandNotFound, ChipsNotConserved, NotSeated; nothing changes when it raises.
        """

        self._next_seq.pop(hand_id, None)  # no more actions for it (refused by the guarded insert if any come)

        def work(db: sqlite3.Connection) -> None:
            hand = self._open_hand_row(db, hand_id)
            self._set_stacks(db, hand["table_id"], stacks)
            db.execute(
                "UPDATE hands SET ended_at = ?, result = ? WHERE id = ?", (self._clock(), _dumps(dict(result)), hand_id)
            )
            outcomes = players or {}
            rows = self._all(db, "SELECT user_id, seat, starting_stack FROM hand_players WHERE hand_id = ?", (hand_id,))
            seated = {
                (r["seat"], r["user_id"]): r["stack"]
                for r in self._all(
                    db, "SELECT seat, user_id, stack FROM table_seats WHERE table_id = ?", (hand["table_id"],)
                )
            }
            for r in rows:
                final = seated.get((r["seat"], r["user_id"]))
                o = outcomes.get(r["user_id"], PlayerOutcome())
                db.execute(
                    """
                    UPDATE hand_players SET final_stack = ?, net = ?, won = ?, showed = ?, vpip = ?, pfr = ?,
                        went_to_showdown = ?, won_at_showdown = ?
                    WHERE hand_id = ? AND user_id = ?
                    """,
                    (
                        final,
                        None if final is None else final - r["starting_stack"],
                        o.won,
                        o.showed,
                        o.vpip,
                        o.pfr,
                        o.went_to_showdown,
                        o.won_at_showdown,
                        hand_id,
                        r["user_id"],
                    ),
                )
            self._attach(db, hand["table_id"], state, outbox, None)

        return await self._write(work)

    def _hands(self, db: sqlite3.Connection, where: str, params: Sequence[Any], limit: int) -> list[HandRow]:
        rows = self._all(db, f"SELECT * FROM hands WHERE {where} ORDER BY number DESC LIMIT ?", (*params, limit))
        hands = []
        for h in rows:
            actions = self._all(db, "SELECT action FROM hand_actions WHERE hand_id = ? ORDER BY seq", (h["id"],))
            players = self._all(db, "SELECT * FROM hand_players WHERE hand_id = ? ORDER BY player_index", (h["id"],))
            hands.append(
                HandRow(
                    id=h["id"],
                    table_id=h["table_id"],
                    number=h["number"],
                    started_at=h["started_at"],
                    ended_at=h["ended_at"],
                    record=_loads(h["record"]),
                    actions=tuple(_loads(a["action"]) for a in actions),
                    result=_loads(h["result"]),
                    players=tuple(
                        HandPlayerRow(
                            user_id=p["user_id"],
                            seat=p["seat"],
                            player_index=p["player_index"],
                            starting_stack=p["starting_stack"],
                            final_stack=p["final_stack"],
                            net=p["net"],
                            won=p["won"],
                            showed=bool(p["showed"]),
                            vpip=bool(p["vpip"]),
                            pfr=bool(p["pfr"]),
                            went_to_showdown=bool(p["went_to_showdown"]),
                            won_at_showdown=bool(p["won_at_showdown"]),
                        )
                        for p in players
                    ),
                )
            )
        return hands

    async def open_hand(self, table_id: int) -> HandRow | None:
        """The table's unfinished hand with its actions so far (to rebuild it by replay), or None."""

        def work(db: sqlite3.Connection) -> HandRow | None:
            hands = self._hands(db, "table_id = ? AND ended_at IS NULL", (table_id,), 1)
            return hands[0] if hands else None

        return await self._query(work)

    async def hand(self, hand_id: int) -> HandRow | None:
        """One hand by id, or None."""

        def work(db: sqlite3.Connection) -> HandRow | None:
            hands = self._hands(db, "id = ?", (hand_id,), 1)
            return hands[0] if hands else None

        return await self._query(work)

    async def hand_by_number(self, table_id: int, number: int) -> HandRow | None:
        """One hand of a table by its number, or None."""

        def work(db: sqlite3.Connection) -> HandRow | None:
            hands = self._hands(db, "table_id = ? AND number = ?", (table_id, number), 1)
            return hands[0] if hands else None

        return await self._query(work)

    async def hands_for_table(self, table_id: int, limit: int = 10) -> list[HandRow]:
        """The table's last `limit` hands, newest first (finished or not)."""

        def work(db: sqlite3.Connection) -> list[HandRow]:
            return self._hands(db, "table_id = ?", (table_id,), limit)

        return await self._query(work)

    # ------------------------------------------------------------------ standings

    async def stats(self, guild_id: int, user_id: int) -> StatsRow:
        """A member's standings on a server (see StatsRow for what counts: finished hands of both kinds of
        table, net in cash-table chips only). Reads only: a member without an account gets `balance` None."""

        def work(db: sqlite3.Connection) -> StatsRow:
            member = {"guild": guild_id, "user": user_id}
            hands = self._one(
                db,
                f"""
                SELECT COUNT(*) AS played,
                       COALESCE(SUM(p.won > 0), 0) AS won,
                       COALESCE(SUM(p.won_at_showdown), 0) AS won_sd,
                       COALESCE(SUM(p.went_to_showdown), 0) AS went_sd,
                       COALESCE(MAX(p.won), 0) AS biggest,
                       COALESCE(SUM(CASE WHEN t.kind = 'cash' THEN p.net END), 0) AS net,
                       COALESCE(SUM(p.vpip), 0) AS vpip,
                       COALESCE(SUM(p.pfr), 0) AS pfr
                FROM {_PLAYED_HANDS} AND p.user_id = :user
                """,
                member,
            )
            tournaments = self._one(
                db,
                f"""
                SELECT COUNT(*) AS played, COALESCE(SUM(tp.place = 1), 0) AS won
                FROM {_PLACES} AND tp.user_id = :user
                """,
                member,
            )
            balance = self._balance_of(db, guild_id, user_id)
            assert hands is not None and tournaments is not None
            return StatsRow(
                guild_id=guild_id,
                user_id=user_id,
                balance=balance,
                hands_played=hands["played"],
                hands_won=hands["won"],
                won_at_showdown=hands["won_sd"],
                went_to_showdown=hands["went_sd"],
                biggest_pot=hands["biggest"],
                net=hands["net"],
                vpip_hands=hands["vpip"],
                pfr_hands=hands["pfr"],
                tournaments_played=tournaments["played"],
                tournaments_won=tournaments["won"],
            )

        return await self._query(work)

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
        values = _LEADERBOARD_VALUES[LeaderboardBy(by)]
        ranked = f"""
            SELECT user_id, value, RANK() OVER (ORDER BY value DESC) AS rank
            FROM ({values}) ORDER BY value DESC, user_id
        """

        def work(db: sqlite3.Connection) -> LeaderboardPage:
            page = {"guild": guild_id, "limit": limit, "offset": offset}
            rows = self._all(db, f"{ranked} LIMIT :limit OFFSET :offset", page)
            total = self._one(db, f"SELECT COUNT(*) AS n FROM ({values})", {"guild": guild_id})
            own = None
            if user_id is not None:
                own = self._one(
                    db, f"SELECT * FROM ({ranked}) WHERE user_id = :user", {"guild": guild_id, "user": user_id}
                )
            return LeaderboardPage(
                by=LeaderboardBy(by),
                rows=tuple(LeaderboardRow(r["rank"], r["user_id"], r["value"]) for r in rows),
                total=total["n"] if total else 0,
                offset=offset,
                own=None if own is None else LeaderboardRow(own["rank"], own["user_id"], own["value"]),
            )

        return await self._query(work)
