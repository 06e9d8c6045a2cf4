"""The rules of a hand, one named test per rule-book example and per reported engine bug.

Positions: with 3 players p0 = small blind, p1 = big blind, p2 = button (first to act preflop);
with 4 players p2 = UTG, p3 = button. Heads-up p1 is the button/small blind, p0 the big blind.
"""

from __future__ import annotations

import pytest

from bot.poker import (
    ActionKind,
    BlindPosted,
    Hand,
    HandEnded,
    HandMucked,
    HandOverError,
    HandSettings,
    HandShown,
    IllegalActionError,
    InvalidAmountError,
    NotYourTurnError,
    PlayerActed,
    Pot,
    PotAwarded,
    Street,
    StreetDealt,
    UncalledBetReturned,
    full_deck,
)
from bot.render import render_poker_error
from tests.poker.helpers import new_hand, of_type, play, snapshot

# ---------------------------------------------------------------- minimum bets and raises (000 §05, 001, 002)


def _to_flop(stacks: list[int], **kw: object) -> object:
    hand = new_hand(stacks, **kw)  # type: ignore[arg-type]
    play(hand, "call", "call", "check")  # button calls, SB completes, BB checks
    assert hand.street is Street.FLOP
    return hand


def test_min_raise_after_bet_6_and_raise_to_14_is_22() -> None:
    hand = _to_flop([100, 100, 100])
    play(hand, "p0 bet 6", "p1 raise 14")
    legal = hand.legal_actions()
    assert (legal.player, legal.min_raise_to) == (2, 22)
    with pytest.raises(InvalidAmountError) as refused:
        hand.raise_to(21)
    assert refused.value.code == "min_raise"
    assert refused.value.params == {"amount": 22}
    assert render_poker_error(refused.value, "en") == "Minimum raise is to 22"  # the catalogue's text
    hand.raise_to(22)
    assert hand.legal_actions().min_raise_to == 30


def test_min_raise_after_bet_20_and_raise_to_60_is_100() -> None:
    hand = _to_flop([200, 200, 200])
    play(hand, "p0 bet 20", "p1 raise 60")
    assert hand.legal_actions().min_raise_to == 100
    assert not hand.can_raise_to(99)
    assert hand.can_raise_to(100)


def test_first_preflop_raise_is_to_at_least_two_big_blinds() -> None:
    hand = new_hand([100, 100, 100])
    assert hand.legal_actions().min_raise_to == 4
    with pytest.raises(InvalidAmountError) as refused:
        hand.raise_to(3)
    assert "Minimum raise is to 4" in render_poker_error(refused.value, "en")


def test_guide_example_raise_to_6_means_next_raise_to_at_least_10() -> None:
    hand = new_hand([100, 100, 100])
    play(hand, "p2 raise 6")
    assert hand.legal_actions().min_raise_to == 10


def test_minimum_bet_is_the_big_blind_and_resets_each_street() -> None:
    hand = _to_flop([100, 100, 100])
    with pytest.raises(InvalidAmountError) as refused:
        hand.bet(1)
    assert (refused.value.code, render_poker_error(refused.value, "en")) == ("min_bet", "Minimum bet is 2")
    play(hand, "p0 bet 2", "p1 raise 10", "p2 call", "p0 call")
    assert hand.street is Street.TURN
    assert hand.legal_actions().min_raise_to == 2


def test_all_in_for_less_than_a_full_raise_is_allowed() -> None:
    hand = new_hand([100, 100, 3])
    event = hand.go_all_in()  # button: all-in to 3, less than the minimum raise to 4
    assert (event.player, event.amount, event.all_in) == (2, 3, True)
    # The SB has not acted: betting is open to them, the full raise increment is still 2.
    assert hand.legal_actions().min_raise_to == 5


def test_min_raise_to_is_the_all_in_total_when_the_stack_is_short() -> None:
    hand = new_hand([100, 100, 5])
    legal = hand.legal_actions()
    assert (legal.min_raise_to, legal.max_raise_to, legal.all_in_to) == (4, 5, 5)
    hand2 = new_hand([100, 100, 100])
    play(hand2, "p2 raise 50")
    hand3 = new_hand([60, 100, 100])
    play(hand3, "p2 raise 50")
    legal3 = hand3.legal_actions()
    assert (legal3.min_raise_to, legal3.max_raise_to) == (60, 60)


def test_first_decision_puzzle_big_blind_facing_a_min_raise() -> None:
    """Rule book 001: the button raises to 2 big blinds (the minimum), the SB folds; BB has K♣9♦."""
    hand = new_hand([100, 100, 100], holes=["7c2d", "Kc9d", "AsJh"])
    play(hand, "p2 raise 4", "p0 fold")
    legal = hand.legal_actions()
    assert legal.player == 1
    assert (legal.can_fold, legal.call_amount, legal.can_raise, legal.min_raise_to) == (True, 2, True, 6)


