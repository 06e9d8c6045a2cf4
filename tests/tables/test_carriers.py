"""A press answered by the table edit (docs/outbox.md, "A press answered by the table edit"): an accepted press of
the table message's buttons is handed to the table's delivery as a `Carrier` and answered by the edit that shows
its action (one answer, one REST call), or acknowledged when no edit of its message can carry it: another press
carried the edit, its message was retired, it waited too long, the table stopped. A refused press never becomes a
carrier (the Discord layer answers it with the refusal)."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from bot.poker import ActionKind
from bot.storage import Storage
from bot.tables import Carrier, ManualClock, RecordingNotifier, ServiceError, TableOptions, TableService
from bot.tables.clock import settle
from bot.tables.delivery import CARRY_TIMEOUT_S
from bot.tables.notifier import TableSnapshot
from tests.tables.conftest import ALICE, BOB, CHANNEL, CHLOE, GUILD, HOST, NAMES, Decks

OPTIONS = TableOptions.for_blinds(1, 2)
_ids = itertools.count(9000)


class SlowDiscord(RecordingNotifier):
    """Discord answering table edits only while `gate` is set (the delivery worker falls behind the presses)."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.gate.set()

    async def edit_table(self, snapshot: TableSnapshot, carrier: Carrier | None = None) -> None:
        await self.gate.wait()
        await super().edit_table(snapshot, carrier)


@pytest.fixture
def notifier() -> SlowDiscord:
    return SlowDiscord()


async def started(service: TableService) -> None:
    """Alice, Bob and Chloé at a 1/2 table, hand 1 dealt and its message posted."""
    await service.create_table(GUILD, CHANNEL, HOST, OPTIONS)
    for user in (ALICE, BOB, CHLOE):
        await service.get(CHANNEL).join(user, NAMES[user])
    await service.get(CHANNEL).start_game(HOST)
    await service.get(CHANNEL).drain()


def press(service: TableService, clock: ManualClock, *, message_id: int | None = None, age: float = 0.0) -> Carrier:
    """A press of a button of the live table message (or of `message_id`), arrived `age` seconds ago."""
    live = service.get(CHANNEL).view().message_id
    assert live is not None
    target = live if message_id is None else message_id
    return Carrier(next(_ids), f"token-{next(_ids)}", target, clock.time() - age)


async def call_or_check(service: TableService, user: int, carrier: Carrier | None = None) -> None:
    snap = service.get(CHANNEL).snapshot()
    kind = ActionKind.CHECK if snap.legal is not None and snap.legal.can_check else ActionKind.CALL
    await service.get(CHANNEL).act(user, kind, carrier=carrier)


async def test_a_press_is_answered_by_the_edit_that_shows_its_action(
    service: TableService, notifier: SlowDiscord, clock: ManualClock
) -> None:
    await started(service)
    runner = service.get(CHANNEL)
    actor = runner.snapshot().actor_user_id
    assert actor is not None
    carrier = press(service, clock)
    edits = len(notifier.edits)
    await call_or_check(service, actor, carrier)
    await runner.drain()
    assert notifier.answers == {carrier.interaction_id: ["update"]}
    assert len(notifier.edits) == edits + 1 and not notifier.misdirected  # the one edit is the answer
    assert notifier.live is not None and notifier.live.message_id == carrier.message_id
    assert notifier.live.snapshot.actor_user_id not in (None, actor)  # it shows the action: the turn moved on


async def test_presses_queued_behind_a_slow_edit_each_get_exactly_one_answer(
    service: TableService, notifier: SlowDiscord, clock: ManualClock
) -> None:
    await started(service)
    runner = service.get(CHANNEL)
    notifier.gate.clear()  # Discord stalls: the first edit is stuck, the next presses wait behind it
    carriers = []
    for _ in range(3):
        actor = runner.snapshot().actor_user_id
        assert actor is not None
        carriers.append(press(service, clock))
        await call_or_check(service, actor, carriers[-1])
        await settle()
    assert notifier.answers == {}  # nothing answered yet, nothing lost
    notifier.gate.set()
    await runner.drain()
    first, second, third = (notifier.answers.get(c.interaction_id) for c in carriers)
    # The first carried the edit it was stuck in; the next edit (both later actions, merged) is carried by the
    # earlier of the two presses waiting, and the other is acknowledged: one answer each, never two.
    assert (first, second, third) == (["update"], ["update"], ["ack"])
    assert not notifier.misdirected
    assert notifier.live is not None and notifier.live.snapshot == runner.snapshot()


