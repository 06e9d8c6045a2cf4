"""Hand evaluation: categories, naming ranks, best five, English names (rule book 000 §05-§06)."""

from __future__ import annotations

import itertools
import random

import pytest
from phevaluator import evaluate_cards

from bot.poker import HandCategory, deciding_kickers, describe_en, evaluate, full_deck, parse_cards
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


# ---------------------------------------------------------------- what decides between hands of one category
# Rule book 000 §05: "À catégorie égale, compare les valeurs importantes : d'abord le carré, le brelan d'un full,
# la hauteur de la quinte, ou la paire. Pour deux paires, compare la plus haute, puis l'autre. S'il faut encore
# départager, compare les autres cartes [...] de la plus haute à la plus basse. Pour une couleur ou une carte
# haute, compare les cinq valeurs dans cet ordre." Rule book 001: "une paire de rois avec un as bat une paire de
# rois avec une dame".


@pytest.mark.parametrize(
    ("winner", "loser", "kickers", "winner_name", "loser_name"),
    [
        # 001's kicker example: kings with an ace beat kings with a queen.
        ("KcKd As8h5c 3d2h", "KhKs Qd8h5c 3d2h", (14,), "Pair of kings, ace kicker", "Pair of kings, queen kicker"),
        # The evening: tens and threes for both, the jack decides.
        (
            "TcTd3c3h Jd 6s2h",
            "TsTh3d3s 9c 6s2h",
            (11,),
            "Two pair, tens and threes, jack kicker",
            "Two pair, tens and threes, nine kicker",
        ),
        # The first kicker ties, the second decides: both are named, and no more.
        (
            "KcKd AsQh9c 3d2h",
            "KhKs AdJh8c 3d2h",
            (14, 12),
            "Pair of kings, ace-queen kickers",
            "Pair of kings, ace-jack kickers",
        ),
        # 000: two pair compares the higher pair, then the other: the name decides, no kicker.
        ("AcAd6s6c Qc 3h2d", "AhAs5d5c Kd 3h2d", (), "Two pair, aces and sixes", "Two pair, aces and fives"),
        # 000: the full house's trips decide before its pair.
        ("KcKdKs2h2d 7c8c", "QcQdQsAhAd 7c8c", (), "Full house, kings full of twos", "Full house, queens full of aces"),
        # Quads on the board: the kicker decides.
        (
            "9c9d9h9s Ah 3c2d",
            "9c9d9h9s Kh 3c4d",
            (14,),
            "Four of a kind, nines, ace kicker",
            "Four of a kind, nines, king kicker",
        ),
        # 002: flushes compare from the highest card down.
        ("AhKh9h7h2h 3c4d", "AhQhJhTh8h 3c4d", (13,), "Flush, ace-king high", "Flush, ace-queen high"),
        # A high card down to the fourth card.
        (
            "AcKdQh9s7c 2d4h",
            "AsKhQc9d6c 2h3s",
            (13, 12, 9, 7),
            "High card, ace, king-queen-nine-seven kickers",
            "High card, ace, king-queen-nine-six kickers",
        ),
        # 000: the straight's height alone decides.
        ("9c8d7h6s5c 2d2h", "8c7d6h5s4c 2d2h", (), "Straight, nine high", "Straight, eight high"),
        # Three of a kind against another: the trips decide.
        ("7c7d7h Kc2d 3s4h", "6c6d6h Ac2d 3s4h", (), "Three of a kind, sevens", "Three of a kind, sixes"),
    ],
)
def test_the_kickers_named_are_those_up_to_the_first_rank_that_differs(
    winner: str, loser: str, kickers: tuple, winner_name: str, loser_name: str | None
) -> None:
    win, lose = value(winner), value(loser)
    assert win > lose and win.category == lose.category
    assert deciding_kickers(win, [lose]) == kickers
    assert describe_en(win, [lose]) == win.describe_en([lose]) == winner_name
    if loser_name is not None:
        assert describe_en(lose, [win]) == loser_name


def test_no_kicker_is_named_against_another_category_an_equal_hand_or_nothing() -> None:
    kings_ace = value("KcKd As8h5c 3d2h")
    assert describe_en(kings_ace) == describe_en(kings_ace, []) == "Pair of kings"
    assert describe_en(kings_ace, [value("QcQd As8h5c 3d2h"), value("2c5d As8h9c Jd3h")]) == "Pair of kings"
    # 000 §06: the board's straight plays for everyone: equal hands, a split pot, nothing decides.
    board = "AsKdQcJhTs"
    assert deciding_kickers(value("9c9d" + board), [value("2h3h" + board)]) == ()
    # 002 "kickers beyond five are ignored": same five cards, nothing to name.
    assert describe_en(value("KcKd As8h5c 3d2h"), [value("KhKs Ad8d5s 4c2c")]) == "Pair of kings"


def test_against_several_hands_the_closest_one_sets_how_many_kickers() -> None:
    best = value("KcKd AsQh9c 3d2h")
    others = [value("KhKs 7d6h4c 3d2h"), value("KhKs AdJh8c 3d2h"), value("AcAd 7d6h4c 3s2s")]
    assert deciding_kickers(best, others) == (14, 12)
    assert describe_en(value("KhKs 7d6h4c 3d2h"), [best, others[1]]) == "Pair of kings, seven kicker"
