"""The pure bookkeeping of time banks and choices made in advance (issue 16); the table flow is tested with the
service in test_limits_flow.py."""

from __future__ import annotations

from bot.poker import ActionKind, Hand, HandSettings, full_deck
from bot.tables.preactions import PreAction, PreChoice, resolve, still_valid
from bot.tables.timebank import TimeBanks


def test_a_bank_moves_the_deadline_on_and_spends_only_the_time_used() -> None:
    banks = TimeBanks(size=60, refill=5)
    assert banks.start(7, turn_deadline=100.0) == 160.0
    assert banks.start(7, turn_deadline=100.0) is None  # already running on this turn
    banks.stop(now=125.0)  # acted 25 s into the bank
    assert banks.left(7) == 35.0 and banks.running is None
    assert banks.start(7, turn_deadline=200.0) == 235.0
    banks.stop(now=300.0)  # the bank ran out
    assert banks.left(7) == 0.0 and banks.start(7, turn_deadline=400.0) is None


def test_refill_per_hand_up_to_the_size_and_a_new_level_fills_every_bank() -> None:
    banks = TimeBanks(size=30, refill=5, seconds={1: 0.0, 2: 28.0})
    banks.refill_for_hand([1, 2])
    assert (banks.left(1), banks.left(2), banks.left(3)) == (5.0, 30.0, 30.0)
    banks.fill()
    assert banks.left(1) == 30.0


def test_a_bank_started_early_counts_from_the_turns_own_deadline() -> None:
    banks = TimeBanks(size=60)
    assert banks.start(1, turn_deadline=100.0) == 160.0  # Time pressed at 90: the turn now ends at 160
    banks.stop(now=95.0)  # acted before the turn's own deadline: nothing spent
    assert banks.left(1) == 60.0


def test_no_time_bank_when_its_size_is_zero() -> None:
    assert TimeBanks(size=0).start(1, turn_deadline=10.0) is None


def test_banks_survive_to_json_with_the_one_running() -> None:
    banks = TimeBanks(size=60, seconds={4: 12.5})
    banks.start(4, turn_deadline=50.0)
    again = TimeBanks(size=60)
    again.restore(banks.to_json())
    assert again.left(4) == 12.5 and again.running == banks.running


def _legal_after(*moves: str) -> tuple[Hand, int]:
    hand = Hand(HandSettings(), [100, 100, 100, 100], deck=full_deck())
    for move in moves:
        kind, _, amount = move.partition(" ")
        hand.act(ActionKind(kind), int(amount) if amount else None)
    return hand, int(hand.street)


def test_a_copy_of_the_banks_is_independent_of_them() -> None:
    banks = TimeBanks(30)
    banks.refill_for_hand([1, 2])
    banks.start(1, 100.0)
    twin = banks.copy()
    banks.stop(112.5)
    assert twin.running is not None and twin.left(1) == 30.0 and banks.left(1) == 17.5
    assert twin.to_json() != banks.to_json()


def test_check_fold_checks_when_free_and_folds_facing_a_bet() -> None:
    hand, street = _legal_after("call", "call", "call")  # the big blind may check
    assert resolve(PreChoice(PreAction.CHECK_FOLD, street), hand.legal_actions(), street) is ActionKind.CHECK
    hand, street = _legal_after("raise 6")
    assert resolve(PreChoice(PreAction.CHECK_FOLD, street), hand.legal_actions(), street) is ActionKind.FOLD


def test_check_is_dropped_facing_a_bet() -> None:
    hand, street = _legal_after("raise 6")
    assert resolve(PreChoice(PreAction.CHECK, street), hand.legal_actions(), street) is None


def test_call_n_is_played_for_n_only() -> None:
    hand, street = _legal_after("call")  # the next player faces 2
    legal = hand.legal_actions()
    assert resolve(PreChoice(PreAction.CALL, street, 2), legal, street) is ActionKind.CALL
    assert resolve(PreChoice(PreAction.CALL, street, 6), legal, street) is None
    assert still_valid(PreChoice(PreAction.CALL, street, 2), 2, street)
    assert not still_valid(PreChoice(PreAction.CALL, street, 2), 6, street)


def test_a_choice_ends_with_its_street() -> None:
    hand, street = _legal_after("call", "call", "call")
    assert resolve(PreChoice(PreAction.CHECK_FOLD, street + 1), hand.legal_actions(), street) is None
    assert not still_valid(PreChoice(PreAction.CHECK, street), 0, street + 1)
    assert PreChoice.from_json(PreChoice(PreAction.CALL, 1, 4).to_json()) == PreChoice(PreAction.CALL, 1, 4)
