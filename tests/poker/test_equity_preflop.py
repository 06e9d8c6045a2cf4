"""The exact preflop count (bot.poker.equity.preflop): its two tables against the evaluator card by card, and the
count against plain enumeration where dead cards make that cheap, flush boards above all."""

from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.poker.cards import CARDS, Card, parse_cards
from bot.poker.equity import all_in_odds
from bot.poker.equity.preflop import _POW5, _tables, exact_full_board
from bot.poker.evaluation import class7_of_indexes


def test_seven_rank_table_gives_the_evaluator_class_of_every_hand_without_a_flush() -> None:
    tables = _tables()
    rng = random.Random(11)
    checked = 0
    while checked < 3000:
        seven = rng.sample(range(52), 7)
        if max(Counter(c % 4 for c in seven).values()) >= 5:
            continue
        key = sum(int(_POW5[c // 4]) for c in seven)
        row = int(np.searchsorted(tables.seven_keys, key))
        assert tables.seven_keys[row] == key
        assert tables.seven_values[row] == class7_of_indexes(*seven)
        checked += 1


def test_flush_table_gives_the_evaluator_class_of_every_hand_with_a_flush() -> None:
    """Five to seven cards of one suit among seven: the hand is that suit's best five (no quads, no full house)."""
    tables = _tables()
    rng = random.Random(12)
    for _ in range(3000):
        suit = rng.randrange(4)
        size = rng.choice([5, 6, 7])
        ranks = rng.sample(range(13), size)
        others = rng.sample([c for c in range(52) if c % 4 != suit], 7 - size)
        seven = [r * 4 + suit for r in ranks] + others
        mask = sum(1 << r for r in ranks)
        assert tables.flush[mask] == class7_of_indexes(*seven)


def test_tables_cover_every_board_rank_multiset() -> None:
    tables = _tables()
    assert len(tables.board_keys) == 6175  # multisets of 5 of 13 ranks with at most 4 copies: 6188 - 13
    assert np.all(np.diff(tables.board_keys) > 0) and np.all(tables.board_counts.sum(axis=1) == 5)
    # Every board of a full deck is counted once: the weights add up to C(52, 5).
    ways = [math.prod(math.comb(4, int(c)) for c in row) for row in tables.board_counts]
    assert sum(ways) == math.comb(52, 5)


def test_suited_boards_point_at_the_rank_multiset_they_make() -> None:
    tables = _tables()
    for k in (3, 4, 5):
        masks, rows = tables.suited[k]
        counts = tables.others[5 - k][0]
        for i in range(0, len(masks), 7):
            suited = np.array([(int(masks[i]) >> r) & 1 for r in range(13)])
            for j in range(len(counts)):
                assert np.array_equal(tables.board_counts[rows[i, j]], suited + counts[j])


def test_counts_of_every_pot_add_up_to_every_board() -> None:
    holes = [(48, 49), (44, 45), (20, 21)]
    rest = [c for c in range(52) if c not in {48, 49, 44, 45, 20, 21}]
    for tally in exact_full_board(holes, rest, [(0, 1, 2), (1, 2)]):
        assert sum(tally.values()) == math.comb(46, 5)


def _flush_heavy_dead(deck: list[Card], hands: int, suit: int, dead: int) -> list[Card]:
    """`dead` cards taken from the other suits first, so that the suit `suit` is left whole: many flush boards."""
    rest = deck[2 * hands :]
    rest.sort(key=lambda c: c.index % 4 == suit)
    return rest[:dead]


@settings(max_examples=20, deadline=None)
@given(
    deck=st.permutations(CARDS),
    players=st.integers(2, 6),
    suit=st.integers(0, 3),
    side=st.booleans(),
)
def test_preflop_count_agrees_with_enumerating_every_board_on_flush_heavy_decks(
    deck: list[Card], players: int, suit: int, side: bool
) -> None:
    hands = [tuple(deck[2 * i : 2 * i + 2]) for i in range(players)]
    dead = _flush_heavy_dead(list(deck), players, suit, 52 - 2 * players - 20)
    pots = [tuple(range(players))] + ([tuple(range(1, players))] if side else [])
    counted = all_in_odds(hands, (), dead, pots=pots, max_exact=0)
    enumerated = all_in_odds(hands, (), dead, pots=pots, max_exact=10**7)
    assert counted.exact and counted.runouts == enumerated.runouts == math.comb(20, 5)
    for mine, theirs in zip(counted.pots, enumerated.pots, strict=True):
        for a, b in zip(mine.odds, theirs.odds, strict=True):
            assert a.win == pytest.approx(b.win) and a.tie == pytest.approx(b.tie) and a.share == pytest.approx(b.share)


def test_six_players_preflop_reference_counts_match_plain_enumeration_of_a_reduced_deck() -> None:
    """Six hands, 20 cards dead (C(20, 5) = 15,504 boards): both ways give the same integer counts."""
    rng = random.Random(5)
    deck = list(range(52))
    rng.shuffle(deck)
    holes = [tuple(deck[2 * i : 2 * i + 2]) for i in range(6)]
    rest = sorted(deck[32:])
    pots = [tuple(range(6)), (2, 3, 4, 5), (4, 5)]
    counted = exact_full_board(holes, rest, pots)
    from itertools import combinations

    expected: list[Counter[tuple[int, ...]]] = [Counter() for _ in pots]
    for board in combinations(rest, 5):
        values = [class7_of_indexes(h[0], h[1], *board) for h in holes]
        for players, tally in zip(pots, expected, strict=True):
            best = min(values[p] for p in players)
            tally[tuple(i for i, p in enumerate(players) if values[p] == best)] += 1
    assert counted == [dict(t) for t in expected]


def test_warm_up_builds_the_tables_the_count_uses() -> None:
    from bot.poker.equity import warm_up

    warm_up()
    assert _tables.cache_info().currsize == 1
    before = _tables.cache_info().hits
    all_in_odds([parse_cards("AsAh"), parse_cards("KsKh")])
    assert _tables.cache_info().hits == before + 1 and _tables.cache_info().misses == 1
