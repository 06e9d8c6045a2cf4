"""What `fixes` merged, attacked (breaker): once a member's decision is stored, a storage fault in what follows it is
refused as `action_stands`, never as "nothing was changed, try again" — for a run-it-twice answer too, and for a
leave whose fold sets off another player's decision; and the table rolls forward from storage with exact chips."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.discord_ui.errors import refusal_text
from bot.poker import ActionKind
from bot.poker.events import PotAwarded
from bot.render.i18n import t
from bot.storage import Storage
from bot.tables import ManualClock, RecordingNotifier, TableOptions, TableService
from bot.tables.clock import settle
from bot.tables.errors import ServiceError
from bot.tables.kinds import ActionBy
from bot.tables.operation import FAULT_RETRY_DELAYS_S, WRITE_TIMEOUT_S
from bot.tables.record import replay

from .conftest import ALICE, BOB, CHANNEL, CHLOE, GUILD, HOST, NAMES, Decks, refuse_writes_under
from .test_run_twice import all_in_on_the_flop


async def test_the_last_run_twice_answer_stored_before_an_outage_at_the_hands_end_stands(
    service: TableService,
    storage: Storage,
    clock: ManualClock,
    notifier: RecordingNotifier,
    decks: Decks,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The last answer to "run it twice?" is stored (write-ahead), then the run-out and the hand's end: when the
    hand's end cannot be stored, the member is told that their answer counts (`action_stands`), not "nothing was
    changed, try again" (on the old code: StorageUnavailable, told as storage_unavailable); the table ends the hand
    from storage once it answers, the chips exact."""
    await all_in_on_the_flop(service, decks)
    issued = (await storage.audit(GUILD)).issued
    runner = service.get(CHANNEL)
    await runner.answer_run_twice(ALICE, True)
    refuse_writes_under(storage, "finish_hand", monkeypatch)
    with pytest.raises(ServiceError) as refused:
        await runner.answer_run_twice(BOB, True)
    monkeypatch.undo()
    assert refused.value.code == "action_stands"
    assert refusal_text(refused.value, "fr", "the test") == t("error.action_stands", "fr")
    hands = await storage.hands_for_table(runner.ids.table_id, limit=1)
    assert [a["kind"] for a in hands[0].actions][-2:] == ["run_twice", "run_twice"]  # both answers stored
    await clock.advance(FAULT_RETRY_DELAYS_S[0] + 0.1)  # the table reads itself again from storage
    await settle()
    await runner.drain()
    hands = await storage.hands_for_table(runner.ids.table_id, limit=1)
    assert hands[0].ended_at is not None
    halves = [e for e in replay(hands[0]).events if isinstance(e, PotAwarded)]
    assert sorted((e.run, e.amount) for e in halves) == [(1, 100), (2, 100)]  # run twice, as both agreed
    assert sum(s.stack for s in runner.snapshot().seats) == 200
    assert await storage.pending_outbox(runner.ids.table_id) == []
    audit = await storage.audit(GUILD)
    assert audit.ok and audit.issued == issued, audit.problems


async def test_a_leave_whose_fold_sets_off_an_away_players_fold_and_an_outage_is_told_leave_pending(
    service: TableService,
    storage: Storage,
    clock: ManualClock,
    notifier: RecordingNotifier,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A three-player tournament: the player to act leaves (their fold stored), the next one sits out, so is
    folded at once (`auto_act_if_needed`, stored too), which ends the hand; when the hand's end cannot be stored the
    leaver is told `leave_pending` ("your leave will complete as soon as it is back"), as for a leave whose own
    hand's end fails; on the old code the inner fold's `action_stands` ("your action counts") reached the leaver."""
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2, kind="tournament"))
    runner = service.get(CHANNEL)
    for user in (ALICE, BOB, CHLOE):
        await runner.join(user, NAMES[user])
    await runner.start_game(HOST)
    await settle()
    leaver = runner.snapshot().actor_user_id
    assert leaver is not None
    users = list(runner.view().hand_users)
    away = users[(users.index(leaver) + 1) % 3]
    await runner.sit_out(away)
    assert runner.snapshot().actor_user_id == leaver
    refuse_writes_under(storage, "finish_hand", monkeypatch)
    with pytest.raises(ServiceError) as refused:
        await runner.leave(leaver)
    monkeypatch.undo()
    assert refused.value.code == "leave_pending", refused.value.code
    await clock.advance(FAULT_RETRY_DELAYS_S[0] + 0.1)
    await settle()
    await runner.drain()
    hands = await storage.hands_for_table(runner.ids.table_id, limit=1)
    assert hands[0].number == 1 and hands[0].ended_at is not None  # the hand ended from storage
    assert [a["by"] for a in hands[0].actions][-2:] == [ActionBy.FORFEIT.value, ActionBy.AUTO.value]
    # The leaver (the button: no blind in) is gone with their stack; the two left hold the rest, blinds paid.
    assert sum(s.stack for s in runner.snapshot().seats) == 2 * runner.view().options.starting_stack
    assert all(s.name != NAMES[leaver] for s in runner.snapshot().seats)


async def test_a_call_stored_before_the_hands_end_write_times_out_is_told_that_it_stands(
    service: TableService,
    storage: Storage,
    clock: ManualClock,
    notifier: RecordingNotifier,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The call that ends a heads-up cash hand is stored, then the hand's end hangs past the write timeout (a hung
    disk: the write lands later): the member is told that the call counts (`action_stands`), not "try again in a
    few seconds" (`table_recovering`, on the old code: the call cannot be made again, the hand is over); once the
    write lands the table reads storage again and goes on, the chips exact."""
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    runner = service.get(CHANNEL)
    for user in (ALICE, BOB):
        await runner.join(user, NAMES[user], buy_in=100)
    await runner.start_game(ALICE)
    await settle()
    issued = (await storage.audit(GUILD)).issued
    first = runner.snapshot().actor_user_id
    assert first is not None
    await runner.act(first, ActionKind.ALL_IN)
    gate, hung = asyncio.Event(), asyncio.Event()
    real = storage.finish_hand

    async def hanging(*args: Any, **kwargs: Any) -> Any:
        hung.set()
        await gate.wait()
        return await real(*args, **kwargs)

    monkeypatch.setattr(storage, "finish_hand", hanging)
    call = asyncio.ensure_future(runner.act(next(u for u in (ALICE, BOB) if u != first), ActionKind.CALL))
    await hung.wait()
    await clock.advance(WRITE_TIMEOUT_S + 0.1)
    await settle()
    assert call.done()
    refused = call.exception()
    assert isinstance(refused, ServiceError) and refused.code == "action_stands", refused
    monkeypatch.undo()
    gate.set()  # the hung write lands
    for _ in range(3):
        await clock.advance(max(FAULT_RETRY_DELAYS_S) + 0.1)
        await settle()
    await runner.drain()
    assert runner.settled()
    hands = await storage.hands_for_table(runner.ids.table_id, limit=2)
    assert hands[-1].ended_at is not None  # the first hand's end landed
    audit = await storage.audit(GUILD)
    assert audit.ok and audit.issued == issued, audit.problems
    assert sum(s.stack for s in runner.snapshot().seats) == 200
