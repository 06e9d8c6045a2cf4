"""The decision puzzles' spots, as shipped (bot/tables/puzzles.json; credits in bot/tables/PUZZLES.md)."""

from __future__ import annotations

import json
import random
from functools import cache
from importlib import resources

from bot.poker.puzzles import Spot

__all__ = ["load_spots", "pick_spot"]


@cache
def load_spots() -> tuple[Spot, ...]:
    """Every shipped spot, the rule book's first (read once)."""
    text = resources.files("bot.tables").joinpath("puzzles.json").read_text(encoding="utf-8")
    return tuple(Spot.from_json(item) for item in json.loads(text))


def pick_spot(rng: random.Random, exclude: frozenset[str] = frozenset()) -> Spot:
    """A random shipped spot, avoiding the keys in `exclude` while others remain."""
    spots = load_spots()
    fresh = [spot for spot in spots if spot.key not in exclude]
    return rng.choice(fresh or list(spots))
