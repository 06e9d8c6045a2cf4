"""What every part of a table's orchestration shares: its state, and the primitives of one change — owe a
message, commit (store the change with what it owes), roll back (docs/architecture.md, "Table orchestration";
docs/outbox.md).

The `TableRunner` owns one `TableCore` and lends it to its collaborators (seating, hands, closing, restore). A
change is computed in memory, then stored by one `commit`; only then is what it owes queued for delivery. A
change that could not be stored is rolled back in memory and told to nobody.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol, TypeVar

from bot.poker import Card
from bot.storage import Storage
from bot.tables.clock import Clock
from bot.tables.delivery import Delivery
from bot.tables.kinds import OutboxKind
from bot.tables.notifier import (
    Announcement,
    LevelAnnouncement,
    PlayerAnnouncement,
    StreetAnnouncement,
    TableClosedAnnouncement,
    TableSnapshot,
)
from bot.tables.outbox import InteractionReply, Owed, encode_announcement, new_key
from bot.tables.snapshot import Snapshots
from bot.tables.state import Committed, TableState

#: The randomness of the next hand (the first button draw, the shuffle); None: `secrets.SystemRandom`.
RngFactory = Callable[[], random.Random | None]
#: The deck order of the next hand (cards dealt from the front), or None: shuffled with the hand's rng.
DeckFactory = Callable[[], Sequence[Card] | None]
#: One storage write of a change: `write(state, rows)` stores the table's state and the outbox rows owed.
Write = Callable[[dict[str, Any], list[dict[str, Any]]], Awaitable[Any]]
T = TypeVar("T")


class Scheduler(Protocol):
    """The runner's clockwork, as the collaborators see it: the turn timer and the next-hand scheduler."""

    def start_turn(self, deadline: float | None = None) -> None:
        """Arm the turn timer for whoever is to act now (until `deadline`, clock seconds; default: the table's
        turn time from now), or stop it when nobody is."""

    def cancel_turn(self) -> None:
        """Stop the turn timer."""

    def schedule_next_hand(self) -> None:
        """Deal the next hand after the table's delay, if the game runs and a hand can be dealt."""

    def table_closed(self) -> None:
        """The table is closed in storage: stop its timers and leave the service's registry."""


