"""The table's flow around the hands, as the channel sees it (RecordingNotifier's model of the messages):
old table messages lose their buttons and end as one line; a button whose amount changed is refused; a
player who leaves forfeits the hand at once (one notice) while a kicked one finishes it; a tournament
player sitting out is checked or folded."""

from __future__ import annotations

import pytest

from bot.poker import ActionKind
from bot.render import render_table_closed
from bot.storage import LedgerKind, Storage
from bot.tables import (
    HandResultAnnouncement,
    ManualClock,
    PlayerAnnouncement,
    RecordingNotifier,
    ServiceError,
    TableOptions,
    TableService,
)
from tests.tables.conftest import ALICE, BOB, CHANNEL, CHLOE, GUILD, HOST, NAMES, Decks, actor, deck_for
from tests.tables.test_service import play_to_end_of_hand


async def seat_and_start(service: TableService, users=(ALICE, BOB, CHLOE), **options) -> tuple[int, ...]:
    """Open a table, seat `users`, deal hand 1; returns the hand's users by player index (SB, BB, button...)."""
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2, **options))
    for user in users:
        await service.get(CHANNEL).join(user, NAMES[user])
    await service.get(CHANNEL).start_game(HOST if options.get("kind") == "tournament" else users[0])
    return service.get(CHANNEL).view().hand_users


def notices(notifier: RecordingNotifier, user: int) -> list[str]:
    return [a.kind for a in notifier.announcements if isinstance(a, PlayerAnnouncement) and a.user_id == user]


def pot_winners(notifier: RecordingNotifier) -> set[int]:
    results = [a for a in notifier.announcements if isinstance(a, HandResultAnnouncement)]
    return {user for r in results for p in r.pots for user, _, _ in p.winners}


# ---------------------------------------------------------------- table messages and buttons (issue 11 items 1, 11)


async def test_a_reposted_table_retires_the_old_message_and_only_the_live_table_has_buttons(
    service: TableService, notifier: RecordingNotifier
) -> None:
    small, big, button = await seat_and_start(service)
    runner = service.get(CHANNEL)
    await runner.drain()
    first = notifier.live_message_id
    assert notifier.with_live_buttons() == [first]
    await service.get(CHANNEL).act(button, ActionKind.RAISE, 6)
    await service.get(CHANNEL).repost()
    await service.get(CHANNEL).act(small, ActionKind.FOLD)
    await runner.drain()
    second = notifier.live_message_id
    assert second not in (None, first)
    old = notifier.messages[first]
    assert old.retired and not old.buttons and old.result is None  # "hand #1 moved to a newer message"
    assert old.edits_after_retired == 0
    assert notifier.with_live_buttons() == [second]
    assert notifier.live.snapshot.actor_user_id == big  # the live table shows the latest action
    await service.get(CHANNEL).act(big, ActionKind.FOLD)
    await runner.drain()
    # The hand is over: its message is now its one-line summary; no message at all carries buttons.
    hand_message = notifier.messages[second]
    assert hand_message.retired and hand_message.result is not None and hand_message.result.hand_number == 1
    assert notifier.with_live_buttons() == []
    assert all(m.edits_after_retired == 0 for m in notifier.messages.values())


async def test_each_hand_ends_as_one_summary_and_the_next_deal_posts_the_live_table(
    service: TableService, notifier: RecordingNotifier, clock: ManualClock, storage: Storage
) -> None:
    small, big, button = await seat_and_start(service)
    runner = service.get(CHANNEL)
    await service.get(CHANNEL).act(button, ActionKind.FOLD)
    await service.get(CHANNEL).act(small, ActionKind.FOLD)
    await runner.drain()
    hand_one = [m for m in notifier.messages.values() if m.snapshot.hand_number == 1]
    assert len(hand_one) == 1 and hand_one[0].retired
    assert [user for user, _, _ in hand_one[0].result.pots[0].winners] == [big]
    assert notifier.live is None and runner.view().message_id is None  # nothing to edit between hands
    assert (await storage.table_for_channel(CHANNEL)).message_id is None  # a restart does not redraw it
    await clock.advance(runner.view().options.next_hand_delay + 0.1)
    await runner.drain()
    assert notifier.live is not None and notifier.live.snapshot.hand_number == 2
    assert notifier.with_live_buttons() == [notifier.live_message_id]


