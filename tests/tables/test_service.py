"""The table service: seating, turns, refusals that change nothing, timers, leaving, and the ledger."""

from __future__ import annotations

import asyncio

import pytest

from bot.poker import ActionKind, HandResult, HoleCardsDealt, PokerError
from bot.render import render_poker_error
from bot.storage import LedgerKind, Storage
from bot.tables import (
    ManualClock,
    PlayerAnnouncement,
    RecordingNotifier,
    ServiceError,
    StreetAnnouncement,
    TableOptions,
    TableService,
    TableSnapshot,
)
from bot.tables.clock import settle
from tests.tables.conftest import ALICE, BOB, CHANNEL, CHLOE, DAVID, GUILD, HOST, NAMES, actor, play_to_end_of_hand


async def seat_players(service: TableService, users=(ALICE, BOB, CHLOE), **options) -> None:
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2, **options))
    for user in users:
        await service.get(CHANNEL).join(user, NAMES[user])


def chips_on_table(service: TableService) -> int:
    return sum(seat.stack + seat.bet for seat in service.get(CHANNEL).snapshot().seats) + sum(
        pot.amount for pot in service.get(CHANNEL).snapshot().pots
    )


async def test_join_buys_in_from_the_balance_and_the_audit_holds(service: TableService, storage: Storage) -> None:
    await seat_players(service)
    assert await storage.balance(GUILD, ALICE) == 900
    snap = service.get(CHANNEL).snapshot()
    assert [(s.seat, s.user_id, s.stack) for s in snap.seats] == [(1, ALICE, 100), (2, BOB, 100), (3, CHLOE, 100)]
    report = await storage.audit(GUILD)
    assert report.ok, report.problems
    assert report.on_tables == 300


async def test_start_deals_a_hand_posts_blinds_and_sends_hole_cards_privately(
    service: TableService, notifier: RecordingNotifier
) -> None:
    await seat_players(service)
    await service.get(CHANNEL).start_game(ALICE)
    await settle()
    await service.get(CHANNEL).drain()
    snap = service.get(CHANNEL).snapshot()
    assert snap.hand_number == 1
    assert snap.actor_user_id in (ALICE, BOB, CHLOE)
    assert sorted(user for _, user, _ in notifier.hole_cards) == [ALICE, BOB, CHLOE]
    assert all(len(cards) == 2 for _, _, cards in notifier.hole_cards)
    # the blinds are in: 1 + 2 on the table as bets
    assert sorted(seat.bet for seat in snap.seats) == [0, 1, 2]
    # no public snapshot ever carries a HoleCardsDealt event
    for s in notifier.snapshots:
        assert not any(isinstance(e, HoleCardsDealt) for e in s.events)


async def test_action_out_of_turn_is_refused_and_names_whose_turn(service: TableService) -> None:
    await seat_players(service)
    await service.get(CHANNEL).start_game(ALICE)
    to_act = actor(service)
    other = next(u for u in (ALICE, BOB, CHLOE) if u != to_act)
    before = service.get(CHANNEL).snapshot()
    with pytest.raises(ServiceError) as info:
        await service.get(CHANNEL).act(other, ActionKind.FOLD)
    assert info.value.code == "not_your_turn_user"
    assert info.value.params["actor"] == to_act
    after = service.get(CHANNEL).snapshot()
    assert after.seats == before.seats and after.actor_user_id == before.actor_user_id


async def test_refused_amounts_say_what_is_allowed_and_change_nothing(service: TableService, storage: Storage) -> None:
    await seat_players(service)
    await service.get(CHANNEL).start_game(ALICE)
    to_act = actor(service)
    before = service.get(CHANNEL).snapshot()
    runner = service.get(CHANNEL)
    hand_id = runner.view().hand_id
    with pytest.raises(PokerError) as info:
        await service.get(CHANNEL).act(to_act, ActionKind.RAISE, 3)
    assert info.value.code == "min_raise" and render_poker_error(info.value, "en") == "Minimum raise is to 4"
    with pytest.raises(PokerError) as info:
        await service.get(CHANNEL).act(to_act, ActionKind.CHECK)
    assert info.value.code == "cannot_check"
    with pytest.raises(PokerError):
        await service.get(CHANNEL).act(to_act, ActionKind.RAISE, 1000)
    with pytest.raises(PokerError):
        await service.get(CHANNEL).act(to_act, ActionKind.BET, 10)
    assert service.get(CHANNEL).snapshot().seats == before.seats
    stored = await storage.hand(hand_id)
    assert stored is not None and stored.actions == ()


