"""The button when players bust or leave: the simple rotation of rule book 000 (default) against the card
room's dead-button rule (`TableConfig(dead_button=True)`, issue 16), in the cases of three players going to
two and of the big blind busting."""

from __future__ import annotations

import random

from bot.poker import BlindPosted, Hand, Table, TableConfig


def _table(seats: list[int], *, dead_button: bool) -> Table:
    table = Table(TableConfig(dead_button=dead_button))
    for seat in seats:
        table.sit(seat, player_id=1000 + seat, stack=100)
    return table


def _blinds(table: Table, hand: Hand) -> dict[str, int]:
    """{'small_blind': seat, 'big_blind': seat} as posted."""
    return {e.kind: table.hand_seats[e.player] for e in hand.events if isinstance(e, BlindPosted)}


def _finish(table: Table, hand: Hand) -> None:
    while not hand.is_complete:
        hand.fold() if hand.can_fold() else hand.check()
    table.end_hand(hand)


def _first_hand(table: Table) -> Hand:
    """Deal until seat 1 has the button (the first button is drawn at random)."""
    hand = table.start_hand(rng=random.Random(0))
    while table.button != 1:
        _finish(table, hand)
        hand = table.start_hand()
    return hand


def test_big_blind_busts_simple_rotation_moves_the_button_one_player() -> None:
    """Rule book 000 §07: the busted seat leaves the rotation, the button goes to the next player."""
    table = _table([1, 2, 3, 4], dead_button=False)
    hand = _first_hand(table)
    assert _blinds(table, hand) == {"small_blind": 2, "big_blind": 3}
    _finish(table, hand)
    table.stand(3)  # the big blind busted and left
    hand = table.start_hand()
    assert table.button == 2 and _blinds(table, hand) == {"small_blind": 4, "big_blind": 1}


def test_big_blind_busts_dead_button_rule_the_small_blind_is_dead() -> None:
    """The dead-button rule: the big blind moves on one player (seat 4, who would otherwise skip it), the small
    blind (the busted player's seat) is dead, the button goes to the last small blind; next hand the button
    stays on the empty seat."""
    table = _table([1, 2, 3, 4], dead_button=True)
    hand = _first_hand(table)
    _finish(table, hand)
    table.stand(3)
    hand = table.start_hand()
    assert table.button == 2
    assert _blinds(table, hand) == {"big_blind": 4}  # nobody posts the small blind
    assert table.hand_seats == (4, 1, 2) and hand.actor == 1  # seat 1 acts first, after the big blind
    assert hand.total_pot == 2
    _finish(table, hand)
    hand = table.start_hand()
    assert table.button == 3 and 3 not in table.seats  # the dead button, on the empty seat
    assert _blinds(table, hand) == {"small_blind": 4, "big_blind": 1}
    assert table.hand_seats == (4, 1, 2)  # seat 2 acts last after the flop
    _finish(table, hand)
    hand = table.start_hand()
    assert table.button == 4 and _blinds(table, hand) == {"small_blind": 1, "big_blind": 2}


def test_three_to_two_players_both_rules_never_post_the_big_blind_twice() -> None:
    for dead_button in (False, True):
        for busted in (1, 2, 3):  # the button, the small blind, the big blind
            table = _table([1, 2, 3], dead_button=dead_button)
            hand = _first_hand(table)
            assert _blinds(table, hand) == {"small_blind": 2, "big_blind": 3}
            _finish(table, hand)
            table.stand(busted)
            hand = table.start_hand()
            blinds = _blinds(table, hand)
            assert blinds["big_blind"] != 3, (dead_button, busted)  # seat 3 just posted it
            assert blinds["small_blind"] == table.button  # heads-up the button posts the small blind
            assert set(table.hand_seats) == {1, 2, 3} - {busted}


def test_dead_button_rule_nobody_skips_or_repeats_the_big_blind_over_an_orbit() -> None:
    table = _table([1, 3, 5, 6, 8], dead_button=True)
    hand = _first_hand(table)
    big_blinds = [_blinds(table, hand)["big_blind"]]
    _finish(table, hand)
    table.stand(6)  # a player leaves mid-orbit
    for _ in range(8):
        hand = table.start_hand()
        big_blinds.append(_blinds(table, hand)["big_blind"])
        _finish(table, hand)
    assert big_blinds == [5, 8, 1, 3, 5, 8, 1, 3, 5]


def test_new_player_between_the_button_and_the_big_blind_waits_for_it() -> None:
    table = _table([1, 2, 3, 4], dead_button=True)
    hand = _first_hand(table)  # button 1, small blind 2, big blind 3
    _finish(table, hand)
    table.sit(5, player_id=1005, stack=100)
    hand = table.start_hand()  # button 2, small blind 3, big blind 4: seat 5 sits after the big blind
    assert 5 in table.hand_seats
    table2 = _table([1, 2, 4, 5], dead_button=True)
    hand = _first_hand(table2)  # button 1, small blind 2, big blind 4
    _finish(table2, hand)
    table2.sit(3, player_id=1003, stack=100)  # between the next button (2) and the next big blind (5)
    hand = table2.start_hand()
    assert 3 not in table2.hand_seats and _blinds(table2, hand) == {"small_blind": 4, "big_blind": 5}
    _finish(table2, hand)
    hand = table2.start_hand()  # button 4, small blind 5, big blind 1: seat 3 is past the button now
    assert 3 in table2.hand_seats


def test_dead_button_survives_to_json() -> None:
    table = _table([1, 2, 3, 4], dead_button=True)
    _finish(table, _first_hand(table))
    table.stand(3)
    _finish(table, table.start_hand())
    restored = Table.from_json(table.to_json())
    assert restored.config.dead_button
    hand = restored.start_hand()
    assert restored.button == 3 and _blinds(restored, hand) == {"small_blind": 4, "big_blind": 1}
