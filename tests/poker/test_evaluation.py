"""Hand evaluation: categories, naming ranks, best five, English names (rule book 000 §05-§06)."""

from __future__ import annotations

import itertools
import random

import pytest
from phevaluator import evaluate_cards

from bot.poker import HandCategory, describe_en, evaluate, full_deck, parse_cards
from bot.poker.evaluation import _CLASSES, CLASS_COUNT


def value(text: str):
    return evaluate(parse_cards(text))


def test_class_table_matches_phevaluator_for_every_hand_value() -> None:
    """Every one of the 7,462 five-card values: our (category, ranks) rebuilt into cards evaluates back the same."""
    suits_for = {1: "c", 2: "cd", 3: "cdh", 4: "cdhs"}
    for strength in range(1, CLASS_COUNT + 1):
        category, ranks = _CLASSES[strength]
        if category in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH):
            high = ranks[0]
            needed = [5, 4, 3, 2, 14] if high == 5 else list(range(high, high - 5, -1))
            suits = "hhhhh" if category == HandCategory.STRAIGHT_FLUSH else "hdcsh"
            cards = [f"{'23456789TJQKA'[r - 2]}{s}" for r, s in zip(needed, suits, strict=True)]
        elif category in (HandCategory.FLUSH, HandCategory.HIGH_CARD):
            suits = "hhhhh" if category == HandCategory.FLUSH else "hdcsh"
            cards = [f"{'23456789TJQKA'[r - 2]}{s}" for r, s in zip(ranks, suits, strict=True)]
        else:
            sizes = {
                HandCategory.FOUR_OF_A_KIND: (4, 1),
                HandCategory.FULL_HOUSE: (3, 2),
                HandCategory.THREE_OF_A_KIND: (3, 1, 1),
                HandCategory.TWO_PAIR: (2, 2, 1),
                HandCategory.PAIR: (2, 1, 1, 1),
            }[category]
            cards = [f"{'23456789TJQKA'[r - 2]}{s}" for r, n in zip(ranks, sizes, strict=True) for s in suits_for[n]]
        assert 7463 - evaluate_cards(*cards) == strength, (strength, category, ranks)


def test_random_seven_card_hands_agree_with_phevaluator_and_best_five_is_consistent() -> None:
    rng = random.Random(3)
    deck = full_deck()
    for _ in range(3000):
        cards = rng.sample(deck, rng.choice([5, 6, 7]))
        v = evaluate(cards)
        assert v.strength == 7463 - evaluate_cards(*(str(c) for c in cards))
        assert len(v.best_five) == 5 and set(v.best_five) <= set(cards)
        assert evaluate(v.best_five) == v


def test_royal_flush_book_example_uses_neither_board_pair() -> None:
    """Rule book 000 §06: A♥ Q♥ with K♥ J♥ 10♥ 2♠ 2♣ is a royal flush."""
    v = value("AhQh KhJhTh2s2c")
    assert v.category == HandCategory.STRAIGHT_FLUSH and v.is_royal
    assert [str(c) for c in v.best_five] == ["Ah", "Kh", "Qh", "Jh", "Th"]
    assert describe_en(v) == "Royal flush"


def test_board_straight_plays_for_everyone_a_hidden_pair_does_not_beat_it() -> None:
    """Rule book 000 §06: board A-K-Q-J-10 without a flush; a pocket pair doesn't beat it: split."""
    board = "AsKdQcJhTs"
    assert value("9c9d" + board) == value("2h3h" + board)
    assert describe_en(value("9c9d" + board)) == "Straight, ace high"


def test_wheel_is_a_five_high_straight_and_beats_three_of_a_kind() -> None:
    wheel = value("Ah2c3d4s5h Kc9d")
    assert (wheel.category, wheel.ranks, describe_en(wheel)) == (HandCategory.STRAIGHT, (5,), "Straight, five high")
    assert [str(c) for c in wheel.best_five] == ["5h", "4s", "3d", "2c", "Ah"]
    assert wheel > value("KsKhKc 3d4s5h9d")
    assert wheel < value("2c3d4s5h6h Kc9d")


def test_king_ace_two_does_not_connect() -> None:
    v = value("QcKdAh2c3s 9d7h")
    assert v.category == HandCategory.HIGH_CARD


def test_kickers_compare_high_to_low_and_only_five_cards_count() -> None:
    board = "9s7d5c5h3s"
    assert value("Kc8d" + board) > value("Qh4c" + board)
    # Two pair on a paired board: the fifth card (the board queen) plays for both.
    board2 = "6cQcAd6sAc"
    assert value("ThJd" + board2) == value("3s3h" + board2)


def test_suits_never_rank() -> None:
    assert value("AhKh QdJd9c 2s3s") == value("AsKs QcJc9d 2h3h")


@pytest.mark.parametrize(
    ("cards", "category", "ranks", "name"),
    [
        ("KcKdKs9h9d2c3c", HandCategory.FULL_HOUSE, (13, 9), "Full house, kings full of nines"),
        ("AcAd6s6cQcTh2d", HandCategory.TWO_PAIR, (14, 6, 12), "Two pair, aces and sixes"),
        ("9c9d9h9s2d", HandCategory.FOUR_OF_A_KIND, (9, 2), "Four of a kind, nines"),
        ("8s7s6s5s4s3s", HandCategory.STRAIGHT_FLUSH, (8,), "Straight flush, eight high"),
        ("Ah9h7h4h2h Kc", HandCategory.FLUSH, (14, 9, 7, 4, 2), "Flush, ace high"),
        ("7c7d7h Kc2d", HandCategory.THREE_OF_A_KIND, (7, 13, 2), "Three of a kind, sevens"),
        ("TcTd Ks8h3c", HandCategory.PAIR, (10, 13, 8, 3), "Pair of tens"),
        ("6c6d Ks8h3c", HandCategory.PAIR, (6, 13, 8, 3), "Pair of sixes"),
        ("2c3d4h5s7c8dJh", HandCategory.HIGH_CARD, (11, 8, 7, 5, 4), "High card, jack"),
    ],
)
def test_category_naming_ranks_and_english_name(cards: str, category: HandCategory, ranks: tuple, name: str) -> None:
    v = value(cards)
    assert (v.category, v.ranks, describe_en(v), v.describe_en()) == (category, ranks, name, name)


def test_full_house_best_five_lists_the_trips_then_the_pair() -> None:
    v = value("KcKdKs9h9d9c3c")  # two sets of three: kings full of nines
    assert [c.rank for c in v.best_five] == [13, 13, 13, 9, 9]


def test_evaluate_needs_five_to_seven_distinct_cards() -> None:
    with pytest.raises(ValueError, match="5 to 7"):
        value("AhKh")
    with pytest.raises(ValueError, match="twice"):
        evaluate(list(parse_cards("AhKhQh")) + list(parse_cards("AhJh")))


def test_hand_values_are_totally_ordered_by_strength() -> None:
    rng = random.Random(1)
    values = [evaluate(rng.sample(full_deck(), 7)) for _ in range(200)]
    for a, b in itertools.pairwise(sorted(values)):
        assert a <= b and (a.strength < b.strength) == (a < b)
