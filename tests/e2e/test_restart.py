"""Crash recovery of the real bot process: SIGKILL in the middle of a hand, start again over the same database.

At each point of a hand (preflop, after an all-in, at the showdown) the bot is killed as in a crash and
started again; the hand must resume exactly where the players saw it — the same table message (board, pots,
stacks, bets, last actions, whose turn it is, the same buttons, which still work) matching the engine's
replay of what was stored — and then play on to its end, with every action stored once, the next hand
dealt, the table closed and the ledger audit passing.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from .conftest import World
from .records import HandState, all_hands, hand_state, open_storage, replay
from .spectator import TableView, parse_table, result_lines

BUY_INS = {"alice": 100, "bob": 80, "carol": 60, "dave": 90}


def names(world: World) -> dict[int, str]:
    """Player names by user id."""
    return {u.id: u.name for u in world.players}


async def open_hand(world: World) -> HandState:
    """The unfinished hand as the database holds it, replayed by the engine."""
    async with open_storage(world.db_path) as storage:
        table = await storage.table_for_channel(world.channel.id)
        assert table is not None
        row = await storage.open_hand(table.id)
    assert row is not None, "no unfinished hand in the database"
    return hand_state(row)


def shows(view: TableView, state: HandState, world: World) -> None:
    """The table message shows the engine's replay of the stored hand: board, pots, stacks, bets, the actor."""
    who = names(world)
    assert view.board == state.board
    # One pot is shown with this street's bets in it; side pots are shown as collected.
    single = (sum(state.pots) + sum(state.bets.values()),)
    expected = state.pots if len(state.pots) > 1 else single
    assert tuple(p for p in view.pots if p) == tuple(p for p in expected if p)
    assert {who[u]: s for u, s in state.stacks.items()} == {n: view.seats[n].stack for n in map(who.get, state.stacks)}
    assert {who[u]: b for u, b in state.bets.items()} == {n: view.seats[n].bet for n in map(who.get, state.bets)}
    assert view.actor == (who[state.actor] if state.actor is not None else None)


async def restart(world: World, **env: str) -> int:
    """SIGKILL the bot, then start it again over the same database (with `env` changed); returns the stand-in's
    event number just before the new start."""
    world.bot.kill()
    assert await world.bot.wait() == -9
    world.bot.extra_env.update(env)
    mark = world.stub.mark()
    await world.bot.start()
    await world.stub.wait_connected()
    return mark


async def crash_and_resume(world: World) -> TableView:
    """Kill the bot mid-hand and start it again: the same hand, on the same table message, exactly as before.
    Returns the table message after the restart."""
    game, stub = world.game, world.stub
    await stub.wait_idle(0.1)
    before = game.spectator.table()
    assert before.in_hand
    world.bot.kill()
    await world.bot.wait()
    stored = await open_hand(world)
    shows(before, stored, world)
    mark = await restart(world)
    # The restored table refreshes its message in place (the turn deadline is extended; nothing else changes).
    await stub.wait_for(lambda: game.table_message().latest.seq > mark, what="the table message after the restart")
    await stub.wait_idle(0.1)
    after = game.spectator.table()
    assert after.message_id == before.message_id
    assert after.timeless() == before.timeless()
    assert await open_hand(world) == stored
    shows(after, stored, world)
    return after


async def finish(world: World, number: int) -> None:
    """After the hand `number`: its stored actions are the players' (none lost or doubled, none replayed twice),
    the next hand is dealt with the stacks it ended with, and the table closes with the ledger in balance."""
    game, who = world.game, names(world)
    view = await game.turn()
    assert view.hand_number == number + 1
    async with open_storage(world.db_path) as storage:
        table = await storage.table_for_channel(world.channel.id)
        assert table is not None
        hands = await all_hands(storage, table.id)
    done = hands[number - 1]
    assert done.ended_at is not None and done.number == number
    hand = replay(done)
    assert hand.is_complete and list(hand.stacks) == done.result["finishing_stacks"]
    made = [(m.name, m.action) for m in game.moves if m.hand == number]
    assert [(who[u], kind) for u, kind, _ in hand_state(done).actions] == made
    assert len(game.spectator.results()[number]) == 1, "the hand's result was announced once"
    first = game.spectator.hand_messages()[number + 1]
    dealt = parse_table(first, first.versions[0])
    ended = {who[int(u)]: s for u, s in zip(done.record["users"], hand.stacks, strict=True)}
    assert {n: dealt.seats[n].stack + dealt.seats[n].bet for n in ended if ended[n]} == {
        n: s for n, s in ended.items() if s
    }
    assert "Audit passed" in await game.command(world.host, "poker-admin", "audit")
    assert await game.command(world.host, "poker", "end") == "The table is closed."
    async with open_storage(world.db_path) as storage:
        report = await storage.audit(world.guild.id)
    assert report.ok, report.problems
    assert report.on_tables == 0


async def test_a_hand_resumes_after_a_crash_preflop(world: World) -> None:
    game = world.game
    await game.open_table(world.host, BUY_INS)
    view = await game.turn()
    view = await game.act(view.actor or "", "call", "button")
    view = await game.act(view.actor or "", "raise", "modal")  # the form's minimum: 4
    after = await crash_and_resume(world)
    assert after.recent[-1].endswith("raises to 4 · pot 9") and after.to_call > 0
    # The buttons of the message posted by the killed process work in the new one.
    view = await game.act(after.actor or "", "call", "button")
    view = await game.act(view.actor or "", "fold", "slash")
    await game.call_down()
    await finish(world, 1)


