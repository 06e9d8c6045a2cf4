"""Exact preflop odds: every five-card board counted by rank multiset and suited cards, with numpy arrays.

C(48, 5) = 1,712,304 boards heads-up are too many to evaluate one by one in Python; but a board's effect on the
hands only depends on

- the **ranks** of its five cards when nobody makes a flush: 6,175 rank multisets, each standing for
  `prod C(cards of that rank left, copies)` boards (`_Tables.board_counts`, weighted per call);
- otherwise, the board holds k >= 3 cards of one suit s (only one suit can: 3 + 3 > 5); the players whose
  hole cards of suit s bring them to five or more have a flush, whose value depends only on the set S of the
  board's s-ranks; the others keep their rank value. Those boards are listed as (s, S, the 5 - k other ranks,
  dealt in the other suits) and moved from the rank count to their true outcome.

With five or more cards of one suit among seven there is neither four of a kind nor a full house (only two
cards of the other suits are left), so a flusher's value is its best flush (or straight flush), always better
than its rank value: no comparison is needed.

Tables built once, on the first call (`_tables()`: some tens of milliseconds; numpy's import is as long):

- `seven_values`: the class (phevaluator's, smaller is better) of every multiset of seven ranks without a
  flush, the best of its 21 five-rank subsets (five ranks valued once each with the evaluator); found by key,
  the sum of 5**rank over the cards (`np.searchsorted`). A player's value on every board is one lookup of the
  boards' keys plus its hole cards' key (`_rank_values`).
- `flush[mask]`: the best flush made of the ranks in a 13-bit mask (5 to 7 bits set), else `_NONE`.
- the boards' rank multisets and, for each set of k suited ranks and 5 - k other ranks, its board row.

The counting is checked against plain enumeration and a slow brute force in tests/poker/test_equity.py, and the
two tables against the evaluator card by card in tests/poker/test_equity_preflop.py.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from bot.poker.evaluation import strength_of_indexes

__all__ = ["exact_full_board"]

#: Ranks, counts and keys are int32 (keys are at most 7 * 5**12 < 2**31), hand classes int16, board counts int64:
#: small types keep the big gathers in the processor's caches.
Array = npt.NDArray[np.signedinteger[Any]]
#: A value worse than every hand (phevaluator's classes are 1..7462).
_NONE = 7463
#: The 21 ways to keep five of seven sorted positions.
_FIVE_OF_SEVEN = tuple(combinations(range(7), 5))
#: C(n, k) for n, k in 0..5 (a rank has at most four cards; five copies give 0).
_COMB = np.array([[math.comb(n, k) for k in range(6)] for n in range(6)], dtype=np.int64)
_POW5 = np.array([5**r for r in range(13)], dtype=np.int32)


def _multisets(size: int, *, real: bool = True) -> Array:
    """Every multiset of `size` ranks (0..12) as ascending rows (n, size); `real`: only those with at most four
    copies of a rank (that cards can make)."""
    rows: Array = np.zeros((1, 0), dtype=np.int32)
    for _ in range(size):
        low = rows[:, -1] if rows.shape[1] else np.zeros(len(rows), dtype=np.int32)
        spread = 13 - low  # each row grows by every rank from its last one up
        starts = np.cumsum(spread) - spread
        new = np.repeat(low, spread) + np.arange(spread.sum(), dtype=np.int32) - np.repeat(starts, spread)
        rows = np.hstack([np.repeat(rows, spread, axis=0), new[:, None]])
    if real and size > 4:
        rows = rows[np.all(rows[:, : size - 4] != rows[:, 4:], axis=1)]
    return rows


def _counts(rows: Array) -> Array:
    """The copies of each rank (n, 13) in each multiset row."""
    cells = (np.arange(len(rows))[:, None] * 13 + rows).ravel()
    return np.bincount(cells, minlength=len(rows) * 13).reshape(len(rows), 13).astype(np.int32)


def _key5(ranks: Array) -> Array:
    """The `rank5` key of five ascending ranks (the last axis): the ranks as the digits of a base-13 number."""
    return (((ranks[..., 0] * 13 + ranks[..., 1]) * 13 + ranks[..., 2]) * 13 + ranks[..., 3]) * 13 + ranks[..., 4]


@dataclass(frozen=True, slots=True)
class _Tables:
    """The precomputed arrays (see the module docstring). Multisets are keyed by sum of 5**rank over their cards
    (unique with at most four copies of a rank), and a key's rows are found by `np.searchsorted`."""

    seven_keys: Array  # (50388,): every seven-rank multiset's key, ascending
    seven_values: Array  # (50388,): its class without a flush: the best of its 21 five-rank subsets
    flush: Array  # (8192,): the best flush made of the ranks of a 13-bit mask, _NONE below five ranks
    board_counts: Array  # (6175, 13): every five-card rank multiset real cards make, copies per rank, by key
    board_keys: Array  # (6175,): their keys, ascending
    suited: dict[int, tuple[Array, Array]]  # k in 3..5: every set of k ranks: (13-bit masks, board rows (n, m))
    others: dict[int, tuple[Array, Array]]  # j in 0..2: every multiset of j ranks as (counts (n, 13), keys)


