"""Computer players through Discord (issue 17): /poker addbot and /poker removebot, named and marked at the table,
acting after their pause; the house pays their buy-ins and the audit holds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.storage import is_computer_player
from tests.cogs.conftest import World


async def play_with_computers(world: World, hands: int, member: str, choose: Callable[[Any], str]) -> None:
    """Play until `hands` hands are over: `member` acts with `choose(snapshot)` on their turns, the computer
    players after their pause (at most 3 s), and the next hand is dealt after its delay."""
    for _ in range(200):
        snap = world.snapshot()
        if snap.hand_number >= hands and snap.actor_user_id is None:
            return
        if snap.actor_user_id is None or is_computer_player(snap.actor_user_id):
            await world.advance(5.5)
            continue
        await world.slash(member, choose(snap))
    raise AssertionError(f"{hands} hands were not played")


async def test_the_host_seats_two_computer_players_and_plays_hands_with_them(world: World) -> None:
    await world.seat({"alice": None})
    refused = await world.slash("bob", "poker addbot", level="solid")
    assert refused.response.content.startswith("Only the host")
    added = await world.slash("alice", "poker addbot", level="solid")
    assert added.response.content == "🤖 Solid 2 sits at seat 2."
    added = await world.slash("alice", "poker addbot")
    assert added.response.content == "🤖 Beginner 3 sits at seat 3."
    description = world.table_message().embeds[0].description or ""
    fields = " ".join(f.value or "" for f in world.table_message().embeds[0].fields)
    assert "🤖 Solid 2" in description + fields and "🤖 Beginner 3" in description + fields

    await world.slash("alice", "poker start")
    for _ in range(200):
        snap = world.snapshot()
        if snap.hand_number >= 3 and snap.actor_user_id is None:
            break
        if snap.actor_user_id is None or is_computer_player(snap.actor_user_id):
            await world.advance(5.5)  # a computer player's pause (at most 3 s), or the next deal
            continue
        await world.slash("alice", "check" if snap.legal.can_check else "call")
    assert world.snapshot().hand_number >= 3
    assert (await world.bot.storage.audit(world.guild.id)).ok
    assert world.dms("alice")  # members still get their cards by DM

    history = await world.slash("alice", "history")
    text = (history.response.content or "") + " ".join(e.description or "" for e in history.response.embeds)
    assert "🤖 Beginner 3 wins" in text, text  # named as a computer player in the history too
    assert not world.service.runners[world.channel.id].view().in_hand  # between hands
    refused = await world.slash("alice", "poker removebot", seat=1)
    assert refused.response.content == "Seat 1 holds no computer player"
    removed = await world.slash("alice", "poker removebot", seat=3)
    assert removed.response.content == "🤖 Beginner 3 was removed from the table."
    assert [s.seat for s in world.snapshot().seats] == [1, 2]
    assert (await world.bot.storage.audit(world.guild.id)).ok
    world.acknowledge_refusals()


async def test_the_coach_adds_its_lines_to_my_cards_on_your_turn_in_your_language(world: World) -> None:
    await world.seat({"alice": None, "bob": None})
    turned = await world.slash("bob", "poker coach", mode="on")
    assert turned.response.content.startswith("Coach on")
    world.speaks("bob", "fr")
    await world.slash("alice", "poker start")
    if world.actor() != "bob":
        await world.slash(world.actor(), "call")
    mine = await world.press("bob", "My cards")
    lines = mine.response.content.splitlines()
    coach = [line for line in lines if line.startswith("> ")]
    assert any("Tes chances de gagner contre 1 main au hasard" in line for line in coach), lines
    assert any(line.startswith(("> Rien à suivre", "> Suivre coûte")) for line in coach), lines
    theirs = await world.press("alice", "My cards")  # no coach for Alice, and not her turn
    assert not [line for line in theirs.response.content.splitlines() if line.startswith("> ")]
    off = await world.slash("bob", "poker coach", mode="off")
    assert off.response.content == "Coach coupé."
    again = await world.press("bob", "My cards")
    assert not [line for line in again.response.content.splitlines() if line.startswith("> ")]


async def test_a_learning_table_with_a_computer_player_shows_every_card(world: World) -> None:
    created = await world.slash("alice", "poker create", kind="learning")
    assert "learning table" in created.response.content and "face up" in created.response.content
    await world.slash("alice", "poker join")
    await world.slash("alice", "poker addbot", level="solid")
    await world.slash("alice", "poker start")
    description = world.table_message().embeds[0].description or ""
    for seat in world.snapshot().seats:
        assert len(seat.cards) == 2
        assert all(str(card)[0] in "23456789TJQKA" for card in seat.cards)
    assert description.count("♠") + description.count("♥") + description.count("♦") + description.count("♣") >= 4
    assert (await world.bot.storage.balance(world.guild.id, world.member("alice").id)) == 1000


async def test_computer_players_are_named_in_the_readers_language_from_their_id(world: World) -> None:
    """Issue 17: a computer player's name is never the English text stored when it sat down: /history, the
    table and the host's replies name it from its kind, level and seat in the reader's (or table's) language."""
    await world.seat({"alice": None})
    world.speaks("alice", "fr")
    added = await world.slash("alice", "poker addbot", level="solid")
    assert added.response.content == "🤖 Solide 2 s'assoit à la place 2.", added.response.content
    await world.slash("alice", "poker addbot")
    await world.slash("alice", "poker start")
    await play_with_computers(world, 2, "alice", lambda snap: "check" if snap.legal.can_check else "fold")
    history = await world.slash("alice", "history")
    text = " ".join(e.description or "" for e in history.response.embeds)
    assert "🤖 Débutant 3" in text or "🤖 Solide 2" in text, text
    assert "Beginner" not in text and "Solid " not in text, text
    english = await world.slash("bob", "history")  # another reader, in English, the same hands
    text = " ".join(e.description or "" for e in english.response.embeds)
    assert "🤖 Beginner 3" in text or "🤖 Solid 2" in text, text

    # The table's own messages follow the table's language, also for players seated before it changed.
    await world.slash(world.member("admin", admin=True), "poker-admin settings", language="fr")
    names = [seat.name for seat in world.snapshot().seats]
    assert names[1:] == ["🤖 Solide 2", "🤖 Débutant 3"], names
    removed = await world.slash("alice", "poker removebot", seat=3)
    assert removed.response.content.startswith("🤖 Débutant 3"), removed.response.content
    world.acknowledge_refusals()


async def test_stats_of_a_computer_player_are_shown_like_a_members_and_it_stays_off_the_leaderboard(
    world: World,
) -> None:
    """Issue 17: `/stats computer:` (the autocomplete lists the computer players that played here, in the reader's
    language) shows its hands, VPIP/PFR and showdowns as a member's, marked as a computer player, without a
    balance; it never appears on the leaderboard."""
    await world.seat({"alice": None})
    await world.slash("alice", "poker addbot", level="solid")
    none_yet = await world.member("alice").autocomplete(world.channel, "stats", "computer", "")
    assert none_yet == []  # no hand finished yet
    await world.slash("alice", "poker start")
    await play_with_computers(world, 3, "alice", lambda snap: "call" if snap.legal.can_call else "check")
    choices = await world.member("alice").autocomplete(world.channel, "stats", "computer", "")
    assert [(c["name"], c["value"]) for c in choices] == [("🤖 Solid 2", "-2002")]
    world.speaks("bob", "fr")
    choices = await world.member("bob").autocomplete(world.channel, "stats", "computer", "sol")
    assert [c["name"] for c in choices] == ["🤖 Solide 2"]

    shown = await world.slash("alice", "stats", computer="-2002")
    embed = shown.response.embeds[0]
    fields = {f.name: f.value for f in embed.fields}
    assert embed.title == "Stats — 🤖 Solid 2"
    assert (embed.description or "").startswith("🤖 A computer player: its chips come from the server's house")
    hands = int(fields["Hands played"] or "0")
    assert hands >= 2 and fields["VPIP"] != "—" and "/" in (fields["Showdowns won / reached"] or "")
    assert "Balance" not in fields
    mine = await world.slash("alice", "stats")
    assert {f.name: f.value for f in mine.response.embeds[0].fields}["Hands played"] == str(hands)  # same hands

    typed = await world.slash("bob", "stats", computer="solide 2")  # a name typed without the list, in French
    assert typed.response.embeds[0].title == "Statistiques — 🤖 Solide 2"
    unknown = await world.slash("alice", "stats", computer="Solid 9")
    assert unknown.response.content == "No computer player called “Solid 9” has played here: pick one from the list"
    both = await world.slash("alice", "stats", member=world.member("bob"), computer="-2002")
    assert both.response.content == "Choose a member or a computer player, not both"

    board = await world.slash("alice", "leaderboard")
    shown_board = board.response.embeds[0]
    assert "🤖" not in " ".join([shown_board.description or "", *(f"{f.name} {f.value}" for f in shown_board.fields)])
    world.acknowledge_refusals()


async def test_the_coach_by_dm_comes_on_your_turn_in_your_language_and_costs_others_nothing(world: World) -> None:
    """Issue 17: `/poker coach mode:dm`: on each of Bob's turns one DM with the coach's lines, in French (his
    language); no other player's action makes a call to his DMs; "My cards" still shows the coach."""
    await world.seat({"alice": None, "bob": None, "chloe": None})
    world.speaks("bob", "fr")
    turned = await world.slash("bob", "poker coach", mode="dm")
    assert turned.response.content.startswith("Coach activé, aussi en message privé")
    await world.slash("alice", "poker start")
    dm_channel = world.member("bob").user.dm_channel
    assert dm_channel is not None  # his hole cards came by DM
    dm_path = f"/channels/{dm_channel.id}/messages"
    bobs_turns = 0
    while world.snapshot().actor_user_id is not None:
        who = world.actor()
        mark = len(world.env.http_requests)
        if who == "bob":
            bobs_turns += 1
            mine = await world.press("bob", "My cards")  # the table speaks English
            assert any(line.startswith("> ") for line in mine.response.content.splitlines())
        await world.slash(who, "check" if world.snapshot().legal.can_check else "call")
        to_bob = [r for r in world.env.http_requests[mark:] if r.method == "POST" and r.path == dm_path]
        assert len(to_bob) == (1 if world.snapshot().actor_user_id == world.member("bob").id else 0), who
    coach = [dm for dm in world.dms("bob") if dm.startswith("**Coach**")]
    assert len(coach) == bobs_turns >= 2
    first = coach[0].splitlines()
    assert first[0] == f"**Coach** — donne n° 1 sur <#{world.channel.id}>, à ton tour\xa0:", first
    assert any("Tes chances de gagner contre 2 mains au hasard" in line for line in first), first


async def test_closed_dms_turn_the_coach_back_to_my_cards_with_one_notice(world: World) -> None:
    await world.seat({"alice": None, "bob": None})
    await world.slash("bob", "poker coach", mode="dm")
    world.refuse_dms("bob")
    await world.slash("alice", "poker start")
    while world.snapshot().actor_user_id is not None:
        await world.slash(world.actor(), "check" if world.snapshot().legal.can_check else "call")
    notices = [m.content for m in world.messages() if "the coach's advice stays in **My cards**" in m.content]
    assert notices == ["bob doesn't accept direct messages: the coach's advice stays in **My cards** on your turn."]
    world.acknowledge_refusals()
