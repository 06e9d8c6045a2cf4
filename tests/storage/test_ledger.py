"""Chip movements between balances and cash tables: each one a ledger row, refused ones change nothing."""

from __future__ import annotations

from typing import Any

import pytest

from bot.storage import (
    InsufficientBalance,
    LeaderboardRow,
    LedgerKind,
    NotSeated,
    RefillCooldown,
    RefillNotNeeded,
    SeatTaken,
    Storage,
    TableNotFound,
    WrongTableKind,
)
from tests.storage.conftest import GUILD, FakeClock, execute, select

ALICE, BOB = 101, 102


async def snapshot(store: Storage) -> Any:
    """Everything chip-related in the database, to prove a refused operation changed nothing."""

    accounts = await select(store, "SELECT * FROM accounts ORDER BY guild_id, user_id")
    seats = await select(store, "SELECT * FROM table_seats ORDER BY table_id, seat")
    ledger = await select(store, "SELECT * FROM ledger ORDER BY id")
    return accounts, seats, ledger


async def cash_table(store: Storage, channel: int = 500) -> int:
    return await store.create_table(GUILD, channel, ALICE, "cash", {"min_buy_in": 40, "max_buy_in": 100})


async def test_first_touch_grants_the_starting_grant_once(store: Storage) -> None:
    assert await store.account(GUILD, ALICE) is None
    assert await store.ledger(GUILD) == []
    assert await store.ensure_account(GUILD, ALICE) == 1000
    account = await store.account(GUILD, ALICE)
    assert account is not None and (account.balance, account.last_refill_at) == (1000, None)
    assert await store.ensure_account(GUILD, ALICE) == 1000
    rows = await store.ledger(GUILD, ALICE)
    assert [(r.kind, r.delta, r.balance_after) for r in rows] == [(LedgerKind.GRANT, 1000, 1000)]


async def test_reading_a_balance_issues_the_grant_it_shows(store: Storage) -> None:
    """Issue 11 item 3: a balance shown is a balance issued (was: balance() showed the grant of a member with no
    account, who then had no rank and whose grant the audit did not count)."""
    assert await store.balance(GUILD, ALICE) == 1000
    account = await store.account(GUILD, ALICE)
    assert account is not None and account.balance == 1000
    assert [(r.kind, r.delta) for r in await store.ledger(GUILD, ALICE)] == [(LedgerKind.GRANT, 1000)]
    assert await store.balance(GUILD, ALICE) == 1000  # once
    audit = await store.audit(GUILD)
    assert (audit.ok, audit.balances, audit.issued) == (True, 1000, 1000)
    page = await store.leaderboard(GUILD, user_id=ALICE)
    assert page.own == LeaderboardRow(1, ALICE, 1000) and page.total == 1


async def test_starting_grant_follows_the_server_setting(store: Storage) -> None:
    await store.update_guild_settings(GUILD, starting_grant=250)
    assert await store.ensure_account(GUILD, ALICE) == 250
    assert await store.ensure_account(GUILD + 1, ALICE) == 1000  # other servers keep the default


async def test_buy_in_rebuy_and_cash_out_write_their_ledger_rows(store: Storage) -> None:
    table = await cash_table(store)
    assert await store.buy_in(table, GUILD, ALICE, 3, 100) == 900
    await store.set_seat_stacks(table, {3: 100})
    assert await store.buy_in(table, GUILD, ALICE, 3, 50, LedgerKind.REBUY) == 850
    row = await store.table(table)
    assert row is not None and [(s.seat, s.user_id, s.stack) for s in row.seats] == [(3, ALICE, 150)]
    assert await store.cash_out(table, GUILD, ALICE, 3) == 1000
    rows = await store.ledger(GUILD, ALICE)
    assert [(r.kind, r.delta, r.balance_after, r.table_id) for r in reversed(rows)] == [
        (LedgerKind.GRANT, 1000, 1000, None),
        (LedgerKind.BUY_IN, -100, 900, table),
        (LedgerKind.REBUY, -50, 850, table),
        (LedgerKind.CASH_OUT, 150, 1000, table),
    ]
    assert (await store.table(table)).seats == ()  # type: ignore[union-attr]
    assert (await store.audit(GUILD)).ok