def _keyed(rows: Array) -> tuple[Array, Array]:
    """(counts, keys) of multiset rows, by ascending key."""
    counts = _counts(rows)
    keys = counts @ _POW5
    order = np.argsort(keys, kind="stable")
    return counts[order], keys[order]


@cache
def _tables() -> _Tables:
    """Build the tables once: 6,175 five-card and 4,719 flush evaluations, the rest with arrays."""
    ev = strength_of_indexes
    fives = _multisets(5)
    rank5 = np.full(13**5, _NONE, dtype=np.int16)
    # Suits in turn over the sorted ranks: copies of a rank get different suits, no suit gets five cards.
    rank5[_key5(fives)] = [7463 - ev(a * 4, b * 4 + 1, c * 4 + 2, d * 4 + 3, e * 4) for a, b, c, d, e in fives.tolist()]
    # All of them, even five copies of a rank: a board with four aces plus a hole ace has a key (and no weight).
    sevens = _multisets(7, real=False)
    seven_values = np.full(len(sevens), _NONE, dtype=np.int16)
    columns = [np.ascontiguousarray(sevens[:, i]) for i in range(7)]
    for a, b, c, d, e in _FIVE_OF_SEVEN:
        key = (((columns[a] * 13 + columns[b]) * 13 + columns[c]) * 13 + columns[d]) * 13 + columns[e]
        np.minimum(seven_values, rank5[key], out=seven_values)
    seven_keys = _POW5[sevens].sum(axis=1, dtype=np.int32)
    order = np.argsort(seven_keys)
    flush = np.full(1 << 13, _NONE, dtype=np.int16)
    for size in (5, 6, 7):
        chosen = np.array(list(combinations(range(13), size)), dtype=np.int32)
        flush[(1 << chosen).sum(axis=1)] = [7463 - ev(*ranks) for ranks in (chosen * 4).tolist()]
    board_counts, board_keys = _keyed(fives)
    others = {j: _keyed(_multisets(j)) for j in (0, 1, 2)}
    suited: dict[int, tuple[Array, Array]] = {}
    for k in (3, 4, 5):
        chosen = np.array(list(combinations(range(13), k)), dtype=np.int32)
        keys = _POW5[chosen].sum(axis=1, dtype=np.int32)[:, None] + others[5 - k][1][None, :]
        # The board row of each (k suited ranks, 5 - k other ranks): at most 1 + 2 copies of a rank, always a row.
        rows = np.searchsorted(board_keys, keys).astype(np.int32)
        suited[k] = ((1 << chosen).sum(axis=1, dtype=np.int32), rows)
    return _Tables(seven_keys[order], seven_values[order], flush, board_counts, board_keys, suited, others)


def _rank_values(tables: _Tables, ranks: tuple[int, int]) -> Array:
    """The class of each board's seven ranks with hole ranks `ranks`, no flush (`board_keys` order)."""
    keys = tables.board_keys + int(_POW5[ranks[0]] + _POW5[ranks[1]])
    return tables.seven_values[np.searchsorted(tables.seven_keys, keys)]


