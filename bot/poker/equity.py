"""All-in odds: each player's chance to win and to tie each pot, by enumerating the run-outs or by Monte Carlo.

Pure (no I/O). Cards go in as `Card`s and are turned into the evaluator's card numbers once; the inner loops
call phevaluator's seven-card function on plain ints (`evaluation.class7_of_indexes`) and tally who wins.

Two questions are answered:

- `all_in_odds(hands, board, dead, pots=...)`: the hands are known (an all-in, cards face up). For each pot (a
  side pot is passed as the indexes of the players eligible for it), each eligible player's chance to win it
  alone, to tie for it (share it with at least one other), and their expected share of it. **Exact** when the
  run-outs to enumerate are at most `max_exact` (every flop, turn and river spot with up to 10 players: at most
  C(45, 2) = 990 run-outs); otherwise (preflop: C(48, 5) = 1,712,304 boards heads-up) a Monte Carlo estimate
  over `trials` uniformly drawn run-outs, with `exact=False` and its `margin`.
- `equity_vs_random(hand, opponents, board, dead)` and `equity_vs_range(hand, ranges, board, dead)`: one known
  hand against N unknown hands (uniformly random, or drawn from stated lists of two-card combinations), always
  by Monte Carlo. For the computer players and the coach.

The margin of an estimate is the half-width of a 95 % confidence interval on any of its chances, taken at its
worst case (a chance of one half): `1.96 * 0.5 / sqrt(trials)`, so 0.0049 (±0.49 %) at the default 40,000.
Randomness is passed in (house style point 3): `rng` is any `random.Random`; seeded, the result repeats.

Ties follow the showdown (rule book 000 §06, 002): hands of equal value split the pot; suits never rank.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from bot.poker.cards import Card
from bot.poker.evaluation import class7_of_indexes

__all__ = [
    "DEFAULT_TRIALS",
    "MAX_EXACT_RUNOUTS",
    "HandOdds",
    "Odds",
    "PlayerOdds",
    "PotOdds",
    "all_in_odds",
    "equity_vs_random",
    "equity_vs_range",
    "margin_for",
]

#: Monte Carlo run-outs drawn by default: a 95 % margin of ±0.49 % on every chance (`margin_for`).
DEFAULT_TRIALS = 40_000
#: Enumerate every run-out when there are at most this many (else estimate). Covers every flop and turn spot.
MAX_EXACT_RUNOUTS = 50_000
_Z95 = 1.959963984540054


def margin_for(trials: int) -> float:
    """The 95 % margin (a fraction: 0.005 is ±0.5 %) of a chance estimated over `trials` independent run-outs,
    at its worst case (a chance of 1/2): `1.96 * 0.5 / sqrt(trials)`."""
    return _Z95 * 0.5 / math.sqrt(trials)


@dataclass(frozen=True, slots=True)
class PlayerOdds:
    """One player's odds for one pot, fractions in 0..1.

    Attributes:
        win: the chance to win the pot alone.
        tie: the chance to share it with at least one other player (a split pot).
        share: the expected fraction of the pot won (`win` plus each tie's part, 1/k of a k-way split); the
            shares of a pot's players add up to 1.
    """

    win: float
    tie: float
    share: float


@dataclass(frozen=True, slots=True)
class PotOdds:
    """The odds for one pot.

    Attributes:
        players: the indexes (into the hands given) of the players eligible for the pot, ascending.
        odds: their `PlayerOdds`, in the same order.
    """

    players: tuple[int, ...]
    odds: tuple[PlayerOdds, ...]

    def of(self, player: int) -> PlayerOdds:
        """The odds of `player` (an index into the hands given). Raises KeyError when not eligible."""
        try:
            return self.odds[self.players.index(player)]
        except ValueError:
            raise KeyError(player) from None


@dataclass(frozen=True, slots=True)
class Odds:
    """The result of `all_in_odds`.

    Attributes:
        pots: one `PotOdds` per pot asked for, in the order asked.
        exact: True when every run-out was enumerated; False for a Monte Carlo estimate.
        margin: 0.0 when exact; otherwise the 95 % margin of every chance (`margin_for(runouts)`).
        runouts: how many run-outs were enumerated or drawn.
    """

    pots: tuple[PotOdds, ...]
    exact: bool
    margin: float
    runouts: int


@dataclass(frozen=True, slots=True)
class HandOdds:
    """One known hand's odds against unknown hands (`equity_vs_random`, `equity_vs_range`), fractions in 0..1.

    Attributes:
        win, tie, share: as in `PlayerOdds`.
        margin: the 95 % margin of each chance (`margin_for(trials)`).
        trials: how many deals were drawn.
    """

    win: float
    tie: float
    share: float
    margin: float
    trials: int


def _indexes(cards: Iterable[Card]) -> tuple[int, ...]:
    return tuple(card.index for card in cards)


def _check_cards(holes: Sequence[tuple[int, ...]], board: tuple[int, ...], dead: tuple[int, ...]) -> list[int]:
    """Validate and return the cards still in the deck (ascending card numbers)."""
    for hole in holes:
        if len(hole) != 2:
            raise ValueError(f"a hold'em hand has two hole cards, got {len(hole)}")
    if len(board) > 5:
        raise ValueError(f"a board has at most five cards, got {len(board)}")
    used = [c for hole in holes for c in hole] + list(board) + list(dead)
    if len(set(used)) != len(used):
        raise ValueError("the same card is given twice")
    taken = set(used)
    return [c for c in range(52) if c not in taken]


def all_in_odds(
    hands: Sequence[Sequence[Card]],
    board: Sequence[Card] = (),
    dead: Sequence[Card] = (),
    *,
    pots: Sequence[Iterable[int]] | None = None,
    rng: random.Random | None = None,
    trials: int = DEFAULT_TRIALS,
    max_exact: int = MAX_EXACT_RUNOUTS,
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

    Returns:
        `Odds`, with `exact` and `margin` saying how the figures were obtained.

    Raises:
        ValueError: a hand without exactly two cards, more than 5 board cards, a card given twice, no hand or
            more than 10, an empty pot or one naming an unknown player, `trials` < 1.
    """
    holes = [_indexes(hand) for hand in hands]
    if not 1 <= len(holes) <= 10:
        raise ValueError(f"1 to 10 hands, got {len(holes)}")
    fixed = _indexes(board)
    rest = _check_cards(holes, fixed, _indexes(dead))
    pot_players = _pot_players(pots, len(holes))
    missing = 5 - len(fixed)
    total = math.comb(len(rest), missing)
    runouts: Iterable[tuple[int, ...]]
    if total <= max_exact:
        runouts, count, exact = combinations(rest, missing), total, True
    else:
        if trials < 1:
            raise ValueError("trials must be at least 1")
        runouts = _draws(rest, missing, rng if rng is not None else random.Random(), trials)
        count, exact = trials, False
    tallies = _tally(holes, fixed, runouts, pot_players)
    result = tuple(
        _pot_odds(players, wins, splits, count) for players, (wins, splits) in zip(pot_players, tallies, strict=True)
    )
    return Odds(result, exact, 0.0 if exact else margin_for(count), count)


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


def _draws(rest: list[int], k: int, rng: random.Random, trials: int) -> Iterator[tuple[int, ...]]:
    """`trials` independent uniform draws of `k` distinct cards from `rest` (a partial Fisher-Yates shuffle of
    one working list: whatever order the list is left in, the first k places come out uniform)."""
    pool = list(rest)
    n = len(pool)
    rnd = rng.random
    for _ in range(trials):
        for i in range(k):
            j = i + int(rnd() * (n - i))
            pool[i], pool[j] = pool[j], pool[i]
        yield tuple(pool[:k])


# A tally per pot: wins[i] for the pot's i-th player, and how often each set of pot-player positions split it.
_Tally = tuple[list[int], dict[tuple[int, ...], int]]


def _tally(
    holes: Sequence[tuple[int, ...]],
    fixed: tuple[int, ...],
    runouts: Iterable[tuple[int, ...]],
    pot_players: Sequence[tuple[int, ...]],
) -> list[_Tally]:
    """Count, over the run-outs, who wins each pot (a smaller phevaluator class is a better hand)."""
    ev = class7_of_indexes
    pairs = [(h[0], h[1]) for h in holes]
    tallies: list[_Tally] = [([0] * len(players), {}) for players in pot_players]
    everybody = len(pot_players) == 1 and len(pot_players[0]) == len(holes)
    if everybody:
        wins, splits = tallies[0]
        for runout in runouts:
            b0, b1, b2, b3, b4 = fixed + runout
            values = [ev(x, y, b0, b1, b2, b3, b4) for x, y in pairs]
            best = min(values)
            if values.count(best) == 1:
                wins[values.index(best)] += 1
            else:
                key = tuple(i for i, v in enumerate(values) if v == best)
                splits[key] = splits.get(key, 0) + 1
        return tallies
    for runout in runouts:
        b0, b1, b2, b3, b4 = fixed + runout
        values = [ev(x, y, b0, b1, b2, b3, b4) for x, y in pairs]
        for players, (wins, splits) in zip(pot_players, tallies, strict=True):
            mine = [values[p] for p in players]
            best = min(mine)
            if mine.count(best) == 1:
                wins[mine.index(best)] += 1
            else:
                key = tuple(i for i, v in enumerate(mine) if v == best)
                splits[key] = splits.get(key, 0) + 1
    return tallies


def _pot_odds(players: tuple[int, ...], wins: list[int], splits: dict[tuple[int, ...], int], count: int) -> PotOdds:
    ties = [0] * len(players)
    shared = [0.0] * len(players)
    for key, times in splits.items():
        for i in key:
            ties[i] += times
            shared[i] += times / len(key)
    odds = tuple(
        PlayerOdds(wins[i] / count, ties[i] / count, (wins[i] + shared[i]) / count) for i in range(len(players))
    )
    return PotOdds(players, odds)


def equity_vs_random(
    hand: Sequence[Card],
    opponents: int,
    board: Sequence[Card] = (),
    dead: Sequence[Card] = (),
    *,
    rng: random.Random | None = None,
    trials: int = 10_000,
) -> HandOdds:
    """The odds of one known hand against `opponents` hands dealt at random from the rest of the deck, with the
    board completed at random: Monte Carlo over `trials` deals (margin `margin_for(trials)`: ±0.98 % at 10,000).

    Args:
        hand: the two hole cards.
        opponents: 1 to 9 unknown hands.
        board: 0 to 5 board cards already dealt.
        dead: cards known to be out of the deck.
        rng: default a fresh `random.Random()`.
        trials: deals to draw.

    Raises:
        ValueError: bad cards (as `all_in_odds`), `opponents` outside 1..9, `trials` < 1.
    """
    if not 1 <= opponents <= 9:
        raise ValueError(f"1 to 9 opponents, got {opponents}")
    if trials < 1:
        raise ValueError("trials must be at least 1")
    hole = _indexes(hand)
    fixed = _indexes(board)
    rest = _check_cards([hole], fixed, _indexes(dead))
    missing = 5 - len(fixed)
    need = 2 * opponents + missing
    if len(rest) < need:
        raise ValueError("not enough cards left in the deck")
    h0, h1 = hole
    ev = class7_of_indexes
    wins = ties = 0
    shared = 0.0
    draws = _draws(rest, need, rng if rng is not None else random.Random(), trials)
    for drawn in draws:
        b0, b1, b2, b3, b4 = fixed + drawn[2 * opponents :]
        mine = ev(h0, h1, b0, b1, b2, b3, b4)
        best = min(ev(drawn[i], drawn[i + 1], b0, b1, b2, b3, b4) for i in range(0, 2 * opponents, 2))
        if mine < best:
            wins += 1
        elif mine == best:
            ties += 1
            level = sum(1 for i in range(0, 2 * opponents, 2) if ev(drawn[i], drawn[i + 1], b0, b1, b2, b3, b4) == best)
            shared += 1 / (level + 1)
    return HandOdds(wins / trials, ties / trials, (wins + shared) / trials, margin_for(trials), trials)


def equity_vs_range(
    hand: Sequence[Card],
    ranges: Sequence[Sequence[tuple[Card, Card]]],
    board: Sequence[Card] = (),
    dead: Sequence[Card] = (),
    *,
    rng: random.Random | None = None,
    trials: int = 10_000,
) -> HandOdds:
    """The odds of one known hand against opponents whose hands are drawn from stated ranges.

    Each opponent's range is a list of two-card combinations, equally likely; a deal in which two hands share a
    card is drawn again as a whole (so card removal is exact). The board is completed at random. Monte Carlo.

    Args:
        hand: the two hole cards.
        ranges: one list of combinations per opponent (1 to 9 opponents).
        board, dead, rng, trials: as `equity_vs_random`.

    Raises:
        ValueError: bad cards, no opponent or more than 9, a range with no combination that fits the known cards,
            `trials` < 1.
    """
    if not 1 <= len(ranges) <= 9:
        raise ValueError(f"1 to 9 opponents, got {len(ranges)}")
    if trials < 1:
        raise ValueError("trials must be at least 1")
    hole = _indexes(hand)
    fixed = _indexes(board)
    rest = _check_cards([hole], fixed, _indexes(dead))
    free = set(rest)
    combos: list[list[tuple[int, int]]] = []
    for cards in ranges:
        fitting = [(a.index, b.index) for a, b in cards if a.index in free and b.index in free and a != b]
        if not fitting:
            raise ValueError("a range has no combination left once the known cards are out")
        combos.append(fitting)
    rng = rng if rng is not None else random.Random()
    choice = rng.choice
    missing = 5 - len(fixed)
    pool = list(rest)
    n = len(pool)
    rnd = rng.random
    h0, h1 = hole
    ev = class7_of_indexes
    wins = ties = 0
    shared = 0.0
    for _ in range(trials):
        for _attempt in range(1000):
            picked = [choice(c) for c in combos]
            taken = {card for pair in picked for card in pair}
            if len(taken) == 2 * len(picked):
                break
        else:
            raise ValueError("the ranges leave no deal in which the hands share no card")
        runout: list[int] = []
        i = 0
        while len(runout) < missing:
            j = i + int(rnd() * (n - i))
            pool[i], pool[j] = pool[j], pool[i]
            if pool[i] not in taken:
                runout.append(pool[i])
            i += 1
        b0, b1, b2, b3, b4 = fixed + tuple(runout)
        mine = ev(h0, h1, b0, b1, b2, b3, b4)
        theirs = [ev(x, y, b0, b1, b2, b3, b4) for x, y in picked]
        best = min(theirs)
        if mine < best:
            wins += 1
        elif mine == best:
            ties += 1
            shared += 1 / (theirs.count(best) + 1)
    return HandOdds(wins / trials, ties / trials, (wins + shared) / trials, margin_for(trials), trials)
