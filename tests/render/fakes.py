"""Stand-ins with the same class names and fields as bot.poker's events (the renderers match by name),
so the render tests build hands event by event without depending on the engine's internals."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum


class Street(IntEnum):
    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3


class ActionKind(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALL_IN = "all_in"


@dataclass(frozen=True)
class Card:
    rank: int
    suit: str


def cards(text: str) -> tuple[Card, ...]:
    """ "Ah Kd 10c" -> cards (T or 10 for tens)."""
    ranks = {"A": 14, "K": 13, "Q": 12, "J": 11, "T": 10}
    out = []
    for token in text.split():
        rank, suit = token[:-1], token[-1]
        out.append(Card(ranks.get(rank) or int(rank), suit))
    return tuple(out)


@dataclass(frozen=True)
class HandValue:
    category: int
    ranks: tuple[int, ...]
    is_royal: bool = False


@dataclass(frozen=True)
class BlindPosted:
    player: int
    kind: str
    amount: int


@dataclass(frozen=True)
class HoleCardsDealt:
    player: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class PlayerActed:
    player: int
    action: ActionKind
    amount: int
    added: int
    all_in: bool = False


@dataclass(frozen=True)
class StreetDealt:
    street: Street
    cards: tuple[Card, ...]
    board: tuple[Card, ...]


@dataclass(frozen=True)
class UncalledBetReturned:
    player: int
    amount: int


@dataclass(frozen=True)
class HandShown:
    player: int
    cards: tuple[Card, ...]
    value: HandValue


@dataclass(frozen=True)
class HandMucked:
    player: int


@dataclass(frozen=True)
class PotAwarded:
    pot_index: int
    amount: int
    winners: tuple[tuple[int, int], ...]
    value: HandValue | None


@dataclass(frozen=True)
class HandEnded:
    finishing_stacks: tuple[int, ...]


@dataclass(frozen=True)
class LegalActions:
    player: int = 0
    can_fold: bool = True
    can_check: bool = False
    can_call: bool = True
    call_amount: int = 0
    can_bet: bool = False
    can_raise: bool = True
    min_raise_to: int = 4
    max_raise_to: int = 100
    can_all_in: bool = True
    all_in_to: int = 100


def strip_vs(text: str) -> str:
    """Text without the invisible U+FE0E after suit symbols, to compare with readable expectations."""
    return text.replace("\ufe0e", "")
