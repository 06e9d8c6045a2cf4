"""One known hand against unknown hands: `equity_vs_random` (uniformly random hands) and `equity_vs_range` (hands
drawn from stated lists of two-card combinations), by Monte Carlo, for the computer players and the coach.

Randomness is passed in (house style point 3): `rng` is any `random.Random`; seeded, the result repeats.
Ties follow the showdown (rule book 000 §06, 002): hands of equal value split the pot; suits never rank.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.poker.cards import Card
from bot.poker.equity.deck import card_numbers, cards_left, check_enough, draws
from bot.poker.equity.results import HandOdds, margin_for
from bot.poker.evaluation import class7_of_indexes

__all__ = ["equity_vs_random", "equity_vs_range"]


def _one_hand(
    hand: Sequence[Card], opponents: int, board: Sequence[Card], dead: Sequence[Card], trials: int
) -> tuple[tuple[int, ...], tuple[int, ...], list[int]]:
    """Check the arguments of a known hand against unknown ones: (hole, board, deck left) as card numbers."""
    if not 1 <= opponents <= 9:
        raise ValueError(f"1 to 9 opponents, got {opponents}")
    if trials < 1:
        raise ValueError("trials must be at least 1")
    hole = card_numbers(hand)
    fixed = card_numbers(board)
    return hole, fixed, cards_left([hole], fixed, card_numbers(dead))


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
        NotEnoughCardsError (a ValueError): the deck left cannot deal the opponents' hands and the rest of the board.
    """
    hole, fixed, rest = _one_hand(hand, opponents, board, dead, trials)
    missing = 5 - len(fixed)
    need = 2 * opponents + missing
    check_enough(len(rest), need)
    h0, h1 = hole
    ev = class7_of_indexes
    wins = ties = 0
    shared = 0.0
    for drawn in draws(rest, need, rng if rng is not None else random.Random(), trials):
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
        NotEnoughCardsError (a ValueError): the deck left cannot deal the opponents' hands and the rest of the board.
    """
    hole, fixed, rest = _one_hand(hand, len(ranges), board, dead, trials)
    check_enough(len(rest), 2 * len(ranges) + 5 - len(fixed))  # else the board's draw runs off the deck
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
