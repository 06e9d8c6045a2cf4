"""`runout_odds`: the all-in odds at each point of a hand's all-in run-out, for the street messages and the
hand history (where the betting closed, then after the flop and the turn)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.poker.cards import Card
from bot.poker.equity.all_in import all_in_odds
from bot.poker.equity.results import DEFAULT_TRIALS, Odds, PotOdds
from bot.poker.events import ActionKind, PlayerActed, Street, StreetDealt
from bot.poker.hand import Hand

__all__ = ["StreetOdds", "runout_odds"]


@dataclass(frozen=True, slots=True)
class StreetOdds:
    """The all-in odds of a hand at one point of its run-out.

    Attributes:
        street: the street just dealt (or where the betting closed, for the first entry).
        board: the board then.
        odds: `all_in_odds` of the hands still in, with each `PotOdds.players` given as the hand's player
            indexes, one entry per pot of the hand (main pot first).
    """

    street: Street
    board: tuple[Card, ...]
    odds: Odds


def runout_odds(
    hand: Hand,
    *,
    rng: random.Random | None = None,
    trials: int = DEFAULT_TRIALS,
    streets_only: bool = False,
) -> tuple[StreetOdds, ...]:
    """The odds of a hand whose betting closed with two or more players in and one of them all-in, with cards
    to come (the hands are then turned face up, as card rooms do): one `StreetOdds` where the betting closed
    (also while the players are asked whether to run it twice) and one after each street of the (first)
    run-out before the river. () for a hand that had no such run-out, or whose hands in contention are not all
    known. Every figure is exact (`all_in_odds`'s defaults).

    Works on a hand being played or complete (e.g. replayed from its record for the hand history).
    `streets_only`: leave out the point where the betting closed (what a street message of the run-out needs).
    Times (benchmarks/equity.py): a flop or turn point takes a few milliseconds; a preflop point (every board
    counted by rank multiset) a few milliseconds heads-up and some tens with six players, plus some tens once
    per process on the first preflop count (numpy's import and the tables), so callers on an event loop run
    it in an executor.
    """
    if hand.actor is not None:
        return ()  # the betting is still open
    events = hand.events
    last_decision = max((k for k, e in enumerate(events) if isinstance(e, PlayerActed)), default=-1)
    folded: set[int] = set()
    for event in events:
        if isinstance(event, PlayerActed) and event.action is ActionKind.FOLD:
            folded.add(event.player)
    contenders = [i for i in range(hand.player_count) if i not in folded]
    holes = hand.hole_cards
    if len(contenders) < 2 or any(len(holes[i]) != 2 for i in contenders):
        return ()
    streets = [e for e in events[last_decision + 1 :] if isinstance(e, StreetDealt) and e.run == 1]
    if streets:
        closed_at = Street(streets[0].street - 1)
        start_board = streets[0].board[: len(streets[0].board) - len(streets[0].cards)]
    elif hand.run_twice_pending:  # the players are being asked whether to run it twice: nothing dealt yet
        closed_at, start_board = hand.street, hand.board
    else:
        return ()
    pot_sets = [[contenders.index(p) for p in pot.eligible if p in contenders] for pot in hand.pots()]
    pot_sets = [s for s in pot_sets if s]
    points = [] if streets_only else [(closed_at, start_board)]
    points += [(e.street, e.board) for e in streets if e.street < Street.RIVER]
    out: list[StreetOdds] = []
    for street, board in points:
        hands = [holes[i] for i in contenders]
        odds = all_in_odds(hands, board, pots=pot_sets, rng=rng, trials=trials)
        mapped = tuple(PotOdds(tuple(contenders[i] for i in pot.players), pot.odds) for pot in odds.pots)
        out.append(StreetOdds(street, tuple(board), Odds(mapped, odds.exact, odds.margin, odds.runouts)))
    return tuple(out)
