"""What `fixes` merged, attacked (breaker): an outbox row a newer version wrote is kept undelivered after a downgrade
(docs/outbox.md) — also when its announcement is of a class this version knows but carries what a newer version
added (a notice kind, a level change's cause, a field): those were dropped as unreadable (marked delivered), lost
for the upgrade; and each table's such row is logged, even when another table's row has the same key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.poker import LevelBy
from bot.render.announce import NoticeKind
from bot.tables import LevelAnnouncement, ManualClock, PlayerAnnouncement
from bot.tables.outbox import UnknownKind, decode_announcement, encode_announcement
from tests.tables.conftest import ALICE

from .test_outbox import restarted_with_rows, stop


def newer_rows() -> dict[str, dict[str, Any]]:
    """Rows as a newer version could write them: known classes with what it added, then a row this one knows."""
    player = encode_announcement(PlayerAnnouncement(NoticeKind.SAT_OUT, ALICE, "Alice"))
    new_kind = {**player, "fields": {**player["fields"], "kind": "from_a_newer_version"}}
    new_field = {**player, "fields": {**player["fields"], "colour": "green"}}
    level = encode_announcement(LevelAnnouncement(2, 2, 4, 0, (3, 6, 0), 10, LevelBy.HANDS))
    level = {**level, "fields": {**level["fields"], "by": "from_a_newer_version"}}
    return {
        "o00000000000000e1": {"type": "announce", "announcement": new_kind},
        "o00000000000000e2": {"type": "announce", "announcement": new_field},
        "o00000000000000e3": {"type": "announce", "announcement": level},
        "o00000000000000e4": {"type": "announce", "announcement": player},  # after them: delivered
    }


@pytest.mark.parametrize("key", ["o00000000000000e1", "o00000000000000e2", "o00000000000000e3"])
def test_what_a_newer_version_added_to_a_known_announcement_is_unknown(key: str) -> None:
    with pytest.raises(UnknownKind):
        decode_announcement(newer_rows()[key]["announcement"])


async def test_a_known_announcement_with_what_a_newer_version_added_is_kept_for_the_upgrade(
    db_path: Path, clock: ManualClock, caplog: pytest.LogCaptureFixture
) -> None:
    """On the old code the three rows were logged as unreadable and marked delivered: lost for the upgrade."""
    storage, service, notifier = await restarted_with_rows(db_path, clock, newer_rows(), caplog)
    try:
        told = [a for a in notifier.announcements if isinstance(a, PlayerAnnouncement | LevelAnnouncement)]
        assert [(a.kind, a.user_id) for a in told] == [(NoticeKind.SAT_OUT, ALICE)]  # type: ignore[union-attr]
        kept = ["o00000000000000e1", "o00000000000000e2", "o00000000000000e3"]
        assert [row.key for row in await storage.pending_outbox()] == kept
        assert not any("cannot be read" in r.getMessage() for r in caplog.records)
    finally:
        await stop(storage, service)
