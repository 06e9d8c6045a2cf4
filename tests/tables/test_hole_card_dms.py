"""A hand's hole-card DMs go out together, right after its table message (`Delivery.queue_together`): one DM's round
trip instead of one per player before the table edits queued behind them (the hand's first actions), and still every
DM before anything queued after them, a refused DM's "press My cards" notice included, in the DMs' order; but for
`DM_HOLD_S` at most: DMs that take longer (a DM channel still to be opened in the bot's one bucket for that, a 429)
no longer keep the hand's first actions off the table message."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.poker import ActionKind
from bot.render.announce import NoticeKind
from bot.tables import PlayerAnnouncement, RecordingNotifier, TableOptions, TableRunner, TableService, delivery
from bot.tables.clock import ManualClock, settle
from bot.tables.delivery import DM_HOLD_S
from bot.tables.notifier import TableSnapshot
from tests.tables.conftest import ALICE, BOB, CHANNEL, CHLOE, GUILD, HOST, NAMES


class SlowDMs(RecordingNotifier):
    """Discord answering DMs only once `gate` is set; every call noted in `calls` as it starts."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.in_flight = 0
        self.calls: list[str] = []

    async def send_hole_cards(self, snapshot: TableSnapshot, user_id: int, *args: Any, **kwargs: Any) -> bool:
        self.calls.append(f"dm {user_id}")
        self.in_flight += 1
        try:
            await self.gate.wait()
        finally:
            self.in_flight -= 1
        return await super().send_hole_cards(snapshot, user_id, *args, **kwargs)

    async def post_table(self, snapshot: TableSnapshot) -> int | None:
        self.calls.append("post")
        return await super().post_table(snapshot)

    async def edit_table(self, snapshot: TableSnapshot, carrier: Any = None) -> None:
        self.calls.append("edit")
        await super().edit_table(snapshot, carrier)

    async def announce(self, snapshot: TableSnapshot, announcement: Any, *args: Any, **kwargs: Any) -> None:
        if isinstance(announcement, PlayerAnnouncement):
            self.calls.append(f"{announcement.kind} {announcement.user_id}")
        await super().announce(snapshot, announcement, *args, **kwargs)


def last(calls: list[str], call: str) -> int:
    return len(calls) - 1 - calls[::-1].index(call)


async def deal_to_three(service: TableService) -> TableRunner:
    """A table of Alice, Bob and Chloe, its first hand dealt (its DMs on their way)."""
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    for user in (ALICE, BOB, CHLOE):
        await service.get(CHANNEL).join(user, NAMES[user])
    runner = service.get(CHANNEL)
    await runner.start_game(HOST)
    await settle()
    return runner


def first_action(runner: TableRunner) -> tuple[int, ActionKind]:
    """Who acts first, and a check or a call."""
    snap = runner.snapshot()
    assert snap.actor_user_id is not None
    return snap.actor_user_id, ActionKind.CHECK if snap.legal is not None and snap.legal.can_check else ActionKind.CALL


@pytest.fixture
def notifier() -> SlowDMs:
    return SlowDMs()


async def test_a_hands_dms_are_sent_together_after_its_table_message_and_before_its_edits(
    service: TableService, notifier: SlowDMs
) -> None:
    try:
        notifier.refuse_dms.update({CHLOE, ALICE})
        runner = await deal_to_three(service)
        assert notifier.in_flight == 3  # all three DMs on their way at once (one at a time before)
        dms = notifier.calls[last(notifier.calls, "post") + 1 :]  # in the hand's order of players
        assert sorted(dms) == [f"dm {ALICE}", f"dm {BOB}", f"dm {CHLOE}"]
        await runner.act(*first_action(runner))
        await settle()
        assert notifier.calls[-1] == dms[-1]  # the action's edit waits for the DMs
        notifier.gate.set()
        await runner.drain()
        after = notifier.calls[last(notifier.calls, dms[-1]) + 1 :]
        # The refused DMs' notices in the DMs' order, then the edit: no one's turn is shown before their cards.
        refused = [f"dm_refused {dm.split()[1]}" for dm in dms if dm != f"dm {BOB}"]
        assert after == [*refused, "edit"]
        assert sorted(user for _, user, _ in notifier.hole_cards) == [BOB]
    finally:
        notifier.gate.set()  # a failed test leaves no DM held (the service's close delivers what is queued)


