"""The card room's options as members see them (issue 16): a fixed-limit table's Raise to N button, a pot-limit
table's header and refusal, the Time button, choices in advance under My cards, and post-or-wait after sitting
out with missed blinds."""

from __future__ import annotations

from tests.cogs.conftest import World
from tests.cogs.test_game import embed_text


async def test_fixed_limit_raise_to_n_button_plays_at_once_without_a_form(world: World) -> None:
    await world.seat({"alice": None, "bob": None, "chloe": None}, betting="fixed-limit")
    await world.slash("alice", "poker start")
    assert "Fixed-limit 1/2 (bets 2/4)" in embed_text(world.table_message())
    who = world.actor()
    labels = world.button_labels()
    assert "Raise to 4" in labels and "Raise…" not in labels and not any(b.startswith("All-in") for b in labels)
    pressed = await world.press(who, "Raise to 4")
    assert pressed.modal is None
    assert world.snapshot().seats[[s.user_id for s in world.snapshot().seats].index(world.member(who).id)].bet == 4
    refused = await world.slash(world.actor(), "raise", amount=9)
    assert refused.response.ephemeral and refused.response.content == "Fixed-limit: the raise is to 6"
    world.acknowledge_refusals()


async def test_pot_limit_table_names_its_structure_and_refuses_above_the_pot(world: World) -> None:
    await world.seat({"alice": None, "bob": None, "chloe": None}, betting="pot-limit")
    await world.slash("alice", "poker start")
    assert "Pot-limit 1/2" in embed_text(world.table_message())
    refused = await world.slash(world.actor(), "raise", amount=37)
    assert refused.response.content == "Pot-limit: the largest raise is to 7"
    world.acknowledge_refusals()


async def test_the_time_button_starts_the_bank_and_the_message_shows_the_new_deadline(world: World) -> None:
    await world.seat({"alice": None, "bob": None}, timer=30, time_bank=20)
    await world.slash("alice", "poker start")
    who = world.actor()
    deadline = world.snapshot().deadline
    assert "Time (+20 s)" in world.button_labels()
    await world.press(who, "Time (+20 s)")
    assert world.snapshot().deadline == deadline + 20
    text = embed_text(world.table_message())
    assert f"<t:{int(deadline + 20)}:R>" in text and "time bank" in text
    assert "Time (+20 s)" not in world.button_labels()  # running: no second press


async def test_check_fold_chosen_under_my_cards_is_played_when_the_turn_comes(world: World) -> None:
    await world.seat({"alice": None, "bob": None, "chloe": None})
    await world.slash("alice", "poker start")
    runner = world.service.runners[world.channel.id]
    small_blind = runner.view().hand_users[0]
    waiting = next(name for name, member in world.members.items() if member.id == small_blind)
    mine = await world.press(waiting, "My cards")
    assert mine.response.ephemeral
    labels = [c["label"] for row in mine.response.components for c in row["components"]]
    assert labels == ["Check/Fold", "Call 1", "No choice"]
    chosen = await world.member(waiting).click(mine.response.message, label="Check/Fold")
    assert chosen.response.ephemeral and "Check/Fold" in chosen.response.content
    assert not any("Check/Fold" in text for text in world.public_texts())  # never shown to the others
    assert world.snapshot().actor_user_id != small_blind
    await world.slash(world.actor(), "call")  # the button calls: the small blind's turn, facing 1: folded at once
    seat = next(s for s in world.snapshot().seats if s.user_id == small_blind)
    assert seat.state == "folded" and world.snapshot().actor_user_id == runner.view().hand_users[1]


async def test_back_from_sitting_out_with_missed_blinds_posts_with_a_button(world: World) -> None:
    await world.seat({"alice": None, "bob": None, "chloe": None, "dave": None}, missed_blinds=True)
    await world.slash("alice", "poker start")
    await world.slash("dave", "poker sitout")
    for _ in range(5):  # more than an orbit: the big blind passes dave, and is not his to post when he is back
        while world.snapshot().actor_user_id is not None:
            legal = world.snapshot().legal
            await world.slash(world.actor(), "check" if legal.can_check else "fold")
        await world.advance(6)
    back = await world.slash("dave", "poker sitin")
    assert back.response.ephemeral and "Post it (2) and a dead small blind (1)" in back.response.content
    posted = await world.member("dave").click(back.response.message, label="Post 3")
    assert posted.response.content == "You post 3 and play the next hand."
    while world.snapshot().actor_user_id is not None:
        legal = world.snapshot().legal
        await world.slash(world.actor(), "check" if legal.can_check else "fold")
    await world.advance(6)
    table = embed_text(world.table_message())
    assert "dave posts the big blind (2)" in table and "dave posts a dead small blind (1), missed" in table
    world.acknowledge_refusals()
