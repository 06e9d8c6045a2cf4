"""What players see when the clock runs out, when someone sits out, and when several players bust in one
tournament hand — pinned at the service level (the runner is about to be restructured: these must hold)."""

from __future__ import annotations

import asyncio

import pytest

from bot.poker import ActionKind
from bot.storage import Storage
from bot.tables import (
    ManualClock,
    PlayerAnnouncement,
    RecordingNotifier,
    TableClosedAnnouncement,
    TableOptions,
    TableService,
)
from bot.tables.record import stored_hand
from tests.tables.conftest import (
    ALICE,
    BOB,
    CHANNEL,
    CHLOE,
    DAVID,
    GUILD,
    HOST,
    NAMES,
    Decks,
    actor,
    deck_for,
    play_to_end_of_hand,
)

TIMEOUT = 60.0


async def open_table(service: TableService, users=(ALICE, BOB, CHLOE), kind: str = "cash", **options: object) -> None:
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2, kind=kind, **options))
    for user in users:
        await service.get(CHANNEL).join(user, NAMES[user])


def seat_of(service: TableService, user: int):
    return next(s for s in service.get(CHANNEL).snapshot().seats if s.user_id == user)


def about(notifier: RecordingNotifier, kind: str) -> list[PlayerAnnouncement]:
    return [a for a in notifier.announcements if isinstance(a, PlayerAnnouncement) and a.kind == kind]


async def stored_actions(service: TableService) -> list[tuple[int, str, str]]:
    """The current hand's stored actions as (player, kind, by)."""
    runner = service.get(CHANNEL)
    stored = await service.storage.hand(runner.view().hand_id)
    return [(a["player"], a["kind"], a["by"]) for a in stored.actions]


async def call_around_until(service: TableService, user: int) -> None:
    """The others check or call until it is `user`'s turn (fails if the hand ends first)."""
    for _ in range(20):
        to_act = actor(service)
        assert to_act is not None, "the hand ended before their turn"
        if to_act == user:
            return
        legal = service.get(CHANNEL).snapshot().legal
        await service.get(CHANNEL).act(to_act, ActionKind.CHECK if legal.can_check else ActionKind.CALL)
    raise AssertionError("their turn never came")


async def next_hand(service: TableService, clock: ManualClock) -> None:
    number = service.get(CHANNEL).snapshot().hand_number
    await clock.advance(service.get(CHANNEL).view().options.next_hand_delay + 0.1)
    assert service.get(CHANNEL).snapshot().hand_number == number + 1


# ---------------------------------------------------------------------------------------------- turn timer


async def test_the_timer_checks_for_a_player_whose_check_is_free(
    service: TableService, clock: ManualClock, notifier: RecordingNotifier
) -> None:
    await open_table(service, time_bank=0)  # no time bank: the timer acts when the turn's time is up
    await service.get(CHANNEL).start_game(ALICE)
    small, big, button = service.get(CHANNEL).view().hand_users
    await service.get(CHANNEL).act(button, ActionKind.CALL)
    await service.get(CHANNEL).act(small, ActionKind.CALL)
    assert actor(service) == big and service.get(CHANNEL).snapshot().legal.can_check
    await clock.advance(TIMEOUT - 1)
    assert actor(service) == big  # not before the deadline
    await clock.advance(1.5)
    await service.get(CHANNEL).drain()
    snap = service.get(CHANNEL).snapshot()
    assert snap.street is not None and snap.street.name == "FLOP"  # the check closed the preflop round
    assert seat_of(service, big).state == "active"  # still in the hand: checked, not folded
    assert [(a.user_id, a.action, a.sat_out) for a in about(notifier, "timed_out")] == [(big, "check", False)]
    assert (await stored_actions(service))[-1] == (1, "check", "timeout")


def turn_timers() -> int:
    return sum(1 for task in asyncio.all_tasks() if task.get_name().startswith("turn-timer-") and not task.done())


