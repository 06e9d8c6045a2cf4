"""Run it twice (rule book 002: by agreement of everyone involved, before the run-out) and showing cards by
choice after the hand (rule book 002: showing and mucking), in the engine."""

from __future__ import annotations

import pytest

from bot.poker import ActionKind, Card, Hand, HandSettings, PotAwarded, StreetDealt, parse_cards
from bot.poker.errors import HandOverError, IllegalActionError
from bot.poker.events import RunCountChosen, RunTwiceAnswered, ShownByChoice
from bot.poker.hand import HandRecord
from tests.poker.helpers import of_type, play, stacked_deck

TWICE = HandSettings(run_it_twice=True)


def deck_with_second_run(holes: list[str], board: str, second: str, from_street: str) -> list[Card]:
    """A deck that deals `board` as the first board and `second` as the second run-out from `from_street`
    ('preflop' or 'flop': where the betting closed)."""
    deck = stacked_deck(holes, board)
    n = len(holes)
    wanted = list(parse_cards(second))
    slots = {
        "preflop": [2 * n + 9, 2 * n + 10, 2 * n + 11, 2 * n + 13, 2 * n + 15],
        "flop": [2 * n + 9, 2 * n + 11],
    }[from_street]
    for slot, card in zip(slots, wanted, strict=True):
        other = deck.index(card)
        assert other >= 2 * n + 8 or other in (2 * n, 2 * n + 4, 2 * n + 6), f"{card} is already dealt"
        deck[slot], deck[other] = deck[other], deck[slot]
    return deck


def heads_up_all_in_preflop(settings: HandSettings = TWICE, stacks: tuple[int, int] = (100, 100)) -> Hand:
    """Player 1 (button) has A♠A♥, player 0 K♠K♥; board one gives the aces the pot, board two a king."""
    deck = deck_with_second_run(["KsKh", "AsAh"], "2c7d9hJc3s", "Kd8c4h5d6s", "preflop")
    hand = Hand(settings, list(stacks), deck=deck)
    play(hand, "p1 all_in", "p0 call")
    return hand


def test_everyone_agreeing_deals_two_boards_and_splits_the_pot_in_halves() -> None:
    hand = heads_up_all_in_preflop()
    assert hand.awaiting == "run_it_twice" and hand.actor is None
    assert hand.run_twice_pending == (0, 1) and hand.board == ()
    hand.answer_run_twice(1, True)
    assert hand.run_twice_pending == (0,) and not hand.is_complete
    hand.answer_run_twice(0, True)
    assert hand.is_complete and hand.runs == 2
    assert [str(c) for c in hand.board] == ["2c", "7d", "9h", "Jc", "3s"]
    assert [str(c) for c in hand.second_board] == ["Kd", "8c", "4h", "5d", "6s"]
    streets = of_type(hand.events, StreetDealt)
    assert [e.run for e in streets] == [1, 1, 1, 2, 2, 2]
    payouts = of_type(hand.events, PotAwarded)
    assert [(p.run, p.amount, p.winners) for p in payouts] == [(1, 100, ((1, 100),)), (2, 100, ((0, 100),))]
    assert hand.finishing_stacks == (100, 100)
    assert of_type(hand.events, RunCountChosen) == [RunCountChosen(2)]


def test_one_no_runs_the_board_once() -> None:
    hand = heads_up_all_in_preflop()
    hand.answer_run_twice(0, False)
    assert hand.is_complete and hand.runs == 1 and hand.second_board == ()
    assert hand.finishing_stacks == (0, 200)
    assert of_type(hand.events, RunTwiceAnswered) == [RunTwiceAnswered(0, False)]
    assert [p.run for p in of_type(hand.events, PotAwarded)] == [0]
    with pytest.raises(HandOverError):
        hand.answer_run_twice(1, True)


