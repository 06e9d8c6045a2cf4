"""The durable outbox at the service level (docs/outbox.md): what a stored change owes is delivered after a restart
when the process could not deliver it, exactly once, and never again once delivered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.poker import ActionKind, Card
from bot.storage import Storage
from bot.tables import (
    HandResultAnnouncement,
    InteractionReply,
    LevelAnnouncement,
    ManualClock,
    PlayerAnnouncement,
    RecordingNotifier,
    TableClosedAnnouncement,
    TableOptions,
    TableService,
)
from bot.tables.outbox import decode_announcement, encode_announcement
from tests.tables.conftest import ALICE, BOB, CHANNEL, CHLOE, DEFAULTS, GUILD, HOST, NAMES, Decks, actor


class DiscordDown(RecordingNotifier):
    """A notifier whose every message fails (Discord unreachable, or the process dies before sending)."""

    async def announce(self, *args: Any, **kwargs: Any) -> None:
        raise ConnectionError("Discord is unreachable")

    async def send_hole_cards(self, *args: Any, **kwargs: Any) -> bool:
        raise ConnectionError("Discord is unreachable")

    async def reply(self, *args: Any, **kwargs: Any) -> None:
        raise ConnectionError("Discord is unreachable")

    async def edit_table(self, *args: Any, **kwargs: Any) -> None:
        raise ConnectionError("Discord is unreachable")


def test_player_and_closed_notices_survive_their_json() -> None:
    notices = [
        PlayerAnnouncement("joined", ALICE, "Alice", seat=2, chips=80),
        PlayerAnnouncement("eliminated", BOB, "Bob", place=3),
        TableClosedAnnouncement(cashed_out=((ALICE, "Alice", 90),), voided_hand=4),
        TableClosedAnnouncement(placings=((1, BOB, "Bob", 300), (2, ALICE, "Alice", 0)), tournament_over=True),
        LevelAnnouncement(2, 2, 4, 0, (5, 10, 1), 10, "hands"),
        LevelAnnouncement(3, 5, 10, 1, None, None, "minutes"),
    ]
    assert [decode_announcement(encode_announcement(n)) for n in notices] == notices


async def restarted(db_path: Path, clock: ManualClock, notifier: RecordingNotifier) -> tuple[Storage, TableService]:
    storage = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    service = TableService(storage, notifier, clock=clock, rng_factory=Decks())
    await service.restore()
    runner = service.runners.get(CHANNEL)
    if runner is not None:
        await runner.drain()
    return storage, service


async def stop(storage: Storage, service: TableService) -> None:
    await service.close()
    await storage.close()


async def test_what_could_not_be_delivered_goes_out_after_a_restart_once(db_path: Path, clock: ManualClock) -> None:
    storage = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    service = TableService(storage, DiscordDown(), clock=clock, rng_factory=Decks())
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    for user in (ALICE, BOB, CHLOE):
        await service.join(CHANNEL, user, NAMES[user])
    await service.start(CHANNEL, ALICE)
    while (user := actor(service)) is not None:  # everyone folds to the big blind: hand 1 ends
        await service.act(CHANNEL, user, ActionKind.FOLD)
    await service.get(CHANNEL).drain()
    await stop(storage, service)

    notifier = RecordingNotifier()
    storage, service = await restarted(db_path, clock, notifier)
    joined = [a.user_id for a in notifier.announcements if isinstance(a, PlayerAnnouncement) and a.kind == "joined"]
    assert joined == [ALICE, BOB, CHLOE]
    assert sorted(user for number, user, _ in notifier.hole_cards if number == 1) == [ALICE, BOB, CHLOE]
    assert all(len(cards) == 2 and all(isinstance(c, Card) for c in cards) for _, _, cards in notifier.hole_cards)
    results = [a for a in notifier.announcements if isinstance(a, HandResultAnnouncement)]
    assert [r.hand_number for r in results] == [1]
    # Rebuilt by replay: the blinds go to the big blind (its uncalled chip returned).
    won = sum(chips for pot in results[0].pots for _, _, chips in pot.winners)
    assert won + sum(chips for _, _, chips in results[0].returned) == 3 and results[0].returned
    assert not await storage.pending_outbox()
    await stop(storage, service)

    again = RecordingNotifier()
    storage, service = await restarted(db_path, clock, again)
    assert again.announcements == [] and again.hole_cards == []  # delivered rows are never sent again
    await stop(storage, service)


async def test_a_closed_table_still_tells_what_its_end_owed_after_a_restart(db_path: Path, clock: ManualClock) -> None:
    storage = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    service = TableService(storage, RecordingNotifier(), clock=clock, rng_factory=Decks())
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    await service.join(CHANNEL, ALICE, NAMES[ALICE])
    runner = service.get(CHANNEL)
    await runner.drain()
    runner._outbox.notifier = down = DiscordDown()  # Discord goes away just before the end
    reply = InteractionReply(application_id=5, token="tok-end", locale="fr", created_at=clock.time())
    await service.end(CHANNEL, HOST, is_admin=True, reply=reply)
    await runner.drain()
    assert down.replies == {}
    await stop(storage, service)

    notifier = RecordingNotifier()
    storage, service = await restarted(db_path, clock, notifier)
    closed = [a for a in notifier.announcements if isinstance(a, TableClosedAnnouncement)]
    assert [c.cashed_out for c in closed] == [((ALICE, "Alice", 100),)]
    assert notifier.replies == {"tok-end": "La table est fermée."}
    assert notifier.edits and notifier.edits[-1].closed and notifier.edits[-1].message_id is not None
    assert not await storage.pending_outbox()
    await stop(storage, service)


async def test_the_result_of_a_hand_with_a_forfeit_is_rebuilt_after_a_restart(
    db_path: Path, clock: ManualClock
) -> None:
    # The big blind leaves out of turn: a forfeit, stored as a fold by a player not to act. The button folds: the
    # small blind wins. The result, owed and not delivered, is rebuilt by the one replay of the stored hand
    # (bot/tables/record.py), which reads that fold as the big blind's, not as the fold of whoever was to act.
    class DownAfterTheResult(DiscordDown):
        async def announce(self, *args: Any, **kwargs: Any) -> None:
            self.announcements.append(args[1])
            raise ConnectionError("Discord is unreachable")

    storage = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    down = DownAfterTheResult()
    service = TableService(storage, down, clock=clock, rng_factory=Decks())
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    for user in (ALICE, BOB, CHLOE):
        await service.join(CHANNEL, user, NAMES[user])
    await service.start(CHANNEL, ALICE)
    runner = service.get(CHANNEL)
    small, big, button = runner.hand_users
    assert actor(service) == button
    assert await service.leave(CHANNEL, big) is False  # forfeited out of turn
    await service.act(CHANNEL, button, ActionKind.FOLD)
    await runner.drain()
    live = [a for a in down.announcements if isinstance(a, HandResultAnnouncement)]
    assert [r.hand_number for r in live] == [1]
    assert [u for pot in live[0].pots for u, _, _ in pot.winners] == [small]
    await stop(storage, service)

    notifier = RecordingNotifier()
    storage, service = await restarted(db_path, clock, notifier)
    results = [a for a in notifier.announcements if isinstance(a, HandResultAnnouncement)]
    assert results == live
    assert not await storage.pending_outbox()
    await stop(storage, service)
