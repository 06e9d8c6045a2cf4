"""Tournament places (rule book 000 §03, §07): busts in the same hand, leavers, and the stop at the agreed time."""

from bot.poker import place_of_leaver, places_by_stack, places_of_busts


def test_two_busted_in_one_hand_the_bigger_starting_stack_finishes_higher():
    # Four players left after the hand: the two busted finish 5th and 6th, by their stacks at its start.
    assert places_of_busts({"bob": 30, "chloe": 50}, players_left=4) == {"chloe": 5, "bob": 6}


def test_equal_starting_stacks_share_the_place_and_the_next_one_down_skips_it():
    places = places_of_busts({"a": 20, "b": 20, "c": 10}, players_left=2)
    assert places == {"a": 3, "b": 3, "c": 5}


def test_the_last_bust_of_a_heads_up_finishes_second():
    assert places_of_busts({"bob": 70}, players_left=1) == {"bob": 2}


def test_leaving_a_started_tournament_is_the_worst_place_among_those_with_chips():
    assert place_of_leaver(players_with_chips=5) == 5


def test_stopped_at_the_agreed_time_the_stacks_are_compared():
    # Rule book 000 §07: "en comparant les piles" — more chips places higher; equal stacks keep seat order.
    ranked = places_by_stack({101: 40, 102: 180, 103: 40, 104: 140})
    assert ranked == [(1, 102, 180), (2, 104, 140), (3, 101, 40), (4, 103, 40)]
