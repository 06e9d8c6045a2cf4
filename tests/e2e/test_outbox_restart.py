"""SIGKILL right after each kind of commit, then a restart: every message the commit owed goes out exactly once.

An action, a new hand, a hand's end, `/poker end` and a rebuy: the bot kills itself the moment the storage write
has committed (``E2E_KILL_AFTER``, tests/e2e/bot_entry.py), before it could tell Discord anything; the new process
finds the owed messages in the outbox (docs/outbox.md) and delivers them. Checked as the members see it: each DM,
notice, result and reply once, and no message of the table but the live one with live buttons.
"""

from __future__ import annotations

import pytest

from tests.discord_stub import Interaction, Message

from .conftest import World
from .driver import WAIT
from .spectator import is_table_message

BUY_INS = {"alice": 100, "bob": 80, "carol": 60}
CLOSED_TITLE = "Table closed"


async def died(world: World) -> None:
    """The bot killed itself at the hooked commit."""
    assert await world.bot.wait(timeout=WAIT) == -9, "the bot should have killed itself after the commit"


async def restart(world: World) -> None:
    """Start the bot again over the same database, without the kill hook."""
    world.bot.extra_env.pop("E2E_KILL_AFTER", None)
    await world.bot.start()
    await world.stub.wait_connected()


async def open_table(world: World, *, start: bool = True) -> Interaction | None:
    """alice opens a cash table, the players sit down; `start`: alice sends /poker start (returned, unwaited)."""
    game = world.game
    assert (await game.command(world.host, "poker", "create")).startswith("alice opened a table here")
    for seat, (name, buy_in) in enumerate(BUY_INS.items(), start=1):
        await game.command(game.user(name), "poker", "join", seat=seat, buy_in=buy_in)
    if not start:
        return None
    return world.stub.invoke_slash(world.host, world.channel, "poker", "start")


def hand_dms(world: World, name: str, number: int) -> list[Message]:
    """The hole-card DMs a player got for hand `number`."""
    return [m for m in world.stub.dms(world.game.user(name)) if f"#{number}" in m.content]


def live_buttons(message: Message) -> bool:
    """True when the message's current version has buttons."""
    return any(row.get("components") for row in message.latest.components)


def only_the_live_table_has_buttons(world: World) -> None:
    tables = world.game.spectator.table_messages()
    stale = [m.id for m in tables[:-1] if live_buttons(m)]
    assert not stale, f"old table messages still carry buttons: {stale}"


def closed_notices(world: World) -> list[Message]:
    return [m for m in world.game.spectator.messages() if m.embeds and m.embeds[0].get("title") == CLOSED_TITLE]


async def fold_hand(world: World) -> None:
    """The players fold until the hand is over (the last fold may be the commit that kills the bot)."""
    game = world.game
    view = await game.turn()
    while view.in_hand:
        try:
            view = await game.act(view.actor or "", "fold", "button")
        except TimeoutError:
            return


def refusals(world: World) -> list[str]:
    return [t for t in world.game.spectator.texts() if "carol doesn't accept direct messages" in t]


@pytest.mark.bot_env(E2E_KILL_AFTER="start_hand:2")
async def test_after_a_crash_at_a_new_hand_every_hole_card_dm_goes_out_once(world: World) -> None:
    stub = world.stub
    world.game.user("carol").dms_open = False  # carol is told publicly to press My cards instead
    start = await open_table(world)
    assert start is not None and await start.wait_acked(WAIT)
    await fold_hand(world)  # hand 1; hand 2 is dealt by itself, stored, and the process dies
    await died(world)
    assert not any(hand_dms(world, n, 2) for n in BUY_INS), "nothing of hand 2 was sent before the crash"
    told_before = len(refusals(world))
    await restart(world)
    await stub.wait_for(lambda: all(hand_dms(world, n, 2) for n in ("alice", "bob")), WAIT, what="the DMs")
    view = await world.game.turn(hand=2)
    await stub.wait_idle(0.3)
    assert view.hand_number == 2
    assert [len(hand_dms(world, n, 2)) for n in ("alice", "bob")] == [1, 1]
    assert len(refusals(world)) == told_before + 1, "carol is told once to press My cards"
    only_the_live_table_has_buttons(world)