# ---------------------------------------------------------------- re-opening (000 §05, TDA 47) and the BB option


def test_short_all_in_does_not_reopen_betting_utg_16_button_calls_sb_all_in_19() -> None:
    """Blinds 1/2: UTG raises to 16, the button calls, the SB is all-in for 19, the BB calls."""
    hand = new_hand([19, 100, 100, 100])
    play(hand, "p2 raise 16", "p3 call", "p0 all_in", "p1 call")
    utg = hand.legal_actions()
    assert (utg.player, utg.can_raise, utg.can_call, utg.call_amount, utg.can_all_in) == (2, False, True, 3, False)
    play(hand, "p2 call")
    button = hand.legal_actions()
    assert (button.player, button.can_raise, button.call_amount) == (3, False, 3)
    before = snapshot(hand)
    with pytest.raises(IllegalActionError) as refused:
        hand.raise_to(40)
    assert refused.value.code == "raise_not_reopened"
    assert render_poker_error(refused.value, "en") == "Betting was not reopened: you can only call 3 or fold"
    assert snapshot(hand) == before
    play(hand, "p3 call")
    assert hand.street is Street.FLOP


def _flop_with(stacks: list[int]) -> object:
    hand = new_hand(stacks)
    play(hand, "p2 call", "p3 call", "p0 call", "p1 check")
    assert hand.street is Street.FLOP
    return hand


def test_several_short_all_ins_adding_up_to_a_full_raise_reopen_betting() -> None:
    hand = _flop_with([1000, 152, 222, 1000])
    play(hand, "p0 bet 100", "p1 all_in", "p2 all_in", "p3 call")  # 150 (+50), then 220 (+70): 120 >= 100
    legal = hand.legal_actions()
    assert (legal.player, legal.can_raise, legal.min_raise_to) == (0, True, 320)


def test_player_who_called_between_two_short_all_ins_may_not_raise() -> None:
    """p2 called 150 and then faces only 70 more: not a full raise for them (TDA 47), though it is for p0."""
    hand = _flop_with([1000, 152, 1000, 222])
    play(hand, "p0 bet 100", "p1 all_in", "p2 call", "p3 all_in")
    first = hand.legal_actions()
    assert (first.player, first.can_raise) == (0, True)
    play(hand, "p0 call")
    second = hand.legal_actions()
    assert (second.player, second.can_raise, second.call_amount) == (2, False, 70)


def test_all_in_bet_below_the_minimum_does_not_reopen_for_a_player_who_checked() -> None:
    hand = new_hand([100, 3, 100])
    play(hand, "call", "call", "check")  # flop; the BB has 1 chip left
    play(hand, "p0 check", "p1 all_in")  # a bet of 1, less than the minimum bet of 2
    button = hand.legal_actions()
    assert (button.player, button.can_raise, button.min_raise_to) == (2, True, 3)
    play(hand, "p2 call")
    small_blind = hand.legal_actions()
    assert (small_blind.player, small_blind.can_raise, small_blind.call_amount) == (0, False, 1)


def test_big_blind_keeps_its_option_when_everyone_only_called() -> None:
    hand = new_hand([100, 100, 100])
    play(hand, "p2 call", "p0 call")
    legal = hand.legal_actions()
    assert (legal.player, legal.can_check, legal.can_raise, legal.min_raise_to) == (1, True, True, 4)
    assert not legal.can_bet  # the blinds are a bet: the option is a raise
    play(hand, "p1 raise 8")
    assert hand.street is Street.PREFLOP and hand.actor == 2


def test_big_blind_checking_its_option_deals_the_flop() -> None:
    hand = new_hand([100, 100, 100])
    play(hand, "p2 call", "p0 call", "p1 check")
    assert hand.street is Street.FLOP
    assert hand.actor == 0  # first player still in, left of the button


def test_heads_up_button_posts_small_blind_acts_first_preflop_and_last_after() -> None:
    hand = new_hand([100, 100])
    posted = of_type(hand.events, BlindPosted)
    assert posted == [BlindPosted(1, "small_blind", 1), BlindPosted(0, "big_blind", 2)]
    assert hand.actor == 1
    play(hand, "p1 call", "p0 check")
    assert hand.street is Street.FLOP and hand.actor == 0
    play(hand, "p0 check")
    assert hand.actor == 1


