"""The solid player: position-aware starting hands, then equity against the opponents' likely hands versus
the pot odds, sized bets, a few bluffs and semi-bluffs, and push-or-fold when stacks are short (issue 17).

Before the flop it plays from ranges (the top x % of starting hands, `ranges.top_fraction`): it opens wider
the fewer players are left to act behind it, raises 2.5 big blinds plus one per limper, three-bets its best
hands, defends its big blind wider when the price is good, and with 12 big blinds or less it moves all-in or
folds. After the flop each opponent still in is given a likely range from what they did (a raiser before the
flop holds the top 20 %, a caller the top 35 %, ...; a bet or raise after the flop keeps the hands that
connect with the board), and `bot.poker.equity.equity_vs_range` estimates its share of the pot against them.
It bets for value at two thirds of the pot with 60 % or more, calls when its equity beats the pot odds,
raises with 75 % or more, semi-bluffs its draws now and then, and bluffs rarely when heads-up or three-way.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import cache
from itertools import combinations

from bot.poker.cards import CARDS, Card
from bot.poker.equity import equity_vs_random, equity_vs_range
from bot.poker.events import ActionKind, Street
from bot.poker.players.base import Decision, Level, clamp_raise
from bot.poker.players.ranges import chen_score, top_fraction
from bot.poker.players.reading import has_draw
from bot.poker.players.view import PlayerView

__all__ = ["Solid", "connects", "likely_range", "top_range"]

_CHECK = Decision(ActionKind.CHECK)
_CALL = Decision(ActionKind.CALL)
_FOLD = Decision(ActionKind.FOLD)
_ALL_IN = Decision(ActionKind.ALL_IN)

#: The fraction of starting hands opened, by the number of players left to act behind (blinds included).
_OPEN_BY_BEHIND = {1: 0.5, 2: 0.45, 3: 0.3, 4: 0.22, 5: 0.17}
_OPEN_EARLY = 0.12
#: Effective stack (in big blinds) at or under which it moves all-in or folds before the flop.
_PUSH_FOLD_BB = 12
#: Monte Carlo deals per equity estimate: a 95 % margin of about ±6 %, a few milliseconds.
TRIALS = 250

#: The fewest combinations a likely range is narrowed to.
_MIN_RANGE = 60

Combo = tuple[Card, Card]


@cache
def _by_strength() -> tuple[Combo, ...]:
    return tuple(sorted(combinations(CARDS, 2), key=lambda c: -chen_score(*c)))


def top_range(fraction: float) -> tuple[Combo, ...]:
    """The strongest `fraction` (0..1] of the 1,326 starting hands, strongest first."""
    combos = _by_strength()
    return combos[: max(1, math.ceil(fraction * len(combos)))]


def connects(combo: Combo, board: Sequence[Card]) -> bool:
    """A hand a player bets after the flop: a pair with the board or in the hand, a flush or its draw, an ace."""
    ranks = {card.rank for card in board}
    first, second = combo
    if first.rank == second.rank or first.rank in ranks or second.rank in ranks or 14 in (first.rank, second.rank):
        return True
    for suit in {first.suit, second.suit}:
        own = (first.suit == suit) + (second.suit == suit)
        if own + sum(card.suit == suit for card in board) >= 4:
            return True
    return False


def likely_range(view: PlayerView, opponent: int) -> list[Combo]:
    """The hands `opponent` likely holds, judged from their public actions in this hand (module docstring)."""
    preflop = view.actions_on(Street.PREFLOP)
    raises_before = 0
    fraction = 1.0
    for action in preflop:
        if action.player == opponent:
            if action.raised:
                fraction = min(fraction, 0.2 if raises_before == 0 else 0.06)
            elif action.kind is ActionKind.CALL:
                fraction = min(fraction, 0.35 if raises_before else 0.7)
        if action.raised:
            raises_before += 1
    combos = [c for c in top_range(fraction) if c[0] not in view.hole_cards and c[1] not in view.hole_cards]
    board = view.board
    aggression = sum(1 for a in view.history if a.player == opponent and a.street is not Street.PREFLOP and a.raised)
    if aggression and board:
        narrowed = [c for c in combos if connects(c, board) and c[0] not in board and c[1] not in board]
        if aggression > 1:
            board_ranks = {b.rank for b in board}
            made = [
                c for c in narrowed if c[0].rank in board_ranks or c[1].rank in board_ranks or c[0].rank == c[1].rank
            ]
            narrowed = made or narrowed
        # Never narrow to a handful: several narrow ranges could leave no deal without a shared card.
        kept = set(narrowed)
        combos = narrowed + [c for c in combos if c not in kept][: max(0, _MIN_RANGE - len(narrowed))]
    shown = view.shown[opponent]
    if len(shown) == 2:
        return [(shown[0], shown[1])]
    return combos


def _behind_preflop(view: PlayerView) -> int:
    """How many players act after this one before the flop (blinds included)."""
    n = view.player_count
    if n == 2:
        return 1
    order = [*range(2, n), 0, 1]
    return len(order) - 1 - order.index(view.player)


class Solid:
    """A tight, aggressive player that decides from equity and pot odds (see the module docstring).

    Args:
        trials: Monte Carlo deals per equity estimate (fewer is faster and rougher).
    """

    level = Level.SOLID

    def __init__(self, trials: int = TRIALS) -> None:
        self.trials = trials

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        """A legal decision for the player to act in `view`."""
        if view.street is Street.PREFLOP:
            return self._preflop(view, rng)
        return self._postflop(view, rng)

    # ------------------------------------------------------------------ before the flop

    def _preflop(self, view: PlayerView, rng: random.Random) -> Decision:
        legal = view.legal
        bb = view.big_blind
        top = top_fraction(view.hole_cards)
        mine = view.stack + view.bets[view.player]
        deepest = max(view.stacks[i] + view.bets[i] for i in view.opponents)
        effective = min(mine, deepest) / bb
        actions = view.actions_on(Street.PREFLOP)
        raises = sum(1 for a in actions if a.raised)
        limpers = sum(1 for a in actions if a.kind is ActionKind.CALL) if raises == 0 else 0
        can_raise = legal.can_raise or legal.can_bet
        open_range = 0.8 if view.player_count == 2 else _OPEN_BY_BEHIND.get(_behind_preflop(view), _OPEN_EARLY)
        if effective <= _PUSH_FOLD_BB:
            push = min(1.0, open_range * 1.4) if raises == 0 else 0.12 + 0.1 * (effective <= 6)
            if top <= push:
                return _ALL_IN if legal.can_all_in else (_CALL if legal.can_call else _CHECK)
            return _CHECK if legal.can_check else _FOLD
        if raises == 0 or legal.can_check:
            if top <= open_range and can_raise:
                return clamp_raise(legal, int(2.5 * bb) + limpers * bb)
            if legal.can_check:
                return _CHECK
            if legal.call_amount * 2 <= bb and top <= 0.55:
                return _CALL  # the small blind completes with a playable hand
            return _FOLD
        cost = legal.call_amount
        price = cost / (view.pot + cost)
        if raises == 1:
            opener_wide = view.player_count == 2 or _behind_preflop(view) <= 2
            if top <= (0.07 if opener_wide else 0.04) and can_raise:
                in_position = view.player == view.button
                return clamp_raise(legal, int(view.current_bet * (3 if in_position else 3.5)))
            defend = 0.2
            if view.player == (0 if view.player_count == 2 else 1):
                defend = 0.55 if price <= 0.3 else 0.35  # the big blind, with a good price
            if cost > 0.2 * mine:
                defend = min(defend, 0.06)
            if top <= defend:
                return _CALL
            return _FOLD
        if top <= 0.025 and can_raise:
            total = int(view.current_bet * 2.3)
            return _ALL_IN if total > 0.4 * mine and legal.can_all_in else clamp_raise(legal, total)
        if top <= 0.05 and cost <= 0.25 * mine:
            return _CALL
        return _FOLD

    # ------------------------------------------------------------------ after the flop

    def equity(self, view: PlayerView, rng: random.Random) -> float:
        """This player's share of the pot against the opponents' likely ranges (0..1, Monte Carlo)."""
        ranges = [likely_range(view, opponent) for opponent in view.opponents]
        try:
            return equity_vs_range(view.hole_cards, ranges, view.board, rng=rng, trials=self.trials).share
        except ValueError:  # the ranges together leave no deal: judge against random hands instead
            return equity_vs_random(view.hole_cards, len(ranges), view.board, rng=rng, trials=self.trials).share

    def _postflop(self, view: PlayerView, rng: random.Random) -> Decision:
        legal = view.legal
        equity = self.equity(view, rng)
        pot = view.pot
        draw = has_draw(view.hole_cards, view.board)
        late = view.street is Street.RIVER
        opponents = len(view.opponents)
        can_raise = legal.can_raise or legal.can_bet
        if legal.can_check:
            if not can_raise:
                return _CHECK
            if equity >= 0.6:
                size = 0.75 if late and equity >= 0.8 else 0.66
                return self._bet(view, int(pot * size))
            if draw and not late and rng.random() < 0.35:
                return self._bet(view, int(pot * 0.6))
            if equity < 0.3 and opponents <= 2 and rng.random() < (0.06 if late else 0.1):
                return self._bet(view, int(pot * 0.6))
            return _CHECK
        cost = legal.call_amount
        price = cost / (pot + cost)
        if equity >= 0.75 and can_raise:
            return self._raise(view, pot, cost)
        if draw and view.street is Street.FLOP and can_raise and rng.random() < 0.12:
            return self._raise(view, pot, cost)
        implied = 0.05 if draw and not late else 0.0
        if equity + implied >= price + 0.03:
            return _CALL
        return _FOLD

    def _bet(self, view: PlayerView, size: int) -> Decision:
        """Bet `size` chips (at least the big blind); all-in when what would be left is small beside the pot."""
        size = max(size, view.big_blind)
        if view.stack - size < 0.5 * (view.pot + 2 * size) and view.legal.can_all_in:
            return _ALL_IN
        return clamp_raise(view.legal, size)

    def _raise(self, view: PlayerView, pot: int, cost: int) -> Decision:
        total = view.current_bet + int(0.8 * (pot + cost))
        added = total - view.bets[view.player]
        if view.stack - added < 0.5 * (pot + 2 * added) and view.legal.can_all_in:
            return _ALL_IN
        return clamp_raise(view.legal, total)