async def test_two_presses_at_the_same_instant_give_one_action(service: TableService) -> None:
    await seat_players(service)
    await service.get(CHANNEL).start_game(ALICE)
    to_act = actor(service)
    results = await asyncio.gather(
        service.get(CHANNEL).act(to_act, ActionKind.CALL),
        service.get(CHANNEL).act(to_act, ActionKind.CALL),
        return_exceptions=True,
    )
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1 and isinstance(errors[0], ServiceError)
    assert errors[0].code == "not_your_turn_user"
    stored = await service.storage.hand(service.get(CHANNEL).view().hand_id)
    assert len(stored.actions) == 1


async def test_stale_button_from_an_earlier_hand_is_refused(service: TableService) -> None:
    await seat_players(service)
    await service.get(CHANNEL).start_game(ALICE)
    with pytest.raises(ServiceError) as info:
        await service.get(CHANNEL).act(actor(service), ActionKind.FOLD, hand_number=0)
    assert info.value.code == "stale_button"


async def test_no_table_in_channel_is_a_clear_error(service: TableService) -> None:
    with pytest.raises(ServiceError) as info:
        await service.get(999).act(ALICE, ActionKind.FOLD)
    assert info.value.code == "no_table"
    assert "/poker create" in str(info.value)


async def test_joining_twice_or_a_full_table_or_a_taken_seat_is_refused(
    service: TableService, storage: Storage
) -> None:
    await seat_players(service, users=(ALICE, BOB), seats=2)
    with pytest.raises(ServiceError) as info:
        await service.get(CHANNEL).join(ALICE, "Alice")
    assert info.value.code == "already_seated"
    with pytest.raises(ServiceError) as info:
        await service.get(CHANNEL).join(CHLOE, "Chloé")
    assert info.value.code == "table_full"
    assert await storage.balance(GUILD, CHLOE) == 1000  # nothing taken


async def test_buy_in_outside_the_limits_or_above_the_balance_is_refused(
    service: TableService, storage: Storage
) -> None:
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    with pytest.raises(ServiceError) as info:
        await service.get(CHANNEL).join(ALICE, "Alice", buy_in=10)
    assert info.value.code == "buy_in_range" and info.value.params == {"min": 40, "max": 100}
    await storage.adjust(GUILD, BOB, -950, "test")  # Bob keeps 50
    with pytest.raises(ServiceError) as info:
        await service.get(CHANNEL).join(BOB, "Bob", buy_in=100)
    assert info.value.code == "insufficient_balance"
    assert service.get(CHANNEL).snapshot().seats == ()
    assert (await storage.audit(GUILD)).ok


async def test_a_hand_played_to_the_end_conserves_chips_and_updates_the_ledger(
    service: TableService, storage: Storage, notifier: RecordingNotifier
) -> None:
    await seat_players(service)
    await service.get(CHANNEL).start_game(ALICE)
    await play_to_end_of_hand(service)
    await service.get(CHANNEL).drain()
    results = [a for a in notifier.announcements if isinstance(a, HandResult)]
    assert len(results) == 1
    assert sum(p.amount for p in results[0].pots) == 6
    streets = [a.street.name for a in notifier.announcements if isinstance(a, StreetAnnouncement)]
    assert streets == ["FLOP", "TURN", "RIVER"]
    table = await storage.table_for_channel(CHANNEL)
    assert sum(s.stack for s in table.seats) == 300
    assert (await storage.audit(GUILD)).ok


async def test_next_hand_starts_by_itself_and_the_button_moves(service: TableService, clock: ManualClock) -> None:
    await seat_players(service)
    await service.get(CHANNEL).start_game(ALICE)
    first_button = next(s.seat for s in service.get(CHANNEL).snapshot().seats if s.is_button)
    await play_to_end_of_hand(service)
    assert service.get(CHANNEL).snapshot().street is None
    await clock.advance(service.get(CHANNEL).view().options.next_hand_delay + 0.1)
    snap = service.get(CHANNEL).snapshot()
    assert snap.hand_number == 2
    second_button = next(s.seat for s in snap.seats if s.is_button)
    assert second_button == first_button % 3 + 1


