"""Main and side pots from contributions, and splitting a pot with odd chips.

Rule book 000 §05 ("Le tapis et les pots séparés"): an all-in player wins from each opponent at most
what they matched; folded players' chips stay in the pots they paid into but they can win none.
Alice 20 / Bob 50 / Chloé 50 -> 60 (all three) + 60 (Bob, Chloé); rule book 002: 25 / 60 / 60 ->
75 + 70. Pots with the same eligible players are one pot; there are no empty pots.
Rule book 000 §07: each pot is split separately; an odd chip goes to the first winner left of the
button, one chip at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Pot", "build_pots", "split_pot"]


@dataclass(frozen=True, slots=True)
class Pot:
    """A pot: `amount` chips that the players in `eligible` (hand indexes, ascending) can win."""

    amount: int
    eligible: tuple[int, ...]


def build_pots(contributions: Sequence[int], folded: Sequence[bool], dead_money: int = 0) -> list[Pot]:
    """Split the chips in the middle into a main pot and side pots.

    Args:
        contributions: chips each player put in that count for side pots (antes when live, blinds,
            bets; uncalled parts already returned).
        folded: per player, True when they can't win (folded). Their chips stay in the pots.
        dead_money: chips in the main pot that belong to no layer (dead antes, e.g. a big-blind ante);
            every player still in can win them.

    Returns:
        Pots, main pot first: one layer per distinct contribution level, eligible = players not
        folded who reached that level; consecutive layers with the same eligible players merged;
        empty layers skipped. A layer that no player still in reached (only forced bets of folded
        players can make one, e.g. blinds above an all-in from the ante) is dead money added to the
        pot below it. Chips are conserved: the sum of amounts is sum(contributions) + dead_money.
    """
    n = len(contributions)
    in_hand = [contributions[i] for i in range(n) if not folded[i]]
    top = max(contributions)
    if in_hand and min(in_hand) == top and (top or dead_money):
        # The usual case: everyone still in put in the most; one pot for all of them.
        return [Pot(sum(contributions) + dead_money, tuple(i for i in range(n) if not folded[i]))]
    pots: list[Pot] = []
    carried = 0
    if dead_money:
        pots.append(Pot(dead_money, tuple(i for i in range(n) if not folded[i])))
    # Walk the players from the smallest contribution up; each distinct level is one layer, paid by
    # everyone who reached it.
    order = sorted(range(n), key=contributions.__getitem__)
    k = 0
    previous = 0
    while k < n:
        level = contributions[order[k]]
        if level > previous:
            amount = carried + (level - previous) * (n - k)
            carried = 0
            eligible = tuple(sorted(i for i in order[k:] if not folded[i]))
            if not eligible:
                if pots:
                    pots[-1] = Pot(pots[-1].amount + amount, pots[-1].eligible)
                else:
                    carried = amount
            elif pots and pots[-1].eligible == eligible:
                pots[-1] = Pot(pots[-1].amount + amount, eligible)
            else:
                pots.append(Pot(amount, eligible))
            previous = level
        k += 1
    return pots


def split_pot(amount: int, winners: Sequence[int]) -> list[tuple[int, int]]:
    """Share `amount` equally among `winners` (hand indexes); odd chips one at a time from the button's left.

    Hand index 0 is the first seat left of the button, so the odd chips go to the winners with the
    smallest indexes first (rule book 000 §07; issue 3 rule 9).

    Returns:
        (player, chips) pairs in ascending player order; the chips add up to `amount`.
    """
    ordered = sorted(winners)
    share, odd = divmod(amount, len(ordered))
    return [(player, share + (1 if k < odd else 0)) for k, player in enumerate(ordered)]