@pytest.mark.bot_env(E2E_KILL_AFTER="finish_hand")
async def test_after_a_crash_at_a_hand_end_its_result_is_posted_once(world: World) -> None:
    game, stub = world.game, world.stub
    start = await open_table(world)
    assert start is not None and await start.wait_acked(WAIT)
    await fold_hand(world)  # the last fold ends the hand: its result is stored, then the process dies
    await died(world)
    assert 1 not in game.spectator.results(), "the result must not be out before the crash"
    await restart(world)
    await stub.wait_for(lambda: game.spectator.results().get(1), WAIT, what="the result after the restart")
    await game.turn(hand=2)  # hand 1's message may still show a turn: the crash can come before its last edit
    await stub.wait_idle(0.3)
    assert len(game.spectator.results()[1]) == 1
    only_the_live_table_has_buttons(world)


@pytest.mark.bot_env(E2E_KILL_AFTER="close_table")
async def test_after_a_crash_at_poker_end_the_table_is_closed_for_everyone_once(world: World) -> None:
    game, stub = world.game, world.stub
    start = await open_table(world)
    assert start is not None and await start.wait_acked(WAIT)
    await game.turn()
    end = stub.invoke_slash(world.host, world.channel, "poker", "end")
    await end.wait_acked(WAIT)
    await died(world)
    assert not closed_notices(world)
    await restart(world)
    await stub.wait_for(lambda: game.reply(end), WAIT, what="the answer to /poker end")
    await stub.wait_idle(0.3)
    assert game.reply(end) == "The table is closed."
    assert len(closed_notices(world)) == 1
    tables = [m for m in game.spectator.messages() if is_table_message(m)]
    assert tables and not any(live_buttons(m) for m in tables), "a closed table keeps no buttons"


@pytest.mark.bot_env(E2E_KILL_AFTER="buy_in:4")
async def test_after_a_crash_at_a_rebuy_its_answer_is_delivered_once(world: World) -> None:
    game, stub = world.game, world.stub
    await open_table(world, start=False)
    rebuy = stub.invoke_slash(game.user("carol"), world.channel, "poker", "rebuy", options={"amount": 20})
    await rebuy.wait_acked(WAIT)
    await died(world)
    await restart(world)
    answer = await stub.wait_for(lambda: game.reply(rebuy), WAIT, what="the answer to /poker rebuy")
    assert answer == "Rebuy of 20: your stack is 80, your balance 920."
    await stub.wait_idle(0.3)
    assert len(stub.followups(rebuy)) == 0 and game.reply(rebuy) == answer
    assert game.spectator.table().stacks["carol"] == 80


@pytest.mark.bot_env(E2E_KILL_AFTER="append_action:2")
async def test_after_a_crash_at_an_action_the_table_shows_it_once(world: World) -> None:
    game, stub = world.game, world.stub
    start = await open_table(world)
    assert start is not None and await start.wait_acked(WAIT)
    view = await game.act((await game.turn()).actor or "", "call", "button")
    raiser = view.actor or ""
    await game.send(raiser, "raise", "modal")  # the form's minimum: 4; stored, then the process dies
    await died(world)
    await restart(world)
    view = await stub.wait_for(
        lambda: (v := game.spectator.table()).recent and "raises to 4" in v.recent[-1] and v,
        WAIT,
        what="the raise on the table message after the restart",
    )
    assert view.actor != raiser and view.to_call > 0
    raises = [line for line in view.recent if "raises to 4" in line]
    assert len(raises) == 1 and raises[0].startswith(f"{raiser} raises to 4"), raises
    only_the_live_table_has_buttons(world)
    await game.act(view.actor or "", "fold", "button")  # the table plays on (act checks it was accepted)