async def test_a_hand_costs_one_table_edit_per_action(service: TableService, notifier: RecordingNotifier) -> None:
    """The summary replaces the hand's last edit: an action still costs one table edit (REST budget)."""
    small, big, button = await seat_and_start(service)
    runner = service.get(CHANNEL)
    await runner.drain()
    edits = len(notifier.edits)
    for user, kind in ((button, ActionKind.CALL), (small, ActionKind.CALL), (big, ActionKind.CHECK)):
        await service.get(CHANNEL).act(user, kind)
        await runner.drain()
    await play_to_end_of_hand(service)
    await runner.drain()
    retired = sum(1 for m in notifier.messages.values() if m.retired and m.result is not None)
    stored = await service.storage.hands_for_table(runner.ids.table_id, limit=1)
    actions = len((await service.storage.hand(stored[0].id)).actions)
    assert retired == 1
    assert (len(notifier.edits) - edits) + retired <= actions


async def test_a_button_whose_amount_changed_is_refused_with_the_current_amount(
    service: TableService, storage: Storage
) -> None:
    small, _big, button = await seat_and_start(service)
    runner = service.get(CHANNEL)
    # The small blind's message said "Call 1"; the button raised to 20 meanwhile.
    await service.get(CHANNEL).act(button, ActionKind.RAISE, 20)
    with pytest.raises(ServiceError) as info:
        await service.get(CHANNEL).act(small, ActionKind.CALL, hand_number=1, expected=1)
    assert info.value.code == "call_changed" and info.value.params == {"amount": 19}
    assert str(info.value).startswith("The call is now 19")
    with pytest.raises(ServiceError) as info:
        await service.get(CHANNEL).act(small, ActionKind.ALL_IN, hand_number=1, expected=60)
    assert info.value.code == "all_in_changed" and info.value.params == {"amount": 100}
    assert actor(service) == small
    assert len((await storage.hand(runner.view().hand_id)).actions) == 1  # nothing was played
    acted = await service.get(CHANNEL).act(small, ActionKind.CALL, hand_number=1, expected=19)
    assert acted.added == 19


# ---------------------------------------------------------------- leaving forfeits the hand (issue 11 item 2, issue 18)


async def test_leaving_before_ones_turn_facing_a_bet_folds_at_once(
    service: TableService, notifier: RecordingNotifier, storage: Storage
) -> None:
    small, big, button = await seat_and_start(service)
    assert actor(service) == button
    assert await service.get(CHANNEL).leave(big) is False
    snap = service.get(CHANNEL).snapshot()
    assert next(s for s in snap.seats if s.user_id == big).state == "folded"
    assert actor(service) == button  # the turn did not move, nobody waits for the leaver's timer
    await service.get(CHANNEL).act(button, ActionKind.CALL)
    await service.get(CHANNEL).act(small, ActionKind.CALL)
    await play_to_end_of_hand(service)
    await service.get(CHANNEL).drain()
    assert big not in pot_winners(notifier)
    assert notices(notifier, big) == ["joined", "forfeited"]  # one notice, nothing at the end of the hand
    assert all(s.user_id != big for s in service.get(CHANNEL).snapshot().seats)
    assert await storage.balance(GUILD, big) == 998  # the big blind stays in the pot
    assert (await storage.audit(GUILD)).ok


async def test_leaving_at_ones_turn_with_a_free_check_folds_instead_of_checking(
    service: TableService, notifier: RecordingNotifier, storage: Storage
) -> None:
    small, big, button = await seat_and_start(service)
    await service.get(CHANNEL).act(button, ActionKind.CALL)
    await service.get(CHANNEL).act(small, ActionKind.CALL)
    await service.get(CHANNEL).act(big, ActionKind.CHECK)
    assert actor(service) == small and service.get(CHANNEL).snapshot().legal.can_check  # flop, check is free
    await service.get(CHANNEL).leave(small)
    snap = service.get(CHANNEL).snapshot()
    assert next(s for s in snap.seats if s.user_id == small).state == "folded"
    assert actor(service) == big
    await play_to_end_of_hand(service)
    await service.get(CHANNEL).drain()
    assert small not in pot_winners(notifier)
    assert notices(notifier, small) == ["joined", "forfeited"]
    assert await storage.balance(GUILD, small) == 998
    assert (await storage.audit(GUILD)).ok


