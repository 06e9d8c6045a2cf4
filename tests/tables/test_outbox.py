"""The durable outbox at the service level (docs/outbox.md): what a stored change owes is delivered after a restart
when the process could not deliver it, exactly once, and never again once delivered."""

from __future__ import annotations

import json
import logging
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.poker import ActionKind, Card, HandResult
from bot.render.announce import NoticeKind
from bot.render.i18n import t
from bot.storage import Storage
from bot.tables import (
    InteractionReply,
    LevelAnnouncement,
    ManualClock,
    Placing,
    PlayerAnnouncement,
    RecordingNotifier,
    TableClosedAnnouncement,
    TableOptions,
    TableService,
)
from bot.tables.kinds import Departure, OutboxKind
from bot.tables.outbox import decode_announcement, encode_announcement, payload_kind
from tests.tables.conftest import ALICE, BOB, CHANNEL, CHLOE, DEFAULTS, GUILD, HOST, NAMES, Decks, actor


@dataclass
class DiscordDown(RecordingNotifier):
    """A notifier whose every message fails while `down` (Discord unreachable, or the process dies before
    sending); while up, it records as `RecordingNotifier`."""

    down: bool = True

    def _check(self) -> None:
        if self.down:
            raise ConnectionError("Discord is unreachable")

    async def announce(self, *args: Any, **kwargs: Any) -> None:
        self._check()
        await super().announce(*args, **kwargs)

    async def send_hole_cards(self, *args: Any, **kwargs: Any) -> bool:
        self._check()
        return await super().send_hole_cards(*args, **kwargs)

    async def reply(self, *args: Any, **kwargs: Any) -> None:
        self._check()
        await super().reply(*args, **kwargs)

    async def edit_table(self, *args: Any, **kwargs: Any) -> None:
        self._check()
        await super().edit_table(*args, **kwargs)


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


def test_rows_stored_before_the_kinds_were_types_still_read() -> None:
    # Rows as earlier versions stored them (plain strings and lists): they read as today's values.
    left = {"class": "player", "fields": {"kind": "left", "user_id": ALICE, "name": "Alice", "seat": 2, "chips": 80}}
    closed = {
        "class": "table_closed",
        "fields": {"cashed_out": [], "placings": [[1, BOB, "Bob", 300], [2, ALICE, "Alice", 0]], "voided_hand": None},
    }
    assert decode_announcement(left) == PlayerAnnouncement(Departure.LEFT, ALICE, "Alice", seat=2, chips=80)
    decoded = decode_announcement(closed)
    assert isinstance(decoded, TableClosedAnnouncement) and not decoded.tournament_over
    assert decoded.placings == (Placing(1, BOB, "Bob", 300), Placing(2, ALICE, "Alice", 0))
    assert [(p.place, p.name, p.chips) for p in decoded.placings] == [(1, "Bob", 300), (2, "Alice", 0)]
    assert encode_announcement(decoded) == {**closed, "fields": {**closed["fields"], "tournament_over": False}}


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


async def restarted_with_rows(
    db_path: Path, clock: ManualClock, rows: dict[str, dict[str, Any]], caplog: pytest.LogCaptureFixture
) -> tuple[Storage, TableService, RecordingNotifier]:
    """A table made with Discord down, its outbox replaced by `rows` (key -> payload, in this order, as another
    version could have written them into the real SQLite file), then the bot restarted (warnings of
    bot.tables.restore captured): its storage, service and notifier."""
    storage = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    service = TableService(storage, DiscordDown(), clock=clock, rng_factory=Decks())
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    await service.get(CHANNEL).drain()
    await stop(storage, service)
    with sqlite3.connect(db_path) as db:
        db.execute("DELETE FROM outbox")
        (table_id,) = db.execute("SELECT id FROM poker_tables").fetchone()
        db.executemany(
            "INSERT INTO outbox (table_id, key, payload, created_at) VALUES (?, ?, ?, ?)",
            [(table_id, key, json.dumps(payload), clock.time()) for key, payload in rows.items()],
        )
    caplog.set_level(logging.WARNING, logger="bot.tables.restore")
    notifier = RecordingNotifier()
    storage, service = await restarted(db_path, clock, notifier)
    return storage, service, notifier


