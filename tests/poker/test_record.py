"""A hand is its history: record, JSON, exact rebuild (docs/architecture.md)."""

from __future__ import annotations

import json
import random

import pytest

from bot.poker import ActionKind, Hand, HandRecord, HandSettings, InvalidSetupError, PokerError
from tests.poker.helpers import play


def _random_play(hand: Hand, rng: random.Random) -> None:
    while not hand.is_complete:
        legal = hand.legal_actions()
        if (legal.can_bet or legal.can_raise) and rng.random() < 0.3:
            assert legal.min_raise_to is not None and legal.max_raise_to is not None
            kind = ActionKind.BET if legal.can_bet else ActionKind.RAISE
            hand.act(kind, rng.randint(legal.min_raise_to, legal.max_raise_to))
        elif legal.can_fold and rng.random() < 0.2:
            hand.fold()
        else:
            hand.act(ActionKind.CHECK if legal.can_check else ActionKind.CALL)


def test_record_to_json_and_back_rebuilds_the_same_hand() -> None:
    rng = random.Random(11)
    for _ in range(50):
        settings = HandSettings(small_blind=5, big_blind=10, ante=rng.choice([0, 1]), straddle=rng.random() < 0.3)
        hand = Hand(settings, [rng.randint(1, 500) for _ in range(rng.randint(2, 9))], rng=rng)
        _random_play(hand, rng)
        data = json.loads(json.dumps(hand.record().to_json()))
        rebuilt = Hand.from_record(HandRecord.from_json(data))
        assert rebuilt.events == hand.events
        assert rebuilt.finishing_stacks == hand.finishing_stacks
        assert rebuilt.record() == hand.record()


def test_a_hand_in_progress_rebuilds_to_the_same_decision_point() -> None:
    hand = Hand(HandSettings(), [100, 100, 100], rng=random.Random(2))
    play(hand, "p2 raise 6", "p0 call")
    rebuilt = Hand.from_record(hand.record())
    assert rebuilt.actor == hand.actor == 1
    assert rebuilt.legal_actions() == hand.legal_actions()
    assert rebuilt.record().to_json() == hand.record().to_json()


def test_record_json_shape() -> None:
    hand = Hand(HandSettings(), [100, 100], rng=random.Random(2))
    play(hand, "p1 raise 6", "p0 call")
    data = hand.record().to_json()
    assert data["version"] == 1
    assert data["starting_stacks"] == [100, 100]
    assert len(data["deck"]) == 104
    assert data["actions"] == [[1, "raise", 6], [0, "call", None]]


def test_a_record_with_an_illegal_action_is_refused() -> None:
    hand = Hand(HandSettings(), [100, 100], rng=random.Random(2))
    record = hand.record()
    bad = HandRecord(record.settings, record.starting_stacks, record.deck, ((1, ActionKind.CHECK, None),))
    with pytest.raises(PokerError):
        Hand.from_record(bad)


def test_malformed_record_json_is_refused() -> None:
    with pytest.raises(InvalidSetupError):
        HandRecord.from_json({"version": 2})
    with pytest.raises(InvalidSetupError):
        HandRecord.from_json({"version": 1, "settings": {}, "starting_stacks": [1, 1], "deck": "Zz", "actions": []})


@pytest.mark.parametrize(
    ("stacks", "deck_size"),
    [([100], 52), ([100] * 11, 52), ([100, 0], 52), ([100, 100], 11)],
)
def test_bad_setups_are_refused(stacks: list[int], deck_size: int) -> None:
    from bot.poker import full_deck

    with pytest.raises(InvalidSetupError):
        Hand(HandSettings(), stacks, deck=full_deck()[:deck_size])
