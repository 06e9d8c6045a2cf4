"""What QA saw playing an evening through the real command tree (issue 11 checked as players and spectators see
it): each test is a defect found then, asserted as the channel shows it."""

from __future__ import annotations

import pytest

from tests.cogs.conftest import World


def table_text(world: World) -> str:
    embed = world.table_message().embeds[0]
    return "\n".join([embed.title or "", embed.description or "", *(f.value for f in embed.fields)])


def embed_text(message) -> str:
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or ""]
        parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    return "\n".join(parts)


async def test_a_big_blind_who_leaves_before_acting_leaves_the_whole_blind_in_the_pot(world: World) -> None:
    """chloe (big blind, 2 in) left while bob (small blind, 1 in) decided: the channel said "bob wins the pot (2)"
    and "Uncalled bets returned: chloe: 1". A folded player's bet stays in the pot (rule book 000)."""
    await world.seat({"chloe": 100, "bob": 100})
    await world.slash("chloe", "poker start")
    assert world.actor() == "bob"  # heads-up: the button posts the small blind and acts first
    left = await world.slash("chloe", "poker leave")
    assert left.response.ephemeral
    result = next(m for m in reversed(world.messages()) if m.embeds and "is over" in (m.embeds[0].title or ""))
    text = embed_text(result)
    assert "bob wins the pot (3)" in text
    assert "Uncalled" not in text
    assert any(m.content == "Hand #1 · bob wins 3" for m in world.messages())
    assert world.stacks() == {"bob": 102}
    assert await world.balance("chloe") == 1000 - 2
    assert (await world.bot.storage.audit(world.guild.id)).ok
    world.acknowledge_refusals()


@pytest.mark.parametrize(
    ("locale", "waiting", "sitting_out"),
    [("en", "waiting for the next hand", "sitting out"), ("fr", "attend la prochaine donne", "en pause")],
)
async def test_a_player_seated_during_a_hand_is_shown_waiting_for_the_next_one(
    world: World, locale: str, waiting: str, sitting_out: str
) -> None:
    """emma came back with /poker sitin during a hand (and dave sat down during it): their seats read
    "emma — 100" like those of the players in the hand, though neither was dealt in."""
    if locale == "fr":
        world.guild_locale = "fr"
    await world.seat({"alice": 100, "bob": 100, "emma": 100})
    await world.slash("emma", "poker sitout")
    await world.slash("alice", "poker start")
    assert f"emma — 100 · {sitting_out}" in table_text(world)
    await world.slash("emma", "poker sitin")
    await world.slash("dave", "poker join", buy_in=100)
    text = table_text(world)
    assert f"emma — 100 · {waiting}" in text
    assert f"dave — 100 · {waiting}" in text
    assert waiting not in text.replace("emma — 100 · " + waiting, "").replace("dave — 100 · " + waiting, "")
    while world.snapshot().actor_user_id is not None:  # the hand ends; between hands nobody is "waiting"
        await world.slash(world.actor(), "call" if world.snapshot().legal.call_amount else "check")
    await world.advance(6)
    assert world.snapshot().hand_number == 2
    assert waiting not in table_text(world)
    world.acknowledge_refusals()


@pytest.mark.parametrize(
    ("locale", "refusal"),
    [
        ("en", "You leave this table when this hand ends: no rebuy (`/poker join` to sit down again later)"),
        (
            "fr",
            "Tu quittes cette table à la fin de cette donne\u00a0: pas de recave"
            " (`/poker join` pour te rasseoir ensuite)",
        ),
    ],
)
async def test_a_player_who_leaves_or_is_kicked_during_a_hand_is_refused_a_rebuy(
    world: World, locale: str, refusal: str
) -> None:
    """chloe left and bob was kicked during a hand; each then asked /poker rebuy and was told "Rebuy of 1 accepted:
    the chips are added when this hand ends", though both were leaving the table then."""
    await world.seat({"alice": 100, "bob": 100, "chloe": 100, "dave": 100})
    world.speaks("bob", locale)
    world.speaks("chloe", locale)
    await world.slash("alice", "poker start")
    assert world.actor() == "chloe"  # button dave; alice small blind, bob big blind
    await world.press("chloe", "Call 2")
    await world.slash("alice", "poker kick", member=world.member("bob"))
    await world.slash("chloe", "poker leave")
    for name in ("bob", "chloe"):
        asked = await world.slash(name, "poker rebuy", amount=1)
        assert asked.response.ephemeral and asked.response.content == refusal
    assert world.service.runners[world.channel.id].view().rebuys == {}
    while world.snapshot().actor_user_id is not None:
        await world.slash(world.actor(), "call" if world.snapshot().legal.call_amount else "check")
    assert set(world.stacks()) == {"alice", "dave"}
    # Each lost the 2 put in (bob's big blind, chloe's call), and no rebuy was taken from their balance.
    assert await world.balance("chloe") == 1000 - 2
    assert await world.balance("bob") == 1000 - 2
    assert (await world.bot.storage.audit(world.guild.id)).ok
    world.acknowledge_refusals()