def _count_outcomes(values: Array, weights: Array, pot_players: Sequence[tuple[int, ...]], into: list[Array]) -> None:
    """Add `weights` (boards per row) into `into[pot][winners]`, `values` being (players, rows) classes."""
    for players, tally in zip(pot_players, into, strict=True):
        mine = values[list(players)]
        best = mine.min(axis=0)
        code = np.zeros(mine.shape[1], dtype=np.int64)
        for i in range(len(players)):
            code |= (mine[i] == best).astype(np.int64) << i
        tally += np.bincount(code, weights=weights, minlength=1 << len(players)).astype(np.int64)


def exact_full_board(
    holes: Sequence[tuple[int, ...]], rest: Sequence[int], pot_players: Sequence[tuple[int, ...]]
) -> list[dict[tuple[int, ...], int]]:
    """Count every five-card board from `rest` (card numbers) by who wins each pot, exactly.

    Args:
        holes: each player's two card numbers (`Card.index`).
        rest: the cards left in the deck, at least five.
        pot_players: per pot, the indexes of its eligible players.

    Returns:
        Per pot, the number of boards for each set of winners: a dict from the positions (in the pot's players,
        ascending) of the hands that share the best value (one position: won alone) to a count of boards. The
        counts of a pot add up to C(len(rest), 5).
    """
    tables = _tables()
    avail = np.zeros(13, dtype=np.int64)
    suited_left = [0, 0, 0, 0]
    for card in rest:
        rank, suit = divmod(card, 4)
        avail[rank] += 1
        suited_left[suit] |= 1 << rank
    # Boards per rank multiset: prod over ranks of C(cards of that rank left, copies).
    weights = _COMB[avail[None, :], tables.board_counts].prod(axis=1)
    rank_values = np.stack([_rank_values(tables, (h[0] // 4, h[1] // 4)) for h in holes])
    flush_values: list[Array] = []
    flush_rows: list[Array] = []
    flush_weights: list[Array] = []
    for suit in range(4):
        held = [[c // 4 for c in hole if c % 4 == suit] for hole in holes]
        others_left = avail - np.array([(suited_left[suit] >> r) & 1 for r in range(13)], dtype=np.int64)
        for k in (3, 4, 5):
            flushers = [p for p, cards in enumerate(held) if len(cards) + k >= 5]
            if not flushers:
                continue
            masks, board_rows = tables.suited[k]
            fits = (masks & ~suited_left[suit]) == 0
            ways = _COMB[others_left[None, :], tables.others[5 - k][0]].prod(axis=1)
            dealt = ways > 0
            masks, ways = masks[fits], ways[dealt]
            rows = board_rows[fits][:, dealt].ravel()
            values = rank_values[:, rows]
            for p in flushers:
                own = sum(1 << r for r in held[p])
                values[p] = np.repeat(tables.flush[masks | own], len(ways))
            flush_values.append(values)
            flush_rows.append(rows)
            flush_weights.append(np.tile(ways, len(masks)))
    tallies = [np.zeros(1 << len(players), dtype=np.int64) for players in pot_players]
    if flush_rows:
        rows = np.concatenate(flush_rows)
        moved = np.concatenate(flush_weights)
        # Those boards leave their rank multiset's count for their true outcome.
        weights = weights - np.bincount(rows, weights=moved, minlength=len(weights)).astype(np.int64)
        _count_outcomes(np.concatenate(flush_values, axis=1), moved.astype(np.float64), pot_players, tallies)
    _count_outcomes(rank_values, weights.astype(np.float64), pot_players, tallies)
    out: list[dict[tuple[int, ...], int]] = []
    for players, tally in zip(pot_players, tallies, strict=True):
        out.append(
            {
                tuple(i for i in range(len(players)) if code >> i & 1): int(n)
                for code, n in enumerate(tally.tolist())
                if n
            }
        )
    return out
