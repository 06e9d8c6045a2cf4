"""An outage between the two writes of one change: a player leaving during a hand is first stored as leaving (with
the public "forfeited" notice in the outbox, held: told only once the fold is stored too), then their hand's fold
is appended to the hand's actions (the actions' own connection of the SQLite file: one transaction across both is
not available). The stored mark is the intent (docs/storage.md, "Outages"): when the fold cannot be stored (here
the actions' connection refuses writes: SQLITE_READONLY, a real `StorageUnavailable`) the member is told
`leave_pending` (not "nothing was changed"), nothing is announced, and the table folds the hand itself once storage
answers, when it reads itself again or when it is restored after a restart; only then is the forfeit told. When
the first write fails, nothing changed at all, as the member is told (`storage_unavailable`)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.discord_ui.errors import refusal_text
from bot.poker import ActionKind
from bot.render.announce import NoticeKind
from bot.render.i18n import t
from bot.render.table import SeatState
from bot.storage import Storage, StorageUnavailable
from bot.storage.sqlite import SQLiteExecutor
from bot.tables import ManualClock, RecordingNotifier, TableClosedAnnouncement, TableOptions, TableRunner, TableService
from bot.tables.clock import settle
from bot.tables.errors import ServiceError
from bot.tables.kinds import ActionBy
from bot.tables.operation import FAULT_RETRY_DELAYS_S

from .conftest import (
    ALICE,
    BOB,
    CHANNEL,
    CHLOE,
    DEFAULTS,
    GUILD,
    HOST,
    NAMES,
    Decks,
    deck_for,
    play_to_end_of_hand,
    refuse_writes_under,
)

PLAYERS = (ALICE, BOB, CHLOE)


def forfeits(notifier: RecordingNotifier) -> list[object]:
    """The "forfeited" notices told to the channel so far."""
    return [a for a in notifier.announcements if getattr(a, "kind", None) is NoticeKind.FORFEITED]


async def deal(service: TableService) -> tuple[TableRunner, int]:
    """A cash table of three, a hand dealt; returns the runner and a player not to act (the leaver)."""
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    runner = service.get(CHANNEL)
    for user in PLAYERS:
        await runner.join(user, NAMES[user])
    await runner.start_game(ALICE)
    await settle()
    actor = runner.snapshot().actor_user_id
    return runner, next(u for u in PLAYERS if u != actor)


async def leave_without_its_fold(runner: TableRunner, storage: Storage, leaver: int) -> None:
    """The leave's first write lands, its fold's does not (the actions' connection read-only meanwhile)."""
    executor = storage.executor
    assert isinstance(executor, SQLiteExecutor) and executor.actions_connection is not None
    executor.actions_connection.execute("PRAGMA query_only = ON").close()
    try:
        with pytest.raises(ServiceError) as refused:
            await runner.leave(leaver)
        assert refused.value.code == "leave_pending"
        assert refusal_text(refused.value, "fr", "the test") == t("error.leave_pending", "fr")
        assert "nothing was changed" not in str(refused.value)
        await settle()
    finally:
        executor.actions_connection.execute("PRAGMA query_only = OFF").close()


async def forfeit_folds(storage: Storage, runner: TableRunner) -> list[dict[str, object]]:
    """The forfeits stored in the open hand's actions."""
    hand_id = runner.view().hand_id
    assert hand_id is not None
    return [a for a in (await storage.hand(hand_id)).actions if a.get("by") == ActionBy.FORFEIT.value]


async def assert_leaves_at_the_hand_end(service: TableService, storage: Storage, leaver: int, issued: int) -> None:
    await play_to_end_of_hand(service)
    await settle()
    runner = service.get(CHANNEL)
    assert all(s.name != NAMES[leaver] for s in runner.snapshot().seats)
    audit = await storage.audit(GUILD)
    assert audit.ok and audit.issued == issued, audit.problems


async def test_a_leave_whose_fold_could_not_be_stored_is_completed_by_the_table_then_told(
    service: TableService, storage: Storage, clock: ManualClock, notifier: RecordingNotifier
) -> None:
    runner, leaver = await deal(service)
    issued = (await storage.audit(GUILD)).issued
    await leave_without_its_fold(runner, storage, leaver)
    assert forfeits(notifier) == []  # not told: the hand is still live (on the old code: told at once)
    assert await forfeit_folds(storage, runner) == []
    await clock.advance(FAULT_RETRY_DELAYS_S[0] + 0.1)  # the table reads itself again from storage
    await settle()
    assert [a.user_id for a in forfeits(notifier)] == [leaver]  # type: ignore[attr-defined]
    folds = await forfeit_folds(storage, runner)
    assert len(folds) == 1 and folds[0]["kind"] == "fold"
    seat = next(s for s in runner.snapshot().seats if s.name == NAMES[leaver])
    assert seat.state is SeatState.FOLDED, seat  # the leaver's hand is over, as the notice says
    await assert_leaves_at_the_hand_end(service, storage, leaver, issued)
    assert len(forfeits(notifier)) == 1


async def test_a_leave_whose_fold_is_refused_again_at_the_first_reread_waits_for_storage(
    service: TableService, storage: Storage, clock: ManualClock, notifier: RecordingNotifier
) -> None:
    runner, leaver = await deal(service)
    executor = storage.executor
    assert isinstance(executor, SQLiteExecutor) and executor.actions_connection is not None
    executor.actions_connection.execute("PRAGMA query_only = ON").close()
    try:
        with pytest.raises(ServiceError):
            await runner.leave(leaver)
        await clock.advance(FAULT_RETRY_DELAYS_S[0] + 0.1)  # the re-read's own fold is refused too
        await settle()
        assert forfeits(notifier) == []
    finally:
        executor.actions_connection.execute("PRAGMA query_only = OFF").close()
    await clock.advance(max(FAULT_RETRY_DELAYS_S) + 0.1)
    await settle()
    assert len(forfeits(notifier)) == 1 and len(await forfeit_folds(storage, runner)) == 1


async def test_a_leave_whose_first_write_fails_changes_nothing(
    service: TableService, storage: Storage, clock: ManualClock, notifier: RecordingNotifier, db_path: Path
) -> None:
    runner, leaver = await deal(service)
    issued = (await storage.audit(GUILD)).issued
    executor = storage.executor
    assert isinstance(executor, SQLiteExecutor)
    async with executor.connection.execute("PRAGMA busy_timeout = 50"):
        pass
    other = sqlite3.connect(db_path, isolation_level=None)  # another process holds the write lock
    try:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(StorageUnavailable):
            await runner.leave(leaver)
    finally:
        other.execute("ROLLBACK")
        other.close()
    await clock.advance(FAULT_RETRY_DELAYS_S[0] + 0.1)
    await settle()
    assert forfeits(notifier) == [] and await forfeit_folds(storage, runner) == []
    assert leaver not in runner._state.leaving
    seat = next(s for s in runner.snapshot().seats if s.name == NAMES[leaver])
    assert seat.state is not SeatState.FOLDED and not seat.leaving, seat
    await play_to_end_of_hand(service)
    await settle()
    assert any(s.name == NAMES[leaver] for s in runner.snapshot().seats)  # still seated: nothing changed
    audit = await storage.audit(GUILD)
    assert audit.ok and audit.issued == issued, audit.problems


async def test_a_restart_between_a_leave_and_its_fold_completes_the_forfeit(
    db_path: Path, clock: ManualClock, notifier: RecordingNotifier, decks: Decks
) -> None:
    storage = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    service = TableService(storage, notifier, clock=clock, rng_factory=decks)
    runner, leaver = await deal(service)
    issued = (await storage.audit(GUILD)).issued
    await leave_without_its_fold(runner, storage, leaver)
    await service.close()  # the process stops before the table reads itself again
    await storage.close()
    assert forfeits(notifier) == []
    storage2 = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    notifier2 = RecordingNotifier()
    service2 = TableService(storage2, notifier2, clock=clock, rng_factory=Decks())
    try:
        assert await service2.restore() == 1
        await settle()
        runner2 = service2.get(CHANNEL)
        await runner2.drain()
        assert [a.user_id for a in forfeits(notifier2)] == [leaver]  # type: ignore[attr-defined]
        assert len(await forfeit_folds(storage2, runner2)) == 1
        assert next(s for s in runner2.snapshot().seats if s.name == NAMES[leaver]).state is SeatState.FOLDED
        await assert_leaves_at_the_hand_end(service2, storage2, leaver, issued)
    finally:
        await settle()
        await service2.close()
        await storage2.close()


async def win_a_tournament_by_a_leave_whose_close_fails(
    service: TableService, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> TableRunner:
    """A two-player tournament after its first hand; BOB leaves and the tournament's close is refused by the
    database (SQLITE_READONLY under `close_table`): the member is told `tournament_end_pending`."""
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2, kind="tournament"))
    runner = service.get(CHANNEL)
    for user in (ALICE, BOB):
        await runner.join(user, NAMES[user])
    await runner.start_game(HOST)
    await play_to_end_of_hand(service)
    await runner.drain()
    assert runner.snapshot().street is None and len(runner.snapshot().seats) == 2  # between hands, both in
    refuse_writes_under(storage, "close_table", monkeypatch)
    with pytest.raises(ServiceError) as refused:
        await runner.leave(BOB)
    monkeypatch.undo()
    assert refused.value.code == "tournament_end_pending"
    assert "nothing was changed" not in refusal_text(refused.value, "en", "the test")
    assert refusal_text(refused.value, "fr", "the test") == t("error.tournament_end_pending", "fr")
    row = await storage.latest_table_for_channel(CHANNEL)
    assert row is not None and row.status == "open"
    return runner


