"""Concurrent writers on the one connection: transactions never interleave and the audit holds."""

from __future__ import annotations

import asyncio
import random

from bot.storage import InsufficientBalance, LedgerKind, Storage, StorageError
from tests.storage.conftest import GUILD

USERS = range(200, 230)


async def test_many_gathered_movements_keep_every_balance_and_the_audit_right(store: Storage) -> None:
    tables = [await store.create_table(GUILD, channel, 1, "cash", {}) for channel in (1, 2)]
    rng = random.Random(5)

    async def member(user: int) -> None:
        table, seat = rng.choice(tables), user - 199
        for _ in range(6):
            choice = rng.random()
            try:
                if choice < 0.4:
                    await store.buy_in(table, GUILD, user, seat, rng.randint(1, 700))
                elif choice < 0.6:
                    await store.buy_in(table, GUILD, user, seat, rng.randint(1, 700), LedgerKind.REBUY)
                elif choice < 0.85:
                    await store.cash_out(table, GUILD, user, seat)
                else:
                    await store.adjust(GUILD, user, rng.randint(-300, 300), "concurrency")
            except StorageError:
                pass
            await asyncio.sleep(0)

    await asyncio.gather(*(member(user) for user in USERS))
    # Overdrafts racing each other: each member asks for more than half of their balance twice at once.
    balances = {user: await store.balance(GUILD, user) for user in USERS}
    results = await asyncio.gather(
        *(store.adjust(GUILD, user, -(balances[user] // 2 + 1), "race") for user in USERS for _ in range(2)),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, InsufficientBalance)]
    funded = [user for user, b in balances.items() if b > 0]
    assert len(refused) == 2 * len(USERS) - len(funded)  # exactly one of each funded pair went through
    for user in funded:
        assert await store.balance(GUILD, user) == balances[user] - (balances[user] // 2 + 1)

    report = await store.audit(GUILD)
    assert report.ok, report.problems
    assert report.balances + report.on_tables == report.issued
    assert len(funded) > len(USERS) // 2  # the scenario really moved chips
