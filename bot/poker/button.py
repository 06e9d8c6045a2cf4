"""Where the button and the blinds go at each deal: the simple rotation of rule book 000 and the card room's dead-button
rule (both described in bot/poker/table.py's docstring, which applies them).

Seats are numbers 1..seat_count clockwise; `active` is the sorted list of the seats dealt in. A deal's order lists the
hand's players from the seat after the button, clockwise, the button last (heads-up: the big blind first, then the
button, who posts the small blind).

Pure functions of plain values; `Table` keeps the positions between hands.
"""

from __future__ import annotations

import random
import secrets

__all__ = ["big_blind_seat", "dead_button_deal", "next_button", "order_from_button"]


def order_from_button(active: list[int], button: int) -> tuple[int, ...]:
    """The hand's seats in hand order: from the seat after `button`, clockwise, `button` last."""
    k = active.index(button)
    return tuple(active[k + 1 :] + active[: k + 1])


def big_blind_seat(active: list[int], button: int) -> int:
    """The big blind's seat of a deal among `active` with `button` (heads-up: the player who is not the button)."""
    order = order_from_button(active, button)
    return order[0] if len(order) == 2 else order[1]


def next_button(active: list[int], button: int | None, last_big_blind: int | None, rng: random.Random | None) -> int:
    """The button seat for the next hand among `active` seats (rule book 000 §04 and §07): drawn at random with `rng`
    (default `secrets.SystemRandom`) for the first hand (`button` None), else the next seat dealt in clockwise,
    moved on while its deal would make `last_big_blind` post the big blind twice in a row (e.g. going heads-up)."""
    if button is None:
        return (rng if rng is not None else secrets.SystemRandom()).choice(active)
    after = [s for s in active if s > button]
    candidate = after[0] if after else active[0]
    # Never the big blind twice in a row (e.g. going heads-up): move the button on.
    for _ in range(len(active)):
        if big_blind_seat(active, candidate) != last_big_blind:
            break
        k = active.index(candidate)
        candidate = active[(k + 1) % len(active)]
    return candidate


def dead_button_deal(
    active: list[int], seat_count: int, button: int, last_big_blind: int, small_blind_position: int | None
) -> tuple[int, tuple[int, ...], bool]:
    """The dead-button rule (bot/poker/table.py's docstring): (button seat, hand seats in hand order, small blind
    dead), from the last hand's `button`, `last_big_blind` and seat of the small blind (`small_blind_position`)."""
    last_bb = last_big_blind

    def clockwise(start: int) -> list[int]:
        """Seats after `start`, clockwise, `start` last."""
        return [(start + k - 1) % seat_count + 1 for k in range(1, seat_count + 1)]

    big_blind = next(s for s in clockwise(last_bb) if s in active)
    if len(active) == 2:
        heads_up_button = next(s for s in active if s != big_blind)
        return heads_up_button, (big_blind, heads_up_button), False
    small_blind = last_bb if last_bb in active and last_bb != big_blind else None
    dealt_button = small_blind_position if small_blind_position is not None else button
    if dealt_button == big_blind or (small_blind is not None and dealt_button == small_blind):
        dealt_button = button  # positions shrank onto each other: keep the last button
    order: list[int] = []
    waiting = True  # seats between the button and the big blind (the small blind aside) wait
    for seat in clockwise(dealt_button):
        if seat == big_blind:
            waiting = False
        if seat in active and (not waiting or seat == small_blind):
            order.append(seat)
    # The hand's last player is the button seat's player when dealt in, else the one before the dead button.
    return dealt_button, tuple(order), small_blind is None