def test_players_with_no_chips_left_are_skipped() -> None:
    hand = new_hand([100, 100, 10])
    play(hand, "p2 all_in", "p0 call", "p1 call")
    assert hand.street is Street.FLOP and hand.actor == 0
    play(hand, "p0 check", "p1 check")
    assert hand.street is Street.TURN and hand.actor == 0


def test_heads_up_small_blind_in_for_180_facing_a_shove_of_1880_must_act_before_any_board() -> None:
    hand = new_hand([1880, 2000])
    play(hand, "p1 raise 180", "p0 all_in")
    legal = hand.legal_actions()
    assert (legal.player, legal.can_fold, legal.can_call, legal.call_amount) == (1, True, True, 1700)
    assert hand.board == () and hand.street is Street.PREFLOP
    assert not of_type(hand.events, StreetDealt)


# ---------------------------------------------------------------- forced bets


def test_short_big_blind_callers_must_call_the_full_big_blind() -> None:
    hand = new_hand([100, 1, 100])
    assert of_type(hand.events, BlindPosted)[1] == BlindPosted(1, "big_blind", 1)
    legal = hand.legal_actions()
    assert (legal.player, legal.call_amount, legal.min_raise_to) == (2, 2, 4)
    play(hand, "p2 call", "p0 call")
    assert hand.street is Street.FLOP  # the all-in BB has no option
    assert hand.pots() == (Pot(3, (0, 1, 2)), Pot(2, (0, 2)))


def test_heads_up_short_big_blind_the_excess_of_the_call_is_returned() -> None:
    hand = new_hand([1, 100], holes=["AsAd", "7c2d"], board="KhQh3c4d9s")
    play(hand, "p1 call")  # must put in 2 in all
    assert of_type(hand.events, UncalledBetReturned) == [UncalledBetReturned(1, 1)]
    assert hand.is_complete
    assert hand.finishing_stacks == (2, 99)


def test_antes_are_posted_first_and_count_as_contributions() -> None:
    hand = new_hand([1, 100, 100], holes=["AsAd", "7c2d", "8h3c"], board="KhQh3d4d9s", settings=HandSettings(ante=1))
    posted = of_type(hand.events, BlindPosted)
    assert posted[:3] == [BlindPosted(0, "ante", 1), BlindPosted(1, "ante", 1), BlindPosted(2, "ante", 1)]
    assert posted[3:] == [BlindPosted(1, "big_blind", 2)]  # p0 has nothing left for the small blind
    play(hand, "p2 raise 10", "p1 call")
    play(hand, *["check"] * 6)
    # p0 is all-in from the ante: the main pot is 1 from each (3), the rest goes to p1 and p2 only.
    awards = of_type(hand.events, PotAwarded)
    assert [(a.pot_index, a.amount) for a in awards] == [(1, 20), (0, 3)]
    assert hand.finishing_stacks == (3, 89, 109)


def test_big_blind_ante_is_dead_money_posted_before_the_blind() -> None:
    hand = new_hand([100, 100, 100], settings=HandSettings(big_blind_ante=2))
    assert of_type(hand.events, BlindPosted) == [
        BlindPosted(1, "bb_ante", 2),
        BlindPosted(0, "small_blind", 1),
        BlindPosted(1, "big_blind", 2),
    ]
    play(hand, "p2 fold", "p0 fold")
    assert of_type(hand.events, UncalledBetReturned) == [UncalledBetReturned(1, 1)]
    assert of_type(hand.events, PotAwarded) == [PotAwarded(0, 4, ((1, 4),), None)]
    assert hand.finishing_stacks == (99, 101, 100)


def test_straddle_is_posted_left_of_the_big_blind_and_action_starts_on_its_left() -> None:
    hand = new_hand([100, 100, 100, 100], settings=HandSettings(straddle=True))
    assert of_type(hand.events, BlindPosted)[-1] == BlindPosted(2, "straddle", 4)
    legal = hand.legal_actions()
    assert (legal.player, legal.call_amount, legal.min_raise_to) == (3, 4, 8)
    play(hand, "p3 call", "p0 call", "p1 call")
    assert hand.actor == 2  # the straddle has the option, like a big blind
    assert hand.legal_actions().can_check


def test_straddle_needs_three_players() -> None:
    hand = new_hand([100, 100], settings=HandSettings(straddle=True))
    assert [e.kind for e in of_type(hand.events, BlindPosted)] == ["small_blind", "big_blind"]


# ---------------------------------------------------------------- uncalled bets, folds, run-outs


