"""Decision puzzles through Discord (issue 17): posted with Fold / Call / Raise, answered privately by members,
revealed by command or after a minute; each member's record kept."""

from __future__ import annotations

from tests.cogs.conftest import World


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
