"""The table service's seams (docs/architecture.md, "Seams"): the deck order of each hand and one next-hand delay
for every table are settings of the service, so tests set them instead of patching the runner or the engine."""

from __future__ import annotations

from bot.poker import ActionKind, parse_cards
from bot.storage import Storage
from bot.tables import HandResultAnnouncement, ManualClock, RecordingNotifier, TableOptions, TableService
from tests.tables.conftest import ALICE, BOB, CHANNEL, GUILD, HOST, NAMES, actor, deck_for


async def test_each_hand_is_dealt_from_the_deck_factory_and_shuffled_when_it_has_none(
    storage: Storage, clock: ManualClock
) -> None:
    decks = [deck_for(["AhKh", "2c7d"], "QhJhTh9s3d")]
    notifier = RecordingNotifier()
    service = TableService(storage, notifier, clock=clock, deck_factory=lambda: decks.pop(0) if decks else None)
    try:
        await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
        for user in (ALICE, BOB):
            await service.get(CHANNEL).join(user, NAMES[user])
        runner = service.get(CHANNEL)
        await runner.start_game(ALICE)
        first, second = runner.view().hand_users
        assert runner.hole_cards(first) == parse_cards("AhKh") and runner.hole_cards(second) == parse_cards("2c7d")
        while (user := actor(service)) is not None:
            await runner.act(user, ActionKind.CALL if runner.check_turn(user).can_call else ActionKind.CHECK)
        await runner.drain()
        results = [a for a in notifier.announcements if isinstance(a, HandResultAnnouncement)]
        assert [r.board for r in results] == [parse_cards("QhJhTh9s3d")]
        assert runner.view().hand_number == 1 and not runner.view().in_hand
        await clock.advance(runner.view().options.next_hand_delay + 0.1)
        assert runner.view().hand_number == 2  # no deck left: shuffled, from a full deck of distinct cards
        dealt = [card for user in runner.view().hand_users for card in runner.hole_cards(user)]
        assert len(set(dealt)) == 4
    finally:
        await service.close()


async def test_the_service_s_next_hand_delay_replaces_every_table_s(storage: Storage, clock: ManualClock) -> None:
    service = TableService(storage, RecordingNotifier(), clock=clock, next_hand_delay_s=1.5)
    try:
        await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
        for user in (ALICE, BOB):
            await service.get(CHANNEL).join(user, NAMES[user])
        runner = service.get(CHANNEL)
        assert runner.view().options.next_hand_delay == 5.0  # the table's own, replaced by the service's
        await runner.start_game(ALICE)
        await runner.act(actor(service), ActionKind.FOLD)  # type: ignore[arg-type]
        assert runner.snapshot().next_hand_at == clock.time() + 1.5
        await clock.advance(1.4)
        assert runner.view().hand_number == 1 and not runner.view().in_hand
        await clock.advance(0.2)
        assert runner.view().hand_number == 2 and runner.view().in_hand
    finally:
        await service.close()
