"""Decision puzzles through Discord (issue 17): posted with Fold / Call / Raise, answered privately by members,
revealed by command or after a minute; each member's record kept."""

from __future__ import annotations

from tests.cogs.conftest import World, make_bot


async def test_a_puzzle_answered_by_two_members_and_revealed(world: World) -> None:
    posted = await world.slash("alice", "poker puzzle")
    assert not posted.response.ephemeral
    message = world.messages()[-1]
    assert message.content.startswith("**Decision puzzle**")
    assert "Fold, call or raise?" in message.content
    labels = [c.label for row in message.components for c in row.children]  # type: ignore[attr-defined]
    assert labels == ["Fold", "Call", "Raise"]
    again = await world.slash("bob", "poker puzzle")
    assert again.response.content.startswith("A puzzle is already open in this channel")

    answered = await world.member("alice").click(message, label="Call")
    assert answered.response.ephemeral and answered.response.content.startswith("Your answer: **call**")
    world.speaks("bob", "fr")
    answered = await world.member("bob").click(message, label="Fold")
    assert answered.response.content.startswith("Ta réponse : **se coucher**".replace(" :", "\xa0:"))

    revealed = await world.slash("chloe", "poker puzzle", action="reveal")
    assert revealed.response.ephemeral
    answer = world.messages()[-1].content
    assert answer.startswith("**Answer** — the channel voted: fold 1, call 1, raise 0.")
    assert "Pot odds:" in answer and "The numbers favour:" in answer and "In the real hand" in answer

    late = await world.member("alice").click(message, label="Raise")
    assert late.response.content == "That puzzle is over: its answer has been shown"
    record = await world.slash("alice", "poker puzzle", action="record")
    assert record.response.content.startswith("Your puzzles here: 1 answered")
    world.acknowledge_refusals()


async def test_a_puzzle_is_revealed_by_itself_after_a_minute(world: World) -> None:
    await world.slash("alice", "poker puzzle")
    await world.member("bob").click(world.messages()[-1], label="Raise")
    await world.advance(59)
    assert not world.messages()[-1].content.startswith("**Answer**")
    await world.advance(2)
    assert world.messages()[-1].content.startswith("**Answer** — the channel voted: fold 0, call 0, raise 1.")


async def test_an_open_puzzle_survives_a_restart_with_its_answers_and_is_revealed_on_time(world: World) -> None:
    """Issue 17: a restart loses nothing of an open puzzle: the answers given before it count, the buttons posted
    before it still answer, and the reveal comes at the puzzle's minute, in the language it was posted in."""
    world.speaks("alice", "fr")
    await world.slash(world.member("admin", admin=True), "poker-admin settings", language="fr")
    await world.slash("alice", "poker puzzle")
    message = world.messages()[-1]
    assert message.content.startswith("**À vous")
    await world.member("bob").click(message, label="Relancer")
    await world.advance(20)

    old_bot = world.bot
    await world.env.restart_bot(make_bot(world.settings, world.clock, world.decks))
    await old_bot.storage.close()
    assert world.bot is not old_bot
    answered = await world.member("chloe").click(message, label="Suivre")  # a button posted before the restart
    assert answered.response.content.startswith("Your answer: **call**"), answered.response.content
    again = await world.slash("dave", "poker puzzle")
    assert again.response.content.startswith("A puzzle is already open in this channel")
    await world.advance(39)
    assert not world.messages()[-1].content.startswith("**Réponse**")
    await world.advance(2)
    assert world.messages()[-1].content.startswith(
        "**Réponse** — le salon a voté\xa0: se coucher 0, suivre 1, relancer 1."
    ), world.messages()[-1].content
    record = await world.slash("bob", "poker puzzle", action="record")
    assert record.response.content.startswith("Your puzzles here: 1 answered")
    assert "of 1 revealed" in record.response.content
    fresh = await world.slash("dave", "poker puzzle")  # the channel is free again
    assert not fresh.response.ephemeral
    world.acknowledge_refusals()


async def test_a_puzzle_whose_minute_passed_while_the_bot_was_down_is_revealed_at_start(world: World) -> None:
    await world.slash("alice", "poker puzzle")
    await world.member("bob").click(world.messages()[-1], label="Fold")
    old_bot = world.bot
    old_bot.puzzles.stop()  # the process dies: its timers with it
    await world.advance(90)  # a minute and a half without a bot
    assert not world.messages()[-1].content.startswith("**Answer**")
    await world.env.restart_bot(make_bot(world.settings, world.clock, world.decks))
    await old_bot.storage.close()
    await world.advance(0)
    assert world.messages()[-1].content.startswith("**Answer** — the channel voted: fold 1, call 0, raise 0.")
    assert not await world.bot.storage.open_puzzles()
