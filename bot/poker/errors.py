"""Engine errors: one `PokerError` base with a stable code, parameters for translation and an English text.

House style point 4: a refused action raises a `PokerError` subclass whose `str()` is safe and useful
to show a user ("Minimum raise is to 22", "You can't check: 6 to call"). The render layer translates
by `code` with `params`; the English `str()` is the fallback. A refused action never changes the
hand (every check happens before any state is touched).
"""

from __future__ import annotations

__all__ = [
    "DealingError",
    "HandOverError",
    "IllegalActionError",
    "InvalidAmountError",
    "InvalidSetupError",
    "NotYourTurnError",
    "PokerError",
    "TableError",
]

#: English message templates by code; `{name}` fields come from `params`.
MESSAGES: dict[str, str] = {
    # actions
    "not_your_turn": "It is not your turn: player {actor} is to act",
    "no_player_to_act": "Nobody is to act now",
    "hand_over": "The hand is over",
    "no_run_twice_question": "There is no run-it-twice question for you to answer now",
    "cannot_show": "You can't show these cards now",
    "cannot_check": "You can't check: {to_call} to call",
    "nothing_to_call": "There is nothing to call: you can check",
    "cannot_fold": "There is no bet to fold to: you can check",
    "bet_facing_bet": "There is already a bet of {current_bet}: call or raise",
    "no_bet_to_raise": "There is no bet to raise: bet instead",
    "min_bet": "Minimum bet is {amount}",
    "min_raise": "Minimum raise is to {amount}",
    "amount_above_stack": "You can't go above {amount} (all-in)",
    "raise_not_reopened": "Betting was not reopened: you can only call {to_call} or fold",
    "no_one_to_raise": "Everyone else is all-in: you can only call {to_call} or fold",
    "stack_covers_only_call": "Your stack only covers a call: call {to_call} (all-in) or fold",
    "invalid_amount": "The amount must be a whole number of chips",
    "amount_required": "Say how much: an amount is needed for {action}",
    "unknown_action": "Unknown action {action}",
    # setup
    "player_count": "A hand needs 2 to 10 players, not {count}",
    "invalid_stack": "Stacks must be whole numbers of chips above zero",
    "invalid_settings": "Invalid table settings: {detail}",
    "invalid_deck": "Invalid deck: {detail}",
    # explicit dealing and replay
    "dealing": "Dealing error: {detail}",
    "unknown_hole_cards": "Player {player}'s hole cards are unknown (????) but the showdown needs them",
    # table
    "table": "{detail}",
}


class PokerError(Exception):
    """Base of every engine error.

    Attributes:
        code: a stable identifier for translation, e.g. "min_raise".
        params: values for the message, e.g. {"amount": 22}; ints are chips, players are indexes
            (hand player index, 0 = first seat left of the button) unless the name says seat.

    `str(error)` is the English message, safe to show to the player.
    """

    def __init__(self, code: str, message: str | None = None, **params: int | str) -> None:
        self.code = code
        self.params: dict[str, int | str] = dict(params)
        if message is None:
            template = MESSAGES.get(code, code)
            try:
                message = template.format(**params)
            except (KeyError, IndexError):
                message = template
        super().__init__(message)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {str(self)!r}, params={self.params!r})"


class IllegalActionError(PokerError):
    """The action is not allowed now (e.g. checking facing a bet, raising when betting was not reopened)."""


class NotYourTurnError(IllegalActionError):
    """Someone other than the player to act tried to act. params: actor, player."""


class InvalidAmountError(PokerError):
    """The amount of a bet or raise is not allowed (below the minimum, above the stack, not an int)."""


class HandOverError(PokerError):
    """The hand is complete: no more actions."""


class InvalidSetupError(PokerError):
    """A hand or table cannot be built from these settings, stacks or deck."""


class DealingError(PokerError):
    """Explicitly dealt or shown cards are wrong (duplicate, wrong count, not what was dealt, unknown
    cards needed at a showdown), or a dealing step came at the wrong time (hand-history replay)."""


class TableError(PokerError):
    """A table operation is refused (seat taken or empty, not enough players, hand in progress ...)."""
