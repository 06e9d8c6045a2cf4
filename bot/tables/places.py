"""Tournament places: of the players busted in a hand, of a player leaving a started tournament, and the final
places when a tournament ends (docs/architecture.md, "Table orchestration": tournament places).

Pure functions of stacks; the runner records the places in storage and announces them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from bot.poker import Table
from bot.tables.notifier import Placing


def places_of_busts(table: Table, busted: Sequence[int], starting: Mapping[int, int]) -> dict[int, int]:
    """The places of the players who busted in one hand ({user: place}); `starting`: their stacks at the start
    of it. The rule books are silent on simultaneous eliminations; this is the card-room rule (as the Poker
    TDA's): the player who had more chips at the start of the hand finishes higher, and players who started it
    with equal stacks share the place (two players tied for 3rd both finish 3rd; the next one down is 5th)."""
    remaining = sum(1 for occ in table.seats.values() if occ.stack > 0 and occ.player_id not in busted)
    return {user: remaining + 1 + sum(1 for other in busted if starting[other] > starting[user]) for user in busted}


def place_on_leaving(table: Table) -> int:
    """Leaving a started tournament with chips is finishing it: the worst place among those with chips (the
    leaver counted)."""
    return sum(1 for occupant in table.seats.values() if occupant.stack > 0)


def final_places(
    stacks_by_user: Mapping[int, int], recorded: Mapping[int, int], name: Callable[[int], str]
) -> tuple[tuple[Placing, ...], dict[int, int]]:
    """A tournament's places when it ends: everyone still seated by stack (`stacks_by_user`; equal stacks
    take successive places, in the order given), the busted players keeping the places `recorded` when they were
    eliminated. Returns the placings to show, in place order, and the places to
    record ({user: place}, those not recorded yet)."""
    ranked = sorted(stacks_by_user.items(), key=lambda item: -item[1])
    placings: list[Placing] = []
    new: dict[int, int] = {}
    for place, (user, stack) in enumerate(ranked, start=1):
        if user not in recorded:
            new[user] = place
        placings.append(Placing(place, user, name(user), stack))
    for user, place in sorted(recorded.items(), key=lambda item: item[1]):
        if user not in stacks_by_user:
            placings.append(Placing(place, user, name(user), 0))
    return tuple(sorted(placings)), new