async def test_each_turn_times_out_at_its_own_deadline_when_turns_follow_each_other_within_the_timeout(
    service: TableService, clock: ManualClock, notifier: RecordingNotifier
) -> None:
    # The timer of an earlier turn is kept (no task per action): it wakes at that turn's deadline and sleeps on to
    # the deadline of the turn then, so the turn times out at its own deadline, neither before nor after.
    await open_table(service, time_bank=0)  # no time bank: the timer acts when the turn's time is up
    await service.get(CHANNEL).start_game(ALICE)
    small, big, button = service.get(CHANNEL).view().hand_users
    await clock.advance(20)
    await service.get(CHANNEL).act(button, ActionKind.CALL)
    await clock.advance(20)
    await service.get(CHANNEL).act(small, ActionKind.CALL)
    deadline = service.get(CHANNEL).snapshot().deadline
    assert deadline == pytest.approx(clock.time() + TIMEOUT) and turn_timers() == 1
    await clock.advance(TIMEOUT - 20 + 1)  # past the first turn's deadline: the kept timer wakes, sleeps on
    assert actor(service) == big and turn_timers() == 1 and not about(notifier, "timed_out")
    await clock.advance(deadline - clock.time() - 0.5)
    assert actor(service) == big  # not before the deadline
    await clock.advance(1)
    await service.get(CHANNEL).drain()
    assert [(a.user_id, a.action) for a in about(notifier, "timed_out")] == [(big, "check")]
    assert (await stored_actions(service))[-1] == (1, "check", "timeout")


async def test_the_timer_folds_a_player_facing_a_bet(
    service: TableService, clock: ManualClock, notifier: RecordingNotifier
) -> None:
    await open_table(service, time_bank=0)  # no time bank: the timer acts when the turn's time is up
    await service.get(CHANNEL).start_game(ALICE)
    small, _big, button = service.get(CHANNEL).view().hand_users
    assert actor(service) == button
    await clock.advance(TIMEOUT + 0.5)
    await service.get(CHANNEL).drain()
    assert seat_of(service, button).state == "folded"
    assert actor(service) == small  # the turn passed on, with a fresh timer
    assert service.get(CHANNEL).snapshot().deadline == pytest.approx(clock.time() + TIMEOUT, abs=1)
    assert [(a.user_id, a.action, a.sat_out) for a in about(notifier, "timed_out")] == [(button, "fold", False)]
    assert await stored_actions(service) == [(2, "fold", "timeout")]


async def test_two_expiries_in_a_row_sit_the_player_out_and_the_next_cash_hand_deals_without_them(
    service: TableService, clock: ManualClock, notifier: RecordingNotifier, storage: Storage
) -> None:
    await open_table(service, time_bank=0)  # no time bank: the timer acts when the turn's time is up
    await service.get(CHANNEL).start_game(ALICE)
    sleeper = service.get(CHANNEL).view().hand_users[2]  # the button acts first
    await clock.advance(TIMEOUT + 0.5)  # first expiry: folds
    await play_to_end_of_hand(service)
    await next_hand(service, clock)
    await call_around_until(service, sleeper)
    assert service.get(CHANNEL).snapshot().legal.can_check  # the big blind now, with a free check
    await clock.advance(TIMEOUT + 0.5)  # second in a row: checks and sits out
    await service.get(CHANNEL).drain()
    timed = [(a.user_id, a.action, a.sat_out) for a in about(notifier, "timed_out")]
    assert timed == [(sleeper, "fold", False), (sleeper, "check", True)]
    assert about(notifier, "sat_out") == []  # said once, in the timeout notice
    await play_to_end_of_hand(service)
    stack = seat_of(service, sleeper).stack
    await next_hand(service, clock)
    runner = service.get(CHANNEL)
    await runner.drain()
    assert sleeper not in runner.view().hand_users and len(runner.view().hand_users) == 2  # not dealt in
    seat = seat_of(service, sleeper)
    assert (seat.state, seat.player, seat.stack) == ("sitting_out", None, stack)  # seat and chips kept
    assert all(user != sleeper for number, user, _ in notifier.hole_cards if number == 3)
    assert (await storage.audit(GUILD)).ok


