"""The host's and the managers' commands: kick (between hands at once, during a hand at its end), sit out and
back in, repost the table, and end the table — mid-hand the hand is refunded and every stack goes back."""

from __future__ import annotations

from tests.cogs.conftest import World


async def test_kick_sitout_repost_and_end_move_every_chip_back(world: World) -> None:
    await world.seat({"alice": 100, "bob": 80, "chloe": 60, "dave": 40, "eve": 50})
    kicked = await world.slash("alice", "poker kick", member=world.member("dave"))
    assert kicked.response.content == "dave was removed from the table."
    notices = [m.content for m in world.messages()][-2:]
    assert notices[-1] == "dave was removed from the table (stack of 40 back to their balance)."
    assert notices[0] != notices[-1] and "dave" not in notices[0]  # one notice, not "removed" then "leaves"
    assert await world.balance("dave") == 1000
    sitting = await world.slash("chloe", "poker sitout")
    assert sitting.response.content == "You sit out: no cards for you until `/poker sitin`."

    # Button eve (seat 5): alice posts the small blind, bob the big blind, eve acts first; chloe is not dealt.
    await world.slash("alice", "poker start")
    dealt = {s.user_id for s in world.snapshot().seats if s.player is not None}
    assert dealt == {world.member(name).id for name in ("alice", "bob", "eve")}
    old = world.table_message()
    reposted = await world.slash("bob", "poker table")
    assert reposted.response.content == "Done."
    assert world.table_message().id != old.id and world.table_message().components
    # The old message is no longer the table: one line, no buttons left to press (issue 11 item 1).
    was = next(m for m in world.messages() if m.id == old.id)
    assert was.components == [] and was.embeds == []
    assert was.content == "Hand #1: the table moved to a newer message below."
    # A kick during the hand takes effect when it ends.
    pending = await world.slash("alice", "poker kick", member=world.member("bob"))
    assert pending.response.content == "bob will leave at the end of this hand."
    await world.slash("eve", "call")
    await world.slash("alice", "call")
    if world.snapshot().actor_user_id == world.member("bob").id:
        await world.slash("bob", "check")
    assert len(world.snapshot().board) == 3

    # A manager who is not the host ends the table mid-hand: the hand is refunded, every stack goes back.
    admin = world.member("ada", admin=True)
    ended = await world.slash(admin, "poker end")
    assert ended.response.content == "The table is closed."
    assert world.channel.id not in world.service.runners
    closed = world.messages()[-1]
    assert closed.embeds[0].title == "Table closed"
    assert "Hand #1 was cancelled and every bet returned." in closed.embeds[0].description
    balances = {name: await world.balance(name) for name in ("alice", "bob", "chloe", "dave", "eve")}
    assert balances == dict.fromkeys(balances, 1000)
    assert (await world.bot.storage.audit(world.guild.id)).ok
    gone = await world.slash("alice", "poker table")
    assert gone.response.content == "There is no table in this channel: start one with `/poker create`"
    world.acknowledge_refusals()


async def test_the_host_agrees_a_tournament_blind_schedule_before_the_first_hand(world: World) -> None:
    await world.seat({"alice": None, "bob": None, "chloe": None}, kind="tournament", stack=100)
    refused = await world.slash("bob", "poker schedule", levels="1/2, 2/4")
    assert refused.response.content.startswith("Only the host")
    garbled = await world.slash("alice", "poker schedule", levels="one-two")
    assert garbled.response.content.startswith("“one-two” is not a blind schedule")
    agreed = await world.slash("alice", "poker schedule", levels="1/2; 2/4/1", every=1)
    assert not agreed.response.ephemeral
    assert agreed.response.content == "Blind schedule agreed: 1/2 → 2/4, ante 1; the blinds go up every hand."
    await world.slash("alice", "poker start")
    assert "Blinds 1/2" in world.table_message().embeds[0].description
    too_late = await world.slash("alice", "poker schedule", levels="5/10")
    assert too_late.response.content == "The blind schedule must be agreed before the first hand"
    while world.snapshot().actor_user_id is not None:
        await world.slash(world.actor(), "fold")
    await world.advance(5)
    assert world.snapshot().hand_number == 2
    assert "Blinds 2/4 · ante 1" in world.table_message().embeds[0].description
    world.acknowledge_refusals()


async def test_the_host_rule_is_the_host_or_manage_server_everywhere_and_the_refusal_says_so(world: World) -> None:
    """Issue 11 item 8: a member with Manage Server was refused the start of a tournament that the refusal said
    they could start. Start, schedule, kick and end: the host or Manage Server; anyone else gets that refusal."""
    await world.seat({"alice": None, "bob": None, "chloe": None}, kind="tournament", stack=100)
    host_only = f"Only the host (<@{world.member('alice').id}>) or a member with Manage Server can do that"
    for command, options in (
        ("poker start", {}),
        ("poker schedule", {"levels": "1/2, 2/4"}),
        ("poker kick", {"member": world.member("chloe")}),
        ("poker end", {}),
    ):
        refused = await world.slash("bob", command, **options)  # seated, but neither host nor manager
        assert refused.response.ephemeral and refused.response.content == host_only, command
    assert world.snapshot().hand_number == 0 and len(world.snapshot().seats) == 3
    admin = world.member("ada", admin=True)  # not the host, not seated: Manage Server
    agreed = await world.slash(admin, "poker schedule", levels="1/2, 2/4", every=5)
    assert agreed.response.content == "Blind schedule agreed: 1/2 → 2/4; the blinds go up every 5 hands."
    kicked = await world.slash(admin, "poker kick", member=world.member("chloe"))
    assert kicked.response.content == "chloe was removed from the table."
    started = await world.slash(admin, "poker start")
    assert not started.response.ephemeral and started.response.content == "The game starts: good luck!"
    assert world.snapshot().hand_number == 1
    ended = await world.slash(admin, "poker end")
    assert ended.response.content == "The table is closed."
    world.acknowledge_refusals()


async def test_a_manager_who_is_not_seated_may_start_a_cash_table(world: World) -> None:
    await world.seat({"alice": None, "bob": None})
    refused = await world.slash("zoe", "poker start")  # neither seated, host nor manager
    assert refused.response.content == "You're not seated at this table: join with `/poker join`"
    started = await world.slash(world.member("ada", admin=True), "poker start")
    assert started.response.content == "The game starts: good luck!" and world.snapshot().hand_number == 1
    world.acknowledge_refusals()
