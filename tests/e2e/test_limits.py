"""The card room's options against the real bot process through the Discord stand-in (issue 16): a pot-limit table
and a fixed-limit table, five hands each; a player who sits out for an orbit and comes back posting the blinds
they missed; a time bank started with the Time button. Every stored hand replays through the engine to the stored
stacks."""

from __future__ import annotations

import re

from .conftest import World
from .driver import WAIT, Game, Refused
from .records import all_hands, open_storage, replay

PLAYERS = ("alice", "bob", "carol")


async def open_table(game: Game, names: tuple[str, ...], **options: object) -> None:
    host = game.user(names[0])
    assert (await game.command(host, "poker", "create", **options)).startswith(f"{host.name} opened a table here")
    for seat, name in enumerate(names, start=1):
        answer = await game.command(game.user(name), "poker", "join", seat=seat)
        assert answer.startswith(f"Seat {seat}: you play with")
    assert await game.command(host, "poker", "start") == "The game starts: good luck!"


async def next_hand(game: Game, number: int) -> None:
    await game.turn(hand=number)


async def assert_hands_replay(world: World, count: int) -> list[int]:
    """Every stored hand replays to its stored result; returns the stored hands' numbers."""
    async with open_storage(world.db_path) as storage:
        row = await storage.table_for_channel(world.channel.id)
        assert row is not None
        hands = [h for h in await all_hands(storage, row.id) if h.ended_at is not None]
        assert len(hands) >= count
        for stored in hands:
            hand = replay(stored)
            assert hand.is_complete
        assert (await storage.audit(world.guild.id)).ok
        return [h.number for h in hands]


async def test_a_pot_limit_table_plays_five_hands_with_pot_sized_raises(world: World) -> None:
    game = world.game
    await open_table(game, PLAYERS, betting="pot-limit")
    for number in range(1, 6):
        await next_hand(game, number)
        assert "Pot-limit 1/2" in game.spectator.table().description
        view = game.spectator.table()
        assert view.actor is not None
        try:  # more than the pot: refused with what is allowed
            await game.act(view.actor, "raise", "slash", 90)
            raise AssertionError("a raise above the pot was accepted")
        except Refused as refused:
            largest = re.search(r"(?:Pot-limit: the largest raise is to|You can't go above) (\d+)", str(refused))
            assert largest is not None, str(refused)
        await game.act(view.actor, "raise", "slash", int(largest.group(1)))
        await game.call_down()
    assert await assert_hands_replay(world, 5)


async def test_a_fixed_limit_table_plays_five_hands_with_raise_to_n_buttons_and_a_time_bank(world: World) -> None:
    game = world.game
    await open_table(game, PLAYERS, betting="fixed-limit", time_bank=30)
    for number in range(1, 6):
        await next_hand(game, number)
        assert "Fixed-limit 1/2 (bets 2/4)" in game.spectator.table().description
        view = game.spectator.table()
        assert view.actor is not None
        assert "raise" in view.buttons and view.buttons["raise"]["label"] == "Raise to 4"
        if number == 1:  # the Time button: the bank starts, the table message says so with the new deadline
            before = re.search(r"<t:(\d+):R>", view.description)
            assert before is not None and "time" in view.buttons
            press = game.stub.press_button(game.user(view.actor), view.message_id, view.buttons["time"]["custom_id"])
            await press.wait_acked(WAIT)
            await game.stub.wait_for(
                lambda: "time bank" in game.spectator.table().description or None, WAIT, what="the time bank"
            )
            after = re.search(r"<t:(\d+):R>", game.spectator.table().description)
            assert after is not None and int(after.group(1)) >= int(before.group(1)) + 29
        view = await game.act(view.actor, "raise", "button")  # Raise to 4, no form
        assert view.seats[game.moves[-1].name].bet == 4
        await game.call_down()
    assert await assert_hands_replay(world, 5)


async def test_a_player_sits_out_an_orbit_and_comes_back_posting_the_missed_blinds(world: World) -> None:
    game = world.game
    names = ("alice", "bob", "carol", "dave")
    await open_table(game, names, missed_blinds=True)
    await next_hand(game, 1)
    assert await game.command(game.user("dave"), "poker", "sitout")
    number = 1
    for _ in range(5):  # more than an orbit while dave sits out
        await game.call_down()
        number += 1
        await next_hand(game, number)
    assert game.spectator.table().seats["dave"].sitting_out
    dave = game.user("dave")
    inter = game.stub.invoke_slash(dave, game.channel, "poker", "sitin", options={})
    await inter.wait_acked(WAIT)
    answer = await game.stub.wait_for(lambda: game.reply(inter), WAIT, what="the sit-in answer")
    assert "You missed the big blind" in answer
    prompt = game.stub.original(inter) or game.stub.followups(inter)[-1]
    post = next(c for c in prompt.latest.components[0]["components"] if c["label"].startswith("Post"))
    pressed = game.stub.press_button(dave, prompt.id, post["custom_id"])
    await pressed.wait_acked(WAIT)
    await game.call_down()
    await next_hand(game, number + 1)
    table = game.spectator.table()
    recent = "\n".join(table.recent)
    assert "dave posts the big blind (2)" in recent
    # Out of position he also posts the small blind he missed, dead; in the big blind he posts that alone.
    in_big_blind = re.search(r"dave\W* BB", table.description) is not None
    assert in_big_blind or "dave posts a dead small blind (1), missed" in recent, recent
    await game.call_down()
    assert await assert_hands_replay(world, number + 1)
