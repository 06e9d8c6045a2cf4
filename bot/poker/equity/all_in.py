"""`all_in_odds`: each player's chance to win and to tie each pot when the hands are known (an all-in).

Exact by enumerating the run-outs when there are at most `max_exact` of them (every flop, turn and river spot);
preflop exact by counting the boards by rank multiset (`bot.poker.equity.preflop`), or a Monte Carlo estimate.
The inner loop calls phevaluator's seven-card function on plain ints (`evaluation.class7_of_indexes`).
Ties follow the showdown (rule book 000 §06, 002): hands of equal value split the pot; suits never rank.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from itertools import combinations

from bot.poker.cards import Card
from bot.poker.equity.deck import card_numbers, cards_left, check_enough, draws
from bot.poker.equity.results import DEFAULT_TRIALS, MAX_EXACT_RUNOUTS, Odds, PlayerOdds, PotOdds, margin_for
from bot.poker.evaluation import class7_of_indexes

__all__ = ["all_in_odds", "warm_up"]

#: Per pot, the run-outs counted by who shares the best hand: the positions (in the pot's players, ascending) of
#: the winners, one position for a pot won alone.
_Tally = dict[tuple[int, ...], int]


def all_in_odds(
    hands: Sequence[Sequence[Card]],
    board: Sequence[Card] = (),
    dead: Sequence[Card] = (),
    *,
    pots: Sequence[Iterable[int]] | None = None,
    rng: random.Random | None = None,
    trials: int = DEFAULT_TRIALS,
    max_exact: int = MAX_EXACT_RUNOUTS,
    exact_preflop: bool = True,
) -> Odds:
    """Each player's chance to win and to tie each pot, the hands being known (an all-in with cards to come).

    Args:
        hands: 1 to 10 hands of two hole cards; a player is named by its index in this sequence.
        board: 0 to 5 board cards already dealt (hold'em: 0, 3, 4 or 5).
        dead: cards known to be out of the deck (e.g. a folded hand shown, burnt cards seen); none by default.
        pots: for each pot, the indexes of the players eligible for it (main pot first, then the side pots, as
            `pots.build_pots` gives them); default one pot for everybody.
        rng: the generator for an estimate; default a fresh `random.Random()`.
        trials: run-outs to draw for an estimate (see `margin_for`).
        max_exact: enumerate every run-out when there are at most this many.
        exact_preflop: with no board card and more than `max_exact` boards, count every board exactly by rank
            multiset (`bot.poker.equity.preflop`: a few milliseconds heads-up, benchmarks/equity.py); False:
            estimate.

    Returns:
        `Odds`, with `exact` and `margin` saying how the figures were obtained.

    Raises:
        ValueError: a hand without exactly two cards, more than 5 board cards, a card given twice, no hand or
            more than 10, an empty pot or one naming an unknown player, `trials` < 1.
        NotEnoughCardsError (a ValueError): fewer cards left in the deck than the board needs (e.g. with many
            `dead` cards).
    """
    holes = [card_numbers(hand) for hand in hands]
    if not 1 <= len(holes) <= 10:
        raise ValueError(f"1 to 10 hands, got {len(holes)}")
    fixed = card_numbers(board)
    rest = cards_left(holes, fixed, card_numbers(dead))
    pot_players = _pot_players(pots, len(holes))
    missing = 5 - len(fixed)
    check_enough(len(rest), missing)  # else no run-out exists: every figure would be 0 / 0
    total = math.comb(len(rest), missing)
    runouts: Iterable[tuple[int, ...]]
    if total > max_exact and exact_preflop and missing == 5:
        # numpy is imported on the first preflop count only: importing the engine stays cheap.
        from bot.poker.equity.preflop import exact_full_board

        tallies, count, exact = exact_full_board(holes, rest, pot_players), total, True
    elif total <= max_exact:
        runouts, count, exact = combinations(rest, missing), total, True
        tallies = _tally(holes, fixed, runouts, pot_players)
    else:
        if trials < 1:
            raise ValueError("trials must be at least 1")
        runouts = draws(rest, missing, rng if rng is not None else random.Random(), trials)
        count, exact = trials, False
        tallies = _tally(holes, fixed, runouts, pot_players)
    result = tuple(_pot_odds(players, tally, count) for players, tally in zip(pot_players, tallies, strict=True))
    return Odds(result, exact, 0.0 if exact else margin_for(count), count)


def warm_up() -> None:
    """Import numpy and build the preflop count's tables now (about 0.1 s, once per process), so that the first
    preflop `all_in_odds` of the process takes milliseconds like the others. Optional: the first count does it."""
    from bot.poker.equity.preflop import _tables

    _tables()


def _pot_players(pots: Sequence[Iterable[int]] | None, count: int) -> list[tuple[int, ...]]:
    if pots is None:
        return [tuple(range(count))]
    out: list[tuple[int, ...]] = []
    for pot in pots:
        players = tuple(sorted(set(pot)))
        if not players:
            raise ValueError("a pot with no eligible player")
        if players[0] < 0 or players[-1] >= count:
            raise ValueError(f"a pot names a player who has no hand: {players}")
        out.append(players)
    if not out:
        raise ValueError("no pot")
    return out


def _tally(
    holes: Sequence[tuple[int, ...]],
    fixed: tuple[int, ...],
    runouts: Iterable[tuple[int, ...]],
    pot_players: Sequence[tuple[int, ...]],
) -> list[_Tally]:
    """Count, over the run-outs, who wins each pot (a smaller phevaluator class is a better hand)."""
    ev = class7_of_indexes
    pairs = [(h[0], h[1]) for h in holes]
    tallies: list[_Tally] = [{} for _ in pot_players]
    singles = [[(i,) for i in range(len(players))] for players in pot_players]
    for runout in runouts:
        b0, b1, b2, b3, b4 = fixed + runout
        values = [ev(x, y, b0, b1, b2, b3, b4) for x, y in pairs]
        for players, tally, alone in zip(pot_players, tallies, singles, strict=True):
            mine = [values[p] for p in players]
            best = min(mine)
            if mine.count(best) == 1:
                key: tuple[int, ...] = alone[mine.index(best)]
            else:
                key = tuple(i for i, v in enumerate(mine) if v == best)
            tally[key] = tally.get(key, 0) + 1
    return tallies


def _pot_odds(players: tuple[int, ...], tally: _Tally, count: int) -> PotOdds:
    wins = [0] * len(players)
    ties = [0] * len(players)
    shared = [0.0] * len(players)
    for key, times in tally.items():
        if len(key) == 1:
            wins[key[0]] += times
            continue
        for i in key:
            ties[i] += times
            shared[i] += times / len(key)
    odds = tuple(
        PlayerOdds(wins[i] / count, ties[i] / count, (wins[i] + shared[i]) / count) for i in range(len(players))
    )
    return PotOdds(players, odds)
