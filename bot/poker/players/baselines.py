"""Two baselines that strength is measured against (benchmarks/bots.py): always call, and a random legal action."""

from __future__ import annotations

import random

from bot.poker.events import ActionKind
from bot.poker.players.base import Decision, Level
from bot.poker.players.view import PlayerView

__all__ = ["AlwaysCall", "RandomLegal"]


class AlwaysCall:
    """Checks when it can, calls every bet otherwise; never bets, raises or folds."""

    level = Level.CALLER

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        """Check, else call (a call for the whole stack is a call too)."""
        return Decision(ActionKind.CHECK if view.legal.can_check else ActionKind.CALL)


class RandomLegal:
    """Picks one of the allowed kinds of decision uniformly, and a bet or raise uniformly between the minimum
    and the stack."""

    level = Level.RANDOM

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        """A uniformly chosen legal decision."""
        legal = view.legal
        kinds: list[ActionKind] = []
        if legal.can_fold:
            kinds.append(ActionKind.FOLD)
        if legal.can_check:
            kinds.append(ActionKind.CHECK)
        if legal.can_call:
            kinds.append(ActionKind.CALL)
        if legal.can_bet:
            kinds.append(ActionKind.BET)
        if legal.can_raise:
            kinds.append(ActionKind.RAISE)
        if legal.can_all_in:
            kinds.append(ActionKind.ALL_IN)
        kind = rng.choice(kinds)
        if kind in (ActionKind.BET, ActionKind.RAISE):
            assert legal.min_raise_to is not None and legal.max_raise_to is not None
            return Decision(kind, rng.randint(legal.min_raise_to, legal.max_raise_to))
        return Decision(kind)