async def test_leaving_after_ones_turn_with_the_best_hand_never_wins_the_pot(
    service: TableService, notifier: RecordingNotifier, storage: Storage, decks: Decks
) -> None:
    # The button (hand player 2) holds aces; the others nothing. He calls, then leaves on the flop.
    decks.queue.append(deck_for(["7c 2d", "8h 3s", "Ah Ad"], "Kc 9d 4s 5h Jc"))
    small, big, button = await seat_and_start(service)
    await service.get(CHANNEL).act(button, ActionKind.CALL)
    await service.get(CHANNEL).act(small, ActionKind.CALL)
    await service.get(CHANNEL).act(big, ActionKind.CHECK)
    await service.get(CHANNEL).act(small, ActionKind.CHECK)
    assert actor(service) == big
    await service.get(CHANNEL).leave(button)  # acted preflop, not yet on the flop
    await play_to_end_of_hand(service)
    await service.get(CHANNEL).drain()
    assert button not in pot_winners(notifier)
    assert notices(notifier, button).count("forfeited") == 1
    assert [n for n in notices(notifier, button) if n in ("auto_folded", "left")] == []
    assert await storage.balance(GUILD, button) == 998
    assert (await storage.audit(GUILD)).ok


async def test_a_leaver_whose_raise_nobody_called_leaves_it_in_the_pot(
    service: TableService, notifier: RecordingNotifier, storage: Storage
) -> None:
    small, big, button = await seat_and_start(service)
    await service.get(CHANNEL).act(button, ActionKind.RAISE, 10)
    await service.get(CHANNEL).leave(button)  # after his turn, facing nobody
    await service.get(CHANNEL).act(small, ActionKind.FOLD)  # the big blind is the last one in
    await service.get(CHANNEL).drain()
    assert pot_winners(notifier) == {big}
    # He folded by leaving: his bet stays in the pot, none of it comes back ("ne reprends pas les jetons d'une mise
    # après t'être couché", rule book 000); otherwise leaving would take back any raise not yet called.
    assert await storage.balance(GUILD, button) == 990
    assert await storage.balance(GUILD, big) == 900  # still seated
    table = await storage.table_for_channel(CHANNEL)
    assert {s.user_id: s.stack for s in table.seats} == {small: 99, big: 111}
    assert (await storage.audit(GUILD)).ok


async def test_a_forfeited_hand_survives_a_restart(
    service: TableService, storage: Storage, notifier: RecordingNotifier, clock: ManualClock, decks: Decks
) -> None:
    _small, big, button = await seat_and_start(service)
    await service.get(CHANNEL).leave(big)  # out of turn
    await service.close()
    again = TableService(storage, notifier, clock=clock, rng_factory=decks)
    assert await again.restore() == 1
    runner = again.get(CHANNEL)
    seat = next(s for s in runner.snapshot().seats if s.user_id == big)
    assert runner.view().in_hand and seat.state == "folded"
    assert again.get(CHANNEL).snapshot().actor_user_id == button
    await again.close()


# ---------------------------------------------------------------- a kick lets the player finish the hand


@pytest.mark.parametrize("when", ["before_turn_facing_a_bet", "at_turn_facing_a_bet", "at_turn_with_a_free_check"])
async def test_a_kicked_player_plays_the_hand_out_with_one_notice_each_way(
    service: TableService, notifier: RecordingNotifier, storage: Storage, when: str
) -> None:
    small, big, button = await seat_and_start(service)
    if when == "before_turn_facing_a_bet":
        target = small
    elif when == "at_turn_facing_a_bet":
        target = button
    else:
        await service.get(CHANNEL).act(button, ActionKind.CALL)
        await service.get(CHANNEL).act(small, ActionKind.CALL)
        target = big
        assert service.get(CHANNEL).snapshot().legal.can_check
    assert await service.get(CHANNEL).kick(HOST, target, is_admin=False) is False
    snap = service.get(CHANNEL).snapshot()
    assert next(s for s in snap.seats if s.user_id == target).state == "active"
    if when != "before_turn_facing_a_bet":
        assert actor(service) == target  # still their decision: a kick never folds a live hand
    await play_to_end_of_hand(service)
    await service.get(CHANNEL).drain()
    assert notices(notifier, target) == ["joined", "leaving", "kicked"]
    assert all(s.user_id != target for s in service.get(CHANNEL).snapshot().seats)
    assert (await storage.audit(GUILD)).ok