def test_without_the_table_option_nobody_is_asked() -> None:
    hand = heads_up_all_in_preflop(HandSettings())
    assert hand.is_complete and hand.run_twice_pending == ()
    assert hand.finishing_stacks == (0, 200)


def test_only_players_still_asked_may_answer() -> None:
    hand = heads_up_all_in_preflop()
    hand.answer_run_twice(1, True)
    for player in (1, 2, -1):
        assert not hand.can_answer_run_twice(player, True)
    with pytest.raises(IllegalActionError, match="no_run_twice_question"):
        hand.answer_run_twice(1, True)


def test_odd_chip_of_a_pot_run_twice_goes_with_the_half_of_the_winner_left_of_the_button() -> None:
    """A big-blind ante of 1 (dead money) makes the pot odd: 201 chips."""
    settings = HandSettings(run_it_twice=True, big_blind_ante=1)
    deck = deck_with_second_run(["KsKh", "AsAh"], "2c7d9hJc3s", "Kd8c4h5d6s", "preflop")
    hand = Hand(settings, [101, 100], deck=deck)
    play(hand, "p1 all_in", "p0 call")
    hand.answer_run_twice(0, True)
    hand.answer_run_twice(1, True)
    payouts = of_type(hand.events, PotAwarded)
    assert sum(p.amount for p in payouts) == 201
    # Player 0 (first left of the button) wins the second board: that half carries the odd chip.
    assert [(p.run, p.amount, p.winners) for p in payouts] == [(1, 100, ((1, 100),)), (2, 101, ((0, 101),))]


def test_all_in_on_the_flop_shares_the_flop_and_side_pots_are_each_halved() -> None:
    """Three players: player 0 all-in short on the flop, 1 and 2 all-in for more: a main and a side pot,
    each split in halves between the two boards."""
    holes = ["QcQd", "AsAh", "KsKh"]
    deck = deck_with_second_run(holes, "2c7d9hJc3s", "Kd2s", "flop")
    hand = Hand(TWICE, [50, 200, 200], deck=deck)
    play(hand, "p2 call", "p0 call", "p1 check")
    play(hand, "p0 all_in", "p1 all_in", "p2 call")
    assert hand.run_twice_pending == (0, 1, 2)
    for player in (2, 0, 1):
        hand.answer_run_twice(player, True)
    assert [str(c) for c in hand.second_board] == ["2c", "7d", "9h", "Kd", "2s"]
    payouts = [(p.pot_index, p.run, p.amount, p.winners) for p in of_type(hand.events, PotAwarded)]
    assert payouts == [
        (1, 1, 150, ((1, 150),)),
        (1, 2, 150, ((2, 150),)),
        (0, 1, 75, ((1, 75),)),
        (0, 2, 75, ((2, 75),)),
    ]
    assert hand.finishing_stacks == (0, 225, 225)


def test_a_player_who_leaves_while_asked_counts_as_a_no() -> None:
    hand = heads_up_all_in_preflop(stacks=(100, 100))
    hand.answer_run_twice(1, True)
    hand.forfeit(0)
    assert hand.is_complete and hand.runs == 1 and hand.finishing_stacks == (0, 200)


def test_record_replays_exactly_at_every_point_of_the_agreement() -> None:
    hand = heads_up_all_in_preflop()
    steps = [hand.record()]
    hand.answer_run_twice(1, True)
    steps.append(hand.record())
    hand.answer_run_twice(0, True)
    steps.append(hand.record())
    for record in steps:
        again = Hand.from_record(HandRecord.from_json(record.to_json()))
        assert again.record() == record
        assert again.run_twice_pending == Hand.from_record(record).run_twice_pending
    final = Hand.from_record(HandRecord.from_json(steps[-1].to_json()))
    assert final.events == hand.events and final.finishing_stacks == (100, 100)
    assert steps[-1].to_json()["run_twice"] == [[2, 1, True], [2, 0, True]]


