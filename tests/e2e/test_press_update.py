"""A button press answered by the table edit itself (issue 14, docs/outbox.md "A press answered by the table edit"),
against the real bot process: the press's answer is the interaction response UPDATE_MESSAGE that edits the table
message to show the action, one REST call in all; a refused press gets its private refusal, no edit."""

from __future__ import annotations

import pytest

from .conftest import World
from .driver import WAIT

CALLBACK = "POST /interactions/{webhook_id}/{webhook_token}/callback"
UPDATE_MESSAGE = 7


@pytest.mark.bot_env(E2E_ANSWER_WITHIN="2")  # the answer waits for the edit whatever the machine's load
async def test_a_press_costs_one_rest_call_and_the_table_message_shows_the_action(world: World) -> None:
    game, stub = world.game, world.stub
    await game.open_table(world.host, {"alice": 100, "bob": 100, "carol": 100})
    view = await game.turn()
    assert view.actor is not None and "call" in view.buttons  # first to act preflop: a call closes no street
    await stub.wait_idle(0.3)  # the deal's own calls (the table message, the hole-card DMs) are over
    mark = stub.mark()
    press = stub.press_button(game.user(view.actor), view.message_id, view.buttons["call"]["custom_id"])
    assert await press.wait_acked(WAIT) == UPDATE_MESSAGE
    await stub.wait_idle(0.3)
    calls = [f"{r.method} {r.route}" for r in stub.requests if r.seq > mark]
    assert calls == [CALLBACK]  # no deferral, no PATCH of the table message
    after = game.spectator.table()
    assert after.message_id == view.message_id and after.seq > view.seq
    assert after.actor not in (None, view.actor)
    assert after.seats[view.actor].bet == view.to_call and after.seats[view.actor].stack == 100 - view.to_call

    # The same player presses Fold now, out of turn: refused privately, the table message untouched.
    mark = stub.mark()
    refused = stub.press_button(game.user(view.actor), view.message_id, after.buttons["fold"]["custom_id"])
    assert await refused.wait_acked(WAIT) == 4 and refused.ephemeral
    await stub.wait_idle(0.3)
    assert [f"{r.method} {r.route}" for r in stub.requests if r.seq > mark] == [CALLBACK]
    assert game.spectator.table().seq == after.seq