# ---------------------------------------------------------------- a tournament player sitting out


async def test_a_tournament_player_sitting_out_is_checked_when_free_and_folded_facing_a_bet(
    service: TableService, notifier: RecordingNotifier
) -> None:
    small, big, button = await seat_and_start(service, kind="tournament")
    await service.get(CHANNEL).sit_out(big)
    await service.get(CHANNEL).act(button, ActionKind.CALL)
    await service.get(CHANNEL).act(small, ActionKind.CALL)
    # The big blind's option is a free check: taken for him at once, without a notice.
    runner = service.get(CHANNEL)
    snap = runner.snapshot()
    assert snap.street is not None and snap.street.name == "FLOP"
    assert next(s.state for s in snap.seats if s.player == 1) != "folded"
    assert actor(service) == small
    await service.get(CHANNEL).act(small, ActionKind.BET, 4)
    # Facing a bet: folded at once, the turn goes on to the button.
    assert next(s.state for s in runner.snapshot().seats if s.player == 1) == "folded"
    assert actor(service) == button
    await service.get(CHANNEL).act(button, ActionKind.CALL)
    await runner.drain()
    assert notices(notifier, big).count("auto_folded") == 1
    assert "auto_folded" not in notices(notifier, small) + notices(notifier, button)


# ---------------------------------------------------------------- busted cash players and rebuys (issue 11 item 7)


async def test_a_busted_cash_player_gets_one_notice_and_leaves_the_table(
    service: TableService, notifier: RecordingNotifier, storage: Storage, decks: Decks
) -> None:
    decks.queue.append(deck_for(["7c 2d", "Ah Ad"], "Kc 9d 4s 5h Jc"))
    big, small = await seat_and_start(service, users=(ALICE, BOB))  # heads-up: player 1 is the button and SB
    await service.get(CHANNEL).act(small, ActionKind.ALL_IN)
    await service.get(CHANNEL).act(big, ActionKind.CALL)
    await service.get(CHANNEL).drain()
    loser = big  # the small blind (button) holds the aces
    assert notices(notifier, loser) == ["joined", "busted"]  # no "eliminated" line beside it
    assert all(s.user_id != loser for s in service.get(CHANNEL).snapshot().seats)
    assert await storage.balance(GUILD, loser) == 900
    await service.get(CHANNEL).join(loser, NAMES[loser])  # what the notice's button does
    assert await storage.balance(GUILD, loser) == 800
    assert (await storage.audit(GUILD)).ok


@pytest.mark.parametrize("folded", [False, True])
async def test_a_rebuy_asked_during_a_hand_is_made_when_it_ends(
    service: TableService, notifier: RecordingNotifier, storage: Storage, folded: bool
) -> None:
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    await service.get(CHANNEL).join(ALICE, "Alice", buy_in=40)
    await service.get(CHANNEL).join(BOB, "Bob")
    await service.get(CHANNEL).join(CHLOE, "Chloé")
    await service.get(CHANNEL).start_game(ALICE)
    runner = service.get(CHANNEL)
    player = runner.view().hand_users.index(ALICE)
    if folded:
        while actor(service) != ALICE:
            await service.get(CHANNEL).act(actor(service), ActionKind.CALL)
        await service.get(CHANNEL).act(ALICE, ActionKind.FOLD)
    start_stack = next(s.stack for s in runner.snapshot().seats if s.player == player)
    with pytest.raises(ServiceError) as info:
        await service.get(CHANNEL).rebuy(ALICE, 100 - start_stack + 1)
    assert info.value.code == "rebuy_above_max"
    assert await service.get(CHANNEL).rebuy(ALICE, 30) == 0  # accepted for the next hand
    assert await storage.balance(GUILD, ALICE) == 960  # nothing moved yet
    assert (await storage.audit(GUILD)).ok
    await play_to_end_of_hand(service)
    await runner.drain()
    seat = next(s for s in service.get(CHANNEL).snapshot().seats if s.user_id == ALICE)
    end_stack = seat.stack
    assert await storage.balance(GUILD, ALICE) == 960 - 30
    rows = [r for r in await storage.ledger(GUILD, ALICE) if r.kind is LedgerKind.REBUY]
    assert [r.delta for r in rows] == [-30]
    assert notices(notifier, ALICE).count("rebuy") == 1
    assert runner.view().rebuys == {}
    assert end_stack >= 30 and (await storage.audit(GUILD)).ok