async def test_a_real_action_resets_the_count_of_expiries(
    service: TableService, clock: ManualClock, notifier: RecordingNotifier
) -> None:
    await open_table(service, time_bank=0)  # no time bank: the timer acts when the turn's time is up
    await service.get(CHANNEL).start_game(ALICE)
    sleeper = service.get(CHANNEL).view().hand_users[2]
    await clock.advance(TIMEOUT + 0.5)  # hand 1: expiry
    await play_to_end_of_hand(service)
    await next_hand(service, clock)
    await call_around_until(service, sleeper)
    await service.get(CHANNEL).act(sleeper, ActionKind.CHECK)  # hand 2: acts in time (the big blind's option)
    await play_to_end_of_hand(service)
    await next_hand(service, clock)
    await call_around_until(service, sleeper)
    await clock.advance(TIMEOUT + 0.5)  # hand 3: an expiry again, but not two in a row
    await service.get(CHANNEL).drain()
    assert [a.sat_out for a in about(notifier, "timed_out") if a.user_id == sleeper] == [False, False]
    assert about(notifier, "sat_out") == []
    await play_to_end_of_hand(service)
    await next_hand(service, clock)
    assert sleeper in service.get(CHANNEL).view().hand_users  # still dealt in


# ---------------------------------------------------------------------------------------------- next hand


async def test_the_next_hand_waits_its_full_delay_after_each_hand_whoever_joins_in_between(
    service: TableService, clock: ManualClock
) -> None:
    await open_table(service)
    await service.get(CHANNEL).start_game(ALICE)
    delay = service.get(CHANNEL).view().options.next_hand_delay
    await service.get(CHANNEL).act(actor(service), ActionKind.FOLD)
    await service.get(CHANNEL).act(actor(service), ActionKind.FOLD)  # hand 1 over: hand 2 in `delay` seconds
    await clock.advance(delay / 2)
    await service.get(CHANNEL).join(DAVID, NAMES[DAVID])  # joining does not deal sooner nor later
    await clock.advance(delay / 2 + 0.1)
    assert service.get(CHANNEL).snapshot().hand_number == 2
    for _ in range(3):
        await service.get(CHANNEL).act(actor(service), ActionKind.FOLD)  # hand 2 over at once
    ended = clock.time()
    assert service.get(CHANNEL).snapshot().next_hand_at == pytest.approx(ended + delay)
    await clock.advance(delay - 0.5)
    assert (service.get(CHANNEL).snapshot().hand_number, service.get(CHANNEL).snapshot().street) == (2, None)
    await clock.advance(0.6)
    assert service.get(CHANNEL).snapshot().hand_number == 3


# ---------------------------------------------------------------------------------------------- sitting out


async def test_a_cash_player_who_sits_out_between_hands_is_not_dealt_in_until_they_sit_in(
    service: TableService, clock: ManualClock, notifier: RecordingNotifier
) -> None:
    await open_table(service)
    await service.get(CHANNEL).start_game(ALICE)
    await play_to_end_of_hand(service)
    await service.get(CHANNEL).sit_out(BOB)
    stack = seat_of(service, BOB).stack
    await next_hand(service, clock)
    await service.get(CHANNEL).drain()
    assert BOB not in service.get(CHANNEL).view().hand_users
    assert (seat_of(service, BOB).state, seat_of(service, BOB).stack) == ("sitting_out", stack)
    assert [user for number, user, _ in notifier.hole_cards if number == 2] != [] and all(
        user != BOB for number, user, _ in notifier.hole_cards if number == 2
    )
    await service.get(CHANNEL).sit_in(BOB)
    await play_to_end_of_hand(service)
    await next_hand(service, clock)
    assert BOB in service.get(CHANNEL).view().hand_users


async def test_a_cash_player_who_sits_out_during_a_hand_still_plays_it_and_is_left_out_of_the_next(
    service: TableService, clock: ManualClock, notifier: RecordingNotifier
) -> None:
    await open_table(service)
    await service.get(CHANNEL).start_game(ALICE)
    small, big, button = service.get(CHANNEL).view().hand_users
    await service.get(CHANNEL).sit_out(big)  # before their turn
    await service.get(CHANNEL).act(button, ActionKind.CALL)
    await service.get(CHANNEL).act(small, ActionKind.CALL)
    assert actor(service) == big  # their decision still: a cash sit-out never folds or checks for them
    assert seat_of(service, big).state == "active"
    await service.get(CHANNEL).act(big, ActionKind.RAISE, 6)
    await play_to_end_of_hand(service)
    await service.get(CHANNEL).drain()
    assert about(notifier, "auto_folded") == []
    await next_hand(service, clock)
    assert big not in service.get(CHANNEL).view().hand_users