async def test_timer_expiry_checks_when_free_else_folds_and_two_in_a_row_sit_out(
    service: TableService, clock: ManualClock, notifier: RecordingNotifier
) -> None:
    await seat_players(service, time_bank=0)  # no time bank: the timer acts when the turn's time is up
    await service.get(CHANNEL).start_game(ALICE)
    first = actor(service)
    await clock.advance(60.5)  # facing the big blind: fold
    await service.get(CHANNEL).drain()  # the notice goes out through the outbox, after the table's lock
    snap = service.get(CHANNEL).snapshot()
    folded = next(s for s in snap.seats if s.user_id == first)
    assert folded.state == "folded"
    await service.get(CHANNEL).drain()  # announcements are delivered by the outbox, after the lock (issue 18)
    timed = [a for a in notifier.announcements if isinstance(a, PlayerAnnouncement) and a.kind == "timed_out"]
    assert timed and timed[0].user_id == first and timed[0].action == "fold" and not timed[0].sat_out
    # the next player also lets the clock run: one expiry each so far, nobody sat out yet
    second = actor(service)
    await clock.advance(60.5)
    assert second != first
    runner = service.get(CHANNEL)
    assert runner.view().expiries == {first: 1, second: 1}
    assert first not in runner.view().away


async def test_second_expiry_in_a_row_sits_the_player_out_keeping_seat_and_chips(
    service: TableService, clock: ManualClock
) -> None:
    await seat_players(service, users=(ALICE, BOB), time_bank=0)  # no time bank (see test_limits_flow.py)
    runner = service.get(CHANNEL)
    await service.get(CHANNEL).start_game(ALICE)
    sleeper = actor(service)
    await clock.advance(60.5)  # hand 1: sleeper folds on time
    await clock.advance(runner.view().options.next_hand_delay + 0.1)  # hand 2 dealt
    for _ in range(10):
        if actor(service) == sleeper or service.get(CHANNEL).snapshot().street is None:
            break
        legal = service.get(CHANNEL).snapshot().legal
        await service.get(CHANNEL).act(actor(service), ActionKind.CALL if legal.can_call else ActionKind.CHECK)
    if actor(service) == sleeper:
        await clock.advance(60.5)
    assert runner.view().expiries.get(sleeper) == 2
    assert sleeper in runner.view().away
    seat = next(s for s in service.get(CHANNEL).snapshot().seats if s.user_id == sleeper)
    assert seat.stack > 0
    await service.get(CHANNEL).sit_in(sleeper)
    assert sleeper not in runner.view().away


async def test_leaving_mid_hand_folds_at_your_turn_and_cashes_out_at_the_end(
    service: TableService, storage: Storage, notifier: RecordingNotifier
) -> None:
    await seat_players(service)
    await service.get(CHANNEL).start_game(ALICE)
    to_act = actor(service)
    left_now = await service.get(CHANNEL).leave(to_act)
    assert left_now is False
    snap = service.get(CHANNEL).snapshot()
    assert next(s for s in snap.seats if s.user_id == to_act).state == "folded"
    await service.get(CHANNEL).drain()  # announcements are delivered in order, after the table's lock is released
    # One notice says both: they leave and their hand is folded (issue 11 item 2; was "auto_folded").
    auto = [a for a in notifier.announcements if isinstance(a, PlayerAnnouncement) and a.kind == "forfeited"]
    assert [a.user_id for a in auto] == [to_act]
    await play_to_end_of_hand(service)
    assert all(s.user_id != to_act for s in service.get(CHANNEL).snapshot().seats)
    assert await storage.balance(GUILD, to_act) == 1000  # first to act 3-handed is the button: no blind lost
    assert (await storage.audit(GUILD)).ok


