"""The stored hand (bot/tables/record.py): one format written when a hand is dealt, one replay that rebuilds it
(the runner's restore, a result delivered again, /history)."""

from __future__ import annotations

from pathlib import Path

from bot.poker import ActionKind
from bot.storage import Storage
from bot.tables import ManualClock, TableOptions, TableService
from bot.tables.record import StoredHand, hand_users, replay
from tests.tables.conftest import ALICE, BOB, CHANNEL, CHLOE, GUILD, HOST, NAMES, actor


async def test_the_stored_hand_is_the_dealt_hand_and_its_replay_is_the_hand_played(
    service: TableService, storage: Storage, clock: ManualClock, db_path: Path
) -> None:
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    for user in (ALICE, BOB, CHLOE):
        await service.join(CHANNEL, user, NAMES[user])
    await service.start(CHANNEL, ALICE)
    runner = service.get(CHANNEL)
    live = runner.hand
    assert live is not None and runner.hand_id is not None
    users = runner.hand_users
    await service.act(CHANNEL, actor(service), ActionKind.CALL)  # type: ignore[arg-type]
    leaver = next(u for u in users if u != actor(service))
    await service.leave(CHANNEL, leaver)  # a fold stored for a player not to act: a forfeit
    row = await storage.hand(runner.hand_id)
    assert row is not None
    stored = StoredHand.from_json(row.record)
    assert StoredHand.from_json(stored.to_json()) == stored
    assert stored.users == users == hand_users(row)
    assert stored.record.actions == ()  # as dealt: the actions are the hand's action log
    again = replay(row)
    assert again.record() == live.record()
    assert again.events == live.events and again.stacks == live.stacks and again.actor == live.actor
