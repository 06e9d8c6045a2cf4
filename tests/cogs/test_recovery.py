"""Turn timers without real waiting, a member with closed DMs who still plays, and a restart in the middle of a
hand (a new bot and table service over the same database) that resumes exactly where it was."""

from __future__ import annotations

from tests.cogs.conftest import World, cards_of, make_bot


def table_text(world: World) -> str:
    embed = world.table_message().embeds[0]
    return "\n".join([embed.title or "", embed.description or "", *(f.value for f in embed.fields)])


async def test_timer_expiry_checks_or_folds_and_two_in_a_row_sit_the_player_out(world: World) -> None:
    await world.seat({"alice": None, "bob": None, "chloe": None}, timer=30, time_bank=0)  # no time bank
    await world.slash("alice", "poker start")
    # Button chloe (seat 3) acts first, facing the big blind: the timer folds her hand.
    assert world.actor() == "chloe"
    deadline = world.snapshot().deadline
    assert deadline == world.clock.time() + 30
    assert f"<t:{int(deadline)}:R>" in table_text(world)
    await world.advance(29)
    assert world.actor() == "chloe"
    await world.advance(1)
    assert world.snapshot().seats[2].state == "folded"
    assert "chloe ran out of time and folds." in [m.content for m in world.messages()]
    assert world.actor() == "alice"
    await world.slash("alice", "call")
    await world.slash("bob", "check")
    # On the flop, checking is free: the timer checks for alice.
    assert world.actor() == "alice" and len(world.snapshot().board) == 3
    await world.advance(30)
    assert "alice ran out of time and checks." in [m.content for m in world.messages()]
    assert world.actor() == "bob"
    while world.snapshot().actor_user_id is not None:  # checked down to the showdown
        await world.slash(world.actor(), "check")
    assert world.snapshot().street is None
    await world.advance(5)
    # Hand 2: button alice; chloe, the big blind, runs out of time again (she checks): second in a row -> sat out.
    assert world.snapshot().hand_number == 2
    while world.actor() != "chloe":
        await world.slash(world.actor(), "call")
    await world.advance(30)
    notices = [m.content for m in world.messages()]
    assert (
        "chloe ran out of time and checks.\n"
        "chloe missed two turns in a row and now sits out (`/poker sitin` to come back)."
    ) in notices
    sitting_out = await world.slash("chloe", "poker sitout")
    assert sitting_out.response.content == "You're already sitting out"
    back = await world.slash("chloe", "poker sitin")
    assert back.response.content == "You're back in from the next hand."
    world.acknowledge_refusals()


async def test_a_member_with_closed_dms_is_told_publicly_and_plays_with_my_cards(world: World) -> None:
    world.decks.queue(["9c4d", "8h3c", "QhQc"], "Kd7s2h5c6h")
    world.refuse_dms("chloe")
    await world.seat({"alice": None, "bob": None, "chloe": None})
    await world.slash("alice", "poker start")
    assert world.dms("chloe") == []
    assert world.dms("alice")  # the others got theirs
    notice = "chloe doesn't accept direct messages: press **My cards** or use `/poker cards` to see your hand."
    assert notice in [m.content for m in world.messages()]
    mine = await world.press("chloe", "My cards")
    assert mine.response.ephemeral
    assert mine.response.content == "Your cards: **" + " ".join(cards_of("QhQc")) + "**"
    command = await world.slash("chloe", "poker cards")
    assert command.response.ephemeral and " ".join(cards_of("QhQc")) in command.response.content
    await world.raise_with_button("chloe", 6)
    assert world.snapshot().seats[2].bet == 6
    for card in cards_of("QhQc"):
        assert not any(card in text for text in world.public_texts())
    # Next hand: no second public notice for the same member.
    await world.slash("alice", "fold")
    await world.slash("bob", "fold")
    await world.advance(5)
    assert [m.content for m in world.messages()].count(notice) == 1


async def test_a_restart_mid_hand_resumes_the_same_hand_and_its_buttons_keep_working(world: World) -> None:
    world.decks.queue(["9c4d", "8h3c", "QhQc", "Td2s"], "Kd7s2h5c6h")
    await world.seat({"alice": 100, "bob": 100, "chloe": 100, "dave": 100})
    await world.slash("alice", "poker start")
    await world.slash("chloe", "raise", amount=6)
    await world.slash("dave", "call")
    await world.slash("alice", "fold")
    await world.slash("bob", "call")
    await world.slash("bob", "bet", amount=10)  # flop
    table = world.table_message()
    before = world.snapshot()
    assert before.actor_user_id == world.member("chloe").id and len(before.board) == 3
    # chloe opens the Raise… form just before the restart and sends it just after.
    form = await world.member("chloe").click(table, label="Raise…")
    assert form.modal is not None

    old_bot = world.bot
    await world.env.restart_bot(make_bot(world.settings, world.clock, world.decks))
    await old_bot.storage.close()  # the crashed process's connection (nothing was written since the action)
    assert world.bot is not old_bot and world.bot.tables is not old_bot.tables
    after = world.snapshot()
    assert after.hand_number == before.hand_number
    assert after.board == before.board
    assert [p.amount for p in after.pots] == [p.amount for p in before.pots]
    assert [(s.user_id, s.stack, s.bet, s.state) for s in after.seats] == [
        (s.user_id, s.stack, s.bet, s.state) for s in before.seats
    ]
    assert after.actor_user_id == before.actor_user_id
    assert after.legal == before.legal
    assert after.deadline is not None and after.deadline >= world.clock.time() + 15  # grace after a restart

    # The form opened before the restart still works: chloe raises to 30 with it. A form of an earlier hand or
    # sent out of turn is refused; a too-small amount gets the minimum, all changing nothing.
    await world.member("chloe").submit_modal(form, {"amount": "30"})
    assert world.snapshot().seats[2].bet == 30
    # The table message posted before the restart still works too: its Raise… button opens the form again.
    shown = await world.member("chloe").click(table, label="Raise…")
    assert shown.modal is None and shown.response is not None and shown.response.ephemeral  # not her turn now
    await world.slash("dave", "fold")
    await world.slash("bob", "fold")
    stacks = world.stacks()
    assert stacks == {"alice": 99, "bob": 84, "chloe": 123, "dave": 94}
    assert sum(stacks.values()) == 400
    assert (await world.bot.storage.audit(world.guild.id)).ok
    # The hand is over: its message is its one-line summary, without buttons (it used to stay a table).
    old = next(m for m in world.messages() if m.id == table.id)
    assert old.components == [] and old.content.startswith("Hand #1 · chloe wins")


async def test_after_a_restart_the_table_title_names_the_channel_from_the_first_edit(world: World) -> None:
    """Issue 11 item 10: after a restart the title read "Poker table — hand #1" until the next action."""
    await world.seat({"alice": 100, "bob": 100, "chloe": 100})
    await world.slash("alice", "poker start")
    assert world.table_message().embeds[0].title == "#poker — hand #1"
    old_bot = world.bot
    await world.env.restart_bot(make_bot(world.settings, world.clock, world.decks))
    await old_bot.storage.close()
    # The restored table's message was edited at once (the restore refreshes it), with the channel's name.
    assert world.table_message().embeds[0].title == "#poker — hand #1"
    await world.slash(world.actor(), "call")
    assert world.table_message().embeds[0].title == "#poker — hand #1"
