"""How a hand ended, read from its events: the hands shown, who mucked, each pot's winners, the uncalled bets
returned and the board (`HandResult`, built by `hand_result_from_events`).

One definition for every layer: the table service announces it, the renderers draw the showdown and the
one-line summary from it, and the stored hand keeps its JSON. It only ever holds shown cards: hole cards that
were not shown at the showdown have no field here (rule book 000 §06, 002: a mucked hand stays unseen).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from bot.poker.cards import Card
from bot.poker.evaluation import HandValue, evaluate
from bot.poker.events import Event, HandMucked, HandShown, PotAwarded, StreetDealt, UncalledBetReturned

__all__ = ["HandResult", "PotResult", "ShownHand", "hand_result_from_events"]


@dataclass(frozen=True, slots=True)
class ShownHand:
    """A hand shown at the showdown: the player's user id and name, their two cards, their best five-card hand
    (on the first board of a hand run twice) and, for a hand run twice, their best five-card hand on the second
    board (`second_value`; None otherwise)."""

    user_id: int
    name: str
    cards: tuple[Card, ...]
    value: HandValue
    second_value: HandValue | None = None


@dataclass(frozen=True, slots=True)
class PotResult:
    """A pot paid: index (0 = main), chips, winners as (user id, name, chips won) from the button's left, the
    winning hand (None: uncontested), and the best hand shown that lost it (None: nobody shown lost it), so that
    the kicker that decided can be named. run: 0 when the pot was played on one board; 1 or 2 for the half of it
    won on the first or second board of a hand run twice (`amount` is that half; rule book 002)."""

    index: int
    amount: int
    winners: tuple[tuple[int, str, int], ...]
    value: HandValue | None
    beaten: HandValue | None = None
    run: int = 0


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended: shown hands in showing order, mucked (user id, name), pots (main first), uncalled bets
    returned (user id, name, chips), the board, and whether there was a showdown (someone showed or mucked).
    second_board: the second board of a hand run twice (the cards both boards share, then its own), else ();
    `board` is then the first."""

    hand_number: int
    board: tuple[Card, ...]
    shown: tuple[ShownHand, ...]
    mucked: tuple[tuple[int, str], ...]
    pots: tuple[PotResult, ...]
    returned: tuple[tuple[int, str, int], ...]
    showdown: bool
    second_board: tuple[Card, ...] = ()


def hand_result_from_events(
    hand_number: int,
    events: Sequence[Event],
    names: Sequence[str] | Mapping[int, str],
    users: Sequence[int] | None = None,
) -> HandResult:
    """The `HandResult` of a hand's events. names: display names by hand player index ("#N", 1-based, when one
    is missing); users: `users[i]` is hand player i's user id (None: the player index itself). Only `HandShown`
    events give cards."""

    def uid(player: int) -> int:
        return users[player] if users is not None else player

    def name(player: int) -> str:
        try:
            return str(names[player])
        except (KeyError, IndexError, TypeError):
            return f"#{player + 1}"

    board: tuple[Card, ...] = ()
    second: tuple[Card, ...] = ()
    shown: list[ShownHand] = []
    mucked: list[tuple[int, str]] = []
    pots: list[PotResult] = []
    returned: list[tuple[int, str, int]] = []
    for event in events:
        match event:
            case StreetDealt(board=dealt, run=run):
                if run == 2:
                    second = tuple(dealt)
                else:
                    board = tuple(dealt)
            case HandShown(player=player, cards=cards, value=value):
                shown.append(ShownHand(uid(player), name(player), tuple(cards), value))
            case HandMucked(player=player):
                mucked.append((uid(player), name(player)))
            case PotAwarded(pot_index=index, amount=amount, winners=winners, value=value, beaten=beaten, run=run):
                paid = tuple((uid(p), name(p), chips) for p, chips in winners)
                pots.append(PotResult(index, amount, paid, value, beaten, run))
            case UncalledBetReturned(player=player, amount=amount):
                returned.append((uid(player), name(player), amount))
    if second:  # a hand run twice: each shown hand is read on both boards (rule book 002)
        shown = [replace(s, second_value=evaluate(s.cards + second)) for s in shown]
    return HandResult(
        hand_number, board, tuple(shown), tuple(mucked), tuple(pots), tuple(returned), bool(shown or mucked), second
    )
