"""The Show button through Discord (issue 15): under the result of a hand won without a showdown, its players may
show one card or both until the next hand is dealt; what the channel reads, what the presser alone sees, the
refusals in the presser's language, and the shown cards in `/history` for everyone."""

from __future__ import annotations

import json
from pathlib import Path

import discord

from bot.poker.__main__ import main as engine_main
from tests.cogs.conftest import World, cards_of
from tests.cogs.test_seal_and_picture import _play_down as play_down


async def hand_won_without_a_showdown(world: World) -> tuple[str, str, discord.Message]:
    """Alice and Bob play hand 1; the first to act (the button, heads-up) folds, the big blind (hand player 0: A♠
    K♦) wins without a showdown; the folder held 7♣ 2♥. Returns (the folder, the winner, the result message)."""
    world.decks.queue(["AsKd", "7c2h"], "")
    await world.seat({"alice": 100, "bob": 100})
    await world.slash("alice", "poker start")
    folder = world.actor()
    await world.slash(folder, "fold")
    await world.env.settle()
    result = next(m for m in reversed(world.messages()) if m.embeds and "is over" in (m.embeds[0].title or ""))
    return folder, "bob" if folder == "alice" else "alice", result


def labels(message: discord.Message) -> list[str]:
    return [c.label or "" for row in message.components for c in row.children]  # type: ignore[attr-defined]


async def test_the_winner_shows_one_card_then_the_other_and_everyone_reads_it(world: World, tmp_path: Path) -> None:
    _folder, winner, result = await hand_won_without_a_showdown(world)
    assert labels(result) == ["Show my cards"]
    hole = cards_of("AsKd")
    assert hole[0] in world.dms(winner)[-1]  # her DM

    mark = len(world.env.http_requests)
    asked = await world.member(winner).click(result, label="Show my cards")
    assert asked.response is not None and asked.response.ephemeral
    assert asked.response.content.startswith("Which of your cards of hand #1 do you show?")
    offered = [c["label"] for row in asked.response.components for c in row["components"]]
    assert offered == [f"Show {hole[0]}", f"Show {hole[1]}", f"Show both: {hole[0]} {hole[1]}"]
    assert not any(card in text for text in world.public_texts(mark) for card in hole)  # nothing public yet

    done = await world.member(winner).click(asked.response.message, label=f"Show {hole[1]}")
    await world.env.settle()
    assert done.response is not None and done.response.ephemeral
    assert done.response.content == f"You showed {hole[1]} to the table."
    prompt = next(m for m in world.messages(winner) if m.id == asked.response.message.id)
    assert prompt.content == done.response.content and not prompt.components  # the choice became what was shown
    seen = "\n".join(world.public_texts(mark))
    assert f"{winner} shows {hole[1]}" in seen and hole[0] not in seen

    again = await world.member(winner).click(result, label="Show my cards")
    assert again.response is not None
    offered = [c["label"] for row in again.response.components for c in row["components"]]
    assert offered == [f"Show {hole[0]}"]  # the other card alone
    await world.member(winner).click(again.response.message, label=f"Show {hole[0]}")
    await world.env.settle()
    assert f"{winner} shows {hole[0]}" in "\n".join(world.public_texts(mark))
    last = await world.member(winner).click(result, label="Show my cards")
    assert last.response is not None and last.response.ephemeral
    assert last.response.content == "You have already shown your cards of hand #1"
    world.acknowledge_refusals()

    # /history: a spectator reads both cards shown, the folder's stay hidden.
    history = await world.slash("sam", "history", hand=1)
    assert history.response is not None
    text = "\n".join(
        [history.response.content or ""]
        + [json.dumps(e.to_dict(), ensure_ascii=False) for e in history.response.embeds]
    )
    assert f"{winner} shows {hole[1]}" in text and f"{winner} shows {hole[0]}" in text
    assert not any(card in text for card in cards_of("7c2h"))

    # /poker verify: the two cards shown are revealed cards, proven against the sealed deck; the file verifies.
    verify = await world.slash("sam", "poker verify", hand=1)
    assert verify.response is not None
    assert (verify.response.content or "").startswith("✅ Hand #1: the 2 revealed cards match the deck sealed")
    path = tmp_path / "hand1.phh"
    path.write_bytes(await verify.response.attachments[0].read())
    assert engine_main(["verify", str(path)]) == 0


async def test_strangers_and_late_presses_are_refused_privately_in_their_language(world: World) -> None:
    folder, _winner, result = await hand_won_without_a_showdown(world)
    stranger = await world.member("sam").click(result, label="Show my cards")
    assert stranger.response is not None and stranger.response.ephemeral
    assert stranger.response.content == "You were not dealt in hand #1: only its players can show their cards"
    french = await world.speaks("amelie", "fr").click(result, label="Show my cards")
    assert french.response is not None and french.response.ephemeral
    assert (french.response.content or "").replace("\u00a0", " ") == (
        "Tu n'as pas joué la donne n° 1 : seuls ses joueurs peuvent montrer leurs cartes"
    )
    # The folder asks, then the next hand is dealt before they choose: too late.
    asked = await world.member(folder).click(result, label="Show my cards")
    assert asked.response is not None and asked.response.message is not None
    await world.advance(10)
    assert world.snapshot().hand_number == 2
    late = await world.member(folder).click(asked.response.message, label="Show both: " + " ".join(cards_of("7c2h")))
    too_late = "Too late: the next hand has been dealt, and the cards of hand #1 could be shown only until then"
    assert late.followups and late.followups[0].ephemeral and late.followups[0].content == too_late
    # A press of the result's button after the deal takes the button off the result, for everyone.
    public = await world.member(folder).click(result, label="Show my cards")
    assert public.followups and public.followups[0].content == too_late
    after = next(m for m in world.messages() if m.id == result.id)
    assert labels(after) == [] and after.embeds
    world.acknowledge_refusals()


async def test_a_checked_down_hand_offers_the_button_to_the_player_who_mucked_in_french(world: World) -> None:
    await world.slash(world.member("host", admin=True), "poker-admin settings", language="fr")
    world.decks.queue(["KhKd", "AhQs"], "Kc9d4s2h7c")
    await world.seat({"alice": 100, "bob": 100})
    await world.slash("alice", "poker start")
    await play_down(world)
    await world.env.settle()
    result = next(m for m in reversed(world.messages()) if m.embeds and "Abattage" in (m.embeds[0].title or ""))
    assert labels(result) == ["Montrer mes cartes"]
    shown = await world.member("alice").click(result, label="Montrer mes cartes")  # her kings were shown
    assert shown.response is not None and shown.response.ephemeral  # in her language (English), not the table's
    assert shown.response.content == "Your cards of hand #1 were already shown at the showdown"
    mark = len(world.env.http_requests)
    bob = world.speaks("bob", "fr")  # his choice is in his language: French
    asked = await bob.click(result, label="Montrer mes cartes")
    assert asked.response is not None
    assert (asked.response.content or "").startswith("Quelles cartes de la donne n° 1 montres-tu")
    both = "Montrer les deux\u00a0: " + " ".join(cards_of("AhQs"))
    await bob.click(asked.response.message, label=both)
    await world.env.settle()
    assert f"bob montre {' '.join(cards_of('AhQs'))}" in "\n".join(world.public_texts(mark))
    world.acknowledge_refusals()
