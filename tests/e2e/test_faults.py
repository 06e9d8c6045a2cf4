"""Discord misbehaving during play: bursts of 429 rate limits on the bot's REST calls (interaction callbacks,
table-message edits, channel messages, DMs, everything at once, once globally) and gateway disconnects (a
dropped connection the bot resumes, Discord's "reconnect" opcode) while players keep acting.

discord.py waits out each 429 and retries; a press made while the gateway is down reaches the bot when it
resumes. Whatever happens, every action is acknowledged once and in time, stored once, and shown once: the
hands in the database are exactly the players' moves, and the channel reads as the engine's replay of them.
"""

from __future__ import annotations

import time

from .checks import assert_channel_shows_stored_hands, assert_moves_stored_once
from .conftest import World
from .records import all_hands, open_storage

BUY_INS = {"alice": 100, "bob": 90, "carol": 80, "dave": 70}
CALLBACK = "POST /interactions/{webhook_id}/{webhook_token}/callback"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
POST = "POST /channels/{channel_id}/messages"
OPEN_DM = "POST /users/@me/channels"


async def test_rate_limit_bursts_and_gateway_drops_lose_or_double_no_action(world: World) -> None:
    game, stub, faults = world.game, world.stub, world.stub.faults
    await game.open_table(world.host, BUY_INS)
    rules = []
    view = await game.turn()

    # A press whose acknowledgement is rate limited three times in a row: acknowledged late, but in time.
    rules.append(faults.rate_limit(CALLBACK, count=3, retry_after=0.2))
    view = await game.act(view.actor or "", "call", "button")
    # A command whose answer, then the table edit, are rate limited.
    rules.append(faults.rate_limit(CALLBACK, count=2, retry_after=0.1))
    rules.append(faults.rate_limit(EDIT, count=3, retry_after=0.2))
    view = await game.act(view.actor or "", "raise", "slash", 6)
    # The street message and the edits that follow are rate limited, one of them globally.
    rules.append(faults.rate_limit(POST, count=3, retry_after=0.1))
    rules.append(faults.rate_limit(EDIT, count=1, retry_after=0.3, is_global=True))
    while not view.board:
        view = await game.act(view.actor or "", "call", "button" if len(game.moves) % 2 else "slash")

    # The gateway drops: the press made while it is down reaches the bot when it resumes.
    resumes, replayed = stub.gateway.resume_count, stub.gateway.replayed
    assert await stub.close_gateway(4000) == 1
    view = await game.act(view.actor or "", "check", "button")
    assert stub.gateway.resume_count == resumes + 1 and stub.gateway.replayed > replayed

    # Discord asks the bot to reconnect while everything it calls is rate limited.
    stub.request_reconnect()
    rules.append(faults.rate_limit("*", count=4, retry_after=0.1))
    view = await game.act(view.actor or "", "bet", "modal")
    await stub.wait_for(lambda: stub.gateway.resume_count == resumes + 2, what="the resume after op 7")
    view = await game.call_down("slash")

    # The next deal (table message, hole-card DMs) under a burst on every route (fewer than five 429s: discord.py
    # gives a request up after five tries); everyone but alice sits out during the hand, so that it is the last.
    rules.append(faults.rate_limit("*", count=4, retry_after=0.05))
    view = await game.turn()
    assert view.hand_number == 2
    for user in world.players[1:]:
        await game.command(user, "poker", "sitout")
    await stub.wait_idle(0.15)
    await stub.close_gateway(4000)
    view = await game.call_down("button")
    await stub.wait_idle(0.3)

    assert all(rule.exhausted for rule in rules), [(r.route, r.hits, r.count) for r in rules]
    assert sum(1 for r in stub.requests if r.status == 429) == sum(r.count or 0 for r in rules)
    assert max(game.spectator.hand_messages()) == 2
    names = {u.id: u.name for u in world.players}
    async with open_storage(world.db_path) as storage:
        table = await storage.table_for_channel(world.channel.id)
        assert table is not None
        hands = await all_hands(storage, table.id)
    assert_moves_stored_once(game, hands, names)
    assert_channel_shows_stored_hands(game, hands, names)
    assert game.spectator.table().stacks == {names[s.user_id]: s.stack for s in table.seats}
    assert await game.command(world.host, "poker", "end") == "The table is closed."
    async with open_storage(world.db_path) as storage:
        report = await storage.audit(world.guild.id)
    assert report.ok and report.on_tables == 0, report.problems


async def test_dm_channels_opened_slowly_keep_no_action_off_the_table_message(world: World) -> None:
    """A player's first DM opens their DM channel, one bucket for the whole bot that discord.py sends one request
    at a time (the stalls of benchmarks/load.py: at 100 tables the first action of a table stayed off its message
    for 5-11 s behind every table's openings). Each opening here takes 1.5 s: the four players' openings, in line,
    took 6 s before the first action's edit; the DMs now hold the table for `DM_HOLD_S` (1 s) at most. Every player
    still gets their cards, one DM each."""
    game, stub = world.game, world.stub
    stub.faults.slow(OPEN_DM, delay=1.5)
    await game.open_table(world.host, BUY_INS)
    view = await game.turn()
    dealt = time.monotonic()
    view = await game.act(view.actor or "", "call", "button")
    assert time.monotonic() - dealt < 4.0  # the old code: 6 s (four 1.5 s openings, one at a time)

    def all_dealt() -> bool:
        return all(sum(1 for m in stub.dms(game.user(name)) if "hand #1 " in m.content) == 1 for name in BUY_INS)

    await stub.wait_for(all_dealt, 15, what="every player's DM of hand #1")  # four openings in line: 6 s
    assert sum(1 for r in stub.requests if r.route == "/users/@me/channels") == len(BUY_INS)  # one opening each