def test_uncalled_river_bet_is_returned_not_won() -> None:
    hand = new_hand([100, 100, 100])
    play(hand, "call", "call", "check", *["check"] * 6, "p0 bet 10", "p1 fold", "p2 fold")
    assert of_type(hand.events, UncalledBetReturned) == [UncalledBetReturned(0, 10)]
    assert of_type(hand.events, PotAwarded) == [PotAwarded(0, 6, ((0, 6),), None)]
    assert hand.finishing_stacks == (104, 98, 98)


def test_heads_up_all_in_then_fold_returns_the_uncalled_part_and_the_pot_goes_to_the_all_in_player() -> None:
    hand = new_hand([100, 100])
    play(hand, "p1 all_in", "p0 fold")
    assert of_type(hand.events, UncalledBetReturned) == [UncalledBetReturned(1, 98)]
    assert of_type(hand.events, PotAwarded) == [PotAwarded(0, 4, ((1, 4),), None)]
    assert hand.finishing_stacks == (98, 102)


def test_98_all_in_called_by_a_102_stack_4_go_back() -> None:
    hand = new_hand([98, 102], holes=["AsAd", "KsKd"], board="2c7h9dJc3s")
    play(hand, "p1 all_in", "p0 call")  # the 102 shove is called for 98
    assert of_type(hand.events, UncalledBetReturned) == [UncalledBetReturned(1, 4)]
    shown = {e.player: e.value for e in of_type(hand.events, HandShown)}  # the showdown's hands, by player
    aces, kings = shown[0], shown[1]
    # The award names the hand the pot was won against (what the kicker words are computed from).
    assert of_type(hand.events, PotAwarded) == [PotAwarded(0, 196, ((0, 196),), aces, kings)]
    assert hand.finishing_stacks == (196, 4)


def test_102_stack_facing_a_98_all_in_can_only_call_98() -> None:
    hand = new_hand([102, 98], holes=["AsAd", "KsKd"], board="2c7h9dJc3s")
    play(hand, "p1 all_in")
    legal = hand.legal_actions()
    assert (legal.can_raise, legal.can_all_in, legal.call_amount) == (False, False, 96)
    with pytest.raises(IllegalActionError) as refused:
        hand.go_all_in()
    assert "Everyone else is all-in: you can only call 96 or fold" in render_poker_error(refused.value, "en")
    play(hand, "p0 call")
    assert hand.finishing_stacks == (200, 0)


def test_last_player_left_wins_at_once_without_showing_and_no_more_cards_are_dealt() -> None:
    hand = new_hand([100, 100, 100])
    play(hand, "p2 raise 6", "p0 fold", "p1 fold")
    assert hand.is_complete
    assert not of_type(hand.events, StreetDealt) and not of_type(hand.events, HandShown)
    assert hand.finishing_stacks == (99, 98, 103)


def test_folded_players_chips_stay_in_the_pot() -> None:
    hand = new_hand([100, 100, 100], holes=["QsQd", "Kc7c", "JhTh"], board="3h8cKd2s9h")
    play(hand, "p2 raise 10", "p0 call", "p1 call", "p0 check", "p1 bet 20", "p2 call", "p0 fold")
    play(hand, *["check"] * 4)
    assert of_type(hand.events, PotAwarded)[0].amount == 70
    assert hand.finishing_stacks == (90, 140, 70)


def test_all_in_players_get_the_board_run_out_and_every_hand_is_shown() -> None:
    hand = new_hand([50, 50, 50], holes=["AsAd", "KsKd", "QsQd"], board="2c7h9dJc3h")
    play(hand, "p2 all_in", "p0 call", "p1 call")
    streets = of_type(hand.events, StreetDealt)
    assert [s.street for s in streets] == [Street.FLOP, Street.TURN, Street.RIVER]
    assert {e.player for e in of_type(hand.events, HandShown)} == {0, 1, 2}
    assert hand.finishing_stacks == (150, 0, 0)


# ---------------------------------------------------------------- side pots (000 §05, 002)


def test_side_pots_rule_book_alice_20_bob_50_chloe_50() -> None:
    """Alice (SB) 20, Bob (BB) 50, Chloé (button) 50: main pot 60 for all three, side pot 60 for Bob and Chloé."""
    hand = new_hand([20, 50, 50], holes=["AhAd", "KhKd", "7c2d"], board="2s5c9hJd3c")
    play(hand, "p2 all_in", "p0 call", "p1 call")
    assert hand.pots() == (Pot(60, (0, 1, 2)), Pot(60, (1, 2)))
    awards = {a.pot_index: a for a in of_type(hand.events, PotAwarded)}
    assert awards[0].winners == ((0, 60),)  # Alice's aces win the main pot only
    assert awards[1].winners == ((1, 60),)
    assert hand.finishing_stacks == (60, 60, 0)


