"""The plans of the statements on every hand's path, once a database has months of hands (docs/storage.md, "Plans").

A hand action, a hand's start, the delivered marks and a table's pending messages look rows up by key. Each
must reach them through an index that finds them directly (a primary key, a unique key) whatever the size of the
tables around them: never a sequential scan of `hands` or `outbox` (every hand ever played), nor a whole scan of a
partial index (`hands_one_open_per_table`, `outbox_pending`: every unfinished hand or undelivered row, and until
the next VACUUM the entries of every hand ended and row delivered since, filtered one by one). PostgreSQL is checked
in both of its plans of a prepared statement (asyncpg prepares every statement): the custom plan of the values
given and the generic plan it may keep after five runs (`EXPLAIN (GENERIC_PLAN)`), after ANALYZE as autovacuum does
it; SQLite with and without ANALYZE's statistics (the bot never runs it).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.storage import Storage
from bot.storage.behind import _WRITE_POSTGRESQL, sqlite_marks
from bot.storage.executor import Dialect, Tx
from bot.storage.hands import APPEND_ACTIONS_POSTGRESQL, START_CHECK, open_hands_sql
from bot.storage.outbox import PENDING_OF_TABLE
from bot.storage.postgres import translate
from tests.storage.conftest import GUILD

TABLES, CLOSED_TABLES, HANDS_PER_TABLE, ACTIONS_PER_HAND, ROWS_PER_HAND = 50, 1000, 40, 6, 6
RECORD = '{"record": "' + "x" * 3000 + '"}'


async def fill(store: Storage) -> tuple[list[int], list[str], int]:
    """Tables with a long past (CLOSED_TABLES closed before them): each open one has HANDS_PER_TABLE hands (the
    last unfinished) with their actions and outbox rows (all delivered but the last hand's); returns unfinished
    hands, some keys, a table id."""

    async def body(tx: Tx) -> tuple[list[int], list[str], int]:
        await tx.executemany(
            "INSERT INTO poker_tables (guild_id, channel_id, host_id, kind, settings, status, created_at)"
            " VALUES (?, ?, ?, 'cash', '{}', 'closed', 0)",
            [(GUILD, 1000 + t % TABLES, 1) for t in range(CLOSED_TABLES)],
        )
        tables = []
        for t in range(TABLES):
            row = await tx.one(
                "INSERT INTO poker_tables (guild_id, channel_id, host_id, kind, settings, created_at)"
                " VALUES (?, ?, ?, 'cash', '{}', 0) RETURNING id",
                (GUILD, 1000 + t, 1),
            )
            assert row is not None
            tables.append(int(row["id"]))
        hands, actions, outbox = [], [], []
        for number in range(1, HANDS_PER_TABLE + 1):
            last = number == HANDS_PER_TABLE
            hands += [(t, number, 0.0, None if last else 1.0, RECORD) for t in tables]
        await tx.executemany(
            "INSERT INTO hands (table_id, number, started_at, ended_at, record) VALUES (?, ?, ?, ?, ?)", hands
        )
        rows = await tx.all("SELECT id, table_id, ended_at FROM hands")
        for r in rows:
            actions += [(r["id"], seq, '{"kind": "call"}', 0.0) for seq in range(ACTIONS_PER_HAND)]
            delivered = None if r["ended_at"] is None else 2.0
            outbox += [(r["table_id"], f"k{r['id']}-{n}", "{}", 0.0, delivered) for n in range(ROWS_PER_HAND)]
        await tx.executemany("INSERT INTO hand_actions (hand_id, seq, action, created_at) VALUES (?, ?, ?, ?)", actions)
        await tx.executemany(
            "INSERT INTO outbox (table_id, key, payload, created_at, delivered_at) VALUES (?, ?, ?, ?, ?)", outbox
        )
        unfinished = [int(r["id"]) for r in rows if r["ended_at"] is None]
        return unfinished[:4], [f"k{unfinished[0]}-0", f"k{unfinished[1]}-1"], tables[0]

    return await store.executor.write(body)


async def plans(store: Storage, sql: str, params: list[Any]) -> list[str]:
    """The plans of a statement (PostgreSQL: custom and generic; SQLite: its one), as text, in a transaction that
    is rolled back (EXPLAIN ANALYZE is not used: nothing runs)."""
    if store.executor.dialect is Dialect.POSTGRESQL:
        pool = store.executor.pool  # type: ignore[attr-defined]
        text, args = translate(sql, params)
        found = []
        async with pool.acquire() as conn, conn.transaction():
            await conn.execute(f"PREPARE planned AS {text}")
            for mode in ("force_custom_plan", "force_generic_plan"):
                await conn.execute(f"SET LOCAL plan_cache_mode = {mode}")
                rows = await conn.fetch(f"EXPLAIN (COSTS OFF) EXECUTE planned({', '.join(map(literal, args))})")
                found.append("\n".join(r[0] for r in rows))
            await conn.execute("DEALLOCATE planned")
        return found

    async def body(tx: Tx) -> list[str]:
        return ["\n".join(str(r["detail"]) for r in await tx.all("EXPLAIN QUERY PLAN " + sql, params))]

    return await store.executor.read(body)


def literal(value: Any) -> str:
    """A test's own value as SQL text of unknown type (PostgreSQL gives it the prepared parameter's type)."""
    if isinstance(value, list):
        return "'{" + ",".join(f'"{v}"' if isinstance(v, str) else str(v) for v in value) + "}'"
    return f"'{value}'"


async def analyze(store: Storage) -> None:
    if store.executor.dialect is Dialect.POSTGRESQL:
        async with store.executor.pool.acquire() as conn:  # type: ignore[attr-defined]
            await conn.execute("ANALYZE")
        return

    async def body(tx: Tx) -> None:
        await tx.execute("ANALYZE")

    await store.executor.write(body)


#: What a plan must not do: a scan of a whole table that grows with every hand, or of a whole partial index (no
#: Index Cond under it: every entry read and filtered).
_PARTIAL = "(hands_one_open_per_table|outbox_pending|poker_tables_one_open_per_channel)"
_WHOLE = re.compile(
    r"Seq Scan on (hands|outbox|hand_actions)\b"
    rf"|Index (Only )?Scan using {_PARTIAL} on \w+(?: \w+)?\n(?!\s+Index Cond)"
    rf"|Bitmap Index Scan on {_PARTIAL}\n(?!\s+Index Cond)"
    r"|^(SCAN|SCAN TABLE) (hands|outbox|hand_actions)\b(?! USING)",
    re.MULTILINE,
)


def whole_scans(plan: str) -> list[str]:
    """The whole scans in a plan's text (empty when every row is found by index)."""
    return [m.group(0).strip() for m in _WHOLE.finditer(plan + "\n")]


