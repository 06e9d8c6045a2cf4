"""What a table shows without taking its lock: pictures of now (the public snapshot, an immutable view of the
state) and the answers the Discord layer needs before it acts (whose turn, the legal actions, the amounts to
offer, the hole cards, missed blinds, the time bank, choices made in advance, the coach's facts).

`TableReader` is the read side of `TableRunner` (bot/tables/runner.py, which adds the lock and the operations,
operation.py, and the clockwork, clockwork.py): every method here reads the runner's state as it is now and changes
nothing.
"""

from __future__ import annotations

from typing import Any

from bot.poker import ActionKind, Card, LegalActions
from bot.poker.coach import CoachFacts
from bot.tables.computers import coach_facts_of
from bot.tables.core import TableCore
from bot.tables.errors import ServiceError
from bot.tables.hands import Hands
from bot.tables.notifier import TableSnapshot
from bot.tables.preactions import PreChoice
from bot.tables.seating import Seating
from bot.tables.state import TableIds, TableView
from bot.tables.timebank_turn import TimeBankTurn


class TableReader:
    """The lock-free reads of one table (see the module docstring). Users are Discord user ids (ints); chips are
    ints."""

    def __init__(self, core: TableCore, hands: Hands, seating: Seating, time_bank: TimeBankTurn) -> None:
        self._core = core
        self._state = core.state
        self._hands = hands
        self._seating = seating
        self._time_bank = time_bank

    @property
    def ids(self) -> TableIds:
        """Who the table is (storage id, server, channel, host)."""
        return self._state.ids

    @property
    def closed(self) -> bool:
        """The table is closed (ended, or a tournament won)."""
        return self._state.closed

    @property
    def language(self) -> str:
        """The language of the table's public messages ("en"/"fr")."""
        return self._state.language

    def view(self) -> TableView:
        """An immutable copy of the table's state now (see `TableView`); the public picture is `snapshot`."""
        return self._state.view()

    def snapshot(self) -> TableSnapshot:
        """The public picture of the table's current version (no hole cards): the same immutable object for every
        reader until the state changes; while a change is being stored, a picture of it for this caller alone
        (docs/architecture.md, "The table's snapshots")."""
        return self._core.snapshot()

    def player_names(self) -> tuple[str, ...]:
        """Display names of the current hand's players by hand player index (empty between hands)."""
        return tuple(self._state.name(u) for u in self._state.hand_users)

    def legal_actions_for(self, user_id: int) -> LegalActions | None:
        """The user's options if it is their turn, else None."""
        hand = self._state.hand
        player = self._state.player_of(user_id)
        if hand is None or player is None or hand.actor != player:
            return None
        return hand.legal_actions()

    def hole_cards(self, user_id: int) -> tuple[Card, ...]:
        """The user's hole cards in the current hand. Raises ServiceError("no_hand" / "not_in_hand")."""
        hand = self._state.hand
        if hand is None:
            raise ServiceError("no_hand")
        player = self._state.player_of(user_id)
        if player is None:
            raise ServiceError("not_in_hand")
        return tuple(hand.hole_cards[player])

    def check_turn(self, user_id: int, hand_number: int | None = None) -> LegalActions:
        """The user's legal actions if it is their turn now (and `hand_number`, from a button, is the current
        hand). Raises ServiceError: table_closed, no_hand, stale_button, not_in_hand, not_your_turn_user.
        The one turn check: `act` uses it, and the Discord layer before opening the raise form."""
        self._hands.check_turn(user_id, hand_number)
        hand = self._state.hand
        assert hand is not None
        return hand.legal_actions()

    def amount_suggestions(self, user_id: int) -> list[tuple[str, int]]:
        """Amounts to offer for /bet and /raise: (label key, total) for the minimum, half pot, pot and
        all-in, within the legal range, without duplicates; empty when it is not the user's turn or they
        cannot bet or raise."""
        return self._hands.amount_suggestions(user_id)

    def check_expected(self, kind: ActionKind, amount: int | None, expected: int) -> None:
        """Refuse an action whose button named an amount that is no longer the amount (an older message, or
        a raise in between): a call of N chips, an all-in to N, a bet or raise to N. Raises ServiceError
        "call_changed" / "all_in_changed" / "amount_changed" with the current `amount`; never plays the
        action for another amount. Other kinds carry no amount and pass."""
        self._hands.check_expected(kind, amount, expected)

    def state_json(self) -> dict[str, Any]:
        """The runner's state beyond seats and stacks (which storage keeps in table_seats)."""
        return self._state.to_json()

    def blinds_owed(self, user_id: int) -> tuple[int, int] | None:
        """Missed blinds: (live big blind, dead chips) the user would post to play the next hand, or None when
        they owe nothing (or already chose)."""
        return self._seating.blinds_owed(user_id)

    def time_bank_left(self, user_id: int) -> float:
        """Seconds left in the user's time bank (0 at a table without one)."""
        return self._time_bank.left(user_id)

    def pre_action_offer(self, user_id: int) -> tuple[int, int] | None:
        """(hand number, chips the user would call now) while they may act in advance: they are in the hand
        being played, another player is to act, and they can still act (not folded, chips behind); else None."""
        return self._hands.pre_action_offer(user_id)

    def pre_action_of(self, user_id: int) -> PreChoice | None:
        """The user's choice made in advance, if any (shown to them alone)."""
        return self._state.pre_actions.get(user_id)

    def coach_facts(self, user_id: int) -> CoachFacts | None:
        """The coach's facts for the user on their turn when their coach is on, else None (no lock: a picture)."""
        return coach_facts_of(self._state, user_id)
