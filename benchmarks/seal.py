"""A hand's sealed deck: CPU per hand of the seal and its twelve hole-card proof tokens (six players), the standard
library's way (one `secrets.token_bytes` per salt, `base64.b32encode` per token) and bot/poker/seal.py's (one
`token_bytes` cut in salts, numpy's base32), side by side in one run.

    python benchmarks/seal.py [--hands 2000]
"""

from __future__ import annotations

import argparse
import base64
import random
import secrets
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.poker.cards import shuffled_deck
from bot.poker.seal import SALT_BYTES, DeckSeal


def old_hand(deck: list) -> list[str]:  # type: ignore[type-arg]
    seal = DeckSeal.seal(deck, salt=lambda: secrets.token_bytes(SALT_BYTES))
    tokens = []
    for player in range(6):
        for p in seal.hole_proofs(6, player):
            data = bytes((p.position, p.size, p.card.index)) + p.salt + b"".join(p.path)
            tokens.append(base64.b32encode(data).decode("ascii").rstrip("="))
    return tokens


def new_hand(deck: list) -> list[str]:  # type: ignore[type-arg]
    seal = DeckSeal.seal(deck)
    return [p.token() for player in range(6) for p in seal.hole_proofs(6, player)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=2000)
    args = parser.parse_args()
    decks = [shuffled_deck(random.Random(n)) for n in range(50)]
    best = {"old": float("inf"), "new": float("inf")}
    for _ in range(5):
        for name, hand in (("old", old_hand), ("new", new_hand)):
            start = time.process_time()
            for n in range(args.hands):
                hand(decks[n % len(decks)])
            best[name] = min(best[name], (time.process_time() - start) / args.hands * 1e6)
    print(f"old: {best['old']:.0f} µs per hand; new: {best['new']:.0f} µs per hand (best of 5 rounds)")
    print(f"new / old = {best['new'] / best['old']:.2f}")


if __name__ == "__main__":
    main()
