"""A hand's sealed deck: CPU per seal (52 salts and the Merkle tree), the salts drawn one `secrets.token_bytes` per
position (before) and cut from one `token_bytes` (bot/poker/seal.py's `DeckSeal.seal`), side by side in one run.
The proof tokens are the same either way (`base64.b32encode`) and not timed.

    python benchmarks/seal.py [--hands 2000]
"""

from __future__ import annotations

import argparse
import random
import secrets
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.poker.cards import Card, shuffled_deck
from bot.poker.seal import SALT_BYTES, DeckSeal


def old_seal(deck: list[Card]) -> DeckSeal:
    return DeckSeal.seal(deck, salt=lambda: secrets.token_bytes(SALT_BYTES))


def new_seal(deck: list[Card]) -> DeckSeal:
    return DeckSeal.seal(deck)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=2000)
    args = parser.parse_args()
    decks = [shuffled_deck(random.Random(n)) for n in range(50)]
    best = {"old": float("inf"), "new": float("inf")}
    for _ in range(5):
        for name, seal in (("old", old_seal), ("new", new_seal)):
            start = time.process_time()
            for n in range(args.hands):
                seal(decks[n % len(decks)])
            best[name] = min(best[name], (time.process_time() - start) / args.hands * 1e6)
    print(f"old: {best['old']:.0f} µs per seal; new: {best['new']:.0f} µs per seal (best of 5 rounds)")
    print(f"new / old = {best['new'] / best['old']:.2f}")


if __name__ == "__main__":
    main()