async def test_a_press_that_waits_too_long_for_an_edit_is_acknowledged_by_the_timer(
    service: TableService, notifier: SlowDiscord, clock: ManualClock
) -> None:
    await started(service)
    runner = service.get(CHANNEL)
    notifier.gate.clear()
    first, late = press(service, clock), press(service, clock)
    await call_or_check(service, runner.snapshot().actor_user_id or 0, first)
    await settle()  # the first edit is stuck, carried by `first`
    await call_or_check(service, runner.snapshot().actor_user_id or 0, late)
    await clock.advance(CARRY_TIMEOUT_S - 0.1)
    assert late.interaction_id not in notifier.answers  # still in time to carry the next edit
    await clock.advance(0.2)
    await settle()
    assert notifier.answers.get(late.interaction_id) == ["ack"]  # Discord would fail it at 3 s: answered now
    notifier.gate.set()
    await runner.drain()
    assert notifier.answers == {first.interaction_id: ["update"], late.interaction_id: ["ack"]}
    assert notifier.live is not None and notifier.live.snapshot == runner.snapshot()  # the edit went as a plain one


async def test_a_press_too_old_to_carry_or_on_another_message_is_acknowledged_at_once(
    service: TableService, notifier: SlowDiscord, clock: ManualClock
) -> None:
    await started(service)
    runner = service.get(CHANNEL)
    live = runner.view().message_id
    assert live is not None
    old = press(service, clock, age=CARRY_TIMEOUT_S + 0.5)
    await call_or_check(service, runner.snapshot().actor_user_id or 0, old)
    elsewhere = press(service, clock, message_id=live - 1)  # a copy of the buttons on another message
    await call_or_check(service, runner.snapshot().actor_user_id or 0, elsewhere)
    await runner.drain()
    assert notifier.answers == {old.interaction_id: ["ack"], elsewhere.interaction_id: ["ack"]}
    assert not notifier.misdirected and notifier.live is not None
    assert notifier.live.snapshot == runner.snapshot()


async def test_the_press_that_ends_the_hand_is_acknowledged_its_message_retired(
    service: TableService, notifier: SlowDiscord, clock: ManualClock
) -> None:
    await started(service)
    runner = service.get(CHANNEL)
    hand_message = runner.view().message_id
    assert hand_message is not None
    folds = []
    while (snap := runner.snapshot()).hand_number == 1 and snap.actor_user_id is not None:
        folds.append(press(service, clock))
        await runner.act(snap.actor_user_id, ActionKind.FOLD, carrier=folds[-1])
        await runner.drain()
    assert len(folds) == 2  # two folds end a three-handed hand
    first, last = folds
    assert notifier.answers[first.interaction_id] == ["update"]
    # The last fold ended the hand: its message is retired (a summary, never edited again): acknowledged.
    assert notifier.answers[last.interaction_id] == ["ack"]
    assert notifier.messages[hand_message].retired and notifier.messages[hand_message].edits_after_retired == 0
    assert not notifier.misdirected


async def test_a_refused_press_is_never_a_carrier(
    service: TableService, notifier: SlowDiscord, clock: ManualClock
) -> None:
    await started(service)
    runner = service.get(CHANNEL)
    actor = runner.snapshot().actor_user_id or 0
    accepted, refused = press(service, clock), press(service, clock)
    # A double click: two presses at the same instant, one action and one refusal (the turn has moved on).
    results = await asyncio.gather(
        call_or_check(service, actor, accepted), call_or_check(service, actor, refused), return_exceptions=True
    )
    assert results[0] is None and isinstance(results[1], ServiceError)  # not their turn
    await runner.drain()
    await clock.advance(CARRY_TIMEOUT_S + 1)
    assert notifier.answers == {accepted.interaction_id: ["update"]}  # the refusal is the Discord layer's to send


async def test_presses_in_flight_when_the_table_stops_are_each_answered_once(
    storage: Storage, clock: ManualClock, decks: Decks
) -> None:
    notifier = SlowDiscord()
    service = TableService(storage, notifier, clock=clock, rng_factory=decks)
    await started(service)
    runner = service.get(CHANNEL)
    notifier.gate.clear()
    first, waiting = press(service, clock), press(service, clock)
    await call_or_check(service, runner.snapshot().actor_user_id or 0, first)
    await settle()
    await call_or_check(service, runner.snapshot().actor_user_id or 0, waiting)
    stopping = asyncio.create_task(service.close())  # the stop delivers what is queued: the edit `waiting` waits for
    await settle()
    notifier.gate.set()
    await stopping
    assert notifier.answers == {first.interaction_id: ["update"], waiting.interaction_id: ["update"]}
