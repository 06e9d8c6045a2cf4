"""The audit invariant under random sequences of chip movements (hypothesis), refused ones changing nothing; on
SQLite, and on PostgreSQL with fewer examples (each a new database)."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.storage import LedgerKind, Storage, StorageError
from tests import postgres
from tests.storage.conftest import DEFAULTS, GUILD, FakeClock
from tests.storage.test_ledger import snapshot

USERS = (11, 12, 13, 14)
SEATS = (1, 2, 3)
amounts = st.integers(min_value=1, max_value=1600)

operations = st.lists(
    st.one_of(
        st.tuples(st.just("ensure"), st.sampled_from(USERS)),
        st.tuples(st.just("buy_in"), st.sampled_from(USERS), st.sampled_from(SEATS), amounts),
        st.tuples(st.just("rebuy"), st.sampled_from(USERS), st.sampled_from(SEATS), amounts),
        st.tuples(st.just("cash_out"), st.sampled_from(USERS), st.sampled_from(SEATS)),
        st.tuples(st.just("refill"), st.sampled_from(USERS)),
        st.tuples(st.just("adjust"), st.sampled_from(USERS), st.integers(min_value=-1500, max_value=500)),
        st.tuples(st.just("start_hand")),
        st.tuples(st.just("finish_hand"), st.randoms(use_true_random=False)),
        st.tuples(st.just("bad_hand"), st.integers(min_value=1, max_value=50)),
        st.tuples(st.just("close_table")),
        st.tuples(st.just("wait"), st.integers(min_value=0, max_value=7200)),
    ),
    max_size=50,
)


async def _run(ops: list[tuple[Any, ...]], target: str | Path, refusals: set[str]) -> None:
    clock = FakeClock()
    store = await Storage.open(target, defaults=DEFAULTS, clock=clock)
    try:
        table = await store.create_table(GUILD, 1, USERS[0], "cash", {})
        hand: int | None = None
        number = 0
        for op in ops:
            before = await snapshot(store)
            try:
                match op:
                    case ("ensure", user):
                        await store.ensure_account(GUILD, user)
                    case ("buy_in", user, seat, amount):
                        await store.buy_in(table, GUILD, user, seat, amount)
                    case ("rebuy", user, seat, amount):
                        await store.buy_in(table, GUILD, user, seat, amount, LedgerKind.REBUY)
                    case ("cash_out", user, seat):
                        await store.cash_out(table, GUILD, user, seat)
                    case ("refill", user):
                        await store.refill(GUILD, user)
                    case ("adjust", user, delta):
                        await store.adjust(GUILD, user, delta, "test")
                    case ("start_hand",):
                        seats = (await store.table(table)).seats  # type: ignore[union-attr]
                        number += 1
                        hand = await store.start_hand(
                            table, number, {}, [{"seat": x.seat, "user_id": x.user_id, "stack": x.stack} for x in seats]
                        )
                    case ("finish_hand", rng):
                        # A hand moves chips between the stacks of its players: redistribute them at random.
                        if hand is None:
                            continue
                        players = (await store.hand(hand)).players  # type: ignore[union-attr]
                        total = sum(p.starting_stack for p in players)
                        cuts = sorted(rng.randint(0, total) for _ in range(max(len(players) - 1, 0)))
                        shares = [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
                        await store.finish_hand(hand, {}, {p.seat: n for p, n in zip(players, shares, strict=True)})
                        hand = None
                    case ("bad_hand", extra):
                        seats = (await store.table(table)).seats  # type: ignore[union-attr]
                        await store.set_seat_stacks(table, {s.seat: s.stack + extra for s in seats[:1]} or {1: extra})
                    case ("close_table",):
                        await store.close_table(table)
                        table, hand = await store.create_table(GUILD, 1, USERS[0], "cash", {}), None
                    case ("wait", seconds):
                        clock.advance(seconds)
            except (StorageError, ValueError) as exc:
                assert isinstance(exc, StorageError) or op[0] == "start_hand", exc  # fewer than 2 players
                assert await snapshot(store) == before, f"refused {op[0]} changed the database"
                refusals.add(type(exc).__name__)
            else:
                assert op[0] != "bad_hand", "chips appeared on a table"
            report = await store.audit(GUILD)
            assert report.ok, report.problems
            assert report.balances + report.on_tables == report.issued
            accounts, seats_rows, _ = await snapshot(store)
            assert all(row[2] >= 0 for row in accounts)
            assert all(row[3] >= 0 for row in seats_rows)
    finally:
        await store.close()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=operations)
def test_audit_holds_after_any_sequence_of_movements(ops: list[tuple[Any, ...]]) -> None:
    refusals: set[str] = set()
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(_run(ops, Path(folder) / "poker.sqlite3", refusals))
    for name in refusals:
        event(f"refused: {name}")


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=operations)
def test_audit_holds_after_any_sequence_of_movements_on_postgresql(ops: list[tuple[Any, ...]]) -> None:
    server = postgres.server_url()
    if server is None:
        postgres.unavailable()
        return
    refusals: set[str] = set()

    async def run() -> None:
        await _run(ops, await postgres.new_database(server), refusals)

    asyncio.run(run())
    for name in refusals:
        event(f"refused: {name}")
