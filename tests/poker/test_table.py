"""The table: seats, button rotation, eliminations, sitting out, blind schedule, persistence.

Rule book 000 §04 and §07.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.poker import (
    BlindLevel,
    BlindPosted,
    BlindSchedule,
    Hand,
    HandSettings,
    Seat,
    Table,
    TableConfig,
    TableError,
)
from tests.poker.helpers import stacked_deck


def _table(stacks: dict[int, int], **config: object) -> Table:
    table = Table(TableConfig(**config))  # type: ignore[arg-type]
    for seat, stack in stacks.items():
        table.sit(seat, player_id=1000 + seat, stack=stack)
    return table


def _fold_round(table: Table, hand: Hand) -> tuple[int, ...]:
    while not hand.is_complete:
        hand.fold() if hand.can_fold() else hand.check()
    return table.end_hand(hand)


def _big_blind_seat(table: Table, hand: Hand) -> int:
    posted = [e for e in hand.events if isinstance(e, BlindPosted) and e.kind == "big_blind"]
    return table.hand_seats[posted[0].player]


def test_first_button_is_drawn_at_random_then_moves_one_seat_clockwise() -> None:
    table = _table({1: 100, 4: 100, 6: 100, 9: 100})
    buttons = []
    for _ in range(6):
        hand = table.start_hand(rng=random.Random(3))
        buttons.append(table.button)
        assert table.hand_seats[-1] == table.button
        _fold_round(table, hand)
    start = [1, 4, 6, 9].index(buttons[0])
    assert buttons == [[1, 4, 6, 9][(start + k) % 4] for k in range(6)]


def test_hand_seats_start_left_of_the_button_and_end_on_it() -> None:
    table = _table({2: 100, 5: 90, 7: 80})
    hand = table.start_hand(rng=random.Random(0))
    button = table.button
    seats = [2, 5, 7]
    k = seats.index(button)
    assert table.hand_seats == tuple(seats[k + 1 :] + seats[: k + 1])
    assert hand.starting_stacks == tuple(table.seats[s].stack for s in table.hand_seats)


def _next_order(table: Table) -> tuple[int, ...]:
    """The hand seats the next hand will have (button one seat on), from the public state."""
    active = table.active_seats()
    assert table.button is not None
    after = [s for s in active if s > table.button]
    button = after[0] if after else active[0]
    k = active.index(button)
    return tuple(active[k + 1 :] + active[: k + 1])


def _button_busts(table: Table) -> tuple[int, ...]:
    """Play the next hand so that only the button (stack 50) busts: it shoves, the blinds call and check it
    down, the small blind holds aces. Returns the hand seats."""
    order = _next_order(table)
    table.sync_seats({seat: (table.seats[seat].player_id, 50 if seat == order[-1] else 100) for seat in table.seats})
    holes = ["AsAd", "KsKd", *["7c2d", "8h5c", "Td6s"][: len(order) - 2]]
    hand = table.start_hand(deck=stacked_deck(holes, "3c4h9dJsQs"))
    assert table.hand_seats == order
    for _ in order[2:-1]:
        hand.fold()  # players between the big blind and the button
    hand.go_all_in()  # the button
    while not hand.is_complete:
        hand.call() if hand.can_call() else hand.check()
    assert table.end_hand(hand) == (order[-1],)
    table.stand(order[-1])
    return order


def test_busted_player_leaves_the_rotation() -> None:
    table = _table({1: 100, 4: 100, 6: 100, 9: 100})
    _fold_round(table, table.start_hand(rng=random.Random(1)))
    order = _button_busts(table)
    assert order[-1] not in table.seats
    table.start_hand()
    assert table.hand_seats == (order[1], order[2], order[0])  # the next remaining seat clockwise has the button


def test_the_button_moves_one_seat_even_when_the_big_blind_has_left() -> None:
    """Rule book 000 §07: the button moves one seat clockwise after each hand, whoever left meanwhile (the
    'never the big blind twice' adjustment must not be what moves it)."""
    table = _table({1: 100, 4: 100, 6: 100, 9: 100})
    hand = table.start_hand(rng=random.Random(1))
    order = [1, 4, 6, 9]
    button = table.button
    big_blind = _big_blind_seat(table, hand)
    _fold_round(table, hand)
    table.stand(big_blind)
    table.start_hand()
    remaining = [s for s in order if s != big_blind]
    assert table.button == next((s for s in remaining if s > button), remaining[0])


def test_three_to_two_players_never_posts_the_big_blind_twice_in_a_row() -> None:
    """The button busts; the last big blind gets the button (and the small blind) heads-up."""
    table = _table({2: 100, 5: 100, 7: 100})
    _fold_round(table, table.start_hand(rng=random.Random(2)))
    small_blind, big_blind, _button = _button_busts(table)
    hand = table.start_hand()
    assert table.button == big_blind
    assert _big_blind_seat(table, hand) == small_blind


def test_heads_up_button_alternates_and_posts_the_small_blind() -> None:
    table = _table({3: 100, 8: 100})
    seen = []
    for _ in range(4):
        hand = table.start_hand(rng=random.Random(1))
        seen.append((table.button, _big_blind_seat(table, hand)))
        assert hand.events[0] == BlindPosted(1, "small_blind", 1)  # player 1 = the button
        _fold_round(table, hand)
    assert [b for b, _ in seen][::2] == [seen[0][0]] * 2 and seen[0][0] != seen[1][0]
    assert all(button != bb for button, bb in seen)


def test_sitting_out_players_are_not_dealt_in_and_skipped_by_the_button() -> None:
    table = _table({1: 100, 2: 100, 3: 100})
    table.set_sitting_out(2, True)
    hand = table.start_hand(rng=random.Random(0))
    assert 2 not in table.hand_seats and hand.player_count == 2
    _fold_round(table, hand)
    table.set_sitting_out(2, False)
    table.start_hand()
    assert 2 in table.hand_seats


def test_blind_schedule_by_hands() -> None:
    schedule = BlindSchedule((BlindLevel(1, 2), BlindLevel(2, 4, 1), BlindLevel(5, 10)), "hands", 2)
    table = _table({1: 1000, 2: 1000}, schedule=schedule)
    levels = []
    for _ in range(7):
        levels.append(table.current_level())
        _fold_round(table, table.start_hand(rng=random.Random(0)))
    assert levels == [BlindLevel(1, 2)] * 2 + [BlindLevel(2, 4, 1)] * 2 + [BlindLevel(5, 10)] * 3


def test_blind_schedule_by_minutes_uses_the_time_passed_in() -> None:
    schedule = BlindSchedule((BlindLevel(1, 2), BlindLevel(2, 4)), "minutes", 15)
    table = _table({1: 1000, 2: 1000}, schedule=schedule, settings=HandSettings(small_blind=1, big_blind=2))
    assert table.current_level(now=899.0) == BlindLevel(1, 2)
    assert table.current_level(now=900.0) == BlindLevel(2, 4)
    hand = table.start_hand(now=3600.0, rng=random.Random(0))
    assert [e.amount for e in hand.events if isinstance(e, BlindPosted)] == [2, 4]


def test_tournament_ends_when_one_player_holds_every_chip() -> None:
    table = _table({1: 100, 2: 100})
    assert table.winner() is None
    hand = table.start_hand(rng=random.Random(4))
    while not hand.is_complete:
        legal = hand.legal_actions()
        hand.go_all_in() if legal.can_all_in else hand.call()
    busted = table.end_hand(hand)
    if busted:  # no split
        assert table.winner() == ({1, 2} - set(busted)).pop()
        assert not table.can_start_hand()
        assert table.standings()[0][2] == 200


def test_seat_rules() -> None:
    table = _table({1: 100})
    with pytest.raises(TableError):
        table.sit(1, 5, 100)  # taken
    with pytest.raises(TableError):
        table.sit(11, 5, 100)  # no such seat
    with pytest.raises(TableError):
        table.sit(2, 1001, 100)  # already seated
    with pytest.raises(TableError):
        table.stand(2)  # empty
    assert not table.can_start_hand()
    with pytest.raises(TableError):
        table.start_hand()
    table.sit(2, 5, 50)
    hand = table.start_hand(rng=random.Random(0))
    with pytest.raises(TableError):
        table.stand(2)  # in the hand
    with pytest.raises(TableError):
        table.add_chips(2, 10)
    with pytest.raises(TableError):
        table.start_hand()
    table.sit(3, 6, 70)  # joining during a hand is fine: dealt in next hand
    _fold_round(table, hand)
    table.add_chips(2, 10)
    assert table.seats[3] == Seat(6, 70, False)
    assert table.stand(3) == 70


def test_to_json_round_trip_between_and_during_hands() -> None:
    schedule = BlindSchedule((BlindLevel(1, 2), BlindLevel(2, 4)), "hands", 3)
    table = _table({1: 100, 4: 80, 7: 120}, schedule=schedule, settings=HandSettings(straddle=True))
    table.set_sitting_out(4, True)
    _fold_round(table, table.start_hand(rng=random.Random(2)))
    restored = Table.from_json(table.to_json())
    assert restored.to_json() == table.to_json()
    hand = table.start_hand()
    during = Table.from_json(table.to_json())
    assert during.hand_in_progress and during.hand_seats == table.hand_seats
    _fold_round(table, hand)
    during.end_hand(hand)
    assert during.seats == table.seats
    with pytest.raises(TableError):
        Table.from_json({"version": 9})


def test_a_copy_is_the_table_as_stored_and_independent_of_it() -> None:
    # The rollback copy of the table service (bot/tables/state.py, `Committed`): what to_json/from_json give.
    table = _table({1: 100, 4: 80, 7: 120}, settings=HandSettings(straddle=True))
    table.set_sitting_out(4, True)
    _fold_round(table, table.start_hand(rng=random.Random(2)))
    hand = table.start_hand()
    twin = table.copy()
    assert twin.to_json() == table.to_json() == Table.from_json(table.to_json()).to_json()
    for name, value in vars(table).items():  # every container is the copy's own (a new one must be copied too)
        if isinstance(value, dict | set | list):
            assert getattr(twin, name) is not value, name
    _fold_round(table, hand)
    assert twin.hand_in_progress and not table.hand_in_progress
    twin.end_hand(hand)
    assert twin.seats == table.seats
    twin.stand(7)
    assert 7 in table.seats


def test_resume_hand_and_sync_seats_after_a_restart() -> None:
    table = _table({1: 100, 2: 100, 3: 100})
    hand = table.start_hand(rng=random.Random(5))
    seats = table.hand_seats
    fresh = Table(table.config)
    fresh.sync_seats({1: (1001, 100), 2: (1002, 100), 3: (1003, 100)})
    fresh.resume_hand(Hand.from_record(hand.record()), seats)
    assert fresh.button == seats[-1] and fresh.hand_in_progress
    _fold_round(fresh, hand)
    assert sum(s.stack for s in fresh.seats.values()) == 300


@pytest.mark.parametrize(
    "levels",
    [(), (BlindLevel(2, 1),), (BlindLevel(0, 0),), (BlindLevel(1, 2, 1, 1),), (BlindLevel(1, 2, -1),)],
)
def test_bad_blind_schedules_are_refused(levels: tuple[BlindLevel, ...]) -> None:
    with pytest.raises(TableError):
        BlindSchedule(levels, "hands", 10)


def test_resume_hand_of_a_hand_already_complete_still_lets_end_hand_apply_it() -> None:
    """A restart between a hand's last action and its result: the table is in hand until end_hand."""
    table = _table({1: 100, 2: 100})
    hand = table.start_hand(rng=random.Random(3))
    seats = table.hand_seats
    _fold_round_no_end(hand)
    fresh = Table(table.config)
    fresh.sync_seats({1: (1001, 100), 2: (1002, 100)})
    fresh.resume_hand(Hand.from_record(hand.record()), seats)
    assert fresh.hand_in_progress
    fresh.end_hand(hand)
    assert sorted(s.stack for s in fresh.seats.values()) == [99, 101]


