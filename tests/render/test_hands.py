"""Hand names, English and French, for every category (rule book 000 §05 for the French)."""

from dataclasses import dataclass

import pytest

from bot.render.hands import category_name, hand_name


@dataclass(frozen=True)
class HV:
    category: int
    ranks: tuple[int, ...]
    is_royal: bool = False


CASES = [
    (HV(8, (14,), True), "Royal flush", "Quinte flush royale"),
    (HV(8, (13,)), "Straight flush, king high", "Quinte flush au roi"),
    (HV(8, (9,)), "Straight flush, nine high", "Quinte flush au neuf"),
    (HV(8, (5,)), "Straight flush, five high", "Quinte flush au cinq"),
    (HV(7, (14, 13)), "Four of a kind, aces", "Carré d'as"),
    (HV(7, (8, 2)), "Four of a kind, eights", "Carré de huit"),
    (HV(7, (2, 14)), "Four of a kind, deuces", "Carré de deux"),
    (HV(6, (13, 9)), "Full house, kings full of nines", "Full aux rois par les neuf"),
    (HV(6, (14, 12)), "Full house, aces full of queens", "Full aux as par les dames"),
    (HV(6, (3, 14)), "Full house, threes full of aces", "Full aux trois par les as"),
    (HV(5, (14, 13, 9, 5, 3)), "Flush, ace high", "Couleur à l'as"),
    (HV(5, (13, 10, 9, 5, 3)), "Flush, king high", "Couleur au roi"),
    (HV(5, (12, 10, 9, 5, 3)), "Flush, queen high", "Couleur à la dame"),
    (HV(5, (11, 10, 9, 5, 3)), "Flush, jack high", "Couleur au valet"),
    (HV(5, (10, 8, 7, 5, 3)), "Flush, ten high", "Couleur au dix"),
    (HV(5, (7, 5, 4, 3, 2)), "Flush, seven high", "Couleur au sept"),
    (HV(4, (14,)), "Straight, ace high", "Quinte à l'as"),
    (HV(4, (5,)), "Straight, five high", "Quinte au cinq"),
    (HV(4, (6,)), "Straight, six high", "Quinte au six"),
    (HV(3, (7, 14, 13)), "Three of a kind, sevens", "Brelan de sept"),
    (HV(3, (14, 13, 12)), "Three of a kind, aces", "Brelan d'as"),
    (HV(3, (12, 14, 13)), "Three of a kind, queens", "Brelan de dames"),
    (HV(2, (14, 6, 13)), "Two pair, aces and sixes", "Deux paires, as et six"),
    (HV(2, (13, 12, 2)), "Two pair, kings and queens", "Deux paires, rois et dames"),
    (HV(2, (11, 2, 14)), "Two pair, jacks and deuces", "Deux paires, valets et deux"),
    (HV(1, (13, 14, 9, 2)), "Pair of kings", "Paire de rois"),
    (HV(1, (14, 13, 9, 2)), "Pair of aces", "Paire d'as"),
    (HV(1, (2, 14, 13, 9)), "Pair of deuces", "Paire de deux"),
    (HV(1, (11, 14, 13, 9)), "Pair of jacks", "Paire de valets"),
    (HV(1, (6, 14, 13, 9)), "Pair of sixes", "Paire de six"),
    (HV(0, (14, 11, 9, 5, 3)), "High card, ace", "Carte haute, as"),
    (HV(0, (12, 11, 9, 5, 3)), "High card, queen", "Carte haute, dame"),
    (HV(0, (7, 5, 4, 3, 2)), "High card, seven", "Carte haute, sept"),
]


@pytest.mark.parametrize(("value", "en", "fr"), CASES, ids=[c[1] for c in CASES])
def test_hand_names_in_english_and_french(value, en, fr):
    assert hand_name(value, "en") == en
    assert hand_name(value, "en-GB") == en
    assert hand_name(value, "fr") == fr


def test_every_category_is_covered():
    assert {case[0].category for case in CASES} == set(range(9))


@pytest.mark.parametrize(
    ("category", "en", "fr"),
    [
        (0, "High card", "Carte haute"),
        (1, "Pair", "Une paire"),
        (2, "Two pair", "Deux paires"),
        (3, "Three of a kind", "Brelan"),
        (4, "Straight", "Quinte"),
        (5, "Flush", "Couleur"),
        (6, "Full house", "Full"),
        (7, "Four of a kind", "Carré"),
        (8, "Straight flush", "Quinte flush"),
    ],
)
def test_category_names(category, en, fr):
    assert category_name(category, "en") == en
    assert category_name(category, "fr") == fr
