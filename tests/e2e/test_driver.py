"""The end-to-end driver itself (driver.py): it waits for what the channel has not shown yet instead of reading it
too early. The bot posts the table message after answering the command that opened the table, and a restarted
bot refreshes its restored table message (only the turn's deadline moves) whenever its delivery worker gets to it:
a test that read the channel at once failed on a loaded machine."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import pytest_asyncio

from tests.discord_stub import DiscordStub, Message
from tests.discord_stub.model import Channel

from .conftest import World
from .driver import Game
from .spectator import SEAT_LINE as SEAT

#: A turn's deadline in a table message (a Discord timestamp).
DEADLINE = re.compile(r"<t:(\d+):R>")
#: How long a test lets the driver wait before the channel shows what it waits for.
LATE_S = 0.5


def table_payload(hand: int, actor: str) -> dict[str, Any]:
    """A table message as the bot renders it in English (bot/render/table.py): hand `hand`, `actor` to act."""
    lines = [
        "Blinds 1/2 · Cash game",
        f"{'▶' if actor == 'alice' else chr(0x2003)} ` 1` **alice** Ⓓ SB — 99 · bet 1",
        f"{'▶' if actor == 'bob' else chr(0x2003)} ` 2` **bob** BB — 98 · bet 2",
        f"▶ **{actor}** to act: 1 to call — <t:1700000000:R>",
    ]
    return {"embeds": [{"title": f"#poker — hand #{hand}", "description": "\n".join(lines)}]}


@pytest_asyncio.fixture
async def channel() -> AsyncIterator[tuple[DiscordStub, Channel, Game]]:
    """A stand-in with no bot: the test posts the table messages itself."""
    stub = await DiscordStub().start()
    guild = stub.add_guild(name="Casino", channels=["poker"])
    players = [stub.add_member(3001 + i, name) for i, name in enumerate(("alice", "bob"))]
    try:
        yield stub, guild.channel("poker"), Game(stub, guild.channel("poker"), players)
    finally:
        await stub.stop()


async def test_turn_waits_for_the_first_table_message(channel: tuple[DiscordStub, Channel, Game]) -> None:
    stub, poker, game = channel
    turn = asyncio.create_task(game.turn())
    await asyncio.sleep(LATE_S)
    assert not turn.done(), "turn() must wait while the channel has no table message"
    stub.create_message(poker, table_payload(1, "alice"))
    view = await turn
    assert view.hand_number == 1 and view.actor == "alice"


async def test_table_waits_for_the_first_table_message(channel: tuple[DiscordStub, Channel, Game]) -> None:
    stub, poker, game = channel
    table = asyncio.create_task(game.table())
    await asyncio.sleep(LATE_S)
    assert not table.done()
    stub.create_message(poker, table_payload(1, "bob"))
    assert (await table).actor == "bob"


async def test_turn_of_a_given_hand_waits_past_an_older_hands_message(
    channel: tuple[DiscordStub, Channel, Game],
) -> None:
    stub, poker, game = channel
    stub.create_message(poker, table_payload(1, "alice"))  # still shows a turn (a bot killed at the hand's end)
    turn = asyncio.create_task(game.turn(hand=2))
    await asyncio.sleep(LATE_S)
    assert not turn.done(), "hand 1's stale turn is not hand 2's"
    stub.create_message(poker, table_payload(2, "bob"))
    view = await turn
    assert view.hand_number == 2 and view.actor == "bob"


def later_deadline(description: str, actor: str) -> str:
    """A restarted bot refreshing its restored table: the turn's deadline moves, nothing else."""
    return DEADLINE.sub(lambda m: f"<t:{int(m.group(1)) + 30}:R>", description)


def other_seat_changed(description: str, actor: str) -> str:
    """A player's seat line changes (say, back from sitting out) while `actor` is to act."""
    lines = description.splitlines()
    index = next(i for i, line in enumerate(lines) if SEAT.match(line) and f"**{actor}**" not in line)
    lines[index] += " · sitting out" if " · sitting out" not in lines[index] else ""
    return "\n".join(lines)


def edit_table(stub: DiscordStub, message: Message, change: Callable[[str, str], str], actor: str) -> None:
    """Edit the table message's description with `change`, as the bot's delivery would."""
    embed = dict(message.latest.embeds[0])
    embed["description"] = change(str(embed["description"]), actor)
    stub.edit_message(message, {"embeds": [embed]})


@pytest.mark.parametrize("change", [later_deadline, other_seat_changed])
async def test_act_waits_for_the_edit_that_shows_the_move_not_another_edit(
    world: World, change: Callable[[str, str], str]
) -> None:
    game = world.game
    await game.open_table(world.host, {"alice": 100, "bob": 100, "carol": 100})
    view = await game.turn()
    assert view.actor is not None
    # The other edit lands first, as soon as the press has gone out (the driver then waits for its acknowledgement).
    asyncio.get_running_loop().call_soon(edit_table, world.stub, game.table_message(), change, view.actor)
    after = await game.act(view.actor, "call", "button")
    assert after.actor not in (None, view.actor), "act() returned a table message that does not show the call"
    assert after.seats[view.actor].bet == view.to_call + view.seats[view.actor].bet
    assert any(line.startswith(f"{view.actor} calls") for line in after.recent), after.recent
