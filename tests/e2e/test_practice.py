"""Practice through the Discord stand-in against the real bot process (issue 17): one member and three computer
players play twenty hands with the member's coach on, by DM too; then a decision puzzle answered by two members
and revealed; and a puzzle open when the bot is killed, taken back by the next process.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord_stub.model import iter_components

from .conftest import World
from .driver import WAIT

HANDS = 20


@pytest.mark.bot_env(E2E_COMPUTER_DELAY="0.02")
async def test_one_member_and_three_computer_players_play_twenty_hands_with_the_coach(world: World) -> None:
    game, alice = world.game, world.host
    assert (await game.command(alice, "poker", "create")).startswith("alice opened")
    await game.command(alice, "poker", "join")
    for level in ("solid", "beginner", "solid"):
        assert "sits at seat" in await game.command(alice, "poker", "addbot", level=level)
    assert (await game.command(alice, "poker", "coach", mode="dm")).startswith("Coach on, by DM too")
    await game.command(alice, "poker", "start")
    coached = turns = 0
    hands_seen: set[int] = set()
    for _ in range(2000):
        view = await game.turn(timeout=WAIT * 4)
        hands_seen.add(view.hand_number or 0)
        if len(hands_seen) > HANDS or len(view.seats) < 2:
            break
        if view.actor != "alice":
            mark = game.table_message().latest.seq
            await world.stub.wait_for(
                lambda mark=mark: game.table_message().latest.seq > mark or not game.spectator.table().in_hand,
                WAIT,
                what="a computer player's action",
            )
            continue
        assert all(name == "alice" or name.startswith("🤖 ") for name in view.seats)
        turns += 1
        inter = world.stub.press_button(alice, view.message_id, view.buttons["cards"]["custom_id"])
        await inter.wait_acked(WAIT)
        answer = await world.stub.wait_for(lambda inter=inter: game.reply(inter), WAIT, what="My cards")
        if "> Your chance to win against" in answer:
            coached += 1
        await game.act("alice", "fold" if view.to_call else "check", "button")  # she keeps her chips: 20 hands
    assert len(hands_seen) > HANDS, hands_seen
    assert coached >= HANDS // 2  # on her turns, My cards carries the coach's lines
    # ... and her DMs: one per turn at most (a turn she ended before its DM went out gets none, by design).
    coach_dms = [m for m in world.stub.dms(alice) if m.content.startswith("**Coach** — hand #")]
    assert HANDS // 2 <= len(coach_dms) <= turns, (len(coach_dms), turns)
    assert all("> Your chance to win against" in m.content for m in coach_dms)


async def post_puzzle(world: World, user: Any) -> tuple[Any, dict[str, str]]:
    """`user` posts a puzzle: its message and its buttons' custom ids by label."""
    game = world.game
    posted = world.stub.invoke_slash(user, world.channel, "poker", "puzzle")
    await posted.wait_acked(WAIT)
    message = await world.stub.wait_for(
        lambda: next((m for m in reversed(game.spectator.messages()) if "Decision puzzle" in m.latest.text()), None),
        WAIT,
        what="the puzzle",
    )
    buttons = {c["label"]: c["custom_id"] for c in iter_components(message.latest.components) if c.get("type") == 2}
    return message, buttons


async def answer_puzzle(world: World, user: Any, message: Any, custom_id: str) -> str:
    """`user` presses a puzzle's button: the private answer they get."""
    inter = world.stub.press_button(user, message.id, custom_id)
    await inter.wait_acked(WAIT)
    reply: str = await world.stub.wait_for(lambda: world.game.reply(inter), WAIT, what="the answer")
    return reply


async def reveal_puzzle(world: World, user: Any) -> str:
    """`user` reveals the open puzzle now: the answer's text as posted."""
    game = world.game
    await game.command(user, "poker", "puzzle", action="reveal")
    revealed = await world.stub.wait_for(
        lambda: next((m for m in reversed(game.spectator.messages()) if m.latest.text().startswith("**Answer")), None),
        WAIT,
        what="the answer",
    )
    text: str = revealed.latest.text()
    return text


async def test_a_puzzle_answered_by_two_members_and_revealed(world: World) -> None:
    alice, bob, carol = (world.game.user(name) for name in ("alice", "bob", "carol"))
    message, buttons = await post_puzzle(world, alice)
    assert list(buttons) == ["Fold", "Call", "Raise"]
    for user, label in ((bob, "Call"), (carol, "Fold")):
        answer = await answer_puzzle(world, user, message, buttons[label])
        assert answer.startswith(f"Your answer: **{label.lower()}**")
    assert (await reveal_puzzle(world, alice)).startswith("**Answer** — the channel voted: fold 1, call 1, raise 0.")


async def test_a_puzzle_open_when_the_bot_is_killed_is_answered_and_revealed_after_the_restart(world: World) -> None:
    """Issue 17: SIGKILL with a puzzle open: the next process takes it back with its answers; the buttons posted
    before the kill still answer it, and the reveal counts every answer."""
    alice, bob, carol = (world.game.user(name) for name in ("alice", "bob", "carol"))
    message, buttons = await post_puzzle(world, alice)
    assert (await answer_puzzle(world, bob, message, buttons["Raise"])).startswith("Your answer: **raise**")

    world.bot.kill()
    assert await world.bot.wait() == -9
    await world.bot.start()
    await world.stub.wait_connected()

    answer = await answer_puzzle(world, carol, message, buttons["Call"])  # a button posted before the kill
    assert answer.startswith("Your answer: **call**"), answer
    assert (await reveal_puzzle(world, alice)).startswith("**Answer** — the channel voted: fold 0, call 1, raise 1.")