async def test_a_tournament_player_sitting_out_checks_at_once_when_free_and_folds_at_once_facing_a_bet(
    service: TableService, clock: ManualClock, notifier: RecordingNotifier
) -> None:
    await open_table(service, kind="tournament")
    await service.get(CHANNEL).start_game(HOST)
    small, away, button = service.get(CHANNEL).view().hand_users
    await service.get(CHANNEL).sit_out(away)  # the big blind, before their turn
    await service.get(CHANNEL).act(button, ActionKind.CALL)
    await service.get(CHANNEL).act(small, ActionKind.CALL)
    # No waiting for the clock: the big blind's free check is made at once, and the flop comes.
    assert service.get(CHANNEL).snapshot().street.name == "FLOP"
    assert seat_of(service, away).state == "active"
    for _ in range(3):  # every street: the others check, the away player checks at once
        await service.get(CHANNEL).act(small, ActionKind.CHECK)
        assert actor(service) == button
        await service.get(CHANNEL).act(button, ActionKind.CHECK)
    await service.get(CHANNEL).drain()
    (stored,) = await service.storage.hands_for_table(1, limit=1)
    assert [(a["kind"], a["by"]) for a in stored.actions if a["player"] == 1] == [("check", "auto")] * 4
    assert about(notifier, "auto_folded") == []  # a free check keeps their hand: nothing to announce
    assert about(notifier, "timed_out") == []
    before = seat_of(service, away).stack
    await next_hand(service, clock)  # the button moves: the away player is the small blind now
    runner = service.get(CHANNEL)
    assert runner.view().hand_users[0] == away  # a tournament deals them in, and their blind is posted
    assert (seat_of(service, away).bet, seat_of(service, away).stack) == (1, before - 1)
    await service.get(CHANNEL).act(actor(service), ActionKind.RAISE, 6)
    assert seat_of(service, away).state == "folded"  # facing a raise: folded at once, no timer
    await service.get(CHANNEL).drain()
    assert [(a.user_id, a.action) for a in about(notifier, "auto_folded")] == [(away, "fold")]  # said once
    assert about(notifier, "timed_out") == []


# ---------------------------------------------------------------------------------------------- busts


async def tournament_of_four_with_stacks_101_100_100_99(service: TableService) -> tuple[int, ...]:
    """Hand 1 folds to the big blind (101 / 99 / 100 / 100); hand 2 is dealt from the queued decks. Returns hand 2's
    users by player index (0 = small blind, with 101; 1 = big blind and 2 = first to act, 100 each; 3 = the
    button, 99)."""
    await open_table(service, users=(ALICE, BOB, CHLOE, DAVID), kind="tournament")
    await service.get(CHANNEL).start_game(HOST)
    for _ in range(3):
        await service.get(CHANNEL).act(actor(service), ActionKind.FOLD)
    await service.clock.advance(service.get(CHANNEL).view().options.next_hand_delay + 0.1)
    runner = service.get(CHANNEL)
    assert runner.view().hand_number == 2
    hand_id = runner.view().hand_id
    assert hand_id is not None
    row = await service.storage.hand(hand_id)
    assert row is not None and list(stored_hand(row).record.starting_stacks) == [101, 100, 100, 99]
    return runner.view().hand_users


HAND_2 = deck_for(["AsAh", "7c2d", "8c3d", "9c4d"], "KsKdQh5s6h")  # the small blind's aces win
HAND_2_BIG_BLIND_WINS = deck_for(["7c2d", "AsAh", "8c3d", "9c4d"], "KsKdQh5s6h")


