"""What happens in a hand, as frozen event values; also the `Street` and `ActionKind` enums.

Every change to a hand is appended to `Hand.events` as one of these (house style point 2): they drive
rendering, persistence and the hand history. Players are hand player indexes (0 = first seat left of
the button, n-1 = the button; heads-up 0 is the big blind). Amounts are chips (ints).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum

from bot.poker.cards import Card
from bot.poker.evaluation import HandValue

__all__ = [
    "ActionKind",
    "BlindPosted",
    "Event",
    "HandEnded",
    "HandMucked",
    "HandShown",
    "HoleCardsDealt",
    "PlayerActed",
    "PotAwarded",
    "RunCountChosen",
    "RunTwiceAnswered",
    "ShownByChoice",
    "Street",
    "StreetDealt",
    "UncalledBetReturned",
]


class Street(IntEnum):
    """Where a hand stands. SHOWDOWN is only seen while a replayed hand waits for show/muck decisions."""

    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3
    SHOWDOWN = 4
    COMPLETE = 5


class ActionKind(StrEnum):
    """A player's betting decision (rule book 000 §05: se coucher, parole, suivre, miser, relancer, tapis)."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALL_IN = "all_in"


@dataclass(frozen=True, slots=True)
class Event:
    """Base class of all hand events."""


@dataclass(frozen=True, slots=True)
class BlindPosted(Event):
    """A forced bet was posted before the cards (rule book 000 §04; 002 for antes and straddle).

    kind: 'ante', 'bb_ante', 'small_blind', 'big_blind' or 'straddle'. amount: chips actually posted
    (less than the nominal amount when the stack is short; the player is then all-in).
    """

    player: int
    kind: str
    amount: int


@dataclass(frozen=True, slots=True)
class HoleCardsDealt(Event):
    """A player's two hole cards. `cards` is empty when a replayed hand history gives them as unknown (????)."""

    player: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class PlayerActed(Event):
    """A betting decision.

    amount: the player's total bet on this street after the action (for a fold, the chips they leave
    in front of them; 0 for a check before any bet). added: chips moved from the stack by this action.
    all_in: the stack is now empty.
    `action` is the kind as decided (an ALL_IN stays ALL_IN even when it only calls).
    """

    player: int
    action: ActionKind
    amount: int
    added: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class StreetDealt(Event):
    """Board cards were dealt (after a burn card, rule book 000 §05). cards: this street's cards; board: all so far.

    run: 1 for the board (the first board when it is run twice), 2 for the second board of a hand run twice;
    `board` is then the second board (the cards both boards share, then this run's).
    """

    street: Street
    cards: tuple[Card, ...]
    board: tuple[Card, ...]
    run: int = 1


@dataclass(frozen=True, slots=True)
class UncalledBetReturned(Event):
    """The part of a bet nobody matched went back to its author (rule book 000 §05). It is a return, not a win."""

    player: int
    amount: int


@dataclass(frozen=True, slots=True)
class HandShown(Event):
    """A player showed their hole cards at the showdown; `value` is their best five-card hand."""

    player: int
    cards: tuple[Card, ...]
    value: HandValue


@dataclass(frozen=True, slots=True)
class HandMucked(Event):
    """A player at the showdown threw their cards away unseen (they could not win, rule book 002)."""

    player: int


@dataclass(frozen=True, slots=True)
class PotAwarded(Event):
    """A pot was paid (rule book 000 §07: each pot separately; odd chips one at a time from the button's left).

    pot_index: 0 = main pot, then side pots in order. amount: the pot's chips. winners: (player,
    chips won) pairs in seat order from the button's left. value: the winning hand value, or None
    when the pot was won uncontested (everyone else folded or mucked). beaten: the best hand shown by a
    player who claimed this pot and lost it (what the winner beat, so that the kicker that decided can be
    named, `deciding_kickers`), or None when nobody shown lost it (uncontested, the others mucked, a split
    among every claimant). run: 0 when the whole pot was played on one board; 1 or 2 for the half of a pot
    played on the first or second board of a hand run twice (`amount` is then that half; value and beaten
    are read on that board).
    """

    pot_index: int
    amount: int
    winners: tuple[tuple[int, int], ...]
    value: HandValue | None
    beaten: HandValue | None = None
    run: int = 0


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """The hand is over; finishing_stacks[i] is player i's stack now (chips)."""

    finishing_stacks: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RunTwiceAnswered(Event):
    """A player still in the hand answered whether to run the rest of the board twice (rule book 002: by
    agreement of everyone involved, before the run-out). yes: agreed. A player who does not answer in time,
    or leaves, counts as a no."""

    player: int
    yes: bool


@dataclass(frozen=True, slots=True)
class RunCountChosen(Event):
    """The question is settled: runs is 2 when every player still in agreed, else 1 (the first no ends it)."""

    runs: int


@dataclass(frozen=True, slots=True)
class ShownByChoice(Event):
    """After the hand, a player who folded, won without a showdown or mucked showed some of their hole cards
    (rule book 002, showing and mucking). cards: the cards shown this time (one or two)."""

    player: int
    cards: tuple[Card, ...]
