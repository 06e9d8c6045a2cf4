"""Missed blinds (rule book 002, issue 16; `TableConfig(missed_blinds=True)`): a player who sat out while the big
blind passed them posts a live big blind and a dead small blind to play at once, or waits for the big blind; a new
player at a running table posts a big blind or waits. Off by default (rule book 000: no missed blinds)."""

from __future__ import annotations

import random

import pytest

from bot.poker import BlindPosted, Hand, HandSettings, InvalidSetupError, Table, TableConfig, TableError


def _table(seats: list[int], **config: bool) -> Table:
    table = Table(TableConfig(**config))  # type: ignore[arg-type]
    for seat in seats:
        table.sit(seat, player_id=1000 + seat, stack=100)
    return table


def _posts(table: Table, hand: Hand) -> list[tuple[int, str, int]]:
    return [(table.hand_seats[e.player], e.kind, e.amount) for e in hand.events if isinstance(e, BlindPosted)]


def _finish(table: Table, hand: Hand) -> None:
    while not hand.is_complete:
        hand.fold() if hand.can_fold() else hand.check()
    table.end_hand(hand)


def _deal_until_button(table: Table, seat: int) -> Hand:
    hand = table.start_hand(rng=random.Random(0))
    while table.button != seat:
        _finish(table, hand)
        hand = table.start_hand()
    return hand


def test_returning_player_posts_a_live_big_blind_and_a_dead_small_blind() -> None:
    table = _table([1, 2, 3, 4, 5], missed_blinds=True)
    _finish(table, _deal_until_button(table, 1))  # button 1, SB 2, BB 3
    table.set_sitting_out(4, True)
    _finish(table, table.start_hand())  # button 2, SB 3, BB 5: the big blind passed seat 4
    assert table.blinds_owed(4) == 1
    table.set_sitting_out(4, False)  # back without choosing: not dealt in until they choose
    assert 4 not in table.active_seats()
    table.choose_return(4, post=True)
    hand = table.start_hand()  # button 3, SB 5, BB 1; seat 4 posts out of position
    assert _posts(table, hand) == [
        (5, "small_blind", 1),
        (1, "big_blind", 2),
        (4, "big_blind", 2),
        (4, "dead_small_blind", 1),
    ]
    assert hand.total_pot == 6 and table.hand_seats[hand.actor or 0] == 2  # the action starts left of the big blind
    _finish(table, hand)
    assert table.blinds_owed(4) is None


def test_returning_player_may_wait_for_the_big_blind() -> None:
    table = _table([1, 2, 3, 4, 5], missed_blinds=True)
    _finish(table, _deal_until_button(table, 1))  # BB 3
    table.set_sitting_out(4, True)
    _finish(table, table.start_hand())  # BB 5
    table.choose_return(4, post=False)
    assert table.waiting_for_big_blind(4)
    dealt = []
    for _ in range(4):
        hand = table.start_hand()
        dealt.append(4 in table.hand_seats)
        big_blind = [s for s, kind, _ in _posts(table, hand) if kind == "big_blind"]
        if 4 in table.hand_seats:
            assert big_blind == [4]  # dealt in as the big blind, posting nothing else
        _finish(table, hand)
    # The big blind had just passed seat 4 (3 -> 5): it goes round, 1, 2, 3, and reaches seat 4 a full orbit later.
    assert dealt == [False, False, False, True]
    assert not table.waiting_for_big_blind(4)


def test_new_player_at_a_running_table_posts_a_big_blind_or_waits() -> None:
    table = _table([1, 2, 3], missed_blinds=True)
    assert table.blinds_owed(1) is None  # before the first hand, nobody owes
    _finish(table, _deal_until_button(table, 1))
    table.sit(5, player_id=1005, stack=100)
    assert table.blinds_owed(5) == 0 and 5 not in table.active_seats()
    table.choose_return(5, post=True)
    hand = table.start_hand()
    assert (5, "big_blind", 2) in _posts(table, hand) and (5, "dead_small_blind", 1) not in _posts(table, hand)


def test_without_the_option_nobody_owes_blinds() -> None:
    table = _table([1, 2, 3, 4])
    _finish(table, _deal_until_button(table, 1))
    table.set_sitting_out(4, True)
    _finish(table, table.start_hand())
    table.set_sitting_out(4, False)
    table.sit(6, player_id=1006, stack=100)
    assert table.blinds_owed(4) is None and table.blinds_owed(6) is None
    assert {4, 6} <= set(table.active_seats())
    with pytest.raises(TableError):
        table.choose_return(4, post=True)


def test_missed_blinds_survive_to_json() -> None:
    table = _table([1, 2, 3, 4, 5], missed_blinds=True)
    _finish(table, _deal_until_button(table, 1))
    table.set_sitting_out(4, True)
    _finish(table, table.start_hand())
    table.choose_return(4, post=True)
    restored = Table.from_json(table.to_json())
    assert restored.blinds_owed(4) == 1
    hand = restored.start_hand()
    assert (4, "dead_small_blind", 1) in _posts(restored, hand)


def test_extra_blinds_are_refused_for_the_blinds_themselves_and_heads_up() -> None:
    with pytest.raises(InvalidSetupError):
        Hand(HandSettings(extra_blinds=((1, 1),)), [100, 100, 100])
    with pytest.raises(InvalidSetupError):
        Hand(HandSettings(extra_blinds=((1, 0),)), [100, 100])
