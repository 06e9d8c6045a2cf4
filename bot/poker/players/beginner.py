"""The beginner: plays many hands, rarely raises, calls too much (issue 17).

Before the flop it enters with three hands in four when it is cheap and calls raises with half of them; it
raises only with the very best (queens or better, ace-king). After the flop it looks only at what its own
cards make: it bets its good hands at half the pot, calls with any pair or draw, and now and then calls a
small bet with nothing at all.
"""

from __future__ import annotations

import random

from bot.poker.events import ActionKind, Street
from bot.poker.players.base import Decision, Level, clamp_raise
from bot.poker.players.ranges import top_fraction
from bot.poker.players.reading import Made, has_draw, made_hand
from bot.poker.players.view import PlayerView

__all__ = ["Beginner"]

_CHECK = Decision(ActionKind.CHECK)
_CALL = Decision(ActionKind.CALL)
_FOLD = Decision(ActionKind.FOLD)


class Beginner:
    """A loose, passive player (see the module docstring)."""

    level = Level.BEGINNER

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        """A legal decision for the player to act in `view`."""
        if view.street is Street.PREFLOP:
            return self._preflop(view, rng)
        return self._postflop(view, rng)

    def _preflop(self, view: PlayerView, rng: random.Random) -> Decision:
        legal = view.legal
        top = top_fraction(view.hole_cards)
        if top <= 0.03 and (legal.can_raise or legal.can_bet) and rng.random() < 0.7:
            return clamp_raise(legal, 3 * max(view.current_bet, view.big_blind))
        if legal.can_check:
            return _CHECK
        cost = legal.call_amount
        stack = view.stack + view.bets[view.player]
        if top <= 0.08 or (top <= 0.4 and cost <= 0.35 * stack) or (top <= 0.75 and cost <= 0.1 * stack):
            return _CALL
        return _FOLD

    def _postflop(self, view: PlayerView, rng: random.Random) -> Decision:
        legal = view.legal
        made = made_hand(view.hole_cards, view.board)
        draw = has_draw(view.hole_cards, view.board)
        pot_before = view.pot - sum(view.bets)
        if legal.can_check:
            if made >= Made.TOP_PAIR and legal.can_bet and rng.random() < 0.75:
                return clamp_raise(legal, max(view.big_blind, pot_before // 2))
            return _CHECK
        cost = legal.call_amount
        if made is Made.STRONG:
            if legal.can_raise and rng.random() < 0.15:
                return clamp_raise(legal, 2 * view.current_bet + pot_before // 2)
            return _CALL
        if made is Made.TOP_PAIR or (made is Made.WEAK_PAIR and cost <= view.pot) or (draw and cost <= view.pot):
            return _CALL
        if cost * 2 <= pot_before and rng.random() < 0.3:
            return _CALL
        return _FOLD
