"""The coach by DM (issue 17): `/poker coach mode:dm` sends the coach's facts privately on the member's turn, once
per turn (a restart does not send it again), nothing on anyone else's; closed DMs are said once, and the coach
falls back to My cards. The choice is kept with the table."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.poker import ActionKind
from bot.storage import Storage
from bot.tables import ManualClock, RecordingNotifier, TableOptions, TableService
from bot.tables.notifier import PlayerAnnouncement, TableSnapshot
from tests.tables.conftest import ALICE, BOB, CHANNEL, CHLOE, DEFAULTS, GUILD, HOST, NAMES, Decks, actor

OPTIONS = TableOptions.for_blinds(1, 2)


async def seat_three(service: TableService) -> None:
    await service.create_table(GUILD, CHANNEL, HOST, OPTIONS)
    for user in (ALICE, BOB, CHLOE):
        await service.get(CHANNEL).join(user, NAMES[user])


async def play_hand(service: TableService) -> list[int]:
    """Everyone checks or calls to the end of the hand; returns who acted, in order."""
    runner = service.get(CHANNEL)
    number = runner.snapshot().hand_number
    turns = []
    while (snap := runner.snapshot()).hand_number == number and snap.actor_user_id is not None:
        turns.append(snap.actor_user_id)
        kind = ActionKind.CHECK if snap.legal is not None and snap.legal.can_check else ActionKind.CALL
        await runner.act(snap.actor_user_id, kind)
        await runner.drain()
    return turns


async def test_the_coach_is_sent_by_dm_on_each_of_the_members_turns_and_on_nobody_elses(
    service: TableService, notifier: RecordingNotifier, clock: ManualClock
) -> None:
    await seat_three(service)
    await service.get(CHANNEL).set_coach(BOB, True, dm=True)
    await service.get(CHANNEL).set_coach(CHLOE, True)  # My cards only
    await service.get(CHANNEL).start_game(HOST)
    runner = service.get(CHANNEL)
    await runner.drain()
    turns = await play_hand(service)
    bobs = turns.count(BOB)
    assert bobs >= 2 and ALICE in turns and CHLOE in turns
    assert [user for _number, user, _facts in notifier.coach_dms] == [BOB] * bobs  # one per turn, his only
    number, _user, facts = notifier.coach_dms[0]
    assert number == 1 and facts.odds.trials > 0 and 0 <= facts.odds.share <= 1
    assert not [a for a in notifier.announcements if isinstance(a, PlayerAnnouncement) and "coach" in a.kind]

    await service.get(CHANNEL).set_coach(BOB, True)  # back to My cards only
    await clock.advance(runner.view().options.next_hand_delay + 0.1)
    assert runner.snapshot().hand_number == 2
    assert BOB in await play_hand(service)
    assert len(notifier.coach_dms) == bobs  # no DM in hand 2


async def test_closed_dms_are_said_once_and_the_coach_stays_in_my_cards(
    service: TableService, notifier: RecordingNotifier
) -> None:
    notifier.refuse_dms.add(BOB)
    await seat_three(service)
    await service.get(CHANNEL).set_coach(BOB, True, dm=True)
    await service.get(CHANNEL).start_game(HOST)
    runner = service.get(CHANNEL)
    bobs_turns, coached_turns = 0, 0
    while (snap := runner.snapshot()).actor_user_id is not None:  # the whole hand, checked and called down
        if snap.actor_user_id == BOB:
            bobs_turns += 1
            coached_turns += runner.coach_facts(BOB) is not None
        kind = ActionKind.CHECK if snap.legal is not None and snap.legal.can_check else ActionKind.CALL
        await runner.act(snap.actor_user_id, kind)
        await runner.drain()
    refused = [a for a in notifier.announcements if isinstance(a, PlayerAnnouncement) and a.kind == "coach_dm_refused"]
    assert [(a.user_id, a.name) for a in refused] == [(BOB, "Bob")]  # once, however many turns
    assert notifier.coach_dms == []
    assert bobs_turns == coached_turns == 4  # My cards still carries the coach, on each of his turns


async def test_the_dm_choice_is_kept_with_the_table_and_a_restart_does_not_send_the_turns_dm_again(
    db_path: Path, clock: ManualClock
) -> None:
    storage = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    notifier = RecordingNotifier()
    service = TableService(storage, notifier, clock=clock, rng_factory=Decks())
    await seat_three(service)
    await service.get(CHANNEL).set_coach(BOB, True, dm=True)
    await service.get(CHANNEL).start_game(HOST)
    runner = service.get(CHANNEL)
    while actor(service) != BOB:
        await runner.act(actor(service) or 0, ActionKind.CALL)
    await runner.drain()
    assert len(notifier.coach_dms) == 1
    await service.close()
    await storage.close()

    storage = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    notifier.coach_dms.clear()  # the same Discord: it keeps the nonces of the DMs already sent
    service = TableService(storage, notifier, clock=clock, rng_factory=Decks())
    try:
        assert await service.restore() == 1
        runner = service.get(CHANNEL)
        await runner.drain()
        assert actor(service) == BOB
        assert notifier.coach_dms == []  # his turn's DM was sent before the restart: not twice
        await runner.act(BOB, ActionKind.CHECK if runner.legal_actions_for(BOB).can_check else ActionKind.CALL)
        while (snap := runner.snapshot()).actor_user_id != BOB:  # to his next turn (the flop at the latest)
            assert snap.actor_user_id is not None and snap.legal is not None
            await runner.act(snap.actor_user_id, ActionKind.CHECK if snap.legal.can_check else ActionKind.CALL)
        await runner.drain()
        assert [user for _n, user, _f in notifier.coach_dms] == [BOB]  # still by DM after the restart
    finally:
        await service.close()
        await storage.close()


class SlowDiscord(RecordingNotifier):
    """Discord answering table edits only once `gate` is set (the delivery worker falls behind the actions)."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()

    async def edit_table(self, snapshot: TableSnapshot) -> None:
        await self.gate.wait()
        await super().edit_table(snapshot)


async def test_a_turn_over_before_its_dm_went_out_gets_none_and_the_next_one_gets_one(
    storage: Storage, clock: ManualClock
) -> None:
    notifier = SlowDiscord()
    service = TableService(storage, notifier, clock=clock, rng_factory=Decks())
    try:
        await seat_three(service)
        await service.get(CHANNEL).set_coach(BOB, True, dm=True)
        await service.get(CHANNEL).start_game(HOST)
        runner = service.get(CHANNEL)
        bobs_turns = 0
        while bobs_turns < 2:  # Bob's first turn ends, and his second begins, while Discord lags behind
            snap = runner.snapshot()
            assert snap.actor_user_id is not None and snap.legal is not None
            bobs_turns += snap.actor_user_id == BOB
            if bobs_turns < 2:
                await runner.act(snap.actor_user_id, ActionKind.CHECK if snap.legal.can_check else ActionKind.CALL)
        assert notifier.coach_dms == []
        notifier.gate.set()
        await runner.drain()
        assert [(number, user) for number, user, _facts in notifier.coach_dms] == [(1, BOB)]  # his turn now only
        facts = runner.coach_facts(BOB)
        assert facts is not None and notifier.coach_dms[0][2].to_call == facts.to_call
    finally:
        notifier.gate.set()
        await service.close()