@pytest.mark.parametrize("history", ["analyzed", "never-analyzed", "young"])
async def test_the_hand_path_s_statements_find_their_rows_by_index_in_a_long_history(
    store: Storage, history: str
) -> None:
    """`young`: planned in a new database, as a prepared statement's generic plan is, then kept while the tables
    grow until the next ANALYZE (the load benchmark's databases: their plans made at the first hands)."""
    if history == "young":
        unfinished, keys, table = [1, 2, 3, 4], ["k1-0", "k2-1"], 1
    else:
        unfinished, keys, table = await fill(store)
    if history == "analyzed":
        await analyze(store)
    postgres = store.executor.dialect is Dialect.POSTGRESQL
    statements: dict[str, tuple[str, list[Any]]] = {
        "hand start": (START_CHECK, [table, HANDS_PER_TABLE + 1]),
        "pending outbox": (PENDING_OF_TABLE, [table]),
        "hand end": (
            "UPDATE hands SET ended_at = ?, result = ? WHERE id = ? AND ended_at IS NULL",
            [3.0, "{}", unfinished[0]],
        ),
        "table write": ("UPDATE poker_tables SET state = ? WHERE id = ? AND status = 'open'", ["{}", table]),
    }
    if postgres:
        statements["actions"] = (
            APPEND_ACTIONS_POSTGRESQL,
            [unfinished, ["{}"] * len(unfinished), [0.0] * len(unfinished), sorted(set(unfinished))],
        )
        statements["delivered marks"] = (_WRITE_POSTGRESQL, [3.0, keys, [table], [5]])
    else:
        statements["actions"] = (open_hands_sql(len(unfinished)), unfinished)
        statements["delivered marks"] = (sqlite_marks(len(keys)), [3.0, *keys])
    found = {}
    for name, (sql, params) in statements.items():
        for plan in await plans(store, sql, params):
            if whole_scans(plan):
                found[name] = plan
    assert not found, "\n\n".join(f"{name}:\n{plan}" for name, plan in found.items())
