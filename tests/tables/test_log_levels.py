"""A computer player's action stored, then a storage fault in what follows it (the hand's end): the log says the
action is stored, as a warning (bot/tables/clockwork.py), not "could not be stored" as an error with a traceback
(the old code's line)."""

from __future__ import annotations

import logging

import pytest

from bot.poker import ActionKind
from bot.storage import Storage
from bot.tables import ManualClock, TableOptions, TableService
from bot.tables.clock import settle

from .conftest import ALICE, CHANNEL, GUILD, HOST, NAMES, refuse_writes_under


async def test_a_computer_players_action_stored_before_an_outage_says_it_is_stored(
    service: TableService,
    storage: Storage,
    clock: ManualClock,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On the old code: an error with a traceback, "a computer player's action could not be stored"."""
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2, computer_delay=0))
    runner = service.get(CHANNEL)
    await runner.join(ALICE, NAMES[ALICE])
    await runner.add_computer(HOST, "beginner")
    await runner.start_game(HOST)
    caplog.set_level(logging.INFO)
    for _ in range(20):  # Alice goes all in; the computer's answer (a call or a fold) ends the hand
        await clock.advance(0.1)
        await settle()
        if runner.snapshot().actor_user_id == ALICE:
            break
    assert runner.snapshot().actor_user_id == ALICE
    refuse_writes_under(storage, "finish_hand", monkeypatch)  # a real read-only SQLite under the hand's end
    await runner.act(ALICE, ActionKind.ALL_IN)
    for _ in range(20):
        await clock.advance(0.1)
        await settle()
        if any(r.name == "bot.tables.clockwork" for r in caplog.records):
            break
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    said = [r.getMessage() for r in caplog.records if r.name == "bot.tables.clockwork"]
    assert len(said) == 1 and "a computer player's action is stored; a write after it failed" in said[0], said
    assert "could not be stored" not in said[0]
