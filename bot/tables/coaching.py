"""The coach by DM (issue 17; docs/practice.md): on a member's turn, when they chose `/poker coach mode:dm`, the
coach's facts go to their DMs as well as to the ephemeral "My cards" view.

Cost: nothing for anyone else. The turn's start only checks a set (`TableState.coach_dm`); the facts (a Monte
Carlo of about 10 ms) are computed and the DM sent on the table's delivery worker, after the table message's
edit queued by the same action, so no action waits for them and no other player's action makes a REST call.
One DM per turn: a turn re-armed (a time bank, a restart) is not sent twice — in memory by the turn's key, and
across a restart by the DM's nonce (the same key). When the DM is refused (closed DMs), the table says so once, in
the channel, and the member's coach falls back to "My cards" (`coach_dm` is dropped; `/poker coach mode:dm`
tries again).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Callable

from bot.render.announce import NoticeKind
from bot.tables.computers import coach_facts_of
from bot.tables.delivery import Delivery
from bot.tables.notifier import PlayerAnnouncement, TableSnapshot
from bot.tables.state import TableState

log = logging.getLogger(__name__)

__all__ = ["CoachDMs", "turn_key"]


def turn_key(table_id: int, hand_number: int, events: int, user: int) -> str:
    """The key of one member's turn, also the coach DM's nonce: "c" and 24 hex digits (a Discord nonce has at
    most 25 characters)."""
    turn = f"{table_id}:{hand_number}:{events}:{user}".encode()
    return "c" + hashlib.blake2b(turn, digest_size=12).hexdigest()


class CoachDMs:
    """Sends the coach's DM at the start of a coached member's turn (see the module docstring)."""

    def __init__(
        self, state: TableState, delivery: Delivery, lock: asyncio.Lock, picture: Callable[[], TableSnapshot]
    ) -> None:
        self._state = state
        self._delivery = delivery
        self._lock = lock
        self._picture = picture
        self._sent: str | None = None  # the key of the last turn whose DM was queued

    def turn_started(self) -> None:
        """Queue the coach's DM when the player to act now wants it (call when a turn starts; cheap otherwise)."""
        state = self._state
        hand = state.hand
        if hand is None or hand.actor is None or not state.coach_dm:
            return
        user = state.hand_users[hand.actor]
        if user not in state.coach_dm:
            return
        key = turn_key(state.ids.table_id, state.hand_number, hand.event_count, user)
        if key == self._sent:
            return
        self._sent = key
        number, events = state.hand_number, hand.event_count  # this turn's, bound now

        async def send() -> None:
            await self._send(key, user, number, events)

        self._delivery.worker.put(send)

    async def _send(self, key: str, user: int, number: int, events: int) -> None:
        """On the delivery worker: the facts for the turn, if it is still that turn, then the DM."""
        state = self._state
        async with self._lock:  # a picture of what is stored, as the table message's edits
            hand = state.hand
            if hand is None or state.hand_number != number or hand.event_count != events:
                return  # the turn is over already
            facts = coach_facts_of(state, user)
            snapshot = self._picture()
        if facts is None:
            return
        if await self._delivery.notifier.send_coach(snapshot, user, facts, nonce=key):
            return
        async with self._lock:
            state.coach_dm.discard(user)  # back to My cards only (stored with the table's next change)
            state.touch()
        notice = PlayerAnnouncement(NoticeKind.COACH_DM_REFUSED, user, state.name(user))
        await self._delivery.notifier.announce(snapshot, notice)
