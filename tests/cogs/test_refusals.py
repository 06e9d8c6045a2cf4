"""Every refused input gets a private answer that says what is allowed, and changes nothing: not the hand, not
the chips, not the channel."""

from __future__ import annotations

from typing import Any

from simcord import InteractionResult

from tests.cogs.conftest import World


def answer(result: InteractionResult) -> str:
    """The private answer of a refused command or press (the response, or the follow-up after a defer)."""
    messages = [m for m in [result.response, *result.followups] if m is not None and m.content]
    assert messages, result
    assert all(m.ephemeral for m in messages), messages
    return messages[-1].content


async def state(world: World) -> tuple[Any, ...]:
    """What a refusal must not change: the hand, every stack and bet, balances, the stored actions."""
    snapshot = world.snapshot()
    seats = tuple((s.user_id, s.stack, s.bet, s.state) for s in snapshot.seats)
    balances = tuple([await world.balance(name) for name in sorted(world.members)])
    runner = world.service.runners[world.channel.id]
    stored = await world.bot.storage.hand(runner.view().hand_id) if runner.view().hand_id else None
    actions = len(stored.actions) if stored else 0
    pots = tuple(p.amount for p in snapshot.pots)
    hand = (snapshot.hand_number, snapshot.street, snapshot.actor_user_id, snapshot.board)
    return (*hand, pots, seats, balances, actions)


class Refusals:
    """Checks that each refusal leaves the world as it was and shows nothing publicly."""

    def __init__(self, world: World) -> None:
        self.world = world

    async def check(self, result_factory: Any, expected: str) -> None:
        before = await state(self.world)
        mark = len(self.world.env.http_requests)
        result = await result_factory()
        assert answer(result) == expected
        assert await state(self.world) == before
        assert self.world.public_texts(mark) == [], self.world.public_texts(mark)


async def test_refused_actions_answer_privately_and_change_nothing(world: World) -> None:
    world.decks.queue(["9c4d", "8h3c", "QhQc"], "Kd7s2h5c6h")
    await world.seat({"alice": 100, "bob": 100, "chloe": 100})
    stranger = world.member("sam")
    await world.slash("alice", "poker start")
    old_table = world.table_message()
    # Hand 1, button chloe (seat 3): alice SB, bob BB, chloe acts first.
    assert world.actor() == "chloe"
    chloe = f"<@{world.member('chloe').id}>"
    refused = Refusals(world)

    await refused.check(lambda: world.press("alice", "Call 2"), f"It's not your turn: it's {chloe}'s turn")
    await refused.check(lambda: world.slash("bob", "fold"), f"It's not your turn: it's {chloe}'s turn")
    await refused.check(lambda: world.raise_with_button("alice", 6), f"It's not your turn: it's {chloe}'s turn")
    await refused.check(lambda: world.press("sam", "Fold"), f"You're not playing this hand: it's {chloe}'s turn")
    await refused.check(lambda: world.slash(stranger, "call"), f"You're not playing this hand: it's {chloe}'s turn")
    await refused.check(lambda: world.press("sam", "My cards"), "You're not in the current hand")
    await refused.check(lambda: world.slash("chloe", "check"), "You can't check: 2 to call")
    await refused.check(lambda: world.slash("chloe", "raise", amount=3), "Minimum raise is to 4")
    await refused.check(lambda: world.raise_with_button("chloe", 3), "Minimum raise is to 4")
    await refused.check(lambda: world.raise_with_button("chloe", "lots"), "“lots” is not a whole number of chips")
    await refused.check(lambda: world.raise_with_button("chloe", "0"), "Minimum raise is to 4")
    await refused.check(lambda: world.raise_with_button("chloe", "-5"), "Minimum raise is to 4")
    await refused.check(lambda: world.slash("chloe", "raise", amount=500), "You can't go above 100 (all-in)")
    await refused.check(lambda: world.slash("chloe", "bet", amount=10), "There is already a bet of 2: call or raise")
    await refused.check(lambda: world.slash("alice", "poker join"), "You're already seated at this table (seat 1)")
    # A rebuy during a hand is accepted for the next one now (issue 11 item 7): above the maximum it is refused.
    over_max = "You can add at most 2 (the maximum stack here is 100)"
    await refused.check(lambda: world.slash("bob", "poker rebuy", amount=10), over_max)
    host = f"<@{world.member('alice').id}>"
    not_host = f"Only the host ({host}) or a member with Manage Server can do that"
    await refused.check(lambda: world.slash("bob", "poker end"), not_host)
    await refused.check(lambda: world.slash("bob", "poker kick", member=world.member("chloe")), not_host)
    await refused.check(
        lambda: world.slash("alice", "poker kick", member=world.member("alice")),
        "Use `/poker leave` to leave the table yourself",
    )
    # /poker-admin is shown to Manage Server only; a server that shows it to bob still has him refused in code.
    assert "poker-admin settings" not in world.member("bob").available_commands(world.channel)
    admin_command = world.env.backend.find_command("poker-admin", world.guild.id)
    world.guild.set_command_permissions(int(admin_command["id"]), {world.member("bob"): True})
    not_manager = "You need the Manage Server permission for that"
    await refused.check(lambda: world.slash("bob", "poker-admin settings", language="fr"), not_manager)
    await refused.check(lambda: world.slash("bob", "poker-admin audit"), not_manager)
    await refused.check(
        lambda: world.slash("bob", "poker refill"),
        "Refills are for members with no chips left (balance 900, stack 100)",
    )

    # A button of an earlier hand's message (its last edit failed, so it kept its buttons) is refused.
    world.env.inject_error("PATCH", f"/channels/{world.channel.id}/messages/{old_table.id}", status=500, times=None)
    await world.slash("chloe", "fold")
    await world.slash("alice", "fold")  # bob wins the blinds
    await world.advance(5)
    assert world.snapshot().hand_number == 2
    assert world.table_message().id != old_table.id
    actor = world.actor()
    await refused.check(
        lambda: world.member(actor).click(old_table, label="Fold"),
        "That button belongs to an earlier hand: use the latest table message",
    )
    errors = world.acknowledge_refusals()
    assert {getattr(e, "code", "") for e in errors} >= {"not_your_turn_user", "cannot_check", "min_raise"}


async def test_no_table_full_table_and_already_seated(world: World) -> None:
    refused_here = await world.slash("alice", "fold")
    assert answer(refused_here) == "There is no table in this channel: start one with `/poker create`"
    for command in ("poker join", "poker cards", "poker start", "history", "poker table"):
        result = await world.slash("alice", command)
        assert answer(result) == "There is no table in this channel: start one with `/poker create`", command
    assert world.messages() == []

    await world.seat({"alice": None, "bob": None}, seats=2)
    world.member("chloe")
    before = await state(world)
    full = await world.slash("chloe", "poker join")
    assert answer(full) == "The table is full (2 seats)"
    again = await world.slash("bob", "poker join")
    assert answer(again) == "You're already seated at this table (seat 2)"
    exists = await world.slash("chloe", "poker create")
    assert answer(exists) == "This channel already has a table: join it with `/poker join`"
    assert await state(world) == before
    assert await world.balance("chloe") == 1000
    world.acknowledge_refusals()