async def assert_tournament_closed_once(service: TableService, storage: Storage, notifier: RecordingNotifier) -> None:
    row = await storage.latest_table_for_channel(CHANNEL)
    assert row is not None and row.status == "closed"
    assert CHANNEL not in service.runners
    closed = [a for a in notifier.announcements if isinstance(a, TableClosedAnnouncement)]
    assert len(closed) == 1 and closed[0].tournament_over
    assert (await storage.audit(GUILD)).ok


async def test_a_tournament_won_by_a_leave_whose_close_could_not_be_stored_is_closed_by_the_table(
    service: TableService,
    storage: Storage,
    clock: ManualClock,
    notifier: RecordingNotifier,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A leave between hands that leaves a started tournament one player is two writes: the stand-up, then the
    tournament's close. When the close cannot be stored (here the database refuses writes: SQLITE_READONLY), the
    seat is free already, so the member is not told that nothing changed, and the table closes the tournament
    itself once storage answers (its re-read). On the old code the table stayed open for ever with one player."""
    await win_a_tournament_by_a_leave_whose_close_fails(service, storage, monkeypatch)
    await clock.advance(FAULT_RETRY_DELAYS_S[0] + 0.1)  # the table reads itself again from storage
    await settle()
    await assert_tournament_closed_once(service, storage, notifier)


async def test_a_restart_after_a_tournament_won_by_a_leave_whose_close_failed_closes_it(
    db_path: Path, clock: ManualClock, notifier: RecordingNotifier, decks: Decks, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same, but the process stops before the table reads itself again: the restore closes the tournament."""
    storage = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    service = TableService(storage, notifier, clock=clock, rng_factory=decks)
    await win_a_tournament_by_a_leave_whose_close_fails(service, storage, monkeypatch)
    await service.close()
    await storage.close()
    storage2 = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    notifier2 = RecordingNotifier()
    service2 = TableService(storage2, notifier2, clock=clock, rng_factory=Decks())
    try:
        await service2.restore()
        await settle()
        await assert_tournament_closed_once(service2, storage2, notifier2)
    finally:
        await settle()
        await service2.close()
        await storage2.close()


async def test_a_tournament_won_at_a_hands_end_whose_close_could_not_be_stored_is_closed_by_the_table(
    service: TableService,
    storage: Storage,
    clock: ManualClock,
    notifier: RecordingNotifier,
    decks: Decks,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The call that ends a two-player tournament's all-in hand is stored, then the hand's end (the result, the
    loser's stand-up, the table's state), then the tournament's close: when the close cannot be stored (the
    database refuses writes: SQLITE_READONLY under `close_table`), the table closes the tournament itself once
    storage answers (its re-read, `TableRunner._operation`), telling its end once, with its places. The member who
    called is told that the call counts (`action_stands`): on the old code, "nothing was changed, try again"."""
    decks.queue.append(deck_for(["7c 2d", "Ah Ad"], "Kc 9d 4s 5h Jc"))
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2, kind="tournament"))
    runner = service.get(CHANNEL)
    for user in (ALICE, BOB):
        await runner.join(user, NAMES[user])
    await runner.start_game(HOST)
    big, small = runner.view().hand_users  # heads-up: player 0 is the big blind, the button acts first
    await runner.act(small, ActionKind.ALL_IN)
    refuse_writes_under(storage, "close_table", monkeypatch)
    with pytest.raises(ServiceError) as refused:
        await runner.act(big, ActionKind.CALL)
    monkeypatch.undo()
    assert refused.value.code == "action_stands"  # the call was stored: not "nothing was changed"
    assert "nothing was changed" not in refusal_text(refused.value, "en", "the test")
    assert refusal_text(refused.value, "fr", "the test") == t("error.action_stands", "fr")
    row = await storage.latest_table_for_channel(CHANNEL)
    assert row is not None and row.status == "open"
    hands = await storage.hands_for_table(row.id, limit=1)
    assert hands[0].ended_at is not None  # the call stands: the hand's end is stored
    await clock.advance(FAULT_RETRY_DELAYS_S[0] + 0.1)  # the table reads itself again from storage
    await settle()
    await runner.drain()  # the showdown's picture is drawn on a thread
    await assert_tournament_closed_once(service, storage, notifier)
    assert await storage.pending_outbox(row.id) == []  # the hand's result, the elimination, the close: all told
    closed = next(a for a in notifier.announcements if isinstance(a, TableClosedAnnouncement))
    assert [(place, user) for place, user, _, _ in closed.placings] == [(1, small), (2, big)]