async def test_a_rebuy_asked_during_a_hand_survives_a_restart(
    service: TableService, notifier: RecordingNotifier, storage: Storage, clock: ManualClock, decks: Decks
) -> None:
    small, big, button = await seat_and_start(service)
    assert await service.get(CHANNEL).rebuy(big, 2) == 0  # the big blind has 98 behind: room for 2
    await service.close()
    again = TableService(storage, notifier, clock=clock, rng_factory=decks)
    await again.restore()
    assert again.get(CHANNEL).view().rebuys == {big: 2}
    await again.get(CHANNEL).act(button, ActionKind.FOLD)
    await again.get(CHANNEL).act(small, ActionKind.FOLD)  # the big blind wins 1: 101, then rebuys up to 100 only
    seats = {s.user_id: s.stack for s in again.get(CHANNEL).snapshot().seats}
    assert seats[big] == 101
    assert await storage.balance(GUILD, big) == 900  # nothing added above the maximum, nothing taken
    assert (await storage.audit(GUILD)).ok
    await again.close()


async def test_a_rebuy_asked_during_a_hand_keeps_a_player_who_lost_every_chip_seated(
    service: TableService, notifier: RecordingNotifier, storage: Storage, decks: Decks
) -> None:
    decks.queue.append(deck_for(["7c 2d", "Ah Ad"], "Kc 9d 4s 5h Jc"))
    big, small = await seat_and_start(service, users=(ALICE, BOB))  # heads-up: player 1 is the button and SB
    await service.get(CHANNEL).act(small, ActionKind.RAISE, 10)
    await service.get(CHANNEL).rebuy(big, 2)  # 98 behind before he calls it all in
    await service.get(CHANNEL).act(big, ActionKind.ALL_IN)
    await service.get(CHANNEL).act(small, ActionKind.CALL)
    await service.get(CHANNEL).drain()
    seats = {s.user_id: s.stack for s in service.get(CHANNEL).snapshot().seats}
    assert seats[big] == 2 and "busted" not in notices(notifier, big)
    assert await storage.balance(GUILD, big) == 898
    assert (await storage.audit(GUILD)).ok


# ---------------------------------------------------------------- tournaments say what happens (issue 11 item 4)


async def fold_hand(service: TableService) -> None:
    """Everyone folds to the big blind (or the last player in)."""
    number = service.get(CHANNEL).snapshot().hand_number
    while service.get(CHANNEL).snapshot().hand_number == number and actor(service) is not None:
        await service.get(CHANNEL).act(actor(service), ActionKind.FOLD)


