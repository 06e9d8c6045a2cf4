"""Showing cards by choice after a hand (issue 15): a player of the hand just ended whose cards were not shown at
the showdown (they folded, won without a showdown, or mucked) may show one or both of them, until the next hand
is dealt.

What the rule book says, and how it is kept:

- Rule book 000 §01 and 002 (hand's end): the last player left wins "sans montrer ses cartes", and at the
  showdown a losing hand may be mucked (002): showing is a choice, never owed; `Hand.verify_show_by_choice`
  is the engine's rule (one or two of the player's own cards, not shown already, hand not shown at showdown).
- Rule book 002 (etiquette): "ne révélez pas des cartes jetées tant que le coup n'est pas terminé": cards are
  shown only once the hand is over, never during it (`show_not_over`).
- "Show one, show all": the rule books say nothing about it. The card-room rule (cards shown to one player are
  shown to the whole table) holds by construction: a show is always the public line "Alice shows A♠ K♦" in the
  table's channel, in `/history` for everyone and in the PHH export; there is no showing to one player.
- How long: the issue's "pause before the next hand". A show is accepted while the hand is the table's last one
  (until the next hand is dealt, however long the pause; the table closing ends it too), enforced where it is
  stored (`Storage.show_cards`).

Write-ahead (docs/outbox.md): the show is appended to the finished hand's action log (``{"player", "kind":
"show", "cards": ["Ah"], "at", "by"}``, replayed by `record.replay_actions`) in one transaction with the public
line it owes (an outbox row ``{"type": "shown", ...}``); only then is the line delivered. `Shows` works on the
runner's `TableCore`, inside one of the runner's operations (under its lock).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.poker import Card, Hand
from bot.poker.errors import IllegalActionError
from bot.poker.events import ShownByChoice
from bot.poker.visibility import shown_players
from bot.tables.core import TableCore
from bot.tables.errors import ServiceError
from bot.tables.kinds import ActionBy, OutboxKind
from bot.tables.notifier import CardsShown
from bot.tables.outbox import Owed, decode_cards, encode_cards, new_key
from bot.tables.record import SHOW, replay, stored_hand

__all__ = ["CardsShown", "Shows", "decode_shown", "encode_shown"]


def encode_shown(shown: CardsShown) -> dict[str, Any]:
    """The outbox payload of a show's public line (docs/outbox.md): ``{"type": "shown", ...}``."""
    return {
        "type": OutboxKind.SHOWN,
        "hand_number": shown.hand_number,
        "user_id": shown.user_id,
        "name": shown.name,
        "cards": encode_cards(shown.cards),
    }


def decode_shown(payload: Mapping[str, Any]) -> CardsShown:
    """The `CardsShown` of a payload `encode_shown` wrote. Raises KeyError / ValueError on another shape."""
    return CardsShown(
        int(payload["hand_number"]), int(payload["user_id"]), str(payload["name"]), decode_cards(payload["cards"])
    )


@dataclass(frozen=True)
class _Showable:
    """A finished hand a player may still show cards of: its storage id, the hand replayed (earlier shows
    included), the player's index and their cards not shown yet."""

    hand_id: int
    hand: Hand
    player: int
    hidden: tuple[Card, ...]


class Shows:
    """Shows by choice at one table (see the module docstring)."""

    def __init__(self, core: TableCore) -> None:
        self._core = core
        self._state = core.state

    async def _showable(self, user_id: int, hand_number: int) -> _Showable:
        """Hand `hand_number` as `user_id` may still show cards of it, or the refusal that says why not."""
        state, core = self._state, self._core
        state.check_open()
        if hand_number > state.hand_number or (hand_number == state.hand_number and state.hand is not None):
            raise ServiceError("show_not_over", number=hand_number)
        if hand_number < state.hand_number:
            raise ServiceError("show_too_late", number=hand_number)
        row = await core.storage.hand_by_number(state.ids.table_id, hand_number)
        if row is None or row.ended_at is None:
            raise ServiceError("show_not_over", number=hand_number)
        users = stored_hand(row).users
        if user_id not in users:
            raise ServiceError("show_not_dealt", number=hand_number)
        player = users.index(user_id)
        hand = replay(row)
        if player in shown_players(hand):
            raise ServiceError("show_at_showdown", number=hand_number)
        already = {c for e in hand.events if isinstance(e, ShownByChoice) and e.player == player for c in e.cards}
        hidden = tuple(c for c in hand.hole_cards[player] if c not in already)
        if not hidden:
            raise ServiceError("show_already", number=hand_number)
        return _Showable(row.id, hand, player, hidden)

    async def hidden_cards(self, user_id: int, hand_number: int) -> tuple[tuple[int, Card], ...]:
        """See `TableRunner.cards_to_show`."""
        showable = await self._showable(user_id, hand_number)
        hole = showable.hand.hole_cards[showable.player]
        return tuple((i, card) for i, card in enumerate(hole) if card in showable.hidden)

    async def show(self, user_id: int, hand_number: int, which: Sequence[int]) -> CardsShown:
        """See `TableRunner.show_cards`."""
        core, state = self._core, self._state
        showable = await self._showable(user_id, hand_number)
        hole = showable.hand.hole_cards[showable.player]
        if not which or any(not 0 <= i < len(hole) for i in which):
            raise IllegalActionError("cannot_show")  # no such card (a forged press)
        cards = tuple(hole[i] for i in sorted(set(which)))
        if any(card not in showable.hidden for card in cards):
            raise ServiceError("show_already", number=hand_number)
        # The engine's rule (see the module docstring); IllegalActionError("cannot_show") otherwise.
        showable.hand.verify_show_by_choice(showable.player, cards)
        entry = {
            "player": showable.player,
            "kind": SHOW,
            "cards": encode_cards(cards),
            "at": core.clock.time(),
            "by": ActionBy.PLAYER.value,
        }
        shown = CardsShown(hand_number, user_id, state.name(user_id), cards)
        core.owe(Owed(new_key(), encode_shown(shown), core.snapshot(), shown))
        hand_id = showable.hand_id
        player = showable.player
        await core.commit(lambda _data, rows: core.storage.show_cards(hand_id, entry, player=player, outbox=rows))
        return shown
