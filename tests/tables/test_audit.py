"""The chip audit catches chips that vanish: from a stack, from a balance, from a hand in progress.

Each test plays through the service, then tampers with the database file the way a bug (or a hand-made
UPDATE) would, and requires `audit()` to say exactly what is wrong."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.poker import ActionKind
from bot.storage import Storage
from bot.tables import TableOptions, TableService
from tests.tables.conftest import ALICE, BOB, CHANNEL, CHLOE, GUILD, HOST, NAMES, actor


async def cash_table_of_three(service: TableService) -> None:
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    for user in (ALICE, BOB, CHLOE):
        await service.get(CHANNEL).join(user, NAMES[user])  # 100 each from a grant of 1000


def tamper(db_path: Path, sql: str, *params: object) -> None:
    with sqlite3.connect(db_path) as db:
        assert db.execute(sql, params).rowcount == 1


async def test_the_audit_holds_before_any_tampering(service: TableService, storage: Storage) -> None:
    await cash_table_of_three(service)
    await service.get(CHANNEL).start_game(ALICE)
    await service.get(CHANNEL).act(actor(service), ActionKind.RAISE, 6)
    report = await storage.audit(GUILD)
    assert (report.ok, report.problems) == (True, ())
    assert (report.balances, report.on_tables, report.issued) == (2700, 300, 3000)


async def test_chips_vanishing_from_a_stack_are_reported(
    service: TableService, storage: Storage, db_path: Path
) -> None:
    await cash_table_of_three(service)
    tamper(db_path, "UPDATE table_seats SET stack = stack - 5 WHERE user_id = ?", ALICE)
    report = await storage.audit(GUILD)
    assert not report.ok
    assert report.problems == (
        "balances 2700 + on tables 295 != issued 3000",
        "table 1: seats hold 295 but the ledger sent 300",
    )


@pytest.mark.parametrize("delta", [-7, 7])
async def test_chips_vanishing_from_or_appearing_in_a_balance_are_reported(
    service: TableService, storage: Storage, db_path: Path, delta: int
) -> None:
    await cash_table_of_three(service)
    tamper(db_path, "UPDATE accounts SET balance = balance + ? WHERE user_id = ?", delta, BOB)
    report = await storage.audit(GUILD)
    assert not report.ok
    assert report.problems == (
        f"balances {2700 + delta} + on tables 300 != issued 3000",
        f"user {BOB}: balance {900 + delta} != ledger sum 900",
    )


async def test_chips_vanishing_from_a_hand_in_progress_are_reported(
    service: TableService, storage: Storage, db_path: Path
) -> None:
    await cash_table_of_three(service)
    await service.get(CHANNEL).start_game(ALICE)
    await service.get(CHANNEL).act(actor(service), ActionKind.RAISE, 6)
    hand_id = service.get(CHANNEL).view().hand_id
    # The hand's record of what a player brought to it loses 3 chips (their seat still holds 100).
    tamper(db_path, "UPDATE hand_players SET starting_stack = 97 WHERE hand_id = ? AND user_id = ?", hand_id, CHLOE)
    report = await storage.audit(GUILD)
    assert not report.ok
    assert report.problems == (
        f"hand {hand_id} of table 1: user {CHLOE} started it with 97 chips but their seat holds 100",
    )


async def test_a_seat_losing_chips_during_a_hand_is_reported_for_the_hand_as_well(
    service: TableService, storage: Storage, db_path: Path
) -> None:
    await cash_table_of_three(service)
    await service.get(CHANNEL).start_game(ALICE)
    hand_id = service.get(CHANNEL).view().hand_id
    tamper(db_path, "UPDATE table_seats SET stack = 90 WHERE user_id = ?", BOB)
    report = await storage.audit(GUILD)
    assert report.problems == (
        "balances 2700 + on tables 290 != issued 3000",
        "table 1: seats hold 290 but the ledger sent 300",
        f"hand {hand_id} of table 1: user {BOB} started it with 100 chips but their seat holds 90",
    )


async def test_a_tournament_hand_in_progress_is_audited_too(
    service: TableService, storage: Storage, db_path: Path
) -> None:
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2, kind="tournament"))
    for user in (ALICE, BOB):
        await service.get(CHANNEL).join(user, NAMES[user])
    await service.get(CHANNEL).start_game(HOST)
    hand_id = service.get(CHANNEL).view().hand_id
    assert (await storage.audit(GUILD)).ok
    tamper(db_path, "UPDATE table_seats SET stack = 60 WHERE user_id = ?", ALICE)
    report = await storage.audit(GUILD)
    assert report.problems == (
        f"hand {hand_id} of table 1: user {ALICE} started it with 100 chips but their seat holds 60",
    )
