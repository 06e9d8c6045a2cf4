"""Whose turn it is, as the Discord layer must say it before opening a form, and clearer refusals for
people who are not in the hand.

The table service refuses every out-of-turn action itself (`TableRunner.act`); these helpers only answer
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
    is the current hand): the service's own turn check (`TableRunner.check_turn`), with `explain` added to
    a refusal for someone who is not in the hand."""
    try:
        return service.get(channel_id).check_turn(user_id, hand_number)
    except PokerError as error:
        raise explain(error, service, channel_id) from error


def explain(error: PokerError, service: TableService, channel_id: int) -> PokerError:
    """A refusal made clearer for the person who pressed or typed: "you're not in this hand" also says whose
    turn it is. Other errors are returned unchanged."""
    if isinstance(error, ServiceError) and error.code == "not_in_hand":
        runner = service.find(channel_id)
        snapshot = runner.snapshot() if runner is not None else None
        if snapshot is not None and is_playing(snapshot) and snapshot.actor_user_id is not None:
            return CommandRefused("not_in_hand_turn", actor=snapshot.actor_user_id)
    return error