async def test_winnings_come_back_with_the_cash_out(store: Storage) -> None:
    table = await cash_table(store)
    await store.buy_in(table, GUILD, ALICE, 1, 100)
    await store.buy_in(table, GUILD, BOB, 2, 100)
    await store.set_seat_stacks(table, {1: 170, 2: 30})
    report = await store.audit(GUILD)
    assert (report.ok, report.balances, report.on_tables, report.issued) == (True, 1800, 200, 2000)
    assert await store.cash_out(table, GUILD, ALICE, 1) == 1070
    assert await store.cash_out(table, GUILD, BOB, 2) == 930
    report = await store.audit(GUILD)
    assert (report.ok, report.balances, report.on_tables) == (True, 2000, 0)


async def test_buy_in_above_the_balance_is_refused_and_changes_nothing(store: Storage) -> None:
    table = await cash_table(store)
    await store.ensure_account(GUILD, ALICE)
    before = await snapshot(store)
    with pytest.raises(InsufficientBalance) as caught:
        await store.buy_in(table, GUILD, ALICE, 1, 1001)
    assert (caught.value.balance, caught.value.needed) == (1000, 1001)
    assert await snapshot(store) == before


async def test_rebuy_above_the_balance_is_refused_and_changes_nothing(store: Storage) -> None:
    table = await cash_table(store)
    await store.buy_in(table, GUILD, ALICE, 1, 600)
    before = await snapshot(store)
    with pytest.raises(InsufficientBalance):
        await store.buy_in(table, GUILD, ALICE, 1, 401, LedgerKind.REBUY)
    assert await snapshot(store) == before


@pytest.mark.parametrize(
    ("user", "seat", "kind", "error"),
    [
        (BOB, 1, LedgerKind.BUY_IN, SeatTaken),  # someone else's seat
        (ALICE, 2, LedgerKind.BUY_IN, SeatTaken),  # already seated at this table
        (BOB, 1, LedgerKind.REBUY, NotSeated),  # rebuy into someone else's seat
        (BOB, 2, LedgerKind.REBUY, NotSeated),  # rebuy without a seat
    ],
)
async def test_seat_conflicts_are_refused_and_change_nothing(
    store: Storage, user: int, seat: int, kind: LedgerKind, error: type[Exception]
) -> None:
    table = await cash_table(store)
    await store.buy_in(table, GUILD, ALICE, 1, 100)
    await store.ensure_account(GUILD, BOB)
    before = await snapshot(store)
    with pytest.raises(error):
        await store.buy_in(table, GUILD, user, seat, 50, kind)
    assert await snapshot(store) == before


async def test_buy_in_at_a_closed_or_tournament_table_is_refused(store: Storage) -> None:
    table = await cash_table(store)
    await store.close_table(table)
    with pytest.raises(TableNotFound):
        await store.buy_in(table, GUILD, ALICE, 1, 100)
    tournament = await store.create_table(GUILD, 501, ALICE, "tournament", {})
    with pytest.raises(WrongTableKind):
        await store.buy_in(tournament, GUILD, ALICE, 1, 100)
    with pytest.raises(ValueError):
        await store.buy_in(table, GUILD, ALICE, 1, 0)


async def test_cash_out_of_someone_elses_seat_is_refused(store: Storage) -> None:
    table = await cash_table(store)
    await store.buy_in(table, GUILD, ALICE, 1, 100)
    before = await snapshot(store)
    with pytest.raises(NotSeated):
        await store.cash_out(table, GUILD, BOB, 1)
    assert await snapshot(store) == before


