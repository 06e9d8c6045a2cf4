"""Computer players: strategies that decide for a seat from what that seat sees (issue 17; docs/practice.md).

Pure engine code (no discord, asyncio or I/O). A strategy gets a `PlayerView` (its own hole cards and the
public state, nothing else) and a `random.Random`, and returns a `Decision` that `Hand.act` accepts.
Levels: `Level.BEGINNER` and `Level.SOLID` to play against; `Level.CALLER` (always call) and `Level.RANDOM`
(a random legal action) as the baselines that `benchmarks/bots.py` measures them by.
"""

from __future__ import annotations

import random

from bot.poker.events import PlayerActed
from bot.poker.hand import Hand
from bot.poker.players.base import ComputerPlayer, Decision, Level, clamp_raise, is_computer_player
from bot.poker.players.baselines import AlwaysCall, RandomLegal
from bot.poker.players.beginner import Beginner
from bot.poker.players.solid import Solid
from bot.poker.players.view import PlayerView, PublicAction, view_of

__all__ = [
    "AlwaysCall",
    "Beginner",
    "ComputerPlayer",
    "Decision",
    "Level",
    "PlayerView",
    "PublicAction",
    "RandomLegal",
    "Solid",
    "clamp_raise",
    "is_computer_player",
    "make_player",
    "play_turn",
    "view_of",
]


def make_player(level: Level | str) -> ComputerPlayer:
    """A computer player of this level.

    Raises:
        ValueError: not a level's name.
    """
    match Level(level):
        case Level.BEGINNER:
            return Beginner()
        case Level.SOLID:
            return Solid()
        case Level.CALLER:
            return AlwaysCall()
        case Level.RANDOM:
            return RandomLegal()
    raise ValueError(f"no computer player of level {level!r}")


def play_turn(hand: Hand, player: ComputerPlayer, rng: random.Random) -> PlayerActed:
    """Let `player` decide for the player to act in `hand` (from that seat's view only) and apply it.

    Raises:
        PokerError: the decision was refused (a strategy's bug: strategies only return legal decisions).
    """
    actor = hand.actor
    assert actor is not None, "nobody is to act"
    decision = player.decide(view_of(hand, actor), rng)
    return hand.act(decision.kind, decision.amount, player=actor)