async def test_closed_dms_are_announced_once_and_cards_stay_available(
    service: TableService, notifier: RecordingNotifier, clock: ManualClock
) -> None:
    notifier.refuse_dms.add(BOB)
    await seat_players(service)
    await service.get(CHANNEL).start_game(ALICE)
    await service.get(CHANNEL).drain()
    refused = [a for a in notifier.announcements if isinstance(a, PlayerAnnouncement) and a.kind == "dm_refused"]
    assert [a.user_id for a in refused] == [BOB]
    assert len(service.get(CHANNEL).hole_cards(BOB)) == 2
    with pytest.raises(ServiceError) as info:
        service.get(CHANNEL).hole_cards(DAVID)
    assert info.value.code == "not_in_hand"


async def test_end_mid_hand_refunds_the_hand_and_cashes_everyone_out(service: TableService, storage: Storage) -> None:
    await seat_players(service)
    await service.get(CHANNEL).start_game(ALICE)
    await service.get(CHANNEL).act(actor(service), ActionKind.RAISE, 10)
    with pytest.raises(ServiceError) as info:
        await service.get(CHANNEL).end(ALICE, is_admin=False)
    assert info.value.code == "not_host"
    closed = await service.get(CHANNEL).end(HOST, is_admin=False)
    assert closed.voided_hand == 1
    assert sorted(chips for _, _, chips in closed.cashed_out) == [100, 100, 100]
    for user in (ALICE, BOB, CHLOE):
        assert await storage.balance(GUILD, user) == 1000
    assert (await storage.audit(GUILD)).ok
    with pytest.raises(ServiceError):
        service.get(CHANNEL).snapshot()


async def test_rebuy_between_hands_within_the_maximum(service: TableService, storage: Storage) -> None:
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    await service.get(CHANNEL).join(ALICE, "Alice", buy_in=40)
    await service.get(CHANNEL).join(BOB, "Bob")
    assert await service.get(CHANNEL).rebuy(ALICE, 60) == 100
    with pytest.raises(ServiceError) as info:
        await service.get(CHANNEL).rebuy(ALICE, 1)
    # At the maximum the refusal says so (issue 11 item 7; was "You can add at most 0").
    assert info.value.code == "rebuy_at_max" and info.value.params == {"limit": 100}
    with pytest.raises(ServiceError) as info:
        await service.get(CHANNEL).rebuy(BOB, 1)
    assert info.value.code == "rebuy_at_max"
    await service.get(CHANNEL).start_game(ALICE)
    # During a hand a rebuy is accepted for the next hand (issue 11 item 7; it was refused "rebuy_mid_hand"),
    # still within the maximum: Bob has posted a blind, so 10 is above what he may add.
    with pytest.raises(ServiceError) as info:
        await service.get(CHANNEL).rebuy(BOB, 10)
    assert info.value.code == "rebuy_above_max"
    assert await service.get(CHANNEL).rebuy(BOB, 1) == 0
    assert await storage.balance(GUILD, ALICE) == 900
    rows = await storage.ledger(GUILD, ALICE)
    assert sorted(r.kind for r in rows if r.kind is not LedgerKind.GRANT) == [LedgerKind.BUY_IN, LedgerKind.REBUY]
    assert sorted(r.delta for r in rows if r.kind is not LedgerKind.GRANT) == [-60, -40]
    assert (await storage.audit(GUILD)).ok


async def test_the_host_agrees_a_blind_schedule_before_the_first_hand_and_it_applies(
    service: TableService, clock: ManualClock
) -> None:
    options = TableOptions.for_blinds(1, 2, kind="tournament")
    await service.create_table(GUILD, CHANNEL, HOST, options)
    for user in (ALICE, BOB):
        await service.get(CHANNEL).join(user, NAMES[user])
    with pytest.raises(ServiceError) as info:
        await service.get(CHANNEL).set_blind_schedule(ALICE, ((1, 2, 0), (2, 4, 0)), "hands", 1)
    assert info.value.code == "not_host"
    with pytest.raises(ServiceError) as info:
        await service.get(CHANNEL).set_blind_schedule(HOST, ((3, 2, 0),), "hands", 1)
    assert info.value.code == "bad_option"
    await service.get(CHANNEL).set_blind_schedule(HOST, ((1, 2, 0), (5, 10, 1)), "hands", 1)
    assert [s.user_id for s in service.get(CHANNEL).snapshot().seats] == [ALICE, BOB]
    await service.get(CHANNEL).start_game(HOST)
    assert service.get(CHANNEL).snapshot().big_blind == 2
    with pytest.raises(ServiceError) as info:
        await service.get(CHANNEL).set_blind_schedule(HOST, (), "hands", 1)
    assert info.value.code == "schedule_after_start"
    first = actor(service)
    await service.get(CHANNEL).act(first, ActionKind.FOLD)
    await clock.advance(service.get(CHANNEL).view().options.next_hand_delay + 0.1)
    snap = service.get(CHANNEL).snapshot()
    assert snap.hand_number == 2
    assert (snap.small_blind, snap.big_blind, snap.ante) == (5, 10, 1)
    stored = await service.storage.table_for_channel(CHANNEL)
    assert stored.settings["blind_levels"] == [[1, 2, 0], [5, 10, 1]]


