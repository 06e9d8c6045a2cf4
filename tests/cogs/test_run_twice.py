"""Run it twice through Discord (issue 15): the Yes / No buttons on the table message, only for the players still
to answer, and what the channel reads."""

from __future__ import annotations

import re
from pathlib import Path

from bot.poker.__main__ import main as engine_main
from tests.cogs.conftest import World


async def all_in_on_the_flop(world: World) -> None:
    world.decks.queue(["AsAh", "KsKh"], "2c7d9hKd3s")
    await world.seat({"alice": None, "bob": None}, run_it_twice=True)
    await world.slash("alice", "poker start")
    await world.slash(world.actor(), "call")
    await world.slash(world.actor(), "check")
    await world.press(
        world.actor(), next(label for label in world.button_labels() if label.startswith(("All-in", "Tapis")))
    )
    await world.slash(world.actor(), "call")
    await world.env.settle()


async def test_both_players_agree_with_the_buttons_and_the_board_is_run_twice(world: World) -> None:
    spectator = world.member("sam")
    await all_in_on_the_flop(world)
    labels = world.button_labels()
    assert labels[-2:] == ["Run it twice: yes", "No, one run"]
    description = world.table_message().embeds[0].description or ""
    assert "Run it twice? Waiting for **alice, bob**" in description

    stranger = await spectator.click(world.table_message(), label="Run it twice: yes")
    assert stranger.response is not None and stranger.response.ephemeral
    assert stranger.response.content == "There is no run-it-twice question for you to answer now"
    world.acknowledge_refusals()

    mark = len(world.env.http_requests)
    await world.press("alice", "Run it twice: yes")
    await world.env.settle()
    assert "alice agrees to run it twice" in "\n".join(world.public_texts(mark))
    assert "Waiting for **bob**" in (world.table_message().embeds[0].description or "")
    again = await world.press("alice", "Run it twice: yes")
    assert again.response is not None and again.response.ephemeral  # answered already
    world.acknowledge_refusals()

    await world.press("bob", "Run it twice: yes")
    await world.env.settle()
    seen = "\n".join(world.public_texts(mark))
    assert "bob agrees to run it twice. Everyone agreed: the rest of the board is dealt twice" in seen
    assert "Second board" in seen
    assert sum(world.stacks().values()) == 200


async def test_a_no_deals_the_board_once_and_says_so(world: World) -> None:
    await all_in_on_the_flop(world)
    mark = len(world.env.http_requests)
    await world.press("bob", "No, one run")
    await world.env.settle()
    seen = "\n".join(world.public_texts(mark))
    assert "bob declines: one run." in seen
    assert "Second board" not in seen


async def test_the_question_in_french(world: World) -> None:
    await world.slash(world.member("host", admin=True), "poker-admin settings", language="fr")
    await all_in_on_the_flop(world)
    # French typography: no-break spaces before the colon and the question mark (the rule book's "tirer deux boards").
    assert world.button_labels()[-2:] == ["Deux boards\u00a0: oui", "Non, un seul board"]
    description = (world.table_message().embeds[0].description or "").replace("\u202f", " ")
    assert "Tirer deux boards ? On attend **alice, bob**" in description


async def test_poker_verify_checks_both_boards_of_a_hand_run_twice(world: World, tmp_path: Path) -> None:
    await all_in_on_the_flop(world)
    await world.press("alice", "Run it twice: yes")
    await world.press("bob", "Run it twice: yes")
    await world.env.settle()
    answer = await world.slash("sam", "poker verify", hand=1)
    assert answer.response is not None
    # The first board (5), the second board's turn and river (2), and both hands shown at the showdown (4).
    assert answer.response.content.startswith("✅ Hand #1: the 11 revealed cards match the deck sealed")
    phh = (await answer.response.attachments[0].read()).decode()
    path = tmp_path / "twice.phh"
    path.write_text(phh)
    assert engine_main(["verify", str(path)]) == 0
    second = re.findall(r'"d db (\w\w) # second board"', phh)
    assert len(second) == 2  # the second board's turn and river
    other = next(card for card in ("2d", "5d", "6d") if card not in phh)
    tampered = tmp_path / "tampered.phh"
    tampered.write_text(phh.replace(f"d db {second[0]} # second board", f"d db {other} # second board"))
    assert engine_main(["verify", str(tampered)]) == 1


async def test_the_result_and_the_retired_table_message_name_both_boards(world: World) -> None:
    await all_in_on_the_flop(world)
    table = world.table_message()
    await world.press("alice", "Run it twice: yes")
    await world.press("bob", "Run it twice: yes")
    await world.env.settle()
    retired = next(m for m in world.messages() if m.id == table.id).content.replace("\ufe0e", "")
    assert retired.startswith("Hand #1 · ")
    assert " · first board 2♣ 7♦ 9♥ K♦ 3♠ · second board 2♣ 7♦ 9♥ " in retired
    result = next(m for m in reversed(world.messages()) if m.embeds and "Showdown" in (m.embeds[0].title or ""))
    pots = next(f.value or "" for f in result.embeds[0].fields if f.name == "Pots won").replace("\ufe0e", "")
    lines = pots.splitlines()
    assert len(lines) == 2 and lines[0].startswith("First board: ") and lines[1].startswith("Second board: ")
    assert all("half the pot (100)" in line for line in lines)
