"""All-in odds: each player's chance to win and to tie each pot, by enumerating the run-outs or by Monte Carlo.

Pure (no I/O). Cards go in as `Card`s and are turned into the evaluator's card numbers once; the inner loops
call phevaluator's seven-card function on plain ints (`evaluation.class7_of_indexes`) and tally who wins.

What it answers:

- `all_in_odds(hands, board, dead, pots=...)`: the hands are known (an all-in, cards face up). For each pot (a
  side pot is passed as the indexes of the players eligible for it), each eligible player's chance to win it
  alone, to tie for it (share it with at least one other), and their expected share of it. **Exact** when the
  run-outs to enumerate are at most `max_exact` (every flop, turn and river spot with up to 10 players: at most
  C(45, 2) = 990 run-outs); preflop (C(48, 5) = 1,712,304 boards heads-up) exact too, by counting the
  boards by rank pattern (`_exact_full_board`), or with `exact_preflop=False` a Monte Carlo estimate over
  `trials` uniformly drawn run-outs, with `exact=False` and its `margin`.
- `equity_vs_random(hand, opponents, board, dead)` and `equity_vs_range(hand, ranges, board, dead)`: one known
  hand against N unknown hands (uniformly random, or drawn from stated lists of two-card combinations), always
  by Monte Carlo. For the computer players and the coach.
- `runout_odds(hand)`: `all_in_odds` at each point of a hand's all-in run-out (where the betting closed, the
  flop, the turn), for the street messages and the hand history.

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
from itertools import combinations, combinations_with_replacement

from bot.poker.cards import Card
from bot.poker.evaluation import class7_of_indexes, strength_of_indexes
from bot.poker.events import ActionKind, PlayerActed, Street, StreetDealt
from bot.poker.hand import Hand

__all__ = [
    "DEFAULT_TRIALS",
    "MAX_EXACT_RUNOUTS",
    "HandOdds",
    "Odds",
    "PlayerOdds",
    "PotOdds",
    "StreetOdds",
    "all_in_odds",
    "equity_vs_random",
    "equity_vs_range",
    "margin_for",
    "runout_odds",
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
        exact_preflop: with no board card, count every board exactly by rank patterns (`_exact_full_board`,
            0.1-0.5 s here, about as long as the estimate or less, benchmarks/equity.py); False: estimate.

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
    if total > max_exact and exact_preflop and missing == 5:
        tallies, count, exact = _exact_full_board(holes, rest, pot_players), total, True
    elif total <= max_exact:
        runouts, count, exact = combinations(rest, missing), total, True
        tallies = _tally(holes, fixed, runouts, pot_players)
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


def _one_hand(
    hand: Sequence[Card], opponents: int, board: Sequence[Card], dead: Sequence[Card], trials: int
) -> tuple[tuple[int, ...], tuple[int, ...], list[int]]:
    """Check the arguments of a known hand against unknown ones: (hole, board, deck left) as card numbers."""
    if not 1 <= opponents <= 9:
        raise ValueError(f"1 to 9 opponents, got {opponents}")
    if trials < 1:
        raise ValueError("trials must be at least 1")
    hole = _indexes(hand)
    fixed = _indexes(board)
    return hole, fixed, _check_cards([hole], fixed, _indexes(dead))


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
    hole, fixed, rest = _one_hand(hand, opponents, board, dead, trials)
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
    hole, fixed, rest = _one_hand(hand, len(ranges), board, dead, trials)
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


@dataclass(frozen=True, slots=True)
class StreetOdds:
    """The all-in odds of a hand at one point of its run-out.

    Attributes:
        street: the street just dealt (or where the betting closed, for the first entry).
        board: the board then.
        odds: `all_in_odds` of the hands still in, with each `PotOdds.players` given as the hand's player
            indexes, one entry per pot of the hand (main pot first).
    """

    street: Street
    board: tuple[Card, ...]
    odds: Odds


def runout_odds(
    hand: Hand,
    *,
    rng: random.Random | None = None,
    trials: int = DEFAULT_TRIALS,
    streets_only: bool = False,
) -> tuple[StreetOdds, ...]:
    """The odds of a hand whose betting closed with two or more players in and one of them all-in, with cards
    to come (the hands are then turned face up, as card rooms do): one `StreetOdds` where the betting closed
    (preflop: an estimate; also while the players are asked whether to run it twice) and one after each street
    of the (first) run-out before the river. () for a hand
    that had no such run-out, or whose hands in contention are not all known.

    Works on a hand being played or complete (e.g. replayed from its record for the hand history).
    `streets_only`: leave out the point where the betting closed (so every figure is exact, a few
    milliseconds: what a street message of the run-out needs without blocking the event loop).
    A preflop point is counted exactly (`all_in_odds`'s default: a few tenths of a second, so callers on an
    event loop run it in an executor).
    """
    if hand.actor is not None:
        return ()  # the betting is still open
    events = hand.events
    last_decision = max((k for k, e in enumerate(events) if isinstance(e, PlayerActed)), default=-1)
    folded: set[int] = set()
    for event in events:
        if isinstance(event, PlayerActed) and event.action is ActionKind.FOLD:
            folded.add(event.player)
    contenders = [i for i in range(hand.player_count) if i not in folded]
    holes = hand.hole_cards
    if len(contenders) < 2 or any(len(holes[i]) != 2 for i in contenders):
        return ()
    streets = [e for e in events[last_decision + 1 :] if isinstance(e, StreetDealt) and e.run == 1]
    if streets:
        closed_at = Street(streets[0].street - 1)
        start_board = streets[0].board[: len(streets[0].board) - len(streets[0].cards)]
    elif hand.run_twice_pending:  # the players are being asked whether to run it twice: nothing dealt yet
        closed_at, start_board = hand.street, hand.board
    else:
        return ()
    pot_sets = [[contenders.index(p) for p in pot.eligible if p in contenders] for pot in hand.pots()]
    pot_sets = [s for s in pot_sets if s]
    points = [] if streets_only else [(closed_at, start_board)]
    points += [(e.street, e.board) for e in streets if e.street < Street.RIVER]
    out: list[StreetOdds] = []
    for street, board in points:
        hands = [holes[i] for i in contenders]
        odds = all_in_odds(hands, board, pots=pot_sets, rng=rng, trials=trials)
        mapped = tuple(PotOdds(tuple(contenders[i] for i in pot.players), pot.odds) for pot in odds.pots)
        out.append(StreetOdds(street, tuple(board), Odds(mapped, odds.exact, odds.margin, odds.runouts)))
    return tuple(out)


def _rank_multisets(avail: Sequence[int], size: int) -> list[tuple[tuple[int, ...], int]]:
    """Every multiset of `size` ranks (0..12, ascending tuples) that the deck can still deal, with the number of
    ways to deal it: the product over its ranks of C(cards of that rank left, copies)."""
    out = []
    for ranks in combinations_with_replacement(range(13), size):
        ways = 1
        k = 0
        while k < size:
            rank = ranks[k]
            copies = 1
            while k + copies < size and ranks[k + copies] == rank:
                copies += 1
            ways *= math.comb(avail[rank], copies)
            if not ways:
                break
            k += copies
        if ways:
            out.append((ranks, ways))
    return out


def _exact_full_board(
    holes: Sequence[tuple[int, ...]], rest: Sequence[int], pot_players: Sequence[tuple[int, ...]]
) -> list[_Tally]:
    """Exact tallies over every five-card board (preflop) without enumerating the C(n, 5) boards one by one.

    Without a flush a hand's value depends only on the ranks of its seven cards, so the boards are counted by
    their rank multiset (at most 6,175, each weighted by how many boards have those ranks), each player
    evaluated once per multiset with suits that make no flush. Then the boards holding three or more cards of
    one suit s that give someone a flush are counted again, by their s-cards (the set S) and the ranks of the
    others: for them the flushers' values are their flush (with five or more cards of one suit among seven
    there is neither four of a kind nor a full house), the others' stay the rank values; the tally moves
    those boards from the rank outcome to the true one. Checked against plain enumeration (dead cards make
    it small) in tests/poker/test_equity.py.
    """
    ev7 = class7_of_indexes
    avail = [0] * 13
    suited = [[False] * 13 for _ in range(4)]
    for card in rest:
        rank, suit = divmod(card, 4)
        avail[rank] += 1
        suited[suit][rank] = True
    hole_ranks = [sorted((h[0] // 4, h[1] // 4)) for h in holes]

    def outcome(values: Sequence[int]) -> tuple[tuple[int, ...], ...]:
        """Who wins each pot: the positions (in the pot's players) of its best hands."""
        key = []
        for players in pot_players:
            mine = [values[p] for p in players]
            best = min(mine)
            key.append(
                (mine.index(best),) if mine.count(best) == 1 else tuple(i for i, v in enumerate(mine) if v == best)
            )
        return tuple(key)

    single = len(pot_players) == 1
    counts: dict[tuple[tuple[int, ...], ...], int] = {}
    by_ranks: dict[tuple[int, ...], tuple[list[int], tuple[tuple[int, ...], ...]]] = {}
    for ranks, ways in _rank_multisets(avail, 5):
        values = []
        for a, b in hole_ranks:
            seven = sorted((a, b, *ranks))
            # Suits in turn over the sorted ranks: copies of a rank get different suits, no suit gets 3 cards.
            values.append(
                ev7(
                    seven[0] * 4,
                    seven[1] * 4 + 1,
                    seven[2] * 4 + 2,
                    seven[3] * 4 + 3,
                    seven[4] * 4,
                    seven[5] * 4 + 1,
                    seven[6] * 4 + 2,
                )
            )
        key = outcome(values)
        by_ranks[ranks] = (values, key)
        counts[key] = counts.get(key, 0) + ways
    for suit in range(4):
        held = [sum(1 for c in h if c % 4 == suit) for h in holes]
        suit_ranks = [r for r in range(13) if suited[suit][r]]
        others = [avail[r] - suited[suit][r] for r in range(13)]
        for count in (3, 4, 5):
            flushers = [p for p in range(len(holes)) if held[p] + count >= 5]
            if not flushers:
                continue
            rest_ranks = _rank_multisets(others, 5 - count)
            own = {p: [c for c in holes[p] if c % 4 == suit] for p in flushers}
            for chosen in combinations(suit_ranks, count):
                cards = [r * 4 + suit for r in chosen]
                flush = [(p, 7463 - strength_of_indexes(*own[p], *cards)) for p in flushers]
                best_flush = min(value for _p, value in flush)
                for ranks, ways in rest_ranks:
                    base, base_key = by_ranks[tuple(sorted(chosen + ranks))]
                    if single and best_flush > min(base):
                        continue  # one pot, and no flush reaches its best hand: nothing changes
                    true = list(base)
                    for p, value in flush:
                        true[p] = value
                    key = outcome(true)
                    if key != base_key:
                        counts[key] = counts.get(key, 0) + ways
                        counts[base_key] -= ways
    tallies: list[_Tally] = [([0] * len(players), {}) for players in pot_players]
    for key, ways in counts.items():
        for (wins, splits), winners in zip(tallies, key, strict=True):
            if len(winners) == 1:
                wins[winners[0]] += ways
            else:
                splits[winners] = splits.get(winners, 0) + ways
    return tallies