async def test_between_hands_the_snapshot_says_when_the_next_hand_is_dealt(
    service: TableService, clock: ManualClock
) -> None:
    await seat_players(service)
    await service.get(CHANNEL).start_game(ALICE)
    assert service.get(CHANNEL).snapshot().next_hand_at is None
    await service.get(CHANNEL).act(actor(service), ActionKind.FOLD)
    await service.get(CHANNEL).act(actor(service), ActionKind.FOLD)
    snap = service.get(CHANNEL).snapshot()
    assert snap.street is None
    assert snap.next_hand_at == pytest.approx(clock.time() + service.get(CHANNEL).view().options.next_hand_delay)
    await clock.advance(service.get(CHANNEL).view().options.next_hand_delay + 0.1)
    assert service.get(CHANNEL).snapshot().hand_number == 2
    assert service.get(CHANNEL).snapshot().next_hand_at is None


async def test_a_table_message_that_could_not_be_posted_is_posted_again_at_the_next_change(
    service: TableService, notifier: RecordingNotifier, storage: Storage
) -> None:
    await seat_players(service)
    runner = service.get(CHANNEL)
    await runner.drain()
    first_id = runner.view().message_id
    assert first_id is not None
    posted = len(notifier.posted)

    async def refuse(snapshot):  # the channel refuses the new hand's message (e.g. rate limits exhausted)
        notifier.posted.append(snapshot)
        return None

    original = notifier.post_table
    notifier.post_table = refuse  # type: ignore[method-assign]
    await service.get(CHANNEL).start_game(ALICE)
    await runner.drain()
    assert runner.view().message_id is None
    notifier.post_table = original  # type: ignore[method-assign]
    await service.get(CHANNEL).act(actor(service), ActionKind.CALL)
    await runner.drain()
    assert runner.view().message_id not in (None, first_id)
    assert len(notifier.posted) == posted + 2
    assert (await storage.table_for_channel(CHANNEL)).message_id == runner.view().message_id


async def test_a_kick_during_a_hand_never_folds_it_the_player_leaves_when_it_ends(
    service: TableService, storage: Storage, notifier: RecordingNotifier
) -> None:
    await seat_players(service)
    await service.get(CHANNEL).start_game(ALICE)
    target = actor(service)
    assert await service.get(CHANNEL).kick(HOST, target, is_admin=False) is False
    await service.runners[CHANNEL].drain()
    about_target = [a for a in notifier.announcements if isinstance(a, PlayerAnnouncement) and a.user_id == target]
    assert [a.kind for a in about_target] == ["joined", "leaving"]  # announced as pending, not as done
    snap = service.get(CHANNEL).snapshot()
    seat = next(s for s in snap.seats if s.user_id == target)
    assert seat.state == "active" and seat.leaving  # still in the hand, marked as leaving
    assert actor(service) == target  # still their decision
    await service.get(CHANNEL).act(target, ActionKind.CALL)
    await play_to_end_of_hand(service)
    assert all(s.user_id != target for s in service.get(CHANNEL).snapshot().seats)
    table = await storage.table_for_channel(CHANNEL)
    assert target not in {s.user_id for s in table.seats}
    assert (await storage.audit(GUILD)).ok
    await service.runners[CHANNEL].drain()
    about_target = [a for a in notifier.announcements if isinstance(a, PlayerAnnouncement) and a.user_id == target]
    assert [a.kind for a in about_target] == ["joined", "leaving", "kicked"]  # then one notice, chips returned
    assert about_target[-1].chips is not None and about_target[-1].chips > 0


