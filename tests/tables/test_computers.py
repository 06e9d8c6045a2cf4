"""Computer players at a table (issue 17): seated by the host between hands, acting through the same path as a
member after their pause, surviving a restart mid-turn, buying in from the house (the audit holds)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.poker import ActionKind, PokerError
from bot.storage import HOUSE_USER_ID, LedgerKind, Storage, is_computer_player
from bot.tables import ManualClock, RecordingNotifier, TableOptions, TableService
from tests.tables.conftest import ALICE, BOB, CHANNEL, DEFAULTS, GUILD, HOST, NAMES, Decks, actor

OPTIONS = TableOptions.for_blinds(1, 2, computer_delay=0)


async def until_member_or_no_turn(service: TableService, channel: int = CHANNEL) -> None:
    """Wait (real time: storage works on its thread) until a member is to act or nobody is."""
    for _ in range(500):
        who = actor(service, channel)
        if who is None or not is_computer_player(who):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the computer player never acted")


async def play_hands(service: TableService, clock: ManualClock, hands: int) -> None:
    """Alice checks or calls; the computer players play; hands follow."""
    start = service.get(CHANNEL).snapshot().hand_number
    for _ in range(400):
        await until_member_or_no_turn(service)
        snap = service.get(CHANNEL).snapshot()
        if snap.hand_number >= start + hands and snap.actor_user_id is None:
            return
        if snap.actor_user_id is None:
            await clock.advance(service.get(CHANNEL).view().options.next_hand_delay + 0.1)
            continue
        kind = ActionKind.CHECK if snap.legal is not None and snap.legal.can_check else ActionKind.CALL
        await service.get(CHANNEL).act(snap.actor_user_id, kind)
    raise AssertionError("the hands did not end")


async def test_the_host_seats_computer_players_who_play_through_the_same_path(
    service: TableService, storage: Storage, clock: ManualClock, notifier: RecordingNotifier
) -> None:
    await service.create_table(GUILD, CHANNEL, HOST, OPTIONS)
    await service.get(CHANNEL).join(ALICE, NAMES[ALICE])
    with pytest.raises(PokerError) as refused:
        await service.get(CHANNEL).add_computer(ALICE, "solid")
    assert refused.value.code == "not_host"
    with pytest.raises(PokerError) as refused:
        await service.get(CHANNEL).add_computer(HOST, "genius")
    assert refused.value.code == "computer_level"
    assert await service.get(CHANNEL).add_computer(HOST, "solid") == 2
    assert await service.get(CHANNEL).add_computer(HOST, "beginner") == 3
    names = [s.name for s in service.get(CHANNEL).snapshot().seats]
    assert names == ["Alice", "🤖 Solid 2", "🤖 Beginner 3"]

    await service.get(CHANNEL).start_game(ALICE)
    with pytest.raises(PokerError) as refused:
        await service.get(CHANNEL).add_computer(HOST, "beginner")
    assert refused.value.code == "computer_mid_hand"
    await play_hands(service, clock, 5)
    runner = service.get(CHANNEL)
    await runner.drain()

    computers = [s.user_id for s in service.get(CHANNEL).snapshot().seats if is_computer_player(s.user_id)]
    assert len(computers) == 2
    assert not [dm for dm in notifier.hole_cards if is_computer_player(dm[1])]  # no DM to a computer player
    hands = await storage.hands_for_table(runner.ids.table_id, limit=10)
    stored = [a for h in hands for a in h.actions]
    assert any(a["by"] == "computer" for a in stored)  # written ahead like anyone's action
    audit = await storage.audit(GUILD)
    assert audit.ok, audit.problems
    house = [r.kind for r in await storage.ledger(GUILD, HOUSE_USER_ID)]
    assert house.count(LedgerKind.HOUSE_ISSUE) == 2 and house.count(LedgerKind.BUY_IN) == 2
    page = await storage.leaderboard(GUILD)
    assert all(row.user_id > 0 for row in page.rows)

    seat = next(s.seat for s in service.get(CHANNEL).snapshot().seats if s.user_id == computers[0])
    assert service.get(CHANNEL).snapshot().actor_user_id is None  # between hands
    with pytest.raises(PokerError) as refused:
        await service.get(CHANNEL).remove_computer(HOST, 1)  # Alice's seat
    assert refused.value.code == "not_a_computer"
    await service.get(CHANNEL).remove_computer(HOST, seat)
    assert computers[0] not in [s.user_id for s in service.get(CHANNEL).snapshot().seats]
    assert (await storage.audit(GUILD)).ok
    assert (await storage.ledger(GUILD, HOUSE_USER_ID))[0].kind is LedgerKind.CASH_OUT  # its stack back to the house


async def test_a_computer_player_waits_its_pause(service: TableService, clock: ManualClock) -> None:
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2, computer_delay=2.0))
    await service.get(CHANNEL).join(ALICE, NAMES[ALICE])
    await service.get(CHANNEL).add_computer(HOST, "beginner")
    await service.get(CHANNEL).start_game(ALICE)
    # Heads-up, the button (seat 1, Alice, the first hand's button) acts first before the flop.
    await service.get(CHANNEL).act(ALICE, ActionKind.CALL)
    computer = actor(service)
    assert computer is not None and is_computer_player(computer)
    runner = service.get(CHANNEL)
    before = len(runner.snapshot().events)
    await clock.advance(0.9)
    await asyncio.sleep(0.05)
    assert len(runner.snapshot().events) == before  # still thinking: the pause is at least 1 s
    await clock.advance(2.2)  # the pause is at most 3 s
    for _ in range(300):
        if len(runner.snapshot().events) > before:
            break
        await asyncio.sleep(0.01)
    assert len(runner.snapshot().events) > before


async def test_a_computer_players_pending_turn_resumes_after_a_restart(db_path: Path, clock: ManualClock) -> None:
    storage = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    service = TableService(storage, RecordingNotifier(), clock=clock, rng_factory=Decks())
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2, computer_delay=30.0))
    await service.get(CHANNEL).join(ALICE, NAMES[ALICE])
    await service.get(CHANNEL).join(BOB, NAMES[BOB])
    await service.get(CHANNEL).add_computer(HOST, "solid")
    await service.get(CHANNEL).start_game(ALICE)
    for _ in range(3):
        who = actor(service)
        if who is not None and is_computer_player(who):
            break
        legal = service.get(CHANNEL).snapshot().legal
        kind = ActionKind.CALL if legal is not None and legal.can_call else ActionKind.CHECK
        await service.get(CHANNEL).act(who, kind)
    computer = actor(service)
    assert computer is not None and is_computer_player(computer)
    number = service.get(CHANNEL).snapshot().hand_number
    await service.close()  # the process stops while the computer player thinks
    await storage.close()

    storage2 = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    service2 = TableService(storage2, RecordingNotifier(), clock=clock, rng_factory=Decks())
    assert await service2.restore() == 1
    assert actor(service2) == computer
    await clock.advance(46)
    await until_member_or_no_turn(service2)
    snap = service2.get(CHANNEL).snapshot()
    assert snap.actor_user_id != computer or snap.hand_number != number
    assert (await storage2.audit(GUILD)).ok
    await service2.close()
    await storage2.close()


async def test_a_tournament_seats_a_computer_player_with_the_starting_stack_and_no_house_chips(
    service: TableService, storage: Storage
) -> None:
    options = TableOptions.for_blinds(1, 2, kind="tournament", starting_stack=150, computer_delay=0)
    await service.create_table(GUILD, CHANNEL, HOST, options)
    await service.get(CHANNEL).join(ALICE, NAMES[ALICE])
    await service.get(CHANNEL).add_computer(HOST, "solid")
    assert [(s.name, s.stack) for s in service.get(CHANNEL).snapshot().seats] == [("Alice", 150), ("🤖 Solid 2", 150)]
    assert await storage.ledger(GUILD, HOUSE_USER_ID) == []
    assert (await storage.audit(GUILD)).ok