async def test_players_busting_in_one_hand_are_placed_by_starting_stack_and_equal_stacks_share_the_place(
    service: TableService, decks: Decks, notifier: RecordingNotifier, storage: Storage
) -> None:
    decks.queue = [deck_for(["2c3c", "4c5c", "6c7c", "8c9c"]), HAND_2]
    winner, big, first, button = await tournament_of_four_with_stacks_101_100_100_99(service)
    runner = service.get(CHANNEL)
    await service.get(CHANNEL).act(first, ActionKind.ALL_IN)  # 100
    await service.get(CHANNEL).act(button, ActionKind.ALL_IN)  # 99
    await service.get(CHANNEL).act(winner, ActionKind.CALL)  # 100 of 101
    await service.get(CHANNEL).act(big, ActionKind.CALL)  # 100: all in; the aces win every pot
    assert CHANNEL not in service.runners  # one player holds every chip: the tournament is over
    # 99 at the start of the hand finishes 4th; the two who started it with 100 share 2nd.
    assert await storage.places(1) == {winner: 1, big: 2, first: 2, button: 4}
    await runner.drain()
    eliminated = [(a.user_id, a.place) for a in about(notifier, "eliminated")]
    assert eliminated == [(button, 4), (big, 2), (first, 2)]  # the worst place first
    closed = next(a for a in notifier.announcements if isinstance(a, TableClosedAnnouncement))
    assert closed.tournament_over
    assert [(place, user) for place, user, _, _ in closed.placings] == [(1, winner), (2, big), (2, first), (4, button)]


async def test_two_busts_in_one_hand_with_players_left_take_the_last_places_bigger_stack_higher(
    service: TableService, decks: Decks, notifier: RecordingNotifier, storage: Storage
) -> None:
    decks.queue = [deck_for(["2c3c", "4c5c", "6c7c", "8c9c"]), HAND_2_BIG_BLIND_WINS]
    small, big, first, button = await tournament_of_four_with_stacks_101_100_100_99(service)
    await service.get(CHANNEL).act(first, ActionKind.ALL_IN)  # 100
    await service.get(CHANNEL).act(button, ActionKind.ALL_IN)  # 99
    await service.get(CHANNEL).act(small, ActionKind.FOLD)
    await service.get(CHANNEL).act(big, ActionKind.CALL)  # 100: all in, and wins
    assert await storage.places(1) == {first: 3, button: 4}
    await service.get(CHANNEL).drain()
    assert [(a.user_id, a.place) for a in about(notifier, "eliminated")] == [(button, 4), (first, 3)]
    assert sorted(s.user_id for s in service.get(CHANNEL).snapshot().seats) == sorted([small, big])


async def test_a_player_leaving_a_started_tournament_is_told_their_place_once_and_takes_no_chips_away_as_cash(
    service: TableService, notifier: RecordingNotifier, clock: ManualClock, storage: Storage
) -> None:
    """QA: leaving a running tournament posted no place. The leaver finishes in the worst place among the players
    with chips (4th of 4 here), once, whether they leave between hands or forfeit a hand being played; the notice
    of the leave names no chips (tournament chips never go to a balance)."""
    await open_table(service, users=(ALICE, BOB, CHLOE, DAVID), kind="tournament")
    await service.get(CHANNEL).start_game(HOST)
    await play_to_end_of_hand(service)
    await service.get(CHANNEL).drain()
    assert service.get(CHANNEL).snapshot().street is None  # between hands
    assert await service.get(CHANNEL).leave(DAVID)
    await service.get(CHANNEL).drain()
    assert [(a.user_id, a.place) for a in about(notifier, "finished")] == [(DAVID, 4)]
    assert [a.chips for a in about(notifier, "left")] == [None]
    assert (await storage.places(service.get(CHANNEL).ids.table_id))[DAVID] == 4
    # During a hand: the forfeit notice, then the place when the seat is freed at the hand's end.
    await next_hand(service, clock)
    leaver = next(u for u in service.get(CHANNEL).view().hand_users if u != actor(service))
    assert not await service.get(CHANNEL).leave(leaver)
    await play_to_end_of_hand(service)
    await service.get(CHANNEL).drain()
    finished = about(notifier, "finished")
    assert [(a.user_id, a.place) for a in finished] == [(DAVID, 4), (leaver, 3)]
    assert len(about(notifier, "forfeited")) == 1
