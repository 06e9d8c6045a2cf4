"""Builders of real engine values for the render tests: cards from short text, a hand value from its cards, the
actor's legal actions with everyday defaults. The events themselves are the engine's (`bot.poker`)."""

from __future__ import annotations

from dataclasses import replace

from bot.poker import Card, HandValue, LegalActions, evaluate, parse_cards

#: A player facing a bet who may fold, call (nothing to add unless said), raise to 4..100 or go all-in for 100.
FACING_A_BET = LegalActions(
    player=0,
    can_fold=True,
    can_check=False,
    can_call=True,
    call_amount=0,
    can_bet=False,
    can_raise=True,
    min_raise_to=4,
    max_raise_to=100,
    can_all_in=True,
    all_in_to=100,
)


def cards(text: str) -> tuple[Card, ...]:
    """ "Ah Kd 10c" -> the engine's cards (T or 10 for tens)."""
    return parse_cards(text.replace("10", "T"))


def value(text: str) -> HandValue:
    """The engine's value of the best five-card hand among these 5 to 7 cards: value("Ks Kh Kd 9d 9h")."""
    return evaluate(cards(text))


def legal_actions(**changes: int | bool | None) -> LegalActions:
    """`FACING_A_BET` with `changes` (field=value)."""
    return replace(FACING_A_BET, **changes)  # type: ignore[arg-type]


def strip_vs(text: str) -> str:
    """Text without the invisible U+FE0E after suit symbols, to compare with readable expectations."""
    return text.replace("\ufe0e", "")
