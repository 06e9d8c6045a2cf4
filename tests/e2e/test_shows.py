"""Showing cards by choice against the real bot process through the Discord stand-in (issue 15): after a hand won
without a showdown, a player presses Show under its result and chooses both cards; the bot dies right after the
show is stored, before telling anyone; after the restart the channel reads "alice shows …" once, a second press
is refused, a spectator is refused, and `/history` shows the cards to everyone."""

from __future__ import annotations

import pytest

from .conftest import World
from .driver import WAIT
from .test_outbox_restart import died, fold_hand, restart


@pytest.mark.bot_env(E2E_KILL_AFTER="show_cards", E2E_NEXT_HAND_DELAY="120")
async def test_a_show_stored_before_a_crash_is_told_once_after_the_restart(world: World) -> None:
    game, stub = world.game, world.stub
    alice, carol = world.players[0], world.players[2]
    await game.open_table(alice, {"alice": 100, "bob": 100})
    await fold_hand(world)  # the first to act folds: the other wins without a showdown
    await stub.wait_for(lambda: game.spectator.results().get(1), WAIT, what="hand 1's result")
    [result] = game.spectator.results()[1]
    assert [b.get("label") for b in result.buttons()] == ["Show my cards"]

    stranger = stub.press_button(carol, result.id, label="Show my cards")
    await stranger.wait_acked(WAIT)
    assert game.reply(stranger) == "You were not dealt in hand #1: only its players can show their cards"

    asked = stub.press_button(alice, result.id, label="Show my cards")
    await asked.wait_acked(WAIT)
    prompt = stub.original(asked)
    assert prompt is not None and prompt.ephemeral_to == alice.id
    assert prompt.text().startswith("Which of your cards of hand #1 do you show?")
    labels = [str(b.get("label")) for b in prompt.buttons()]
    assert len(labels) == 3 and labels[2].startswith("Show both: ")
    cards = labels[2].removeprefix("Show both: ")

    stub.press_button(alice, prompt.id, custom_id=f"poker:showc:{world.channel.id}:1:01")
    await died(world)  # the show is stored; nobody was told
    line = f"alice shows {cards}"
    assert not any(line in text for text in game.spectator.texts())
    await restart(world)
    await stub.wait_for(lambda: any(line in t for t in game.spectator.texts()), WAIT, what="the show's line")
    await stub.wait_idle(0.3)
    assert sum(line in text for text in game.spectator.texts()) == 1

    again = stub.press_button(alice, result.id, label="Show my cards")
    await again.wait_acked(WAIT)
    assert game.reply(again) == "You have already shown your cards of hand #1"
    history = await game.command(carol, "history", hand=1)
    assert line in history