@pytest.mark.parametrize(
    ("locale", "agreed"),
    [
        ("en", "Blind schedule agreed: 1/2 → 2/4 → 500/1,000, ante 100; the blinds go up every 2 hands."),
        (
            "fr",
            "Niveaux de blinds convenus\u00a0: 1/2 → 2/4 → 500/1\u202f000, ante 100\u202f;"
            " les blinds montent toutes les 2 donnes.",
        ),
    ],
)
async def test_the_agreed_schedule_writes_each_level_as_the_table_does(world: World, locale: str, agreed: str) -> None:
    """The channel read "Blind schedule agreed: 1/2, 2/4, 5/10/1" while the table and the level-up notice say
    "5/10, ante 1": a spectator cannot tell what the third number is."""
    if locale == "fr":
        world.guild_locale = "fr"
    await world.seat({"alice": None, "bob": None}, kind="tournament", stack=100)
    answer = await world.slash("alice", "poker schedule", levels="1/2, 2/4, 500/1000/100", every=2)
    assert not answer.response.ephemeral
    assert answer.response.content == agreed


@pytest.mark.parametrize(
    ("locale", "moved", "moved_hand"),
    [
        ("en", "The table moved to a newer message below.", "Hand #1: the table moved to a newer message below."),
        (
            "fr",
            "La table est passée dans un message plus récent, plus bas.",
            "Donne n° 1\u00a0: la table est passée dans un message plus récent, plus bas.",
        ),
    ],
)
async def test_a_retired_table_message_names_a_hand_only_if_it_showed_one(
    world: World, locale: str, moved: str, moved_hand: str
) -> None:
    """The table posted when the table opened became "Hand #1: the table moved to a newer message below." at the
    first deal (it never showed hand 1), and a /poker table between hands left "Hand #2: ..." on a message that
    showed the idle table."""
    if locale == "fr":
        world.guild_locale = "fr"
    await world.seat({"alice": 100, "bob": 100})
    opening = world.table_message().id
    await world.slash("alice", "poker start")
    contents = {m.id: m.content for m in world.messages()}
    assert contents[opening] == moved
    dealt = world.table_message().id
    await world.slash("alice", "poker table")  # during hand 1: the old message showed it
    assert {m.id: m.content for m in world.messages()}[dealt] == moved_hand
    await world.slash("bob", "poker leave")  # hand 1 ends; alice alone: the table waits
    idle = world.table_message().id
    await world.slash("alice", "poker table")
    assert {m.id: m.content for m in world.messages()}[idle] == moved
    # Buttons only on the live table message, and the Show button (issue 15) under hand 1's result: the pause
    # before the next hand, when its players may show their cards, goes on (alice waits alone).
    with_buttons = {m.id: m for m in world.messages() if m.components}
    live = world.table_message().id
    shows = [
        m.id
        for m in with_buttons.values()
        if [c.custom_id for row in m.components for c in row.children] == [f"poker:show:{world.channel.id}:1"]  # type: ignore[attr-defined]
    ]
    assert sorted(with_buttons) == sorted([*shows, *([live] if live in with_buttons else [])]) and len(shows) == 1
    world.acknowledge_refusals()


@pytest.mark.parametrize(
    ("locale", "told"),
    [
        ("en", "Rebuy of 30 accepted, instead of the 20 asked before: the chips are added when this hand ends"),
        ("fr", "Recave de 30 acceptée, à la place des 20 demandés avant\u00a0: les jetons sont ajoutés à la fin"),
    ],
)
async def test_a_second_rebuy_asked_during_a_hand_says_it_replaces_the_first(
    world: World, locale: str, told: str
) -> None:
    """carol asked /poker rebuy amount:20 then amount:30 during a hand and was told "Rebuy of 30 accepted" each
    time: only 30 was added when the hand ended (one rebuy per hand, the last asked), which nothing had said."""
    await world.seat({"alice": 100, "bob": 100, "carol": 50})
    world.speaks("carol", locale)
    await world.slash("alice", "poker start")
    await world.slash("carol", "poker rebuy", amount=20)
    asked = await world.slash("carol", "poker rebuy", amount=30)
    assert asked.response.ephemeral and (asked.response.content or "").startswith(told)
    assert world.service.runners[world.channel.id].view().rebuys == {world.member("carol").id: 30}
    world.acknowledge_refusals()
