"""Whose turn it is, as the Discord layer must say it before opening a form, and clearer refusals for
people who are not in the hand.

The table service refuses every out-of-turn action itself (`TableService.act`); these helpers only answer
early (the Raise… button must refuse *before* showing its modal) and add whose turn it is to the answer
a stranger gets.
"""

from __future__ import annotations

from bot.discord_ui.errors import CommandRefused
from bot.poker import LegalActions, PokerError, Street
from bot.tables import ServiceError, TableService, TableSnapshot


def is_playing(snapshot: TableSnapshot) -> bool:
    """A hand is being played and not yet over."""
    return snapshot.street is not None and snapshot.street != Street.COMPLETE


def ensure_turn(service: TableService, channel_id: int, user_id: int, hand_number: int | None) -> LegalActions:
    """The user's legal actions if it is their turn at the channel's table (and `hand_number`, from a button,
    is the current hand). Raises the same ServiceErrors as `TableService.act` would: no_table, no_hand,
    stale_button, not_in_hand (with whose turn it is: CommandRefused("not_in_hand_turn")), not_your_turn_user."""
    snapshot = service.snapshot(channel_id)
    if not is_playing(snapshot):
        raise ServiceError("no_hand")
    if hand_number is not None and hand_number != snapshot.hand_number:
        raise ServiceError("stale_button")
    legal = service.legal_actions(channel_id, user_id)
    if legal is not None:
        return legal
    if snapshot.actor_user_id is None:
        raise ServiceError("no_hand")
    if not any(seat.user_id == user_id and seat.player is not None for seat in snapshot.seats):
        raise CommandRefused("not_in_hand_turn", actor=snapshot.actor_user_id)
    raise ServiceError("not_your_turn_user", actor=snapshot.actor_user_id)


def explain(error: PokerError, service: TableService, channel_id: int) -> PokerError:
    """A refusal made clearer for the person who pressed or typed: "you're not in this hand" also says whose
    turn it is. Other errors are returned unchanged."""
    if isinstance(error, ServiceError) and error.code == "not_in_hand":
        runner = service.runners.get(channel_id)
        snapshot = runner.snapshot() if runner is not None else None
        if snapshot is not None and is_playing(snapshot) and snapshot.actor_user_id is not None:
            return CommandRefused("not_in_hand_turn", actor=snapshot.actor_user_id)
    return error
