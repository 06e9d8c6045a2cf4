"""Every outbox kind checked the same way after a downgrade: a row of a kind this version knows that carries a field
a newer version added is kept undelivered for the upgrade (`outbox.known_kind`, `PAYLOAD_FIELDS`), as an unknown
kind and a newer announcement already were; and the rows this version writes all pass the check (else they would
never be delivered). On the old code the shown-cards, hand-result, hole-cards, closed-table and reply rows with a
newer field were delivered without it and marked delivered, or dropped as unreadable: lost for the upgrade."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.poker import ActionKind, parse_card
from bot.render.announce import NoticeKind
from bot.storage import Storage
from bot.tables import CardsShown, ManualClock, PlayerAnnouncement, TableOptions, TableService
from bot.tables.core import TableCore
from bot.tables.outbox import InteractionReply, UnknownKind, encode_announcement, known_kind
from bot.tables.shows import encode_shown
from tests.tables.conftest import ALICE, BOB, CHANNEL, DEFAULTS, GUILD, HOST, NAMES, Decks, actor

from .test_outbox import DiscordDown, restarted_with_rows, stop

NEWER = {"from_a_newer_version": "what it says"}


def this_versions_rows(at: float) -> dict[str, dict[str, Any]]:
    """One payload of each kind, as this version writes it (through its encoders where it has one)."""
    return {
        "announce": {
            "type": "announce",
            "announcement": encode_announcement(PlayerAnnouncement(NoticeKind.SAT_OUT, ALICE, "Alice")),
        },
        "hand_result": {"type": "hand_result", "hand_number": 1},
        "hole_cards": {"type": "hole_cards", "user_id": ALICE, "hand_number": 1, "cards": ["Ah", "Kd"], "proofs": []},
        "shown": dict(encode_shown(CardsShown(1, ALICE, "Alice", (parse_card("Ah"),)))),
        "closed_table": {"type": "closed_table", "message_id": 1},
        "reply": TableCore.reply_payload(InteractionReply(1, "token", "en", at), "end.done", {}),
    }


@pytest.mark.parametrize("kind", sorted(this_versions_rows(0.0)))
def test_a_known_kind_with_a_newer_field_is_unknown(kind: str) -> None:
    row = this_versions_rows(0.0)[kind]
    assert known_kind(row).value == kind
    with pytest.raises(UnknownKind, match="from_a_newer_version"):
        known_kind({**row, **NEWER})


@pytest.mark.parametrize("kind", sorted(this_versions_rows(0.0)))
async def test_a_row_of_each_kind_with_a_newer_field_is_kept_for_the_upgrade(
    kind: str, db_path: Path, clock: ManualClock, caplog: pytest.LogCaptureFixture
) -> None:
    rows = this_versions_rows(clock.time())
    number = sorted(rows).index(kind)
    newer_key, known_key = f"o000000000000{number:02d}a1", f"o000000000000{number:02d}a2"  # logged once a key
    newer = {newer_key: {**rows[kind], **NEWER}, known_key: rows["announce"]}  # the known one after it: delivered
    storage, service, notifier = await restarted_with_rows(db_path, clock, newer, caplog)
    try:
        told = [a for a in notifier.announcements if isinstance(a, PlayerAnnouncement)]
        assert [(a.kind, a.user_id) for a in told] == [(NoticeKind.SAT_OUT, ALICE)]
        assert [row.key for row in await storage.pending_outbox()] == [newer_key]
        said = [r.getMessage() for r in caplog.records]
        assert not any("cannot be read" in m for m in said)
        assert any(newer_key in m and "kept undelivered" in m for m in said)
    finally:
        await stop(storage, service)


async def test_every_row_this_version_writes_passes_the_check(db_path: Path, clock: ManualClock) -> None:
    """A hand played, cards shown, the table ended while Discord is down: every row stored passes `known_kind`."""
    storage = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    service = TableService(storage, DiscordDown(), clock=clock, rng_factory=Decks())
    try:
        await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
        runner = service.get(CHANNEL)
        for user in (ALICE, BOB):
            await runner.join(user, NAMES[user])
        await runner.start_game(ALICE)
        while (user := actor(service)) is not None:
            await runner.act(user, ActionKind.FOLD)
        await runner.drain()
        await runner.show_cards(ALICE, 1, (0,))
        await runner.sit_out(ALICE)
        await runner.end(HOST, is_admin=False, reply=InteractionReply(1, "token", "en", clock.time()))
        rows = await storage.pending_outbox()
        kinds = {known_kind(row.payload).value for row in rows}
        # (No closed_table row: Discord down, the table never had a message whose buttons to take off.)
        assert kinds == set(this_versions_rows(0.0)) - {"closed_table"}, kinds
    finally:
        await stop(storage, service)