def test_a_record_without_answers_keeps_the_old_form() -> None:
    hand = heads_up_all_in_preflop(HandSettings())
    data = hand.record().to_json()
    assert "run_twice" not in data and "shown" not in data and "run_it_twice" not in data["settings"]


def test_a_player_who_folded_or_won_without_showdown_may_show_by_choice() -> None:
    deck = stacked_deck(["KsKh", "AsAh", "7c2d"], "")
    hand = Hand(HandSettings(), [100, 100, 100], deck=deck)
    play(hand, "p2 fold", "p0 raise 6", "p1 fold")
    assert hand.is_complete
    assert not hand.can_show_by_choice(0, parse_cards("Ah"))  # not their card
    event = hand.show_by_choice(0, parse_cards("Kh"))
    assert event == ShownByChoice(0, parse_cards("Kh"))
    assert not hand.can_show_by_choice(0, parse_cards("Kh"))  # already shown
    hand.show_by_choice(2, parse_cards("2d7c"))
    hand.show_by_choice(0, parse_cards("Ks"))
    record = hand.record()
    assert record.shown == ((0, parse_cards("Kh")), (2, parse_cards("7c2d")), (0, parse_cards("Ks")))
    again = Hand.from_record(HandRecord.from_json(record.to_json()))
    assert again.events == hand.events


def test_showing_by_choice_is_refused_during_the_hand_and_for_hands_shown_at_showdown() -> None:
    deck = stacked_deck(["KsKh", "AsAh"], "2c7d9hJc3s")
    hand = Hand(HandSettings(), [100, 100], deck=deck)
    assert not hand.can_show_by_choice(0, parse_cards("Ks"))
    play(hand, "p1 all_in", "p0 call")
    assert hand.is_complete
    with pytest.raises(IllegalActionError, match="show"):
        hand.show_by_choice(0, parse_cards("Ks"))


def test_actions_during_the_question_are_refused() -> None:
    hand = heads_up_all_in_preflop()
    assert not hand.can_act(ActionKind.CHECK, player=0)


def test_the_odds_are_known_while_the_players_are_asked() -> None:
    import random

    from bot.poker.equity import runout_odds

    hand = heads_up_all_in_preflop()
    (point,) = runout_odds(hand, rng=random.Random(1), trials=2000)
    assert point.board == () and point.odds.pots[0].players == (0, 1)
    assert point.odds.pots[0].of(1).win > 0.7


def test_cards_shown_by_choice_are_written_in_the_phh_export_and_read_back() -> None:
    from bot.poker.phh import dump_hand, loads, replay

    deck = stacked_deck(["KsKh", "AsAh", "7c2d"], "")
    hand = Hand(HandSettings(), [100, 100, 100], deck=deck)
    play(hand, "p2 fold", "p0 raise 6", "p1 fold")
    hand.show_by_choice(1, parse_cards("As"))
    text = dump_hand(hand)
    assert '"p2 sm As # shown by choice"' in text
    again = replay(loads(text)[0])
    assert of_type(again.events, ShownByChoice) == [ShownByChoice(1, parse_cards("As"))]


def test_a_history_that_hides_a_hand_still_replays_the_cards_shown_from_it() -> None:
    from bot.poker.phh import dump_hand, loads, replay

    deck = stacked_deck(["KsKh", "AsAh", "7c2d"], "")
    hand = Hand(HandSettings(), [100, 100, 100], deck=deck)
    play(hand, "p2 fold", "p0 raise 6", "p1 fold")
    hand.show_by_choice(1, parse_cards("As"))
    text = dump_hand(hand).replace('"d dh p2 AsAh"', '"d dh p2 ????"')
    again = replay(loads(text)[0])
    assert of_type(again.events, ShownByChoice) == [ShownByChoice(1, parse_cards("As"))]
    with pytest.raises(IllegalActionError):
        again.show_by_choice(1, parse_cards("Ks"))  # a card known to be elsewhere