class TableCore:
    """One table's state and the primitives of a change (see the module docstring). Used under the runner's
    lock only."""

    def __init__(
        self,
        *,
        state: TableState,
        storage: Storage,
        clock: Clock,
        delivery: Delivery,
        rng_factory: RngFactory,
        deck_factory: DeckFactory,
        write_timeout_s: float,
    ) -> None:
        self.state = state
        self.storage = storage
        self.clock = clock
        self.delivery = delivery
        self.rng_factory = rng_factory
        self.deck_factory = deck_factory
        self.write_timeout_s = write_timeout_s
        #: A write timed out: storage may hold more than memory until the table is read again.
        self.stale = False
        self._owed: list[Owed] = []  # what the change being computed owes, stored with its next write
        self._held: list[Owed] = []  # stored already, told only once the change's next write is stored too
        self._committed: Committed | None = None
        self._snapshots = Snapshots(state)

    # ------------------------------------------------------------------ the picture

    def snapshot(self) -> TableSnapshot:
        """The public picture of the table now (no hole cards), of the state's current `version`.

        Outside a change, one picture per version: built by the first reader, then the same immutable object for
        every reader (the table message's edit, lock-free reads of the Discord layer) until the state changes.
        While a change is being computed (`TableState.changing`), a new picture of the half-made state, remembered
        by nobody but the caller (an announcement the change owes)."""
        return self._snapshots.current(self.clock.time())

    # ------------------------------------------------------------------ owing

    def announce(self, announcement: Announcement, picture: TableSnapshot | None = None) -> TableSnapshot:
        """Owe the channel a message (told once the change is stored, see `commit`). Player and table-closed
        notices are stored as such; a hand's result by its number (built again from the stored hand if need be);
        a street line is not stored (the table message shows the board). It goes with `picture`, a picture of
        the table the change took already with nothing changed since (the streets of one action), else with a
        picture taken now; returns the picture."""
        payload: dict[str, Any] | None
        if isinstance(announcement, PlayerAnnouncement | TableClosedAnnouncement | LevelAnnouncement):
            payload = {"type": OutboxKind.ANNOUNCE, "announcement": encode_announcement(announcement)}
        elif isinstance(announcement, StreetAnnouncement):
            payload = None
        else:
            payload = {"type": OutboxKind.HAND_RESULT, "hand_number": announcement.hand_number}
        if picture is None:
            picture = self.snapshot()
        self._owed.append(Owed(new_key(), payload, picture, announcement))
        return picture

    def owe(self, owed: Owed) -> None:
        """Owe a message built by the caller (a reply, the closed table's edit), stored with the next commit."""
        self._owed.append(owed)

    def forget_owed(self) -> None:
        """Drop what the change being computed owes (it is abandoned)."""
        self._owed.clear()

    def release_derived(self) -> None:
        """Tell now what the action just stored owes and is not stored itself (street lines)."""
        for item in [o for o in self._owed if o.payload is None]:
            self._owed.remove(item)
            self.delivery.queue(item, durable=False)

    # ------------------------------------------------------------------ committing

    def begin(self) -> None:
        """A change starts: nothing owed yet; memory as it is now is what storage holds."""
        self._owed.clear()
        self._held.clear()
        self.mark_committed()

    def mark_committed(self) -> None:
        """Memory as it is now is what storage holds (a failed write puts it back)."""
        self._committed = self.state.committed()

    def roll_back(self) -> None:
        """Put memory back as it was at the last successful write and forget what the failed change owed (what
        it held is stored: told once the table is read again, `Restorer.deliver_pending`)."""
        self._owed.clear()
        self._held.clear()
        if self._committed is not None:
            self.state.roll_back(self._committed)

    async def commit(
        self,
        write: Callable[[dict[str, Any], list[dict[str, Any]]], Awaitable[T]],
        *,
        carries: bool = True,
        hold: bool = False,
    ) -> T:
        """Run one storage write of the change being computed. `write(state, rows)` stores the table's state
        and the outbox rows owed so far in its own transaction (`carries=False`: a hand action on the fast path,
        which stores neither: what it owes is only what can be derived again: street lines, notices). On
        success what was owed is queued for delivery and memory is the new committed state; on failure memory
        goes back to the last committed state and the failure is raised. A write that takes longer than
        `write_timeout_s` raises TimeoutError and marks the table `stale` (the write may still land).

        A write with `carries=False` stores none of the table's state, so the committed copy stays the one
        taken before it (what storage holds of the table is the same; the engine's hand, the one thing such a
        write stores, is shared by the copy, and changes only once its action is stored): no second copy per
        action.

        `hold`: what the change owes is stored with this write but told only after the change's next write is
        stored too (`release_held`): a first write that the table completes itself if the next one fails (a
        leave's mark and its notice, then its fold: docs/storage.md, "Outages")."""
        owed, self._owed = self._owed, []
        state = self.state.to_json() if carries else {}
        rows = [o.row() for o in owed if o.payload is not None] if carries else []
        try:
            async with self.clock.timeout(self.write_timeout_s):
                result = await write(state, rows)
        except BaseException as exc:
            if isinstance(exc, TimeoutError):
                self.stale = True  # the write may still land: nothing may change until storage is read again
            self.roll_back()
            raise
        if carries:
            self.mark_committed()
        if hold:
            self._held.extend(owed)
            return result
        self.release_held()
        for item in owed:
            self.delivery.queue(item, durable=carries and item.payload is not None)
        return result

    def release_held(self) -> None:
        """Tell what an earlier write of the change stored and held (`commit`'s `hold`), now that it is complete."""
        held, self._held = self._held, []
        for item in held:
            self.delivery.queue(item, durable=item.payload is not None)

    async def save(self, *, hold: bool = False) -> None:
        """Store the table's state with what the change owes (one transaction); `hold`: see `commit`."""
        state = self.state
        await self.commit(
            lambda data, rows: self.storage.save_table_state(state.ids.table_id, data, state.message_id, outbox=rows),
            hold=hold,
        )

    @staticmethod
    def reply_payload(reply: InteractionReply, key: str, params: dict[str, Any]) -> dict[str, Any]:
        """The outbox payload answering deferred interaction `reply` with catalogue text `key` and `params`."""
        return {
            "type": OutboxKind.REPLY,
            "application_id": reply.application_id,
            "token": reply.token,
            "locale": reply.locale,
            "created_at": reply.created_at,
            "key": key,
            "params": params,
        }
