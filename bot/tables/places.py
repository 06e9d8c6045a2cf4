"""Tournament places at a table: of the players busted in a hand, of a player leaving a started tournament, and
the final places when a tournament ends (docs/architecture.md, "Table orchestration": tournament places).

The arithmetic is the engine's (`bot.poker.places`, with the rule); this reads the table's seats and names for
it. The runner records the places in storage and announces them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from bot.poker import Table
from bot.poker import places as poker_places
from bot.tables.notifier import Placing


def places_of_busts(table: Table, busted: Sequence[int], starting: Mapping[int, int]) -> dict[int, int]:
    """The places of the players who busted in one hand ({user: place}); `starting`: their stacks at the start
    of it (`bot.poker.places_of_busts`: more chips at the start finishes higher, equal stacks share the place)."""
    remaining = sum(1 for occ in table.seats.values() if occ.stack > 0 and occ.player_id not in busted)
    return poker_places.places_of_busts({user: starting[user] for user in busted}, remaining)


def place_on_leaving(table: Table) -> int:
    """Leaving a started tournament with chips is finishing it: the worst place among those with chips (the
    leaver counted)."""
    return poker_places.place_of_leaver(sum(1 for occupant in table.seats.values() if occupant.stack > 0))


def final_places(
    stacks_by_user: Mapping[int, int], recorded: Mapping[int, int], name: Callable[[int], str]
) -> tuple[tuple[Placing, ...], dict[int, int]]:
    """A tournament's places when it ends: everyone still seated by stack (`stacks_by_user`; equal stacks
    take successive places, in the order given), the busted players keeping the places `recorded` when they were
    eliminated. Returns the placings to show, in place order, and the places to
    record ({user: place}, those not recorded yet)."""
    placings: list[Placing] = []
    new: dict[int, int] = {}
    for place, user, stack in poker_places.places_by_stack(stacks_by_user):
        if user not in recorded:
            new[user] = place
        placings.append(Placing(place, user, name(user), stack))
    for user, place in sorted(recorded.items(), key=lambda item: item[1]):
        if user not in stacks_by_user:
            placings.append(Placing(place, user, name(user), 0))
    return tuple(sorted(placings)), new
