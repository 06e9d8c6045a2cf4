"""Engine errors: one `PokerError` base with a stable code and parameters — and no sentence for a player.

docs/architecture.md, Conventions 4 and "Refusals and their texts": a refused action raises a `PokerError` subclass
with a `code` and `params`; `CODES` lists every code the engine raises with the params it carries. The text a
player reads is the catalogue's alone (`error.<code>` in bot/render/locales/en.json and fr.json, rendered in the
reader's language by `bot.render.render_poker_error`): the engine reads no file, so it holds no copy of those
texts. `str(error)` is a neutral developer message built from the code and params (`min_raise (amount=22)`), for
logs, tracebacks and the command line. A refused action never changes the hand (every check happens before any
state is touched).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = [
    "CODES",
    "DealingError",
    "HandOverError",
    "IllegalActionError",
    "InvalidAmountError",
    "InvalidSetupError",
    "NotYourTurnError",
    "PokerError",
    "TableError",
    "developer_message",
]

#: Every code the engine raises, with the params it carries (ints are chips; `actor`, `player`: hand player
#: indexes, 0 = first seat left of the button; `count`: players; `action`: an action kind; `detail`: a developer's
#: English detail, never shown to a player). The catalogue writes each as `error.<code>` in both languages, using
#: only these params (tests/render/test_engine_error_texts.py).
CODES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        # actions
        "not_your_turn": ("actor", "player"),
        "no_player_to_act": (),
        "hand_over": (),
        "no_run_twice_question": (),
        "cannot_show": (),
        "cannot_check": ("to_call",),
        "nothing_to_call": (),
        "cannot_fold": (),
        "bet_facing_bet": ("current_bet",),
        "no_bet_to_raise": (),
        "min_bet": ("amount",),
        "min_raise": ("amount",),
        "pot_limit_bet": ("amount",),
        "pot_limit_raise": ("amount",),
        "fixed_limit_bet": ("amount",),
        "fixed_limit_raise": ("amount",),
        "raise_capped": ("to_call",),
        "amount_above_stack": ("amount",),
        "raise_not_reopened": ("to_call",),
        "no_one_to_raise": ("to_call",),
        "stack_covers_only_call": ("to_call",),
        "invalid_amount": (),
        "amount_required": ("action",),
        "unknown_action": ("action",),
        # setup
        "player_count": ("count",),
        "invalid_stack": (),
        "invalid_settings": ("detail",),
        "invalid_deck": ("detail",),
        # explicit dealing and replay
        "dealing": ("detail",),
        "unknown_hole_cards": ("player",),
        # table
        "table": ("detail",),
    }
)


def developer_message(code: str, params: Mapping[str, int | str]) -> str:
    """The neutral developer message of an error: its code, then its `detail` and other params
    ("min_raise (amount=22)", "dealing: the board is complete")."""
    detail = params.get("detail")
    others = ", ".join(f"{key}={value!r}" for key, value in params.items() if key != "detail")
    return code + (f": {detail}" if detail is not None else "") + (f" ({others})" if others else "")


class PokerError(Exception):
    """Base of every engine error.

    Attributes:
        code: a stable identifier, the catalogue's `error.<code>` (e.g. "min_raise"); the engine's are `CODES`.
        params: values for the catalogue's text, e.g. {"amount": 22}; ints are chips, players are indexes
            (hand player index, 0 = first seat left of the button) unless the name says seat.

    `str(error)` is `message` when given (a layer that reads the catalogue, like the table service, passes its
    English text), else `developer_message(code, params)`: never a sentence meant for a player.
    """

    def __init__(self, code: str, message: str | None = None, **params: int | str) -> None:
        self.code = code
        self.params: dict[str, int | str] = dict(params)
        super().__init__(developer_message(code, self.params) if message is None else message)

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
