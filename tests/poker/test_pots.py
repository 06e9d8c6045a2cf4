"""Main and side pots from contributions; splitting with odd chips (rule book 000 §05, §07; 002)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.poker import Pot, build_pots, split_pot


def test_rule_book_side_pot_alice_20_bob_50_chloe_50_is_60_plus_60() -> None:
    assert build_pots([20, 50, 50], [False] * 3) == [Pot(60, (0, 1, 2)), Pot(60, (1, 2))]


def test_rule_book_side_pot_25_60_60_is_75_plus_70() -> None:
    assert build_pots([25, 60, 60], [False] * 3) == [Pot(75, (0, 1, 2)), Pot(70, (1, 2))]


def test_folded_chips_stay_in_the_pots_they_paid_into_but_win_nothing() -> None:
    pots = build_pots([10, 30, 30, 5], [False, False, False, True])
    assert pots == [Pot(35, (0, 1, 2)), Pot(40, (1, 2))]  # 5-level and 10-level layers merged


def test_pots_with_the_same_eligible_players_are_one_pot_and_none_is_empty() -> None:
    assert build_pots([0, 0, 10, 10], [True, True, False, False]) == [Pot(20, (2, 3))]
    assert build_pots([4, 10, 10], [True, False, False]) == [Pot(24, (1, 2))]


def test_dead_money_goes_to_the_main_pot_for_every_player_still_in() -> None:
    assert build_pots([0, 10, 10], [False, False, False], dead_money=2) == [Pot(2, (0, 1, 2)), Pot(20, (1, 2))]


def test_pots_conserve_chips() -> None:
    contributions = [7, 130, 55, 55, 0, 130, 3]
    folded = [True, False, False, True, True, False, False]
    assert sum(p.amount for p in build_pots(contributions, folded, 9)) == sum(contributions) + 9


def test_split_pot_odd_chips_one_at_a_time_from_the_button_left() -> None:
    assert split_pot(11, [4, 1, 2]) == [(1, 4), (2, 4), (4, 3)]
    assert split_pot(30300, [0, 1, 2]) == [(0, 10100), (1, 10100), (2, 10100)]
    assert split_pot(7, [3]) == [(3, 7)]


def test_folded_forced_bets_above_everyone_still_in_are_dead_money_in_the_pot_below() -> None:
    # The blinds folded with 2 each; the two players still in are all-in from a 1-chip ante.
    assert build_pots([2, 2, 1, 1], [True, True, False, False]) == [Pot(6, (2, 3))]


@given(
    contributions=st.lists(st.integers(0, 60), min_size=2, max_size=10),
    folded_bits=st.lists(st.booleans(), min_size=10, max_size=10),
    dead_money=st.integers(0, 5),
)
def test_pots_match_the_layer_by_layer_definition(
    contributions: list[int], folded_bits: list[bool], dead_money: int
) -> None:
    """Against a direct reading of the rule: layer (prev, L] takes min(c, L) - min(c, prev) from each player."""
    n = len(contributions)
    folded = folded_bits[:n]
    if all(folded):
        folded[0] = False
    expected: list[Pot] = []
    if dead_money:
        expected.append(Pot(dead_money, tuple(i for i in range(n) if not folded[i])))
    previous, carried = 0, 0
    for level in sorted(set(contributions) - {0}):
        amount = carried + sum(min(c, level) - min(c, previous) for c in contributions)
        carried = 0
        eligible = tuple(i for i in range(n) if not folded[i] and contributions[i] >= level)
        if not eligible and expected:
            expected[-1] = Pot(expected[-1].amount + amount, expected[-1].eligible)
        elif not eligible:
            carried = amount
        elif expected and expected[-1].eligible == eligible:
            expected[-1] = Pot(expected[-1].amount + amount, eligible)
        else:
            expected.append(Pot(amount, eligible))
        previous = level
    assert build_pots(contributions, folded, dead_money) == expected
    if any(not f and c == max(contributions) for f, c in zip(folded, contributions, strict=False)):
        assert sum(p.amount for p in expected) == sum(contributions) + dead_money
