"""Tournament places: who finishes where when players bust, leave, or the game stops at the agreed time.

Rule book 000 §03/§07: a player without chips is eliminated; the tournament ends when one player holds every
chip, or at an agreed time by comparing stacks (more chips places higher). The rule books are silent on
players eliminated in the same hand: the card-room rule (the Poker TDA's) places higher whoever started that
hand with more chips, and players who started it with equal stacks share the place (two players tied for 3rd
both finish 3rd; the next one down is 5th). Players are any hashable key (user ids at the table service).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TypeVar

__all__ = ["place_of_leaver", "places_by_stack", "places_of_busts"]

P = TypeVar("P", bound=Hashable)


def places_of_busts(starting_stacks: Mapping[P, int], players_left: int) -> dict[P, int]:
    """The places of the players who busted in one hand ({player: place}). starting_stacks: each busted
    player's stack at the start of that hand (chips); players_left: how many players still have chips."""
    return {
        player: players_left + 1 + sum(1 for other in starting_stacks.values() if other > stack)
        for player, stack in starting_stacks.items()
    }


def place_of_leaver(players_with_chips: int) -> int:
    """The place of a player who leaves a started tournament with chips: the worst among the players with chips
    (`players_with_chips` counts the leaver): everyone still playing finishes higher."""
    return players_with_chips


def places_by_stack(stacks: Mapping[P, int]) -> list[tuple[int, P, int]]:
    """The players still in when the game stops, ranked by stack (rule book 000 §07, "en comparant les piles"):
    (place, player, stack) from 1st, more chips first; equal stacks keep the order given (seat order)."""
    ranked = sorted(stacks.items(), key=lambda item: -item[1])
    return [(place, player, stack) for place, (player, stack) in enumerate(ranked, start=1)]
