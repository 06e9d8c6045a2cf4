"""The coach's lines (issue 17): golden texts in English and French, the nuts, and the chance to win measured
against an exact count."""

from __future__ import annotations

import dataclasses
import random
from itertools import combinations

import pytest

from bot.poker import CARDS, parse_cards
from bot.poker.coach import Advice, coach_facts, nuts
from bot.poker.equity import HandOdds
from bot.poker.evaluation import strength_of_indexes
from bot.render.cards import cards_text
from bot.render.coach import coach_dm_text, coach_lines

NBSP, NNBSP = "\xa0", "\u202f"


def c(text: str) -> str:
    return cards_text(parse_cards(text))


def lines(hole: str, board: str, to_call: int, pot: int, opponents: int) -> dict[str, list[str]]:
    facts = coach_facts(
        parse_cards(hole), parse_cards(board), to_call=to_call, pot=pot, opponents=opponents, big_blind=2, trials=200
    )
    # The estimate is checked against an exact count below; here the texts, with a fixed estimate.
    facts = dataclasses.replace(facts, odds=HandOdds(0.47, 0.02, 0.48, 0.02, 2500))
    return {lang: coach_lines(facts, lang) for lang in ("en", "fr")}


def test_golden_the_nuts_on_a_paired_board() -> None:
    got = lines("AsKc", "Ks Kd 9c", 20, 30, 1)
    assert got["en"] == [
        "Your best hand: Three of a kind, kings.",
        f"The best hand possible on this board (the nuts): Four of a kind, kings; it takes {c('Kh Kc')}.",
        "A call costs 20 for a pot of 30: it pays if you win more than 40% of the time.",
        "Your chance to win against 1 random hand: ≈ 48% (±2%).",
    ]
    assert got["fr"] == [
        f"Ta meilleure combinaison{NBSP}: Brelan de rois.",
        f"La meilleure combinaison possible sur ce plateau (les nuts){NBSP}: Carré de rois{NNBSP}; "
        f"il faut {c('Kh Kc')}.",
        f"Suivre coûte 20 pour un pot de 30{NBSP}: c'est payant si tu gagnes plus de 40{NBSP}% des fois.",
        f"Tes chances de gagner contre 1 main au hasard{NBSP}: ≈ 48{NBSP}% (±2{NBSP}%).",
    ]


def test_golden_the_nuts_on_a_four_flush_board_and_learning_to_fold() -> None:
    got = lines("Qc4d", "Kh 8h 5h 2h Jc", 40, 60, 1)
    assert got["en"][:4] == [
        "Your best hand: High card, king.",
        f"The best hand possible on this board (the nuts): Flush, ace high; it takes {c('Ah Qh')}.",
        "A call costs 40 for a pot of 60: it pays if you win more than 40% of the time.",
        "Your chance to win against 1 random hand: ≈ 48% (±2%).",
    ]
    assert got["fr"][1] == (
        f"La meilleure combinaison possible sur ce plateau (les nuts){NBSP}: Couleur à l'as{NNBSP}; "
        f"il faut {c('Ah Qh')}."
    )
    facts = coach_facts(parse_cards("Qc4d"), parse_cards("Kh 8h 5h 2h Jc"), to_call=40, pot=60, opponents=1)
    assert facts.advice == (Advice.LEARN_TO_FOLD,)  # about 12 % to win, 40 % needed
    assert coach_lines(facts, "fr")[-1] == (
        f"Apprends à te coucher{NBSP}: perdre une petite mise peut préserver les jetons nécessaires aux prochaines "
        "bonnes occasions."
    )
    assert coach_lines(facts, "en")[-1] == (
        "Learn to fold: losing a small bet can keep the chips you need for the next good chances."
    )


def test_golden_two_weak_far_apart_cards_before_the_flop() -> None:
    got = lines("7h2c", "", 2, 3, 2)
    assert got["en"] == [
        "A call costs 2 for a pot of 3: it pays if you win more than 40% of the time.",
        "Your chance to win against 2 random hands: ≈ 48% (±2%).",
        "Don't enter every hand: two weak, far-apart cards often need a lot of luck.",
    ]
    assert got["fr"][-1] == (
        f"N'entre pas dans toutes les mains{NBSP}: deux cartes faibles et éloignées demandent souvent beaucoup de "
        "chance."
    )


def test_golden_holding_the_nuts_with_a_free_check() -> None:
    got = lines("Ah Qh", "Kh 8h 5h 2h Jc", 0, 40, 2)
    assert got["en"][:3] == [
        "Your best hand: Flush, ace high.",
        "You hold the best hand possible on this board (the nuts): Flush, ace high.",
        "Nothing to call: you can check.",
    ]
    assert got["fr"][2] == f"Rien à suivre{NBSP}: tu peux dire parole."


def test_golden_the_coachs_dm_names_the_hand_and_the_table_then_quotes_the_lines() -> None:
    facts = coach_facts(parse_cards("Ah Qh"), parse_cards("Kh 8h 5h 2h Jc"), to_call=0, pot=40, opponents=2, trials=50)
    facts = dataclasses.replace(facts, odds=HandOdds(0.47, 0.02, 0.48, 0.02, 2500))
    for lang, title in (
        ("en", "**Coach** — hand #12 at <#99>, your turn:"),
        ("fr", f"**Coach** — donne n° 12 sur <#99>, à ton tour{NBSP}:"),
    ):
        text = coach_dm_text(facts, 12, "<#99>", lang).splitlines()
        assert text == [title, *(f"> {line}" for line in coach_lines(facts, lang))]
        assert len(text) >= 4


@pytest.mark.parametrize(
    ("board", "holdings"),
    [
        ("Ks Kd 9c", ["KhKc"]),
        ("Ks 9d 4c", ["KhKd", "KhKc", "KdKc"]),  # a set of kings: no straight, no flush possible
        ("2h 7h 9h Jh Kc", ["Th8h"]),  # a four-flush board where a straight flush is possible
    ],
)
def test_the_nuts_and_what_it_takes(board: str, holdings: list[str]) -> None:
    _, holders = nuts(parse_cards(board))
    assert sorted(a + b for a, b in ((str(x), str(y)) for x, y in holders)) == sorted(holdings)


def test_the_chance_to_win_is_within_its_margin_of_an_exact_count() -> None:
    hole, board = parse_cards("Ah Qd"), parse_cards("Qs 8h 5h 2c")
    known = {card.index for card in (*hole, *board)}
    rest = [card.index for card in CARDS if card.index not in known]
    share = total = 0.0
    for first, second in combinations(rest, 2):
        for river in rest:
            if river in (first, second):
                continue
            board_i = [card.index for card in board] + [river]
            mine = strength_of_indexes(*(card.index for card in hole), *board_i)
            theirs = strength_of_indexes(first, second, *board_i)
            share += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            total += 1
    exact = share / total
    facts = coach_facts(hole, board, to_call=0, pot=20, opponents=1, rng=random.Random(3))
    assert abs(facts.odds.share - exact) <= facts.odds.margin