def test_side_pots_rule_book_25_60_60() -> None:
    hand = new_hand([25, 60, 60], holes=["AhAd", "KhKd", "7c2d"], board="2s5c9hJd3c")
    play(hand, "p2 all_in", "p0 call", "p1 call")
    assert hand.pots() == (Pot(75, (0, 1, 2)), Pot(70, (1, 2)))
    assert hand.finishing_stacks == (75, 70, 0)


def test_side_pots_are_paid_before_the_main_pot() -> None:
    hand = new_hand([25, 60, 60], holes=["AhAd", "KhKd", "7c2d"], board="2s5c9hJd3c")
    play(hand, "p2 all_in", "p0 call", "p1 call")
    assert [a.pot_index for a in of_type(hand.events, PotAwarded)] == [1, 0]


# ---------------------------------------------------------------- showdown (000 §06-§07, 002) and ranking cases


def test_showdown_last_river_aggressor_shows_first_and_beaten_hands_muck() -> None:
    hand = new_hand([100, 100, 100], holes=["7c2d", "AsAd", "8h3c"], board="KhQh4d9s5c")
    play(hand, "call", "call", "check", *["check"] * 6, "p0 check", "p1 bet 10", "p2 call", "p0 call")
    shown = [e for e in hand.events if isinstance(e, HandShown | HandMucked)]
    assert [type(e).__name__ for e in shown] == ["HandShown", "HandMucked", "HandMucked"]
    assert [e.player for e in shown] == [1, 2, 0]


def test_showdown_without_river_bet_starts_left_of_the_button() -> None:
    hand = new_hand([100, 100, 100], holes=["7c2d", "8h3c", "AsAd"], board="KhQh4d9s5c")
    play(hand, "call", "call", "check", *["check"] * 9)
    shown = [e for e in hand.events if isinstance(e, HandShown | HandMucked)]
    # p0 shows first; p1's king high (8 kicker) beats p0's (7 kicker), so p1 shows too; p2 shows aces.
    assert [(type(e).__name__, e.player) for e in shown] == [("HandShown", 0), ("HandShown", 1), ("HandShown", 2)]
    assert hand.finishing_stacks == (98, 98, 104)


def test_wheel_a_2_3_4_5_beats_three_of_a_kind() -> None:
    hand = new_hand([100, 100, 100], holes=["Ah2c", "KsKh", "7c7d"], board="3d4s5hKc9d")
    play(hand, "p2 fold", "p0 call", "p1 check", *["check"] * 6)
    assert hand.finishing_stacks == (102, 98, 100)
    assert of_type(hand.events, PotAwarded)[0].value.describe_en() == "Straight, five high"


def test_board_6c_qc_ad_6s_ac_ten_jack_and_three_three_split() -> None:
    hand = new_hand([100, 100], holes=["3s3h", "ThJd"], board="6cQcAd6sAc")
    play(hand, "p1 call", "p0 check", *["check"] * 6)
    award = of_type(hand.events, PotAwarded)[0]
    assert award.winners == ((0, 2), (1, 2))
    assert award.value.describe_en() == "Two pair, aces and sixes"


def test_board_9_7_5_5_3_king_eight_beats_queen_four() -> None:
    hand = new_hand([100, 100], holes=["Kc8d", "Qh4c"], board="9s7d5c5h3s")
    play(hand, "p1 call", "p0 check", *["check"] * 6)
    assert of_type(hand.events, PotAwarded)[0].winners == ((0, 4),)


def test_royal_flush_book_example_beats_four_of_a_kind() -> None:
    hand = new_hand([100, 100], holes=["AhQh", "2d2h"], board="KhJhTh2s2c")
    play(hand, "p1 all_in", "p0 call")
    award = of_type(hand.events, PotAwarded)[0]
    assert award.winners == ((0, 200),) and award.value.is_royal
    assert award.value.describe_en() == "Royal flush"


def test_board_plays_straight_on_the_board_splits_among_hands_still_in() -> None:
    hand = new_hand([100, 100, 100], holes=["9c9d", "2h3h", "7c8c"], board="AsKdQcJhTs")
    play(hand, "call", "call", "check", *["check"] * 9)
    award = of_type(hand.events, PotAwarded)[0]
    assert award.winners == ((0, 2), (1, 2), (2, 2))
    assert hand.finishing_stacks == (100, 100, 100)


def test_odd_chip_goes_to_the_first_winner_left_of_the_button() -> None:
    hand = new_hand([100, 100, 100], holes=["9c9d", "2h3h", "7c8c"], board="AsKdQcJhTs")
    play(hand, "p2 call", "p0 fold", "p1 check", *["check"] * 6)
    assert of_type(hand.events, PotAwarded) == [PotAwarded(0, 5, ((1, 3), (2, 2)), hand.events[-2].value)]
    assert hand.finishing_stacks == (99, 101, 100)


