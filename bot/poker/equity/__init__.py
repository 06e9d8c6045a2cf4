"""All-in odds: each player's chance to win and to tie each pot, exact (every run-out counted) or by Monte Carlo.

Pure (no I/O). Cards go in as `Card`s and are turned into the evaluator's card numbers once. The modules:

- `all_in` — `all_in_odds(hands, board, dead, pots=...)`: the hands are known (an all-in, cards face up). For
  each pot (a side pot is passed as the indexes of the players eligible for it), each eligible player's chance
  to win it alone, to tie for it (share it with at least one other), and their expected share of it.
  **Exact** when the run-outs are at most `max_exact` (every flop, turn and river spot with up to 10 players:
  at most C(45, 2) = 990 run-outs, enumerated with phevaluator's seven-card function); preflop (C(48, 5) =
  1,712,304 boards heads-up) exact too, by counting the boards by rank multiset (`preflop`), or with
  `exact_preflop=False` a Monte Carlo estimate over `trials` uniformly drawn run-outs, with `exact=False` and
  its `margin`.
- `preflop` — that count, with numpy arrays: the boards' 6,175 rank multisets weighted by how many boards
  each stands for, then the boards that give someone a flush moved to their true outcome, listed by their
  suited ranks. Tables built once, on the first preflop count (or by `warm_up()`, e.g. at start-up).
- `unknown` — `equity_vs_random(hand, opponents, board, dead)` and `equity_vs_range(hand, ranges, board,
  dead)`: one known hand against N unknown hands (uniformly random, or drawn from stated lists of two-card
  combinations), by Monte Carlo. For the computer players and the coach.
- `runout` — `runout_odds(hand)`: `all_in_odds` at each point of a hand's all-in run-out (where the betting
  closed, the flop, the turn), for the street messages and the hand history.
- `results` — the result types and `margin_for`; `deck` — the cards left and uniform draws, and
  `NotEnoughCardsError` (a ValueError) when they cannot deal the rest of the board (and unknown hands).

The margin of an estimate is the half-width of a 95 % confidence interval on any of its chances, taken at its
worst case (a chance of one half): `1.96 * 0.5 / sqrt(trials)`, so 0.0049 (±0.49 %) at the default 40,000.
Randomness is passed in (house style point 3): `rng` is any `random.Random`; seeded, the result repeats.

Ties follow the showdown (rule book 000 §06, 002): hands of equal value split the pot; suits never rank.

Speed (benchmarks/equity.py, 1 December 2026, this 2-core machine under load, six runs; benchmarks/README.md):
preflop exact heads-up 2.9-10 ms (87-402 ms before the numpy count), three-way 4.0-16 ms, six-way 4.8-19 ms;
flop and turn exact, up to 3 players, 2-13 ms; PokerKit's `calculate_equities` at 40,000 samples (±0.49 %)
is 4,900-17,000 times slower than the exact heads-up count. The first preflop count of a process also imports
numpy and builds the tables (0.1-0.4 s under load; `warm_up()` does it ahead).
"""

from __future__ import annotations

from bot.poker.equity.all_in import all_in_odds, warm_up
from bot.poker.equity.deck import NotEnoughCardsError
from bot.poker.equity.results import (
    DEFAULT_TRIALS,
    MAX_EXACT_RUNOUTS,
    HandOdds,
    Odds,
    PlayerOdds,
    PotOdds,
    margin_for,
)
from bot.poker.equity.runout import StreetOdds, runout_odds
from bot.poker.equity.unknown import equity_vs_random, equity_vs_range

__all__ = [
    "DEFAULT_TRIALS",
    "MAX_EXACT_RUNOUTS",
    "HandOdds",
    "NotEnoughCardsError",
    "Odds",
    "PlayerOdds",
    "PotOdds",
    "StreetOdds",
    "all_in_odds",
    "equity_vs_random",
    "equity_vs_range",
    "margin_for",
    "runout_odds",
    "warm_up",
]
