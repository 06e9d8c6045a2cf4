"""Per-hand statistics (VPIP, PFR, showdowns, chips won), read from the hand's events."""

from bot.poker import HandSettings, HandStatistics, hand_statistics
from tests.poker.helpers import new_hand, play


def test_blinds_are_not_voluntary_a_call_is_vpip_and_a_raise_is_pfr():
    # Three players: p0 SB, p1 BB, p2 button acts first preflop.
    hand = new_hand([100, 100, 100], ["AhKh", "7c2d", "QsQd"], "Kd 9s 4c 3h 2s")
    play(hand, "p2 raise 6", "p0 call", "p1 fold", "check", "check", "check", "check", "check", "check")
    sb, bb, button = hand_statistics(hand)
    assert (sb.vpip, sb.pfr) == (True, False)  # called the raise
    assert (bb.vpip, bb.pfr) == (False, False)  # only posted the big blind, then folded
    assert (button.vpip, button.pfr) == (True, True)
    assert not bb.went_to_showdown and sb.went_to_showdown and button.went_to_showdown
    # A♥ K♥ (pair of kings) beats Q♠ Q♦ on K 9 4 3 2: the small blind wins 6 + 6 + 2 = 14 at the showdown.
    assert sb == HandStatistics(
        won=14, showed=True, vpip=True, pfr=False, went_to_showdown=True, won_at_showdown=True, preflop_decision=True
    )
    assert button.won == 0 and not button.won_at_showdown


def test_completing_the_small_blind_is_vpip_not_pfr_and_a_check_of_the_big_blind_is_neither():
    hand = new_hand([100, 100, 100], ["AhKh", "7c2d", "QsQd"], "Kd 9s 4c 3h 2s")
    play(hand, "p2 fold", "p0 call", "p1 check")
    sb, bb, button = hand_statistics(hand)
    assert (sb.vpip, sb.pfr) == (True, False)
    assert (bb.vpip, bb.pfr) == (False, False)
    assert (button.vpip, button.pfr, button.won) == (False, False, 0)


def test_calling_the_straddle_is_not_a_raise_raising_over_it_is():
    # Rule book 002: the straddle is a live blind of twice the big blind: calling it (4) raises nothing.
    settings = HandSettings(straddle=True)
    hand = new_hand([100, 100, 100, 100], ["AhKh", "7c2d", "QsQd", "JcJd"], "Kd 9s 4c 3h 2s", settings)
    play(hand, "p3 call", "p0 raise 12")
    stats = hand_statistics(hand)
    assert (stats[3].vpip, stats[3].pfr) == (True, False)
    assert (stats[0].vpip, stats[0].pfr) == (True, True)
    assert not stats[2].vpip  # the straddle itself is forced


def test_an_uncontested_pot_is_won_without_a_showdown_and_the_returned_bet_is_not_a_win():
    hand = new_hand([100, 100], ["AhKh", "7c2d"])
    play(hand, "p1 raise 10", "p0 fold")  # heads-up: the button (p1) is the small blind and acts first
    bb, button = hand_statistics(hand)
    assert button.won == 4 and not button.went_to_showdown and not button.won_at_showdown  # 2 + 2, 8 returned
    assert bb == HandStatistics(preflop_decision=True)  # it folded: a decision, not a walk


def test_a_big_blind_that_walks_had_no_preflop_decision():
    # PokerTracker 4's VPIP and PFR leave walks out of their denominator (bot/poker/statistics.py).
    hand = new_hand([100, 100, 100], ["AhKh", "7c2d", "QsQd"])
    play(hand, "p2 fold", "p0 fold")
    sb, bb, button = hand_statistics(hand)
    assert (sb.preflop_decision, bb.preflop_decision, button.preflop_decision) == (True, False, True)
    assert bb == HandStatistics(won=2)  # 1 + 1 (its uncalled 1 returned): a hand won, no decision, no VPIP
    heads_up = new_hand([100, 100], ["AhKh", "7c2d"])
    play(heads_up, "p1 fold")  # the button (small blind) folds first: the big blind walks
    assert [s.preflop_decision for s in hand_statistics(heads_up)] == [False, True]


def test_a_check_of_the_big_blind_is_a_decision_and_a_blind_all_in_for_its_post_never_decides():
    limped = new_hand([100, 100, 100], ["AhKh", "7c2d", "QsQd"], "Kd 9s 4c 3h 2s")
    play(limped, "p2 call", "p0 call", "p1 check")
    assert [s.preflop_decision for s in hand_statistics(limped)] == [True, True, True]
    short = new_hand([100, 2, 100], ["AhKh", "7c2d", "QsQd"], "Kd 9s 4c 3h 2s")
    play(short, "p2 call", "p0 call")  # the big blind's 2 chips are all posted: it is all-in before any turn
    sb, bb, button = hand_statistics(short)
    assert (sb.preflop_decision, bb.preflop_decision, button.preflop_decision) == (True, False, True)


def test_cards_shown_by_choice_after_the_hand_count_as_a_hand_shown_once():
    hand = new_hand([100, 100], ["AhKh", "7c2d"])
    play(hand, "p1 fold")  # heads-up: the button folds, the big blind wins without a showdown
    assert [s.showed for s in hand_statistics(hand)] == [False, False]
    hand.show_by_choice(1, (hand.hole_cards[1][0],))
    hand.show_by_choice(1, (hand.hole_cards[1][1],))
    bb, button = hand_statistics(hand)
    assert (bb.showed, button.showed, button.went_to_showdown) == (False, True, False)
