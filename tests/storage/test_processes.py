"""Two OS processes writing one database at the same instant: the same member's buy-ins, rebuys and cash-outs on two
tables leave the ledger and the audit exact (no lost update), and two buy-ins that together overdraw the balance
cannot both go through (no double spend). On both backends."""

from __future__ import annotations

import asyncio
import multiprocessing
import random
from multiprocessing.synchronize import Barrier
from typing import Any

from bot.storage import InsufficientBalance, LedgerKind, Storage
from tests.storage.conftest import DEFAULTS, GUILD

MEMBER = 7
ROUNDS = 25
START = 100_000  # chips the member holds before the processes start (on top of the starting grant)


async def _work(url: str, table: int, seed: int, barrier: Barrier) -> dict[str, Any]:
    """One process's share: rounds of buy-in, rebuy, cash-out at its own table (seat 1), then one buy-in of more
    than half the balance, started at the same instant as the other process's."""
    rng = random.Random(seed)
    storage = await Storage.open(url, defaults=DEFAULTS)
    moved = 0  # chips this process took from the balance (buy-ins, rebuys) less those it gave back (cash-outs)
    rows = 0
    try:
        barrier.wait()
        for _ in range(ROUNDS):
            buy, top_up = rng.randint(1, 500), rng.randint(1, 500)
            await storage.buy_in(table, GUILD, MEMBER, 1, buy)
            await storage.buy_in(table, GUILD, MEMBER, 1, top_up, LedgerKind.REBUY)
            await storage.cash_out(table, GUILD, MEMBER, 1)
            rows += 3
        barrier.wait()
        balance = await storage.balance(GUILD, MEMBER)  # the same for both: the other one waits at the barrier
        barrier.wait()
        try:
            await storage.buy_in(table, GUILD, MEMBER, 1, balance // 2 + 1)
        except InsufficientBalance:
            overdraw = "refused"
        else:
            overdraw = "bought"
            moved += balance // 2 + 1
            rows += 1
    finally:
        await storage.close()
    return {"moved": moved, "rows": rows, "overdraw": overdraw, "balance_seen": balance}


def _process(url: str, table: int, seed: int, barrier: Barrier, results: Any) -> None:
    results.put(asyncio.run(_work(url, table, seed, barrier)))


async def test_two_processes_moving_one_member_s_chips_at_once_keep_the_ledger_exact(database_url: str) -> None:
    setup = await Storage.open(database_url, defaults=DEFAULTS)
    try:
        tables = [await setup.create_table(GUILD, channel, MEMBER, "cash", {}) for channel in (1, 2)]
        await setup.adjust(GUILD, MEMBER, START, "bankroll")
        before = await setup.balance(GUILD, MEMBER)
        rows_before = len(await setup.ledger(GUILD, MEMBER, limit=10_000))
    finally:
        await setup.close()

    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(2)
    results = context.Queue()
    workers = [
        context.Process(target=_process, args=(database_url, table, seed, barrier, results))
        for seed, table in enumerate(tables)
    ]
    for worker in workers:
        worker.start()
    outcomes = [await asyncio.to_thread(results.get, True, 120) for _ in workers]
    for worker in workers:
        await asyncio.to_thread(worker.join, 30)
        assert worker.exitcode == 0

    storage = await Storage.open(database_url, defaults=DEFAULTS)
    try:
        report = await storage.audit(GUILD)
        assert report.ok, report.problems
        assert sorted(o["overdraw"] for o in outcomes) == ["bought", "refused"]  # no double spend
        assert outcomes[0]["balance_seen"] == outcomes[1]["balance_seen"]
        assert await storage.balance(GUILD, MEMBER) == before - sum(o["moved"] for o in outcomes)  # no lost update
        rows = await storage.ledger(GUILD, MEMBER, limit=10_000)
        assert len(rows) == rows_before + sum(o["rows"] for o in outcomes)
        assert all(r.balance_after >= 0 for r in rows)
        bought = next(t for t in await storage.open_tables(GUILD) if t.seats)
        assert [s.user_id for s in bought.seats] == [MEMBER]
    finally:
        await storage.close()