async def test_blind_levels_are_announced_and_shown_with_what_comes_next(
    service: TableService, notifier: RecordingNotifier, clock: ManualClock
) -> None:
    options = TableOptions.for_blinds(1, 2, kind="tournament")
    await service.create_table(GUILD, CHANNEL, HOST, options)
    for user in (ALICE, BOB, CHLOE):
        await service.get(CHANNEL).join(user, NAMES[user])
    await service.get(CHANNEL).set_blind_schedule(HOST, ((1, 2, 0), (2, 4, 0), (5, 10, 1)), "hands", 2)
    await service.get(CHANNEL).start_game(HOST)
    runner = service.get(CHANNEL)
    snap = service.get(CHANNEL).snapshot()
    assert (snap.level, snap.next_level, snap.next_level_in) == (1, (2, 4, 0), 2)
    assert (snap.players_left, snap.average_stack) == (3, 100)
    levels = []
    for number in range(1, 6):
        assert service.get(CHANNEL).snapshot().hand_number == number
        if number == 2:
            assert service.get(CHANNEL).snapshot().next_level_in == 1
        await fold_hand(service)
        await runner.drain()
        levels.append([a for a in notifier.announcements if type(a).__name__ == "LevelAnnouncement"])
        await clock.advance(runner.view().options.next_hand_delay + 0.1)
    await runner.drain()
    announced = [a for a in notifier.announcements if type(a).__name__ == "LevelAnnouncement"]
    assert [(a.level, a.small_blind, a.big_blind, a.ante, a.next_level, a.next_in) for a in announced] == [
        (2, 2, 4, 0, (5, 10, 1), 2),
        (3, 5, 10, 1, None, None),
    ]
    assert [len(found) for found in levels[:3]] == [0, 0, 1]  # posted once, as hand 3 was dealt
    snap = service.get(CHANNEL).snapshot()
    assert snap.level == 3 and snap.next_level is None
    assert snap.players_left == 3 and snap.average_stack == 100


async def test_a_closed_tournament_shows_the_level_it_played_not_the_next(
    service: TableService, notifier: RecordingNotifier
) -> None:
    options = TableOptions.for_blinds(1, 2, kind="tournament")
    await service.create_table(GUILD, CHANNEL, HOST, options)
    for user in (ALICE, BOB):
        await service.get(CHANNEL).join(user, NAMES[user])
    await service.get(CHANNEL).set_blind_schedule(HOST, ((1, 2, 0), (2, 4, 0)), "hands", 1)
    await service.get(CHANNEL).start_game(HOST)
    runner = service.get(CHANNEL)
    await fold_hand(service)  # level 2 would start with the next hand
    assert service.get(CHANNEL).snapshot().level == 2
    await service.get(CHANNEL).end(HOST, is_admin=False)
    closed = runner.snapshot()
    assert closed.closed and closed.level == 1 and (closed.small_blind, closed.big_blind) == (1, 2)
    assert closed.next_level is None


async def test_the_tournament_winner_is_announced_with_the_placings(
    service: TableService, notifier: RecordingNotifier, decks: Decks
) -> None:
    decks.queue.append(deck_for(["7c 2d", "Ah Ad"], "Kc 9d 4s 5h Jc"))
    big, small = await seat_and_start(service, users=(ALICE, BOB), kind="tournament")
    await service.get(CHANNEL).act(small, ActionKind.ALL_IN)
    runner = service.get(CHANNEL)
    await service.get(CHANNEL).act(big, ActionKind.CALL)
    await runner.drain()
    closed = [a for a in notifier.announcements if type(a).__name__ == "TableClosedAnnouncement"]
    assert len(closed) == 1 and closed[0].tournament_over
    assert [(place, user) for place, user, _, _ in closed[0].placings] == [(1, small), (2, big)]
    winner = NAMES[small]
    assert render_table_closed(closed[0], "en").description.startswith(f"{winner} wins the tournament!")
    assert render_table_closed(closed[0], "fr").description.startswith(winner)


async def test_a_player_who_went_all_in_then_left_loses_the_pot_and_gets_no_second_notice(
    service: TableService, notifier: RecordingNotifier, storage: Storage
) -> None:
    small, big, button = await seat_and_start(service)
    await service.get(CHANNEL).act(button, ActionKind.ALL_IN)
    await service.get(CHANNEL).act(small, ActionKind.CALL)
    await service.get(CHANNEL).leave(button)  # all-in: no turn of his will come, his hand is dead now
    await service.get(CHANNEL).act(big, ActionKind.CALL)
    await play_to_end_of_hand(service)
    await service.get(CHANNEL).drain()
    assert button not in pot_winners(notifier)
    assert notices(notifier, button) == ["joined", "forfeited"]
    assert await storage.balance(GUILD, button) == 900
    assert (await storage.audit(GUILD)).ok