async def test_what_could_not_be_delivered_goes_out_after_a_restart_once(db_path: Path, clock: ManualClock) -> None:
    storage = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    service = TableService(storage, DiscordDown(), clock=clock, rng_factory=Decks())
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    for user in (ALICE, BOB, CHLOE):
        await service.get(CHANNEL).join(user, NAMES[user])
    await service.get(CHANNEL).start_game(ALICE)
    while (user := actor(service)) is not None:  # everyone folds to the big blind: hand 1 ends
        await service.get(CHANNEL).act(user, ActionKind.FOLD)
    await service.get(CHANNEL).drain()
    await stop(storage, service)

    notifier = RecordingNotifier()
    storage, service = await restarted(db_path, clock, notifier)
    joined = [a.user_id for a in notifier.announcements if isinstance(a, PlayerAnnouncement) and a.kind == "joined"]
    assert joined == [ALICE, BOB, CHLOE]
    assert sorted(user for number, user, _ in notifier.hole_cards if number == 1) == [ALICE, BOB, CHLOE]
    assert all(len(cards) == 2 and all(isinstance(c, Card) for c in cards) for _, _, cards in notifier.hole_cards)
    results = [a for a in notifier.announcements if isinstance(a, HandResult)]
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
    down = DiscordDown(down=False)
    service = TableService(storage, down, clock=clock, rng_factory=Decks())
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    await service.get(CHANNEL).join(ALICE, NAMES[ALICE])
    runner = service.get(CHANNEL)
    await runner.drain()
    down.down = True  # Discord goes away just before the end
    reply = InteractionReply(application_id=5, token="tok-end", locale="fr", created_at=clock.time())
    await service.get(CHANNEL).end(HOST, is_admin=True, reply=reply)
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
        await service.get(CHANNEL).join(user, NAMES[user])
    await service.get(CHANNEL).start_game(ALICE)
    runner = service.get(CHANNEL)
    small, big, button = runner.view().hand_users
    assert actor(service) == button
    assert await service.get(CHANNEL).leave(big) is False  # forfeited out of turn
    await service.get(CHANNEL).act(button, ActionKind.FOLD)
    await runner.drain()
    live = [a for a in down.announcements if isinstance(a, HandResult)]
    assert [r.hand_number for r in live] == [1]
    assert [u for pot in live[0].pots for u, _, _ in pot.winners] == [small]
    await stop(storage, service)

    notifier = RecordingNotifier()
    storage, service = await restarted(db_path, clock, notifier)
    results = [a for a in notifier.announcements if isinstance(a, HandResult)]
    assert results == live
    assert not await storage.pending_outbox()
    await stop(storage, service)


#: Outbox payloads exactly as the code before `OutboxKind` stored them (their JSON text, taken from its database).
OLD_ROWS = {
    "o0000000000000001": f'{{"cards":["5s","4d"],"hand_number":1,"proofs":[],"type":"hole_cards","user_id":{ALICE}}}',
    "o0000000000000002": '{"hand_number":1,"type":"hand_result"}',
    "o0000000000000003": (
        '{"application_id":1,"created_at":%f,"key":"end.done","locale":"fr","params":{},"token":"old-token",'
        '"type":"reply"}'
    ),
    "o0000000000000004": '{"type":"from_a_newer_version"}',
}


def test_each_payload_kind_is_an_outbox_kind_and_unknown_types_are_none() -> None:
    assert [payload_kind({"type": kind.value}) for kind in OutboxKind] == list(OutboxKind)
    assert payload_kind({"type": "from_a_newer_version"}) is None and payload_kind({}) is None