def test_three_way_tie_on_30300_pays_10100_each() -> None:
    hand = new_hand([10100, 10100, 10100], holes=["9c9d", "2h3h", "7c8c"], board="AsKdQcJhTs")
    play(hand, "p2 all_in", "p0 call", "p1 call")
    award = of_type(hand.events, PotAwarded)[0]
    assert (award.amount, award.winners) == (30300, ((0, 10100), (1, 10100), (2, 10100)))


# ---------------------------------------------------------------- refused actions change nothing (issue rule 11)


def test_checking_facing_a_bet_is_refused_with_the_amount_to_call() -> None:
    hand = _to_flop([100, 100, 100])
    play(hand, "p0 bet 6")
    before = snapshot(hand)
    with pytest.raises(IllegalActionError) as refused:
        hand.check()
    assert (refused.value.code, refused.value.params, render_poker_error(refused.value, "en")) == (
        "cannot_check",
        {"to_call": 6},
        "You can't check: 6 to call",
    )
    assert snapshot(hand) == before


@pytest.mark.parametrize(
    ("action", "error", "code"),
    [
        (lambda h: h.act(ActionKind.CALL, player=0), NotYourTurnError, "not_your_turn"),
        (lambda h: h.bet(10), IllegalActionError, "bet_facing_bet"),
        (lambda h: h.raise_to(101), InvalidAmountError, "amount_above_stack"),
        (lambda h: h.raise_to(2.5), InvalidAmountError, "invalid_amount"),
        (lambda h: h.raise_to(True), InvalidAmountError, "invalid_amount"),
        (lambda h: h.act(ActionKind.RAISE), InvalidAmountError, "amount_required"),
        (lambda h: h.check(), IllegalActionError, "cannot_check"),
    ],
)
def test_refused_preflop_actions_change_nothing(action: object, error: type, code: str) -> None:
    hand = new_hand([100, 100, 100])
    before = snapshot(hand)
    with pytest.raises(error) as refused:
        action(hand)  # type: ignore[operator]
    assert refused.value.code == code
    assert snapshot(hand) == before


def test_fold_is_refused_when_checking_is_free() -> None:
    hand = _to_flop([100, 100, 100])
    assert not hand.can_fold()
    with pytest.raises(IllegalActionError) as refused:
        hand.fold()
    assert "you can check" in render_poker_error(refused.value, "en")


def test_raise_is_refused_without_a_bet_and_call_without_anything_to_call() -> None:
    hand = _to_flop([100, 100, 100])
    with pytest.raises(IllegalActionError) as no_bet:
        hand.raise_to(10)
    assert no_bet.value.code == "no_bet_to_raise"
    with pytest.raises(IllegalActionError) as nothing:
        hand.call()
    assert nothing.value.code == "nothing_to_call"


def test_actions_after_the_hand_are_refused_with_hand_over() -> None:
    hand = new_hand([100, 100])
    play(hand, "p1 fold")
    assert isinstance(hand.events[-1], HandEnded)
    with pytest.raises(HandOverError):
        hand.check()
    with pytest.raises(HandOverError):
        hand.legal_actions()


def test_every_event_of_a_decision_is_in_order() -> None:
    hand = new_hand([100, 100, 100])
    before = hand.event_count
    event = hand.raise_to(6)
    assert hand.events_since(before) == [event]
    assert event == PlayerActed(2, ActionKind.RAISE, 6, 6, False)


def test_pots_show_collected_chips_and_total_pot_everything() -> None:
    hand = new_hand([100, 100, 100])
    play(hand, "p2 raise 6")
    assert hand.pots() == ()
    assert hand.total_pot == 9
    play(hand, "p0 call", "p1 call")
    assert hand.pots() == (Pot(18, (0, 1, 2)),)


def test_straddler_all_in_from_the_ante_posts_no_straddle() -> None:
    hand = new_hand(
        [3, 4, 1, 1],
        holes=["AsAd", "KsKd", "7c2d", "8h3c"],
        board="Jc9h4d5s6c",
        settings=HandSettings(ante=1, straddle=True),
    )
    assert [e.kind for e in of_type(hand.events, BlindPosted)] == ["ante"] * 4 + ["small_blind", "big_blind"]
    assert hand.current_bet == 2 and hand.actor == 0  # left of the big blind, skipping the two all-in players
    play(hand, "p0 fold")  # the big blind is the only one left who can act and has matched: no more betting
    assert hand.is_complete
    assert of_type(hand.events, UncalledBetReturned) == [UncalledBetReturned(1, 1)]
    assert hand.pots() == (Pot(4, (1, 2, 3)), Pot(2, (1,)))  # the folded SB's chip stays in the side pot
    assert hand.finishing_stacks == (1, 8, 0, 0)


