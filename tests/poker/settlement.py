"""The rule book's settlement of a hand, worked out independently of our engine: an oracle for the tests
that compare payouts (the PokerKit differential, PHH export).

Inputs are what a test dealt and saw — hole cards and board as text, who folded, the chips each player put
in — never our engine's events. Hands are ranked by PokerKit's evaluator (not ours). Player 0 is the first
seat left of the button (heads-up too: the big blind), as in PHH and in our engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tests.requirements import require_module

pokerkit = require_module("pokerkit")


@dataclass
class Deal:
    """What a test dealt and saw: hole cards and board as text ("AsKd", "7h"), the players who folded, and the
    chips each player put in (e.g. read from PokerKit before its pots are pushed)."""

    holes: list[str]
    board: list[str] = field(default_factory=list)
    folded: set[int] = field(default_factory=set)
    contributed: list[int] | None = None


def _layers(contributed: list[int], out: set[int]) -> list[tuple[int, list[int]]]:
    """Pots from the chips put in: (amount, players who may win it), the main pot first. `out`: players who
    cannot win (folded). A new side pot starts only where the players who may win change (at an all-in
    amount): the chips of a player who folded stay in the pot they were put in. Chips that nobody matched
    go back to their author (rule book 000 §05), even after a fold (e.g. a small blind above a big blind
    all-in for less); forced bets of several folded players above everyone still in are dead money in the
    pot below."""
    pots: list[tuple[int, list[int]]] = []
    previous = 0
    for level in sorted({c for c in contributed if c > 0}):
        payers = [i for i, c in enumerate(contributed) if c >= level]
        eligible = [i for i in payers if i not in out]
        amount = (level - previous) * len(payers)
        previous = level
        if not eligible and len(payers) == 1:  # chips nobody matched: an uncalled bet, back to its author
            pots.append((amount, payers))
        elif pots and (not eligible or eligible == pots[-1][1]):
            pots[-1] = (pots[-1][0] + amount, pots[-1][1])
        else:
            assert eligible, "the main pot has a live player"
            pots.append((amount, eligible))
    return pots


def _strength(deal: Deal, player: int):
    return pokerkit.StandardHighHand.from_game(deal.holes[player], "".join(deal.board))


def _best(deal: Deal, eligible: list[int]) -> list[int]:
    if len(eligible) == 1:
        return eligible
    values = {i: _strength(deal, i) for i in eligible}
    top = max(values.values())
    return sorted(i for i in eligible if values[i] == top)


def rule_book_settlement(starting: list[int], deal: Deal) -> tuple[tuple[int, ...], bool]:
    """The finishing stacks by rule book 000 §07, from the harness's own inputs; and whether some split pot
    had an odd chip. Each pot (main, then side pots) goes to the best hand among the players who may win it
    (the only one left when the others folded); a split pot's odd chips go one at a time to its winners,
    starting left of the button (player 0 is the first seat left of the button, heads-up too)."""
    assert deal.contributed is not None
    stacks = [s - c for s, c in zip(starting, deal.contributed, strict=True)]
    odd = False
    for amount, eligible in _layers(deal.contributed, deal.folded):
        winners = _best(deal, eligible)
        share, remainder = divmod(amount, len(winners))
        odd = odd or remainder > 0
        for k, player in enumerate(winners):
            stacks[player] += share + (1 if k < remainder else 0)
    return tuple(stacks), odd


def pokerkit_settlement(starting: list[int], deal: Deal, rule_book: tuple[int, ...]) -> tuple[int, ...]:
    """How PokerKit settles the same hand (deliberate difference 1): the hands that win nothing (by the rule
    book's result) are killed, the pots are built again without them (so pots with the same winners
    merge), and each pot's whole remainder goes to its winner with the smallest index."""
    assert deal.contributed is not None
    stacks = [s - c for s, c in zip(starting, deal.contributed, strict=True)]
    losers = {i for i in range(len(starting)) if rule_book[i] <= stacks[i]} | deal.folded
    for amount, eligible in _layers(deal.contributed, losers):
        winners = _best(deal, eligible)
        share, remainder = divmod(amount, len(winners))
        for k, player in enumerate(winners):
            stacks[player] += share + (remainder if k == 0 else 0)
    return tuple(stacks)
