"""The card room's options at the table service (issue 16): betting structures, the time bank (also across a
restart), acting in advance, and the post-or-wait choice of missed blinds."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.poker import ActionKind, BlindPosted, InvalidAmountError, PokerError
from bot.render import render_poker_error
from bot.storage import Storage
from bot.tables import ManualClock, RecordingNotifier, TableOptions, TableRunner, TableService
from bot.tables.clock import settle
from bot.tables.notifier import PlayerAnnouncement
from bot.tables.preactions import PreAction
from tests.tables.conftest import ALICE, BOB, CHANNEL, CHLOE, DAVID, DEFAULTS, GUILD, HOST, NAMES, Decks, actor

TIMEOUT = 60


async def open_table(service: TableService, users=(ALICE, BOB, CHLOE), **options: object) -> None:
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2, **options))
    for user in users:
        await service.get(CHANNEL).join(user, NAMES[user])


def timed_out(notifier: RecordingNotifier) -> list[int]:
    return [a.user_id for a in notifier.announcements if isinstance(a, PlayerAnnouncement) and a.kind == "timed_out"]


# ---------------------------------------------------------------------------------------------- betting structures


async def test_a_pot_limit_table_refuses_more_than_the_pot_and_shows_its_structure(service: TableService) -> None:
    await open_table(service, betting="pot-limit")
    await service.get(CHANNEL).start_game(ALICE)
    snap = service.get(CHANNEL).snapshot()
    assert snap.betting == "pot-limit" and snap.legal is not None and snap.legal.max_raise_to == 7
    with pytest.raises(InvalidAmountError) as refused:
        await service.get(CHANNEL).act(actor(service), ActionKind.RAISE, 37)
    assert "Pot-limit: the largest raise is to 7" in render_poker_error(refused.value, "en")
    await service.get(CHANNEL).act(actor(service), ActionKind.RAISE, 7)
    assert service.get(CHANNEL).snapshot().legal.max_raise_to == 23


async def test_a_fixed_limit_table_bets_one_unit_and_caps_the_street(service: TableService) -> None:
    await open_table(service, betting="fixed-limit")
    await service.get(CHANNEL).start_game(ALICE)
    for to in (4, 6, 8):
        legal = service.get(CHANNEL).snapshot().legal
        assert legal.min_raise_to == legal.max_raise_to == to
        await service.get(CHANNEL).act(actor(service), ActionKind.RAISE, to)
    legal = service.get(CHANNEL).snapshot().legal
    assert not legal.can_raise and legal.call_amount == 4  # capped: a bet and three raises
    with pytest.raises(PokerError, match="capped"):
        await service.get(CHANNEL).act(actor(service), ActionKind.RAISE, 10)


async def test_betting_option_is_checked() -> None:
    with pytest.raises(PokerError, match="betting"):
        TableOptions.for_blinds(1, 2, betting="spread-limit")
    with pytest.raises(PokerError, match="missed_blinds"):
        TableOptions.for_blinds(1, 2, kind="tournament", missed_blinds=True)


# ---------------------------------------------------------------------------------------------- time bank


async def test_the_time_bank_starts_when_the_timer_runs_out_then_the_timer_acts(
    service: TableService, clock: ManualClock, notifier: RecordingNotifier
) -> None:
    await open_table(service, time_bank=30)
    await service.get(CHANNEL).start_game(ALICE)
    sleeper = actor(service)
    start = clock.time()
    assert service.get(CHANNEL).snapshot().time_bank == 30
    await clock.advance(TIMEOUT + 0.5)
    snap = service.get(CHANNEL).snapshot()
    assert snap.actor_user_id == sleeper and timed_out(notifier) == []  # not folded: the bank runs
    assert snap.deadline == start + TIMEOUT + 30 and snap.time_bank_running and snap.time_bank is None
    await clock.advance(30)
    await service.get(CHANNEL).drain()
    assert timed_out(notifier) == [sleeper] and actor(service) != sleeper
    assert service.get(CHANNEL).time_bank_left(sleeper) == 0


async def test_the_time_button_starts_the_bank_early_and_only_the_time_used_is_spent(
    service: TableService, clock: ManualClock
) -> None:
    await open_table(service, time_bank=30)
    await service.get(CHANNEL).start_game(ALICE)
    runner = service.get(CHANNEL)
    player = actor(service)
    start = clock.time()
    other = next(u for u in (ALICE, BOB, CHLOE) if u != player)
    with pytest.raises(PokerError):
        await runner.use_time_bank(other)  # not their turn
    await clock.advance(10)
    assert await runner.use_time_bank(player) == start + TIMEOUT + 30
    with pytest.raises(PokerError, match="time bank"):
        await runner.use_time_bank(player)  # already running
    await clock.advance(TIMEOUT - 10 + 12)  # 12 s into the bank
    await service.get(CHANNEL).act(player, ActionKind.CALL)
    assert runner.time_bank_left(player) == pytest.approx(18)


async def test_the_bank_refills_a_few_seconds_per_hand_up_to_its_size(
    service: TableService, clock: ManualClock
) -> None:
    await open_table(service, users=(ALICE, BOB), time_bank=30, time_bank_refill=5)
    await service.get(CHANNEL).start_game(ALICE)
    runner = service.get(CHANNEL)
    sleeper = actor(service)
    await clock.advance(TIMEOUT + 30.5)  # the whole bank used, then folded: the hand ends
    assert runner.time_bank_left(sleeper) == 0
    await clock.advance(runner.view().options.next_hand_delay + 0.1)  # the next hand refills 5 s
    assert runner.view().hand_number == 2 and runner.time_bank_left(sleeper) == 5


async def test_a_running_time_bank_survives_a_restart(db_path: Path, clock: ManualClock) -> None:
    storage = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    service = TableService(storage, RecordingNotifier(), clock=clock, rng_factory=Decks())
    await open_table(service, time_bank=40)
    await service.get(CHANNEL).start_game(ALICE)
    sleeper = actor(service)
    await clock.advance(TIMEOUT + 0.5)
    deadline = service.get(CHANNEL).snapshot().deadline
    assert deadline is not None and service.get(CHANNEL).snapshot().time_bank_running
    await service.close()
    await storage.close()

    storage2 = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    notifier2 = RecordingNotifier()
    service2 = TableService(storage2, notifier2, clock=clock, rng_factory=Decks())
    assert await service2.restore() == 1
    snap = service2.get(CHANNEL).snapshot()
    assert snap.actor_user_id == sleeper and snap.deadline == deadline and snap.time_bank_running
    await clock.advance(deadline - clock.time() - 1)
    assert actor(service2) == sleeper  # the bank still runs after the restart
    await clock.advance(1.5)
    await service2.get(CHANNEL).drain()
    assert timed_out(notifier2) == [sleeper]
    await settle()
    await service2.close()
    await storage2.close()


# ---------------------------------------------------------------------------------------------- acting in advance


async def four_players_dealt(service: TableService) -> tuple[TableRunner, tuple[int, ...]]:
    """A four-player table with its first hand dealt: the runner and the users (small blind, big blind, first to
    act, button)."""
    await open_table(service, users=(ALICE, BOB, CHLOE, DAVID))
    runner = service.get(CHANNEL)
    await runner.start_game(ALICE)
    return runner, runner.view().hand_users


async def test_a_choice_in_advance_is_played_when_the_turn_comes_and_never_before(
    service: TableService, notifier: RecordingNotifier
) -> None:
    runner, (small, big, first, button) = await four_players_dealt(service)
    await runner.set_pre_action(big, PreAction.CHECK_FOLD)
    await runner.set_pre_action(button, PreAction.CALL)  # call 2
    with pytest.raises(PokerError):
        await runner.set_pre_action(first, PreAction.CHECK)  # it is their turn: they act
    posted = len(notifier.announcements)
    assert actor(service) == first and runner.pre_action_of(button) is not None
    await service.get(CHANNEL).act(first, ActionKind.CALL)
    # The button's Call 2 is played at once, as a press; then the small blind decides.
    assert actor(service) == small and runner.pre_action_of(button) is None
    snap = service.get(CHANNEL).snapshot()
    assert next(s for s in snap.seats if s.user_id == button).bet == 2
    stored = await service.storage.hand(runner.view().hand_id)
    assert [(a["player"], a["kind"], a["by"]) for a in stored.actions] == [(2, "call", "player"), (3, "call", "player")]
    await service.get(CHANNEL).act(small, ActionKind.CALL)
    # The big blind's Check/Fold: checking is free, so a check closes the round.
    assert len(service.get(CHANNEL).snapshot().board) == 3
    assert len(notifier.announcements) >= posted


async def test_call_n_is_cancelled_when_the_amount_changes(service: TableService) -> None:
    runner, (small, _big, first, button) = await four_players_dealt(service)
    await runner.set_pre_action(button, PreAction.CALL)
    assert runner.pre_action_of(button).amount == 2
    await service.get(CHANNEL).act(first, ActionKind.RAISE, 6)  # the call is now 6: cancelled
    assert runner.pre_action_of(button) is None and actor(service) == button
    await service.get(CHANNEL).act(button, ActionKind.FOLD)
    assert actor(service) == small


async def test_check_in_advance_is_dropped_facing_a_bet_and_a_folded_player_cannot_choose(
    service: TableService,
) -> None:
    runner, (_small, _big, first, button) = await four_players_dealt(service)
    await runner.set_pre_action(button, PreAction.CHECK)
    await service.get(CHANNEL).act(first, ActionKind.FOLD)
    assert actor(service) == button and runner.pre_action_of(button) is None  # facing 2: the player decides
    with pytest.raises(PokerError):
        await runner.set_pre_action(first, PreAction.CHECK_FOLD)  # folded
    assert runner.pre_action_of(first) is None and actor(service) == button


# ---------------------------------------------------------------------------------------------- missed blinds


async def test_a_player_back_from_sitting_out_posts_or_waits_for_the_big_blind(
    service: TableService, clock: ManualClock
) -> None:
    await open_table(service, users=(ALICE, BOB, CHLOE, DAVID), missed_blinds=True)
    runner = service.get(CHANNEL)
    await service.get(CHANNEL).start_game(ALICE)
    await service.get(CHANNEL).sit_out(DAVID)
    for _ in range(4):  # an orbit: the big blind passes David
        await fold_around(service)
        await clock.advance(runner.view().options.next_hand_delay + 0.1)
    assert DAVID not in runner.view().hand_users
    await service.get(CHANNEL).sit_in(DAVID)
    assert runner.blinds_owed(DAVID) == (2, 1)  # a live big blind and the dead small blind
    await runner.choose_return(DAVID, post=True)
    assert runner.blinds_owed(DAVID) is None
    await fold_around(service)
    await clock.advance(runner.view().options.next_hand_delay + 0.1)
    assert DAVID in runner.view().hand_users
    david = runner.view().hand_users.index(DAVID)
    posts = [(e.kind, e.amount) for e in runner.snapshot().events if isinstance(e, BlindPosted) and e.player == david]
    assert posts == [("big_blind", 2), ("dead_small_blind", 1)]


async def test_a_player_who_waits_is_dealt_in_with_the_big_blind(service: TableService, clock: ManualClock) -> None:
    await open_table(service, users=(ALICE, BOB, CHLOE, DAVID), missed_blinds=True)
    runner = service.get(CHANNEL)
    await service.get(CHANNEL).start_game(ALICE)
    await service.get(CHANNEL).sit_out(DAVID)
    for _ in range(4):
        await fold_around(service)
        await clock.advance(runner.view().options.next_hand_delay + 0.1)
    await service.get(CHANNEL).sit_in(DAVID, post=False)
    for _ in range(5):
        if DAVID in runner.view().hand_users:
            break
        await fold_around(service)
        await clock.advance(runner.view().options.next_hand_delay + 0.1)
    david = runner.view().hand_users.index(DAVID)
    posts = [(e.kind, e.amount) for e in runner.snapshot().events if isinstance(e, BlindPosted) and e.player == david]
    assert posts == [("big_blind", 2)]  # dealt in as the big blind, nothing dead


async def fold_around(service: TableService) -> None:
    while actor(service) is not None:
        snap = service.get(CHANNEL).snapshot()
        await service.get(CHANNEL).act(
            snap.actor_user_id, ActionKind.CHECK if snap.legal.can_check else ActionKind.FOLD
        )


async def test_a_tournaments_time_banks_are_full_again_at_each_new_level(
    service: TableService, clock: ManualClock
) -> None:
    await open_table(service, users=(ALICE, BOB), kind="tournament", time_bank=20, time_bank_refill=5)
    runner = service.get(CHANNEL)
    await runner.set_blind_schedule(HOST, ((1, 2, 0), (2, 4, 0), (3, 6, 0)), "hands", 2, is_admin=True)
    await runner.start_game(HOST, is_admin=True)
    sleeper = actor(service)
    await clock.advance(TIMEOUT + 20.5)  # the whole bank used, then folded: hand 1 ends
    assert runner.time_bank_left(sleeper) == 0
    await clock.advance(runner.view().options.next_hand_delay + 0.1)  # hand 2, same level: refilled 5 s
    assert runner.view().hand_number == 2 and runner.time_bank_left(sleeper) == 5
    await fold_around(service)
    await clock.advance(runner.view().options.next_hand_delay + 0.1)  # hand 3 opens level 2: every bank full
    assert runner.view().hand_number == 3 and runner.time_bank_left(sleeper) == 20