async def test_busted_player_leaves_without_a_ledger_row(store: Storage) -> None:
    table = await cash_table(store)
    await store.buy_in(table, GUILD, ALICE, 1, 100)
    await store.buy_in(table, GUILD, BOB, 2, 100)
    await store.set_seat_stacks(table, {1: 0, 2: 200})
    assert await store.cash_out(table, GUILD, ALICE, 1) == 900
    assert [r.kind for r in await store.ledger(GUILD, ALICE)] == [LedgerKind.BUY_IN, LedgerKind.GRANT]
    assert (await store.audit(GUILD)).ok


async def test_refill_when_out_of_chips_then_only_after_the_cooldown(store: Storage, clock: FakeClock) -> None:
    await store.ensure_account(GUILD, ALICE)
    await store.adjust(GUILD, ALICE, -1000, "lost it all")
    assert await store.refill(GUILD, ALICE) == 1000
    await store.adjust(GUILD, ALICE, -1000, "lost it again")
    before = await snapshot(store)
    with pytest.raises(RefillCooldown) as caught:
        await store.refill(GUILD, ALICE)
    assert caught.value.retry_at == clock.now + 3600
    assert await snapshot(store) == before
    clock.advance(3600)
    assert await store.refill(GUILD, ALICE, 300) == 300
    kinds = [r.kind for r in await store.ledger(GUILD, ALICE)]
    assert kinds.count(LedgerKind.REFILL) == 2
    report = await store.audit(GUILD)
    assert report.ok and report.issued == 300  # grant + refills, minus the two negative adjustments


async def test_refill_is_refused_while_chips_remain_on_a_cash_table(store: Storage) -> None:
    table = await cash_table(store)
    await store.buy_in(table, GUILD, ALICE, 1, 1000)
    before = await snapshot(store)
    with pytest.raises(RefillNotNeeded) as caught:
        await store.refill(GUILD, ALICE)
    assert (caught.value.balance, caught.value.on_tables) == (0, 1000)
    assert await snapshot(store) == before


async def test_refill_is_refused_with_a_balance(store: Storage) -> None:
    await store.ensure_account(GUILD, ALICE)
    with pytest.raises(RefillNotNeeded):
        await store.refill(GUILD, ALICE)


async def test_negative_adjustment_beyond_the_balance_is_refused(store: Storage) -> None:
    await store.ensure_account(GUILD, ALICE)
    before = await snapshot(store)
    with pytest.raises(InsufficientBalance):
        await store.adjust(GUILD, ALICE, -1001, "too much")
    assert await snapshot(store) == before


async def test_the_ledger_is_append_only(store: Storage) -> None:
    await store.ensure_account(GUILD, ALICE)
    for sql in ("UPDATE ledger SET delta = 5", "DELETE FROM ledger"):
        with pytest.raises(Exception, match="append-only"):
            await execute(store, sql)
    assert len(await store.ledger(GUILD, ALICE)) == 1


async def test_audit_catches_a_balance_changed_outside_the_ledger(store: Storage) -> None:
    await store.ensure_account(GUILD, ALICE)
    await execute(store, "UPDATE accounts SET balance = balance + 5")
    report = await store.audit(GUILD)
    assert not report.ok
    assert any("ledger sum" in p for p in report.problems)
    assert report.balances == 1005 and report.issued == 1000


async def test_audit_catches_chips_appearing_on_a_table(store: Storage) -> None:
    table = await cash_table(store)
    await store.buy_in(table, GUILD, ALICE, 1, 100)
    await execute(store, "UPDATE table_seats SET stack = 150")
    report = await store.audit(GUILD)
    assert not report.ok
    assert any(f"table {table}" in p for p in report.problems)


async def test_closing_a_table_cashes_everyone_out(store: Storage) -> None:
    table = await cash_table(store)
    await store.buy_in(table, GUILD, ALICE, 1, 100)
    await store.buy_in(table, GUILD, BOB, 2, 80)
    await store.set_seat_stacks(table, {1: 30, 2: 150})
    assert await store.close_table(table) == {ALICE: 30, BOB: 150}
    assert (await store.balance(GUILD, ALICE), await store.balance(GUILD, BOB)) == (930, 1070)
    report = await store.audit(GUILD)
    assert report.ok and report.on_tables == 0
