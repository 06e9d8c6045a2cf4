"""Run it twice at the table (issue 15): the question after an all-in with cards to come, its answers stored
like actions, its 15-second timer, and a restart in the middle of it — through the table service."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.poker import ActionKind, PokerError
from bot.poker.events import PotAwarded
from bot.storage import Storage
from bot.tables import RecordingNotifier, StreetAnnouncement, TableOptions, TableService
from bot.tables.clock import ManualClock, settle
from bot.tables.record import replay
from bot.tables.run_twice import RUN_TWICE_TIMEOUT_S
from tests.tables.conftest import ALICE, BOB, CHANNEL, DEFAULTS, GUILD, HOST, NAMES, Decks, actor, deck_for


async def all_in_on_the_flop(service: TableService, decks: Decks, *, run_it_twice: bool = True) -> None:
    """Alice and Bob (100 each, blinds 1/2) see a flop of 2c 7d 9h, then one moves all-in and the other calls."""
    decks.queue.append(deck_for(["AsAh", "KsKh"], "2c7d9hKd3s"))
    options = TableOptions.for_blinds(1, 2, run_it_twice=run_it_twice)
    await service.create_table(GUILD, CHANNEL, HOST, options)
    for user in (ALICE, BOB):
        await service.get(CHANNEL).join(user, NAMES[user])
    await service.get(CHANNEL).start_game(ALICE)
    await settle()
    runner = service.get(CHANNEL)
    await runner.act(actor(service), ActionKind.CALL)
    await runner.act(actor(service), ActionKind.CHECK)
    await runner.act(actor(service), ActionKind.ALL_IN)
    await runner.act(actor(service), ActionKind.CALL)


async def assert_dealt_once(service: TableService, notifier: RecordingNotifier) -> None:
    """The question is settled and the rest of the board was dealt once (every street line is of the first run)."""
    runner = service.get(CHANNEL)
    await settle()
    await runner.drain()
    streets = [a for a in notifier.announcements if isinstance(a, StreetAnnouncement)]
    assert streets and all(a.run == 1 for a in streets)
    assert runner.snapshot().run_twice_pending == ()


async def test_everyone_agrees_the_board_is_run_twice_and_each_half_is_paid(
    service: TableService, notifier: RecordingNotifier, decks: Decks, storage: Storage
) -> None:
    await all_in_on_the_flop(service, decks)
    runner = service.get(CHANNEL)
    snap = runner.snapshot()
    assert set(snap.run_twice_pending) == {ALICE, BOB} and snap.actor_user_id is None
    assert snap.deadline is not None
    with pytest.raises(PokerError) as refused:
        await runner.answer_run_twice(HOST, True)  # not in the hand
    assert refused.value.code == "no_run_twice_question"
    await runner.answer_run_twice(ALICE, True)
    assert runner.snapshot().run_twice_pending == (BOB,)
    with pytest.raises(PokerError):
        await runner.answer_run_twice(ALICE, True)  # answered already
    await runner.answer_run_twice(BOB, True)
    await settle()
    await runner.drain()
    streets = [a for a in notifier.announcements if isinstance(a, StreetAnnouncement)]
    assert [(int(a.street), a.run) for a in streets][-4:] == [(2, 1), (3, 1), (2, 2), (3, 2)]
    rows = await storage.hands_for_table(runner.ids.table_id, limit=1)
    kinds = [a["kind"] for a in rows[0].actions]
    assert kinds[-2:] == ["run_twice", "run_twice"]
    # The stored hand replays to the same two boards, each paying half the pot (100 of 200 chips).
    halves = [e for e in replay(rows[0]).events if isinstance(e, PotAwarded)]
    assert sorted((e.run, e.amount) for e in halves) == [(1, 100), (2, 100)]
    assert sum(s.stack for s in runner.snapshot().seats) == 200


async def test_the_first_no_ends_it_and_the_board_is_dealt_once(
    service: TableService, notifier: RecordingNotifier, decks: Decks
) -> None:
    await all_in_on_the_flop(service, decks)
    runner = service.get(CHANNEL)
    await runner.answer_run_twice(BOB, False)
    await assert_dealt_once(service, notifier)


async def test_no_answer_in_fifteen_seconds_is_a_no(
    service: TableService, notifier: RecordingNotifier, decks: Decks, clock: ManualClock
) -> None:
    await all_in_on_the_flop(service, decks)
    runner = service.get(CHANNEL)
    await runner.answer_run_twice(ALICE, True)
    await clock.advance(RUN_TWICE_TIMEOUT_S - 1)
    assert runner.snapshot().run_twice_pending == (BOB,)
    await clock.advance(1)
    await assert_dealt_once(service, notifier)


async def test_without_the_option_nobody_is_asked(
    service: TableService, notifier: RecordingNotifier, decks: Decks
) -> None:
    await all_in_on_the_flop(service, decks, run_it_twice=False)
    assert service.get(CHANNEL).snapshot().run_twice_pending == ()


async def test_a_restart_during_the_question_keeps_the_answers_and_the_time_left(
    service: TableService, notifier: RecordingNotifier, decks: Decks, clock: ManualClock, db_path: Path
) -> None:
    await all_in_on_the_flop(service, decks)
    runner = service.get(CHANNEL)
    await clock.advance(4)
    await runner.answer_run_twice(ALICE, True)
    await clock.advance(6)  # 5 seconds left
    await service.close()
    storage = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    again = TableService(storage, notifier, clock=clock, rng_factory=Decks())
    try:
        await again.restore()
        runner = again.get(CHANNEL)
        snap = runner.snapshot()
        assert snap.run_twice_pending == (BOB,)
        assert snap.deadline == pytest.approx(clock.time() + 5)
        await runner.answer_run_twice(BOB, True)
        await settle()
        await runner.drain()
        streets = [a for a in notifier.announcements if isinstance(a, StreetAnnouncement)]
        assert [a.run for a in streets][-2:] == [2, 2]
    finally:
        await again.close()
        await storage.close()


async def test_a_player_who_leaves_during_the_question_counts_as_a_no(
    service: TableService, notifier: RecordingNotifier, decks: Decks
) -> None:
    await all_in_on_the_flop(service, decks)
    runner = service.get(CHANNEL)
    await runner.answer_run_twice(ALICE, True)
    assert await runner.leave(BOB) is False  # in the hand: leaves when it ends
    await assert_dealt_once(service, notifier)
