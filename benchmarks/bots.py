"""How strong the computer players are: matches between the levels and the baselines, in big blinds per 100 hands.

    python benchmarks/bots.py [--hands 2000] [--processes 2] [--seed 17] [--match solid:beginner ...]

Each match is played heads-up and six-handed (the two levels in alternate seats) with 100 big blinds each
at every hand (blinds 1/2, stacks 200). Deals are duplicated to cut the luck out: every deck is played twice,
the second time with the two levels' seats swapped, so both sides get the same cards in the same places.
`--hands` is per match and table size (hands played, mirrors included; ten matches by default, so 20,000
hands at the default 2,000). For each match it prints the first level's result in big blinds per 100 hands
(per seat it holds) with a 95 % confidence interval (1.96 standard errors of the duplicated pairs), and at
the end each level's decision time p50/p99 (ms, the view and the decision, as the table will ask for it).
The goal (issue 17): solid beats beginner, and both beat both baselines, each interval above zero.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.poker import Card, Hand, HandSettings, shuffled_deck
from bot.poker.players import Level, make_player, view_of

BIG_BLIND = 2
STACK = 100 * BIG_BLIND
MATCHES = [
    (Level.SOLID, Level.BEGINNER),
    (Level.SOLID, Level.CALLER),
    (Level.SOLID, Level.RANDOM),
    (Level.BEGINNER, Level.CALLER),
    (Level.BEGINNER, Level.RANDOM),
]


@dataclass
class Chunk:
    """Duplicated deals of one match, played in one process."""

    first: Level
    second: Level
    seats: int
    seeds: list[int]


@dataclass
class ChunkResult:
    results: list[float]  # per duplicated pair: the first level's chips per seat-hand, in big blinds
    timings: dict[Level, list[float]]  # seconds per decision


def _play(deck: list[Card], lineup: list[Level], rng: random.Random, timings: dict[Level, list[float]]) -> list[int]:
    players = [make_player(level) for level in lineup]
    hand = Hand(HandSettings(small_blind=BIG_BLIND // 2, big_blind=BIG_BLIND), [STACK] * len(lineup), deck=deck)
    while not hand.is_complete:
        actor = hand.actor
        assert actor is not None
        start = time.perf_counter()
        decision = players[actor].decide(view_of(hand, actor), rng)
        timings[lineup[actor]].append(time.perf_counter() - start)
        hand.act(decision.kind, decision.amount, player=actor)
    final = hand.finishing_stacks
    assert final is not None
    return [f - STACK for f in final]


def play_chunk(chunk: Chunk) -> ChunkResult:
    """Play every duplicated deal of the chunk."""
    timings: dict[Level, list[float]] = {chunk.first: [], chunk.second: []}
    results: list[float] = []
    for seed in chunk.seeds:
        deck = shuffled_deck(random.Random(seed))
        total = 0.0
        for mirror in (0, 1):
            lineup = [chunk.first if (i + mirror) % 2 == 0 else chunk.second for i in range(chunk.seats)]
            net = _play(deck, lineup, random.Random(seed * 2 + mirror), timings)
            mine = [n for n, level in zip(net, lineup, strict=True) if level is chunk.first]
            total += sum(mine) / len(mine)
        results.append(total / 2 / BIG_BLIND)
    return ChunkResult(results, timings)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else math.nan


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=2000, help="hands per match and table size (default 2000)")
    parser.add_argument("--processes", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 6], help="table sizes (default 2 6)")
    parser.add_argument("--match", nargs="+", default=None, help="matches as first:second (default: all five)")
    args = parser.parse_args(argv)
    matches = [tuple(Level(x) for x in m.split(":")) for m in args.match] if args.match else MATCHES
    pairs = max(1, args.hands // 2)
    chunks: list[Chunk] = []
    per_chunk = 50
    for index, (first, second) in enumerate(matches):
        for seats in args.seats:
            base = args.seed * 1_000_003 + index * 10_007 + seats * 100_000_000
            seeds = [base + k for k in range(pairs)]
            chunks += [Chunk(first, second, seats, seeds[k : k + per_chunk]) for k in range(0, pairs, per_chunk)]
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.processes) as pool:
        outcomes = list(pool.map(play_chunk, chunks))
    elapsed = time.perf_counter() - started
    by_match: dict[tuple[Level, Level, int], list[float]] = {}
    timings: dict[Level, list[float]] = {}
    for chunk, outcome in zip(chunks, outcomes, strict=True):
        by_match.setdefault((chunk.first, chunk.second, chunk.seats), []).extend(outcome.results)
        for level, values in outcome.timings.items():
            timings.setdefault(level, []).extend(values)
    print(f"{'match':<22} {'seats':>5} {'hands':>7} {'bb/100':>8}   95 % interval      verdict")
    failures = 0
    for (first, second, seats), values in by_match.items():
        mean = statistics.fmean(values) * 100
        half = 1.959964 * statistics.stdev(values) / math.sqrt(len(values)) * 100 if len(values) > 1 else math.inf
        low, high = mean - half, mean + half
        verdict = "beats" if low > 0 else ("loses" if high < 0 else "not shown")
        failures += low <= 0
        name = f"{first} vs {second}"
        print(f"{name:<22} {seats:>5} {2 * len(values):>7} {mean:>+8.1f}   [{low:+7.1f}, {high:+7.1f}]   {verdict}")
    print()
    print(f"{'level':<10} {'decisions':>10} {'p50 ms':>8} {'p99 ms':>8}   goal p99 < 50 ms")
    for level, values in timings.items():
        p50, p99 = _percentile(values, 0.5) * 1000, _percentile(values, 0.99) * 1000
        print(f"{level:<10} {len(values):>10} {p50:>8.2f} {p99:>8.2f}   {'met' if p99 < 50 else 'MISSED'}")
    total_hands = sum(2 * len(v) for v in by_match.values())
    print(f"\n{total_hands} hands in {elapsed:.0f} s with {args.processes} processes")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