async def test_a_tournament_ended_by_the_host_is_ranked_by_stack(
    service: TableService, storage: Storage, notifier: RecordingNotifier
) -> None:
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2, kind="tournament"))
    for user in (ALICE, BOB, CHLOE):
        await service.get(CHANNEL).join(user, NAMES[user])
    await service.get(CHANNEL).start_game(HOST)
    await service.get(CHANNEL).act(actor(service), ActionKind.FOLD)
    await service.get(CHANNEL).act(actor(service), ActionKind.FOLD)  # the big blind wins the blinds: 101 / 99 / 100
    closed = await service.get(CHANNEL).end(HOST, is_admin=False)
    assert not closed.tournament_over  # stopped at the agreed time, not won by holding every chip
    assert [(place, stack) for place, _, _, stack in closed.placings] == [(1, 101), (2, 100), (3, 99)]
    assert sorted((await storage.places(1)).values()) == [1, 2, 3]


async def test_a_server_language_change_reaches_its_open_tables(
    service: TableService, notifier: RecordingNotifier
) -> None:
    await seat_players(service)
    await service.create_table(GUILD + 1, CHANNEL + 1, HOST, TableOptions.for_blinds(1, 2))
    assert await service.set_language(GUILD, "fr") == 1
    await service.get(CHANNEL).drain()
    assert service.get(CHANNEL).snapshot().language == "fr"
    assert notifier.snapshots[-1].language == "fr"
    assert service.get(CHANNEL + 1).snapshot().language == "en"
    row = await service.storage.table_for_channel(CHANNEL)
    assert row.state["language"] == "fr"  # kept across a restart


async def test_a_tournament_entry_with_another_stack_is_refused(service: TableService) -> None:
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2, kind="tournament"))
    with pytest.raises(ServiceError) as info:
        await service.get(CHANNEL).join(ALICE, "Alice", buy_in=30)
    assert info.value.code == "tournament_stack" and info.value.params == {"stack": 100}
    assert service.get(CHANNEL).snapshot().seats == ()
    assert await service.get(CHANNEL).join(ALICE, "Alice", buy_in=100) == 1


async def test_calling_a_straddle_is_vpip_not_a_preflop_raise(service: TableService, storage: Storage) -> None:
    await seat_players(service, straddle=True)
    await service.get(CHANNEL).start_game(ALICE)
    runner = service.get(CHANNEL)
    hand_id = runner.view().hand_id
    small, big, straddler = runner.view().hand_users  # 3-handed: the button (left of the BB) straddles
    assert actor(service) == small
    await service.get(CHANNEL).act(small, ActionKind.CALL)  # calls the straddle of 4
    await service.get(CHANNEL).act(big, ActionKind.RAISE, 12)
    await service.get(CHANNEL).act(straddler, ActionKind.FOLD)
    await service.get(CHANNEL).act(small, ActionKind.FOLD)
    players = {p.user_id: p for p in (await storage.hand(hand_id)).players}
    assert (players[small].vpip, players[small].pfr) == (True, False)
    assert (players[big].vpip, players[big].pfr) == (True, True)
    assert (players[straddler].vpip, players[straddler].pfr) == (False, False)


async def test_an_edit_still_queued_when_a_hand_starts_never_draws_that_hand_on_the_old_message(
    service: TableService, notifier: RecordingNotifier
) -> None:
    """Joins queue an edit of the waiting table's message; the deal posts the hand's own message. If Discord is
    slow, that edit is still queued at the deal: it must never draw hand #1 (with live buttons) on the old
    message — two messages of one hand confused players (found by the load benchmark). The old message is
    retired instead (one line, no buttons; issue 11 item 1; it used to get the waiting table's last picture)."""
    gate = asyncio.Event()
    post, edit = notifier.post_table, notifier.edit_table

    async def slow_post(snapshot: TableSnapshot) -> int | None:
        await gate.wait()
        return await post(snapshot)

    async def slow_edit(snapshot: TableSnapshot) -> None:
        await gate.wait()
        await edit(snapshot)

    notifier.post_table, notifier.edit_table = slow_post, slow_edit  # type: ignore[method-assign]
    await seat_players(service)
    await service.get(CHANNEL).start_game(ALICE)
    gate.set()
    await service.runners[CHANNEL].drain()
    first, hand = notifier.posted[0], notifier.posted[-1]
    assert first.hand_number == 0 and hand.hand_number == 1 and hand.street is not None
    assert all(s.street is None and s.legal is None for s in notifier.edits if s.message_id == 1001)
    old = notifier.messages[1001]
    assert old.retired and not old.buttons and old.edits_after_retired == 0
    assert notifier.with_live_buttons() == [notifier.live_message_id] != [1001]


