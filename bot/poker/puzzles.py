"""Decision puzzles (issue 17): a spot from a real hand, frozen at one player's decision, and what the numbers say.

A `Spot` is plain data (it ships as JSON, bot/tables/puzzles.json, made by scripts/make_puzzles.py from the
public MIT-licensed hand histories and the rule book 001's K♣9♦ example): the table size and positions, the big
blind, the stacks, the public action so far, the board, the decider's hole cards, the pot and the call, and the
range stated for the opponent. `assess(spot)` answers which of fold / call / raise the numbers favour: calling
pays when the equity against that range beats the pot odds; raising is favoured too with a strong equity (a
value raise); below the pot odds, folding. Pure: no I/O.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bot.poker.cards import Card, format_cards, parse_cards
from bot.poker.equity import equity_vs_range
from bot.poker.events import Street
from bot.poker.players.solid import connects, top_range

__all__ = ["VALUE_RAISE_EQUITY", "Answer", "Assessment", "Spot", "assess", "position_names"]

#: From this share of the pot against the stated range on, a raise is favoured as well as a call.
VALUE_RAISE_EQUITY = 0.6


class Answer(StrEnum):
    """A puzzle's answers (the buttons)."""

    FOLD = "fold"
    CALL = "call"
    RAISE = "raise"


def position_names(players: int) -> tuple[str, ...]:
    """Position names by hand index (0 = first left of the button): SB, BB, UTG, UTG+1, ..., HJ, CO, BTN;
    heads-up BB, BTN/SB (rule book 002: "En heads-up, le bouton poste la petite blinde et parle en premier
    préflop"). Rule book 002's names, which its French text uses too."""
    if players == 2:
        return ("BB", "BTN/SB")
    middle = players - 3  # seats between the big blind and the button
    late = ["HJ", "CO"][-middle:] if middle >= 1 else []
    early = ["UTG", *[f"UTG+{k}" for k in range(1, max(0, middle - 2))]][: max(0, middle - len(late))]
    return ("SB", "BB", *early, *late, "BTN")


@dataclass(frozen=True, slots=True)
class Spot:
    """One decision, as the player to decide saw it. Chips are ints (`big_blind` gives the scale).

    Attributes:
        key: a stable id ("rulebook-001", "phh-real-dev-27").
        source: where the hand comes from (licence credit in bot/tables/PUZZLES.md).
        players: the table size; decider / opponent: hand indexes (0 = first left of the button) of the player
            to decide and of the last bettor or raiser they face.
        big_blind: the big blind in chips.
        stacks: chips behind each player at the decision (hand index order).
        actions: the public action so far as (street, player, kind, amount) rows, kind one of fold, check,
            call, bet, raise; amount: the total for a bet or raise, the chips added for a call, else None. Forced
            bets are left out (the blinds are known from the positions).
        board: the community cards; street: the street of the decision.
        hole: the decider's two hole cards.
        pot: every chip in the middle; to_call: chips the decider must add to call; min_raise_to: the smallest
            raise total.
        range_fraction: the opponent's stated range, the top fraction of starting hands (0.2 = top 20 %),
            narrowed after the flop to hands that connect with the board as `bot.poker.players.solid` does.
        played: what the decider really did ("fold", "call", "raise").
    """

    key: str
    source: str
    players: int
    decider: int
    opponent: int
    big_blind: int
    stacks: tuple[int, ...]
    actions: tuple[tuple[Street, int, str, int | None], ...]
    board: tuple[Card, ...]
    street: Street
    hole: tuple[Card, ...]
    pot: int
    to_call: int
    min_raise_to: int | None
    range_fraction: float
    played: str

    @property
    def pot_odds(self) -> float:
        """The share of the final pot a call must win: to_call / (pot + to_call)."""
        return self.to_call / (self.pot + self.to_call)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (cards as text, streets as names)."""
        return {
            "key": self.key,
            "source": self.source,
            "players": self.players,
            "decider": self.decider,
            "opponent": self.opponent,
            "big_blind": self.big_blind,
            "stacks": list(self.stacks),
            "actions": [[street.name.lower(), p, kind, amount] for street, p, kind, amount in self.actions],
            "board": format_cards(self.board),
            "street": self.street.name.lower(),
            "hole": format_cards(self.hole),
            "pot": self.pot,
            "to_call": self.to_call,
            "min_raise_to": self.min_raise_to,
            "range_fraction": self.range_fraction,
            "played": self.played,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Spot:
        """Inverse of `to_json`. Raises KeyError/ValueError on malformed data."""
        return cls(
            key=str(data["key"]),
            source=str(data["source"]),
            players=int(data["players"]),
            decider=int(data["decider"]),
            opponent=int(data["opponent"]),
            big_blind=int(data["big_blind"]),
            stacks=tuple(int(s) for s in data["stacks"]),
            actions=tuple(
                (Street[street.upper()], int(p), str(kind), None if amount is None else int(amount))
                for street, p, kind, amount in data["actions"]
            ),
            board=parse_cards(data["board"]),
            street=Street[str(data["street"]).upper()],
            hole=parse_cards(data["hole"]),
            pot=int(data["pot"]),
            to_call=int(data["to_call"]),
            min_raise_to=None if data["min_raise_to"] is None else int(data["min_raise_to"]),
            range_fraction=float(data["range_fraction"]),
            played=str(data["played"]),
        )


@dataclass(frozen=True, slots=True)
class Assessment:
    """What the numbers say about a spot: pot odds and equity (fractions), the favoured answers, the margin."""

    pot_odds: float
    equity: float
    margin: float
    favoured: tuple[Answer, ...]


def _range(spot: Spot) -> list[tuple[Card, Card]]:
    """The opponent's stated range with the known cards removed (the same range model as the solid player)."""
    dead = set(spot.hole) | set(spot.board)
    combos = [c for c in top_range(spot.range_fraction) if c[0] not in dead and c[1] not in dead]
    if spot.board:
        narrowed = [c for c in combos if connects(c, spot.board)]
        combos = narrowed if len(narrowed) >= 20 else combos
    return combos


def assess(spot: Spot, *, rng: random.Random | None = None, trials: int = 4000) -> Assessment:
    """Equity of the decider's hand against the opponent's stated range (Monte Carlo, `trials` deals), against
    the pot odds; the favoured answers (see the module docstring)."""
    odds = equity_vs_range(spot.hole, [_range(spot)], spot.board, rng=rng or random.Random(spot.key), trials=trials)
    equity = odds.share
    if equity < spot.pot_odds:
        favoured: Sequence[Answer] = (Answer.FOLD,)
    elif equity >= VALUE_RAISE_EQUITY and spot.min_raise_to is not None:
        favoured = (Answer.RAISE, Answer.CALL)
    else:
        favoured = (Answer.CALL,)
    return Assessment(spot.pot_odds, equity, odds.margin, tuple(favoured))