async def test_a_hand_resumes_after_a_crash_after_an_all_in(world: World) -> None:
    game = world.game
    await game.open_table(world.host, BUY_INS)
    view = await game.turn()
    shover = view.actor or ""
    view = await game.act(shover, "all_in", "button")
    assert view.seats[shover].all_in and view.seats[shover].stack == 0
    after = await crash_and_resume(world)
    assert after.seats[shover].all_in and after.to_call > 0
    view = await game.act(after.actor or "", "call", "slash")
    while view.in_hand:
        view = await game.act(view.actor or "", "fold" if view.to_call else "check", "button")
    showdown = game.spectator.showdowns()[1]
    assert any(line.startswith(shover) for line in result_lines(showdown)["Hands shown"])
    await finish(world, 1)


@pytest.mark.bot_env(E2E_HOLD_FINISH_HAND="1")
async def test_a_hand_finishes_after_a_crash_at_the_showdown(world: World) -> None:
    game, stub = world.game, world.stub
    await game.open_table(world.host, {"alice": 100, "bob": 80, "carol": 60})
    view = await game.turn()
    while len(view.board) < 5:
        view = await game.act(view.actor or "", "call" if view.to_call else "check", "slash")
    for _ in range(2):  # the three players check the river: the first two
        view = await game.act(view.actor or "", "check", "slash")
    # The river's last check ends the hand: it is stored, then the process dies before the result is.
    stored_before = len((await open_hand(world)).actions)
    await game.send(view.actor or "", "check", "button")
    for _ in range(200):
        state = await open_hand(world)
        if len(state.actions) > stored_before:
            break
        await asyncio.sleep(0.02)
    assert state.complete and len(state.actions) == stored_before + 1
    await stub.wait_idle(0.1)
    assert 1 not in game.spectator.results(), "the result must not be out before the crash"
    await restart(world, E2E_HOLD_FINISH_HAND="0")
    result = await stub.wait_for(lambda: game.spectator.results().get(1), what="the result after the restart")
    assert len(result) == 1
    async with open_storage(world.db_path) as storage:
        table = await storage.table_for_channel(world.channel.id)
        assert table is not None
        (done, *_) = await all_hands(storage, table.id)
    assert done.ended_at is not None and len(done.actions) == stored_before + 1
    shown = result_lines(result[0])["Hands shown"]
    assert len(shown) == 3  # a showdown: the first to show, and the others show or muck
    await finish(world, 1)


@pytest.mark.bot_env(E2E_HOLD_FINISH_HAND="1")
async def test_a_slash_command_that_ends_the_hand_is_answered_once_its_action_is_stored(world: World) -> None:
    """The /check that ends the hand is answered as soon as it is stored, not after the hand's end is stored too
    (docs/architecture.md, "Answering a slash command"): here the hand's end is never stored, and the player is
    answered all the same, once, with their action; after a restart the hand finishes as stored."""
    game, stub = world.game, world.stub
    await game.open_table(world.host, {"alice": 100, "bob": 80, "carol": 60})
    view = await game.turn()
    while len(view.board) < 5:
        view = await game.act(view.actor or "", "call" if view.to_call else "check", "button")
    for _ in range(2):
        view = await game.act(view.actor or "", "check", "button")
    last = view.actor or ""
    stored_before = len((await open_hand(world)).actions)
    inter = await game.send(last, "check", "slash")  # answered, by the response, with the player's own action
    assert game.reply(inter) == f"{last} checks"
    state = await open_hand(world)
    assert state.complete and len(state.actions) == stored_before + 1
    await stub.wait_idle(0.1)
    assert len(inter.callbacks) == 1 and not stub.followups(inter), "one answer, and only one"
    assert 1 not in game.spectator.results(), "the result is not stored: it is not told"
    await restart(world, E2E_HOLD_FINISH_HAND="0")
    result = await stub.wait_for(lambda: game.spectator.results().get(1), what="the result after the restart")
    assert len(result) == 1
    await finish(world, 1)


@pytest.mark.bot_env(SHARD_LEASE_TTL="30")
async def test_sigterm_stops_at_once_a_bot_still_waiting_for_its_shard_lease_after_a_crash(world: World) -> None:
    """After a crash the new process waits up to one lease's life (30 s) for its own old lease: a stop asked for
    meanwhile (an operator, systemd) ends it at once and cleanly, not when the wait is over with a traceback."""
    world.bot.kill()
    assert await world.bot.wait() == -9
    await world.bot.start(wait_ready=False)
    for _ in range(300):
        if "waiting up to 30 s for their leases" in world.bot.log_path.read_text():
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("the restarted bot did not wait for its old lease")
    started = time.monotonic()
    assert await world.bot.stop(timeout=10) == 0
    assert time.monotonic() - started < 5
    log = world.bot.log_path.read_text().split("--- start 2 ---")[1]
    assert "Traceback" not in log and "database closed" in log