async def test_heads_up_the_button_is_the_small_blind_and_the_seats_say_who_posted_what(
    service: TableService,
) -> None:
    """Issue 11 item 15 (rule book 000 §04: heads-up the button posts the small blind)."""
    await seat_players(service, users=(ALICE, BOB))
    await service.get(CHANNEL).start_game(ALICE)
    seats = service.get(CHANNEL).snapshot().seats
    button = next(s for s in seats if s.is_button)
    other = next(s for s in seats if not s.is_button)
    assert (button.blind, button.bet, other.blind, other.bet) == ("small_blind", 1, "big_blind", 2)
    await service.get(CHANNEL).act(actor(service), ActionKind.FOLD)
    assert [s.blind for s in service.get(CHANNEL).snapshot().seats] == [None, None]  # between hands: no marks


async def test_a_table_that_cannot_deal_says_what_it_waits_for_and_keeps_no_next_hand_time(
    service: TableService, notifier: RecordingNotifier, clock: ManualClock
) -> None:
    """Issue 11 item 6: "Next hand <t:…:R>" stayed, with a time in the past, when no hand could start."""
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    assert service.get(CHANNEL).snapshot().waiting == "players"
    await service.get(CHANNEL).join(ALICE, NAMES[ALICE])
    assert service.get(CHANNEL).snapshot().waiting == "second_player"
    await service.get(CHANNEL).join(BOB, NAMES[BOB])
    assert service.get(CHANNEL).snapshot().waiting == "start"  # seated, but nobody started the game
    await service.get(CHANNEL).start_game(ALICE)
    assert service.get(CHANNEL).snapshot().waiting is None  # in a hand
    await service.get(CHANNEL).act(actor(service), ActionKind.FOLD)
    delay = service.get(CHANNEL).view().options.next_hand_delay
    snap = service.get(CHANNEL).snapshot()
    assert (snap.waiting, snap.next_hand_at) == (None, pytest.approx(clock.time() + delay))
    # Bob leaves before the next deal: the table waits for a second player, and no deal time is left behind.
    assert await service.get(CHANNEL).leave(BOB)
    await clock.advance(delay + 0.1)
    await service.get(CHANNEL).drain()
    for last in (service.get(CHANNEL).snapshot(), notifier.last):
        assert (last.hand_number, last.waiting, last.next_hand_at) == (1, "second_player", None)
    # Nothing more is scheduled while nobody can play: a sit-out table is told how to come back.
    await service.get(CHANNEL).join(BOB, NAMES[BOB])
    await service.get(CHANNEL).join(CHLOE, NAMES[CHLOE])
    await service.get(CHANNEL).sit_out(BOB)
    await service.get(CHANNEL).sit_out(CHLOE)
    await clock.advance(delay + 0.1)
    snap = service.get(CHANNEL).snapshot()
    assert (snap.hand_number, snap.waiting, snap.next_hand_at) == (1, "others_sitting_out", None)
    await service.get(CHANNEL).sit_out(ALICE)
    assert service.get(CHANNEL).snapshot().waiting == "sitting_in"
    await service.get(CHANNEL).sit_in(ALICE)
    await service.get(CHANNEL).sit_in(BOB)
    snap = service.get(CHANNEL).snapshot()
    assert (snap.waiting, snap.next_hand_at) == (None, pytest.approx(clock.time() + delay))
    await clock.advance(delay + 0.1)
    assert service.get(CHANNEL).snapshot().hand_number == 2
