"""Engine speed: random complete hands per second, ours and PokerKit's, and 7-card evaluations per second.

Run from the repository root:

    python benchmarks/engine.py [--seconds 3] [--seed 1]

Both engines play the same kind of hands (2 to 10 players, blinds 1/2, stacks from 1 to 300 chips)
with the same random legal-action policy: fold 15 % of the time when facing a bet, bet or raise
20 % of the time to a uniform amount between the minimum and the maximum, else check or call;
each engine deals from its own shuffled deck (ours with a seeded `random.Random`, PokerKit with the
`random` module's). PokerKit 0.7.7 runs in tournament mode with automation for everything but the
decisions. The two engines are measured in alternating slices so that other load on the machine
affects both alike. The goal is at least 50x PokerKit.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.poker import ActionKind, Hand, HandSettings, evaluate, full_deck
from bot.poker.evaluation import strength_of_indexes

FOLD, BET_OR_RAISE = 0.15, 0.35  # cumulative thresholds of the policy


def _stacks(rng: random.Random) -> list[int]:
    return [rng.randint(1, 300) for _ in range(rng.randint(2, 10))]


def play_ours(rng: random.Random) -> int:
    """One complete hand with our engine; returns the number of decisions."""
    hand = Hand(HandSettings(), _stacks(rng), rng=rng)
    decisions = 0
    while not hand.is_complete:
        legal = hand.legal_actions()
        roll = rng.random()
        if legal.can_fold and roll < FOLD:
            hand.fold()
        elif (legal.can_bet or legal.can_raise) and roll < BET_OR_RAISE:
            low, high = legal.min_raise_to, legal.max_raise_to
            assert low is not None and high is not None
            hand.act(ActionKind.BET if legal.can_bet else ActionKind.RAISE, rng.randint(low, high))
        elif legal.can_check:
            hand.check()
        else:
            hand.call()
        decisions += 1
    return decisions


def _pokerkit_player() -> Callable[[random.Random], int] | None:
    try:
        import pokerkit
    except ImportError:
        return None
    automations = (
        pokerkit.Automation.ANTE_POSTING,
        pokerkit.Automation.BET_COLLECTION,
        pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
        pokerkit.Automation.CARD_BURNING,
        pokerkit.Automation.HOLE_DEALING,
        pokerkit.Automation.BOARD_DEALING,
        pokerkit.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        pokerkit.Automation.HAND_KILLING,
        pokerkit.Automation.CHIPS_PUSHING,
        pokerkit.Automation.CHIPS_PULLING,
    )

    def play_pokerkit(rng: random.Random) -> int:
        stacks = _stacks(rng)
        state = pokerkit.NoLimitTexasHoldem.create_state(
            automations, True, 0, (1, 2), 2, tuple(stacks), len(stacks), mode=pokerkit.Mode.TOURNAMENT
        )
        decisions = 0
        while state.status:
            roll = rng.random()
            if state.can_fold() and roll < FOLD:
                state.fold()
            elif state.can_complete_bet_or_raise_to() and roll < BET_OR_RAISE:
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                state.complete_bet_or_raise_to(rng.randint(low, high))
            else:
                state.check_or_call()
            decisions += 1
        return decisions

    return play_pokerkit


class Meter:
    """Plays hands with one engine in short slices and adds up hands, decisions and time."""

    def __init__(self, play: Callable[[random.Random], int], seed: int) -> None:
        self.play = play
        self.rng = random.Random(seed)
        self.hands = self.decisions = 0
        self.elapsed = 0.0
        play(self.rng)  # warm up

    def run(self, seconds: float) -> None:
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            for _ in range(5):
                self.decisions += self.play(self.rng)
            self.hands += 5
        self.elapsed += time.perf_counter() - start

    @property
    def rate(self) -> float:
        return self.hands / self.elapsed


def measure(meters: list[Meter], seconds: float, slices: int = 10) -> None:
    """Alternate short slices of each meter, so that load from other processes hits all of them alike."""
    for _ in range(slices):
        for meter in meters:
            meter.run(seconds / slices)


def evaluations_per_second(seconds: float, seed: int) -> tuple[float, float]:
    """(full `evaluate()` calls per second, raw strength lookups per second) on random 7-card hands."""
    rng = random.Random(seed)
    deck = full_deck()
    samples = [tuple(rng.sample(deck, 7)) for _ in range(20000)]
    indexes = [tuple(c.index for c in cards) for cards in samples]
    count = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds / 2:
        for cards in samples:
            evaluate(cards)
        count += len(samples)
    full = count / elapsed
    count = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds / 2:
        for idx in indexes:
            strength_of_indexes(*idx)
        count += len(indexes)
    return full, count / elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="time per engine and for evaluations (default 4)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    ours = Meter(play_ours, args.seed)
    play_pokerkit = _pokerkit_player()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = Meter(play_pokerkit, args.seed) if play_pokerkit is not None else None
        measure([ours] if theirs is None else [ours, theirs], args.seconds)
    print(f"our engine      : {ours.rate:10,.0f} hands/s  ({ours.decisions / ours.hands:.1f} decisions/hand)")
    if theirs is None:
        print("PokerKit        : not installed (pip install pokerkit==0.7.7)")
    else:
        print(f"PokerKit 0.7.7  : {theirs.rate:10,.0f} hands/s  ({theirs.decisions / theirs.hands:.1f} decisions/hand)")
        ratio = ours.rate / theirs.rate
        print(f"ratio           : {ratio:10,.1f}x  (goal >= 50x: {'met' if ratio >= 50 else 'NOT met'})")
    full, raw = evaluations_per_second(args.seconds, args.seed)
    print(f"7-card evaluate : {full:10,.0f} evaluations/s (HandValue with category and ranks)")
    print(f"7-card strength : {raw:10,.0f} evaluations/s (comparison value only, phevaluator)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