def test_cards_are_dealt_one_at_a_time_from_the_button_left_with_a_burn_before_each_street() -> None:
    """Rule book 000 §04-§05: hole cards one by one starting left of the button; burn, flop, burn, turn, burn, river."""
    deck = full_deck()
    hand = Hand(HandSettings(), [100, 100, 100], deck=deck)
    assert hand.hole_cards == ((deck[0], deck[3]), (deck[1], deck[4]), (deck[2], deck[5]))
    play(hand, "call", "call", "check", *["check"] * 9)
    assert hand.board == (deck[7], deck[8], deck[9], deck[11], deck[13])  # deck[6], [10], [12] burned
    assert hand.deck == tuple(deck)


# ---------------------------------------------------------------- a player who leaves forfeits (002: mucked = dead)


def test_forfeit_at_ones_turn_folds_even_when_checking_is_free() -> None:
    hand = _to_flop([100, 100, 100])
    actor = hand.actor
    assert hand.can_check() and not hand.can_fold()  # an ordinary fold is still refused with a free check
    event = hand.forfeit(actor)
    assert event.action is ActionKind.FOLD and hand.folded[actor]
    assert hand.actor not in (None, actor) and hand.street is Street.FLOP


def test_forfeit_out_of_turn_keeps_the_turn_and_the_player_never_wins() -> None:
    # p0 SB, p1 BB, p2 button; p2 has the best hand, raises, then leaves while p0 decides.
    hand = new_hand([100, 100, 100], ["7c 2d", "8h 3s", "Ah Ad"], "Kc 9d 4s 5h Jc")
    play(hand, "p2 raise 10")
    assert hand.actor == 0
    hand.forfeit(2)
    assert hand.actor == 0 and hand.folded[2]
    play(hand, "p0 call", "p1 call")  # calling the forfeited raise closes the round (the top bet is matched)
    assert hand.street is Street.FLOP
    while not hand.is_complete:
        play(hand, "check")
    winners = {p for e in of_type(hand.events, PotAwarded) for p, _ in e.winners}
    assert 2 not in winners
    assert sum(hand.finishing_stacks) == 300


def test_forfeit_that_leaves_one_player_ends_the_hand_uncontested() -> None:
    hand = new_hand([100, 100, 100])
    play(hand, "p2 fold")
    hand.forfeit(1)  # the big blind leaves while the small blind decides
    assert hand.is_complete
    # The small blind takes the whole pot: the big blind folded, so none of it comes back to its author ("ne
    # reprends pas les jetons d'une mise après t'être couché", 000); it is no uncalled bet.
    assert hand.finishing_stacks == (102, 98, 100)
    assert not of_type(hand.events, UncalledBetReturned)


def test_a_raise_forfeited_out_of_turn_stays_in_the_pot_for_the_player_who_is_left() -> None:
    # p2 raises to 10, p0 folds, then p2 leaves while p1 (big blind, 2 in) decides: p1 wins 1 + 2 + 10.
    hand = new_hand([100, 100, 100])
    play(hand, "p2 raise 10", "p0 fold")
    hand.forfeit(2)
    assert hand.is_complete
    assert hand.finishing_stacks == (99, 111, 90)
    assert not of_type(hand.events, UncalledBetReturned)


def test_a_forfeited_bet_above_what_an_all_in_winner_matched_goes_back_to_its_author() -> None:
    # p2 all-in for 100, p0 all-in for 50, then p2 leaves and p1 (big blind) folds: p0 wins 50 from p2, the 2
    # of p1 and their own 50; the 50 of p2 nobody could match goes back ("tu ne peux gagner de chaque
    # adversaire que le montant que tu as pu égaler", 000).
    hand = new_hand([50, 100, 100])
    play(hand, "p2 all_in", "p0 all_in")
    hand.forfeit(2)
    play(hand, "p1 fold")
    assert hand.finishing_stacks == (102, 98, 50)
    assert of_type(hand.events, UncalledBetReturned) == [UncalledBetReturned(2, 50)]


def test_two_forfeited_bets_above_an_all_in_winner_each_go_back_above_what_it_matched() -> None:
    # Button p3; p2 all-in for 100, p3 calls 100, p0 all-in for 50; p2 and p3 leave; p1 folds.
    hand = new_hand([50, 100, 100, 100])
    play(hand, "p2 all_in", "p3 call", "p0 all_in")
    hand.forfeit(2)
    hand.forfeit(3)
    play(hand, "p1 fold")
    assert hand.finishing_stacks == (152, 98, 50, 50)
    assert of_type(hand.events, UncalledBetReturned) == [UncalledBetReturned(2, 50), UncalledBetReturned(3, 50)]


