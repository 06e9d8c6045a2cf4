"""The computer player's interface: a decision from a `PlayerView` and a random generator, and the levels.

A computer player is a pure function of what it sees (`PlayerView`) and of the generator it is given: it
keeps no memory between decisions, so that a table restored after a restart asks it again and gets the same
answer from the same generator state (docs/practice.md).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from bot.poker.events import ActionKind
from bot.poker.hand import LegalActions
from bot.poker.players.view import PlayerView

__all__ = ["ComputerPlayer", "Decision", "Level", "clamp_raise", "is_computer_player"]


def is_computer_player(user_id: int) -> bool:
    """Computer players sit with negative user ids (Discord ids are positive; 0 is the house): the one test of
    whether a seat is a computer player's, for storage (the house account pays their chips) and for what is
    shown (a robot badge in the picture; never a member whose name merely starts with the robot emoji)."""
    return user_id < 0


class Level(StrEnum):
    """The computer players' levels (issue 17): two to play against, two baselines to measure them by."""

    BEGINNER = "beginner"
    SOLID = "solid"
    CALLER = "caller"
    RANDOM = "random"


@dataclass(frozen=True, slots=True)
class Decision:
    """A betting decision as `Hand.act` takes it: kind, and for BET/RAISE the total to bet on this street."""

    kind: ActionKind
    amount: int | None = None


class ComputerPlayer(Protocol):
    """Anything that decides for a seat from what that seat sees."""

    level: Level

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        """A legal decision for `view.player` (the player to act in `view`)."""
        ...


def clamp_raise(legal: LegalActions, total: int) -> Decision:
    """A legal bet or raise to about `total` chips (this street's total), kept within the allowed range;
    all-in when it reaches the stack. The caller checks that betting or raising is allowed at all.
    """
    assert legal.min_raise_to is not None and legal.max_raise_to is not None
    total = max(legal.min_raise_to, min(total, legal.max_raise_to))
    if total >= legal.all_in_to:
        return Decision(ActionKind.ALL_IN)
    return Decision(ActionKind.BET if legal.can_bet else ActionKind.RAISE, total)
