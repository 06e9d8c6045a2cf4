"""Acting in advance (issue 16): while another player is to act, a player in the hand may choose privately what to
do when their turn comes — Check/Fold, Check, or Call N — or nothing.

A choice is kept for one player until their turn comes, the street changes, or it can no longer be played as
chosen; it is never shown to anyone else. When their turn comes it is played at once through the same path as a
press (the same write-ahead and announcements). Rules:

- **Check/Fold**: check when checking is free, else fold.
- **Check**: check when free; facing a bet, the choice is dropped and the player decides.
- **Call N**: call while the amount to call is still N; as soon as it changes (a raise, a new street) the choice
  is cancelled and the player decides.

Pure: plain values in, the action kind out; the table's runner keeps the choices and plays them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bot.poker import ActionKind, Hand, LegalActions

__all__ = ["PreAction", "PreChoice", "advance_call", "resolve", "still_valid"]


class PreAction(StrEnum):
    """What a player chose in advance."""

    CHECK_FOLD = "check_fold"
    CHECK = "check"
    CALL = "call"


@dataclass(frozen=True)
class PreChoice:
    """A choice made in advance: the action, and for CALL the amount to call it was made for (chips); street: the
    street it was made on (a choice does not outlive its street)."""

    action: PreAction
    street: int
    amount: int | None = None

    def to_json(self) -> dict[str, Any]:
        """{"action": ..., "street": ..., "amount": ...}."""
        return {"action": self.action.value, "street": self.street, "amount": self.amount}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PreChoice:
        """Inverse of `to_json`."""
        amount = data.get("amount")
        return cls(PreAction(data["action"]), int(data["street"]), None if amount is None else int(amount))


def resolve(choice: PreChoice, legal: LegalActions, street: int) -> ActionKind | None:
    """The action to play for `choice` now that it is its player's turn (`legal`: their `LegalActions`, on
    `street`), or None when the choice no longer applies (it is dropped and the player decides)."""
    if choice.street != street:
        return None
    if choice.action is PreAction.CHECK_FOLD:
        return ActionKind.CHECK if legal.can_check else ActionKind.FOLD
    if choice.action is PreAction.CHECK:
        return ActionKind.CHECK if legal.can_check else None
    if legal.can_call and legal.call_amount == choice.amount:
        return ActionKind.CALL
    return None


def still_valid(choice: PreChoice, call_amount: int, street: int) -> bool:
    """Whether a choice still stands after an action of someone else: a Call N is cancelled as soon as the amount
    the player would have to call is no longer N; any choice ends with its street."""
    if choice.street != street:
        return False
    return choice.action is not PreAction.CALL or call_amount == choice.amount


def advance_call(hand: Hand | None, player: int | None) -> int | None:
    """Chips `player` would call now, while they may act in advance in `hand`: they are in the hand being played,
    another player is to act, and they can still act (not folded, chips behind); else None."""
    if hand is None or hand.is_complete or player is None or hand.actor in (None, player):
        return None
    if hand.folded[player] or hand.stacks[player] == 0:
        return None
    return min(hand.current_bet - hand.bets[player], hand.stacks[player])