def _fold_round_no_end(hand: Hand) -> None:
    while not hand.is_complete:
        hand.fold() if hand.can_fold() else hand.check()


@given(
    st.lists(
        st.tuples(st.sampled_from(["sit", "stand", "sync", "copy", "json"]), st.integers(1, 10), st.integers(0, 50)),
        max_size=40,
    )
)
def test_the_seats_are_in_seat_order_whatever_the_order_players_sat_in(steps: list[tuple[str, int, int]]) -> None:
    # `seats` and `copy` copy the seats as they are kept (no sort): the keeping must be in seat order.
    table = Table(TableConfig(seat_count=10))
    for what, seat, stack in steps:
        occupied = dict(table.seats)
        if what == "sit" and seat not in occupied:
            table.sit(seat, 1000 + seat, stack)
        elif what == "stand" and seat in occupied:
            table.stand(seat)
        elif what == "sync":
            wanted = {n: (s.player_id, s.stack) for n, s in occupied.items() if n != seat}
            table.sync_seats({seat: (2000 + seat, stack), **dict(reversed(wanted.items()))})
        elif what == "copy":
            table = table.copy()
        elif what == "json":
            table = Table.from_json(table.to_json())
        seats = table.seats
        assert list(seats) == sorted(seats)
        assert list(table.copy().seats.items()) == list(seats.items())
        assert table.active_seats() == [n for n, s in sorted(seats.items()) if s.stack > 0 and not s.sitting_out]