async def test_rows_stored_before_the_payload_kinds_were_an_enum_are_delivered_the_same(
    db_path: Path, clock: ManualClock
) -> None:
    storage = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    service = TableService(storage, RecordingNotifier(), clock=clock, rng_factory=Decks())
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    for user in (ALICE, BOB):
        await service.get(CHANNEL).join(user, NAMES[user])
    await service.get(CHANNEL).start_game(ALICE)
    while (user := actor(service)) is not None:
        await service.get(CHANNEL).act(user, ActionKind.FOLD)
    await service.get(CHANNEL).drain()
    await stop(storage, service)
    with sqlite3.connect(db_path) as db:
        (table_id,) = db.execute("SELECT id FROM poker_tables").fetchone()
        db.executemany(
            "INSERT INTO outbox (table_id, key, payload, created_at) VALUES (?, ?, ?, ?)",
            [
                (table_id, key, text % clock.time() if "%f" in text else text, clock.time())
                for key, text in OLD_ROWS.items()
            ],
        )

    notifier = RecordingNotifier()
    storage, service = await restarted(db_path, clock, notifier)
    assert [(n, u, tuple(map(str, cards))) for n, u, cards in notifier.hole_cards] == [(1, ALICE, ("5s", "4d"))]
    assert [a.hand_number for a in notifier.announcements if isinstance(a, HandResult)] == [1]
    assert notifier.replies == {"old-token": t("end.done", "fr")}
    # A row of a type this version does not know is kept undelivered (for a version that knows it); nothing is sent.
    assert [row.key for row in await storage.pending_outbox()] == ["o0000000000000004"]
    assert len(notifier.announcements) == 1
    await stop(storage, service)


async def test_a_row_of_a_kind_this_version_does_not_know_is_kept_for_an_upgrade_and_blocks_nothing(
    db_path: Path, clock: ManualClock, caplog: pytest.LogCaptureFixture
) -> None:
    """A newer version wrote outbox rows of a kind (or an announcement class) this version does not know, then the
    bot was downgraded: those rows are kept undelivered, each logged once at warning, so that upgrading again
    delivers them; the rows after them are delivered as usual. On the old code they were marked delivered."""
    notice = encode_announcement(PlayerAnnouncement(NoticeKind.SAT_OUT, ALICE, "Alice"))
    rows = {
        "o00000000000000f1": {"type": "from_a_newer_version", "what": "anything"},
        "o00000000000000f2": {"type": "announce", "announcement": {"class": "from_a_newer_version", "fields": {}}},
        "o00000000000000f3": {"type": "announce", "announcement": notice},  # after them: delivered
    }
    storage, service, notifier = await restarted_with_rows(db_path, clock, rows, caplog)
    try:
        told = [a for a in notifier.announcements if isinstance(a, PlayerAnnouncement)]
        assert [(a.kind, a.user_id) for a in told] == [(NoticeKind.SAT_OUT, ALICE)]
        assert [row.key for row in await storage.pending_outbox()] == ["o00000000000000f1", "o00000000000000f2"]
        runner = service.get(CHANNEL)
        assert await runner.deliver_pending() == 0  # read again (a re-read after a fault): still kept, not told
        await runner.drain()
        assert [row.key for row in await storage.pending_outbox()] == ["o00000000000000f1", "o00000000000000f2"]
        warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
        assert len(warnings) == 2, warnings  # once per row, not at each reading
        assert all("this version does not know" in w for w in warnings)
        assert any("o00000000000000f1" in w for w in warnings) and any("o00000000000000f2" in w for w in warnings)
    finally:
        await stop(storage, service)


async def test_the_payloads_are_stored_as_the_same_json_text_as_before(db_path: Path, clock: ManualClock) -> None:
    storage = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    service = TableService(storage, DiscordDown(), clock=clock, rng_factory=Decks())
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    for user in (ALICE, BOB):
        await service.get(CHANNEL).join(user, NAMES[user])
    await service.get(CHANNEL).start_game(ALICE)
    while (user := actor(service)) is not None:
        await service.get(CHANNEL).act(user, ActionKind.FOLD)
    await service.get(CHANNEL).drain()
    await stop(storage, service)
    with sqlite3.connect(db_path) as db:
        texts = [text for (text,) in db.execute("SELECT payload FROM outbox ORDER BY id")]
    kinds = [text[text.index('"type":') :].split(",")[0].rstrip("}") for text in texts]
    assert kinds == ['"type":"announce"'] * 2 + ['"type":"hole_cards"'] * 2 + ['"type":"hand_result"']
    assert texts[-1] == '{"hand_number":1,"type":"hand_result"}'
    hole_cards = r'\{"cards":\["\w\w","\w\w"\],"hand_number":1,"proofs":\["[A-Z2-7=]+"(,"[A-Z2-7=]+")*\],'
    users = []
    for text in texts[2:4]:
        match = re.fullmatch(hole_cards + r'"type":"hole_cards","user_id":(\d+)\}', text)
        assert match is not None, text
        users.append(int(match.group(2)))
    assert sorted(users) == [ALICE, BOB]
