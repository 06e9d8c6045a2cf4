"""A database page that goes bad while the bot runs (a real SQLite file whose pages are overwritten under the running
table, no mock): the member is told plainly that storage is damaged (`storage_unreadable`, EN and FR), not the
generic "unexpected error"; the table halts with one error line instead of a warning every 8 s for ever, reads the
file again every `UNREADABLE_RETRY_S`, and once the file is restored goes on from what was stored (nothing lost).

On the old code the hand-action connection's fast write path raised the driver's DatabaseError (wrapped as a plain
StorageError: "unexpected error"), and the table's re-read failed and logged a warning every 8 s."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from bot.discord_ui.errors import refusal_text
from bot.poker import ActionKind
from bot.render.i18n import t
from bot.storage import Storage, StorageUnreadable
from bot.tables import ManualClock, TableOptions, TableRunner, TableService
from bot.tables.clock import settle
from bot.tables.errors import ServiceError
from bot.tables.operation import FAULT_RETRY_DELAYS_S, UNREADABLE_RETRY_S

from .conftest import ALICE, BOB, CHANNEL, GUILD, HOST, NAMES


def damage(path: Path, table: str) -> dict[int, bytes]:
    """Overwrite the root pages of `table` and its indexes in the SQLite file at `path` (after a checkpoint, so
    that the pages are in the file) and make the bot's connections read the file again (another connection's
    commit changes the WAL, after which every connection drops its page cache). Returns the pages as they were."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)").close()
        size = int(db.execute("PRAGMA page_size").fetchone()[0])
        query = "SELECT rootpage FROM sqlite_master WHERE tbl_name = ? AND rootpage > 0"
        roots = [int(root) for (root,) in db.execute(query, (table,))]
    finally:
        db.close()
    saved: dict[int, bytes] = {}
    with path.open("r+b") as file:
        for root in roots:
            file.seek((root - 1) * size)
            saved[(root - 1) * size] = file.read(size)
            file.seek((root - 1) * size)
            file.write(b"\x5a" * size)
    touch(path)
    return saved


def restore(path: Path, saved: dict[int, bytes]) -> None:
    """Put the pages `damage` overwrote back (as an operator restoring the file would), then `touch`."""
    with path.open("r+b") as file:
        for offset, page in saved.items():
            file.seek(offset)
            file.write(page)
    touch(path)


def touch(path: Path) -> None:
    """A commit by another connection on a table the damage spares: the bot's connections drop their caches."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('test_touch', ?)", (str(id(path)),))
    finally:
        db.close()


async def dealt(service: TableService) -> tuple[TableRunner, int, int]:
    """A cash table of Alice and Bob with its first hand dealt: the runner, the hand's id, the player to act."""
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    runner = service.get(CHANNEL)
    for user in (ALICE, BOB):
        await runner.join(user, NAMES[user])
    await runner.start_game(ALICE)
    await runner.drain()
    hand_id, actor = runner.view().hand_id, runner.snapshot().actor_user_id
    assert hand_id is not None and actor is not None
    return runner, hand_id, actor


async def test_a_page_damaged_at_run_time_is_told_plainly_halts_the_table_once_and_loses_nothing(
    service: TableService, storage: Storage, clock: ManualClock, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    runner, hand_id, actor = await dealt(service)
    await runner.act(actor, ActionKind.CALL)  # stored before the damage: must survive it
    before = runner.snapshot()
    stored = (await storage.hand(hand_id)).actions
    other = before.actor_user_id
    assert other is not None and other != actor
    caplog.set_level(logging.WARNING)
    saved = damage(db_path, "hand_actions")

    with pytest.raises(StorageUnreadable) as refused:  # the fast write path (the actions' own connection)
        await runner.act(other, ActionKind.CHECK)
    assert refusal_text(refused.value, "en", "the test") == t("error.storage_unreadable", "en")
    assert refusal_text(refused.value, "fr", "the test") == t("error.storage_unreadable", "fr")
    assert t("error.storage_unreadable", "fr") != t("error.storage_unreadable", "en")
    assert not any(r.levelno >= logging.ERROR and "unexpected" in r.getMessage() for r in caplog.records)
    assert runner.snapshot().actor_user_id == other and runner.snapshot().pots == before.pots

    for _ in range(12):  # a minute and a half of the old 8 s retries
        await clock.advance(FAULT_RETRY_DELAYS_S[-1])
        await settle()
    table_logs = [r for r in caplog.records if r.name == "bot.tables.operation"]
    assert [(r.levelno, r.getMessage().split(":")[0]) for r in table_logs] == [(logging.ERROR, "table 1 halted")]
    assert "restore it from a backup" in table_logs[0].getMessage()
    with pytest.raises(ServiceError) as halted:  # halted: told plainly, nothing tried on the damaged file
        await runner.act(other, ActionKind.CHECK)
    assert halted.value.code == "storage_unreadable"
    assert refusal_text(halted.value, "fr", "the test") == t("error.storage_unreadable", "fr")

    restore(db_path, saved)
    await clock.advance(UNREADABLE_RETRY_S)  # the table reads the file again
    await settle()
    assert any("readable again" in r.getMessage() for r in caplog.records if r.name == "bot.tables.operation")
    after = (await storage.hand(hand_id)).actions
    assert after[: len(stored)] == stored  # what was stored before the damage is all there
    # The table went on from it: the turn it halted in ran out meanwhile (its timer, re-armed by the re-read).
    assert [a["by"] for a in after[len(stored) :]] == ["timeout"]


async def test_a_page_damaged_after_a_stored_action_tells_its_author_the_action_stands(
    service: TableService, storage: Storage, clock: ManualClock, db_path: Path
) -> None:
    """The action is stored, then the hand's end finds the `hands` table damaged: its author is told
    `action_stands` (it counts), not that nothing changed."""
    runner, hand_id, actor = await dealt(service)
    stored = len((await storage.hand(hand_id)).actions)
    real = storage.finish_hand

    async def damaged_first(*args: object, **kwargs: object) -> object:
        damage(db_path, "hands")
        return await real(*args, **kwargs)  # type: ignore[arg-type]

    storage.finish_hand = damaged_first  # type: ignore[method-assign]
    with pytest.raises(ServiceError) as refused:
        await runner.act(actor, ActionKind.FOLD)  # ends the hand: the fold stored, then the hand's end
    assert refused.value.code == "action_stands"
    storage.finish_hand = real  # type: ignore[method-assign]
    with sqlite3.connect(db_path) as db:  # the fold is in the file, damaged pages or not
        rows = db.execute("SELECT COUNT(*) FROM hand_actions WHERE hand_id = ?", (hand_id,)).fetchone()
    assert rows[0] == stored + 1
