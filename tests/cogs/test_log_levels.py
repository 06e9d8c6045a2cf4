"""The logs say what happened, at the right level: an action stored, then a storage fault in what follows it (the
hand's end), is a warning that says the action is stored (cogs/actions.py; a computer player's:
tests/tables/test_log_levels.py), not an error with a traceback; a press's action refused after its press was
cancelled (the bot stopping) is a refusal (info), not an error. Each test fails on the old code (an ERROR record)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.discord_ui.errors import CommandRefused
from bot.discord_ui.presses import acknowledge_action
from bot.storage import Storage
from tests.cogs.conftest import World
from tests.cogs.test_presses import HeldTransport, pressed
from tests.tables.conftest import refuse_writes_under


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_slash_action_stored_before_an_outage_at_the_hands_end_is_a_warning_that_says_so(
    world: World, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    await world.seat({"alice": 100, "bob": 100})
    await world.slash("alice", "poker start")
    storage = world.bot.storage
    assert isinstance(storage, Storage)
    refuse_writes_under(storage, "finish_hand", monkeypatch)  # a real read-only SQLite under the hand's end
    caplog.set_level(logging.INFO)
    await world.slash(world.actor(), "fold")  # stored and answered, then the hand's end refused
    assert errors(caplog) == []
    said = [r for r in caplog.records if r.name == "cogs.actions"]
    assert [r.levelno for r in said] == [logging.WARNING]
    assert (
        "/fold is stored; a write after it failed: StorageUnavailable: SQLite: attempt to write a readonly"
        in said[0].getMessage()
    )
    assert said[0].exc_info is None


async def test_a_press_refused_after_its_press_was_cancelled_is_logged_as_a_refusal(
    caplog: pytest.LogCaptureFixture,
) -> None:
    transport = HeldTransport()
    press = pressed(transport)

    async def refused() -> None:
        await asyncio.sleep(0.01)
        raise CommandRefused("not_your_turn_generic")

    async def run() -> None:
        answer = await acknowledge_action(press, arrived=0.0, within=0)
        await answer.beside(refused())

    caplog.set_level(logging.INFO, logger="bot.discord_ui.presses")
    running = asyncio.create_task(run())
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    running.cancel()  # the bot stopping while the deferral is held
    with pytest.raises(asyncio.CancelledError):
        await running
    await asyncio.sleep(0.05)
    transport.release.set()
    said = [r for r in caplog.records if r.name == "bot.discord_ui.presses"]
    assert [(r.levelno, r.getMessage()) for r in said] == [
        (logging.INFO, "a press's action was refused after its press was cancelled: not_your_turn_generic")
    ]