async def test_dms_slower_than_the_hold_no_longer_keep_the_hands_first_action_off_the_table(
    service: TableService, notifier: SlowDMs, clock: ManualClock, storage: Any
) -> None:
    """The stalls of benchmarks/load.py: at a restart or a burst of new players, every table's first DMs wait for
    their DM channels, opened one at a time for the whole bot, and the hand's first action (acknowledged) was not
    on the table message for 5-11 s. Past `DM_HOLD_S` the edit goes out; the DMs finish beside it, their notices
    told and their rows marked delivered when they are answered."""
    try:
        notifier.refuse_dms.add(CHLOE)
        runner = await deal_to_three(service)
        assert notifier.in_flight == 3
        actor, kind = first_action(runner)
        await runner.act(actor, kind)
        await clock.advance(DM_HOLD_S * 0.9)
        assert "edit" not in notifier.calls[last(notifier.calls, "post") :]  # a DM's round trip is waited for
        await clock.advance(DM_HOLD_S * 0.2)
        await settle()
        assert notifier.calls[-1] == "edit"  # the action is on the table message, the DMs still on their way
        assert notifier.in_flight == 3
        assert notifier.edits[-1].actor_user_id != actor  # it shows the action: the turn moved on
        pending = [row.payload["user_id"] for row in await storage.pending_outbox() if "cards" in (row.payload or {})]
        assert sorted(pending) == sorted((ALICE, BOB, CHLOE))  # not delivered yet: a restart would send them
        notifier.gate.set()
        await runner.drain()
        assert notifier.calls[-1] == f"dm_refused {CHLOE}"  # told once its DM is answered
        assert sorted(user for _, user, _ in notifier.hole_cards) == sorted((ALICE, BOB))
        left = [row.payload["user_id"] for row in await storage.pending_outbox() if "cards" in (row.payload or {})]
        assert left == []
    finally:
        notifier.gate.set()


async def test_stopping_a_table_waits_for_unanswered_dms_a_bounded_time_and_leaves_them_for_the_next_start(
    service: TableService, notifier: SlowDMs, clock: ManualClock, storage: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A DM Discord never answers (a hung connection) held a shutdown for aiohttp's 300 s, and a cluster child is
    killed after 30 s: stopping waits `STOP_DM_WAIT_S` for it, then cancels it; its row stays undelivered, so the
    next start sends it, and the table's other work (the first action's edit) is delivered."""
    monkeypatch.setattr(delivery, "STOP_DM_WAIT_S", 0.05)
    try:
        runner = await deal_to_three(service)
        await runner.act(*first_action(runner))
        await clock.advance(DM_HOLD_S * 1.1)  # the DMs go on beside the worker
        await settle()
        assert notifier.calls[-1] == "edit"
        await asyncio.wait_for(runner.shutdown(), timeout=5.0)  # returns though the DMs are never answered
        assert notifier.in_flight == 0  # cancelled, not left running
        assert notifier.hole_cards == []
        pending = [row.payload["user_id"] for row in await storage.pending_outbox() if "cards" in (row.payload or {})]
        assert sorted(pending) == sorted((ALICE, BOB, CHLOE))  # for the next start
    finally:
        notifier.gate.set()


class FailingNotice(RecordingNotifier):
    """Discord refusing to post the first "press My cards" notice (a channel error): the other DMs' outcomes stand."""

    def __init__(self) -> None:
        super().__init__()
        self.failed: int | None = None

    async def announce(self, snapshot: TableSnapshot, announcement: Any, *args: Any, **kwargs: Any) -> None:
        refused = isinstance(announcement, PlayerAnnouncement) and announcement.kind is NoticeKind.DM_REFUSED
        if refused and self.failed is None:
            self.failed = announcement.user_id
            raise RuntimeError("the channel refused the notice")
        await super().announce(snapshot, announcement, *args, **kwargs)


@pytest.mark.parametrize("notifier", [FailingNotice()], ids=["failing_notice"])
async def test_a_refused_dm_s_notice_that_fails_loses_no_other_player_s_notice_or_delivered_mark(
    service: TableService, notifier: FailingNotice, storage: Any
) -> None:
    """One player's notice failing (logged, its row left for the next start, as one DM's job did) must not cut off
    the hand's other DMs: the other refused player is still told, and the DMs sent are marked delivered (else they
    are sent again at the next start)."""
    notifier.refuse_dms.update({CHLOE, ALICE})
    await (await deal_to_three(service)).drain()
    assert notifier.failed in (ALICE, CHLOE)
    told = [
        a.user_id
        for a in notifier.announcements
        if isinstance(a, PlayerAnnouncement) and a.kind is NoticeKind.DM_REFUSED
    ]
    assert told == [({ALICE, CHLOE} - {notifier.failed}).pop()]
    left = [row.payload["user_id"] for row in await storage.pending_outbox() if "cards" in (row.payload or {})]
    assert left == [notifier.failed]