def test_a_forfeited_bet_above_two_all_in_players_goes_back_and_they_play_for_the_rest() -> None:
    # p2 all-in for 100, p0 all-in for 50, p2 leaves, p1 all-in for 30: main pot 90, side pot 40 (p0 alone).
    hand = new_hand([50, 30, 100], ["7c 2d", "Ah Ad", "Kh Kd"], "Kc 9d 4s 5h Jc")
    play(hand, "p2 all_in", "p0 all_in")
    hand.forfeit(2)
    play(hand, "p1 all_in")
    assert hand.is_complete
    assert hand.finishing_stacks == (40, 90, 50)
    assert of_type(hand.events, UncalledBetReturned) == [UncalledBetReturned(2, 50)]


def test_forfeit_of_an_all_in_player_gives_their_pots_to_the_others() -> None:
    # p2 all-in for 20 with aces, then leaves; p0 and p1 play on and p0's small pair wins everything.
    hand = new_hand([100, 100, 20], ["7c 7d", "8h 3s", "Ah Ad"], "Kc 9d 4s 5h Jc")
    play(hand, "p2 all_in", "p0 call", "p1 call")
    assert hand.street is Street.FLOP
    hand.forfeit(2)
    while not hand.is_complete:
        play(hand, "check")
    awarded = {p: c for e in of_type(hand.events, PotAwarded) for p, c in e.winners}
    assert awarded == {0: 60}
    assert hand.finishing_stacks == (140, 80, 0)


def test_a_forfeited_hand_replays_from_its_record() -> None:
    hand = new_hand([100, 100, 100])
    play(hand, "p2 raise 10")
    hand.forfeit(1)
    play(hand, "p0 call")
    copy = Hand.from_record(hand.record())
    assert copy.events == hand.events and copy.folded == hand.folded


def test_forfeit_is_refused_for_a_folded_player_or_a_finished_hand() -> None:
    hand = new_hand([100, 100, 100])
    play(hand, "p2 fold")
    with pytest.raises(IllegalActionError):
        hand.forfeit(2)
    play(hand, "p0 fold")
    with pytest.raises(HandOverError):
        hand.forfeit(1)


def test_a_forfeited_hand_exports_to_phh_and_replays() -> None:
    from bot.poker.phh import dump_hand, loads, replay

    hand = new_hand([100, 100, 100], ["7c 2d", "8h 3s", "Ah Ad"], "Kc 9d 4s 5h Jc")
    play(hand, "p2 raise 10")
    hand.forfeit(1)  # out of turn: the small blind is to act
    play(hand, "p0 call")
    while not hand.is_complete:
        play(hand, "check")
    again = replay(loads(dump_hand(hand))[0])
    assert again.finishing_stacks == hand.finishing_stacks and again.folded == hand.folded


def test_each_pot_names_the_best_hand_it_was_won_against_among_its_own_claimants() -> None:
    """Rule book 000 §05 side pots (Alice 20, Bob 50, Chloé 50): Bob's kings win the side pot against Chloé's
    queens only — Alice's flush never claimed it —, and Alice's flush wins the main pot against Bob's kings."""
    hand = new_hand([20, 50, 50], holes=["Ah8h", "KcKd", "QsQd"], board="Ks7h2h9c3h")
    play(hand, "p2 raise 6", "p0 all_in", "p1 call", "p2 raise 50", "p1 call")
    shown = {e.player: e.value for e in of_type(hand.events, HandShown)}
    side, main = of_type(hand.events, PotAwarded)
    assert (side.pot_index, side.winners, side.value, side.beaten) == (1, ((1, 60),), shown[1], shown[2])
    assert (main.pot_index, main.winners, main.value, main.beaten) == (0, ((0, 60),), shown[0], shown[1])


def test_after_an_all_in_run_out_the_first_player_left_of_the_button_shows_first() -> None:
    """QA: p2 (button) moved all-in before the flop and was shown first, though nobody bet on the river: "s'il
    n'y a pas eu de mise à la river, le premier joueur actif à gauche du bouton révèle d'abord" (002)."""
    hand = new_hand([50, 50, 50], holes=["AsAd", "KsKd", "QsQd"], board="2c7h9dJc3h")
    play(hand, "p2 all_in", "p0 call", "p1 call")
    assert [e.player for e in of_type(hand.events, HandShown)] == [0, 1, 2]
