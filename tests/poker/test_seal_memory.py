"""What a sealed deck keeps: every table in a hand holds its deck's seal until the hand ends (issue 14, memory per
table)."""

from __future__ import annotations

import gc
import tracemalloc

from bot.poker.cards import CARDS
from bot.poker.seal import DeckSeal, verify_proof


def test_a_sealed_deck_keeps_its_tree_in_a_few_kilobytes_and_leaves_no_cycle_behind() -> None:
    DeckSeal.seal(CARDS)  # the node positions of a 52-card tree are worked out once, for every deck of that size
    gc.collect()
    gc.disable()
    try:
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            seals = [DeckSeal.seal(CARDS) for _ in range(50)]
            kept = (tracemalloc.get_traced_memory()[0] - before) / len(seals)
        finally:
            tracemalloc.stop()
        garbage = gc.collect()
    finally:
        gc.enable()
    # The deck's 103 hashes in one bytes object (3.3 KB) and its 52 salts (3.8 KB); a dict of the nodes by their
    # ranges took about 20 KB, and its building a reference cycle that kept every hash until a collection.
    assert kept < 8_000
    assert garbage == 0
    for seal in seals[:2]:
        assert all(verify_proof(seal.root, seal.proof(p)) for p in range(len(CARDS)))
