"""The stored hand (bot/tables/record.py): one format written when a hand is dealt, one replay that rebuilds it
(the runner's restore, a result delivered again, /history)."""

from __future__ import annotations

from pathlib import Path

from bot.poker import ActionKind, HoleCardsDealt
from bot.storage import Storage
from bot.tables import ManualClock, TableOptions, TableService
from bot.tables.record import StoredHand, hand_users, replay
from bot.tables.snapshot import RECENT_EVENTS
from tests.tables.conftest import ALICE, BOB, CHANNEL, CHLOE, GUILD, HOST, NAMES, actor


async def test_the_stored_hand_is_the_dealt_hand_and_its_replay_is_the_hand_played(
    service: TableService, storage: Storage, clock: ManualClock, db_path: Path
) -> None:
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    for user in (ALICE, BOB, CHLOE):
        await service.get(CHANNEL).join(user, NAMES[user])
    await service.get(CHANNEL).start_game(ALICE)
    runner = service.get(CHANNEL)
    assert runner.view().hand_id is not None
    users = runner.view().hand_users
    await service.get(CHANNEL).act(actor(service), ActionKind.CALL)  # type: ignore[arg-type]
    leaver = next(u for u in users if u != actor(service))
    await service.get(CHANNEL).leave(leaver)  # a fold stored for a player not to act: a forfeit
    row = await storage.hand(runner.view().hand_id)
    assert row is not None
    stored = StoredHand.from_json(row.record)
    assert StoredHand.from_json(stored.to_json()) == stored
    assert stored.users == users == hand_users(row)
    assert stored.record.actions == ()  # as dealt: the actions are the hand's action log
    again = replay(row)
    snap = runner.snapshot()
    assert tuple(e for e in again.events if not isinstance(e, HoleCardsDealt))[-RECENT_EVENTS:] == snap.events
    assert dict(enumerate(again.stacks)) == {s.player: s.stack for s in snap.seats if s.player is not None}
    assert again.actor is not None and users[again.actor] == snap.actor_user_id
    assert [tuple(again.hole_cards[i]) for i in range(len(users))] == [runner.hole_cards(u) for u in users]
