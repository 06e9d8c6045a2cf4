"""What members see of sealed decks and pictures through the real command tree: the table message's
fingerprint, `/poker verify hand:N` (its answer and the PHH file `python -m bot.poker verify` accepts, without
a card the member may not see), the picture attached to street messages and `/poker table`'s answer."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from bot.poker.__main__ import main as engine_main
from tests.cogs.conftest import World


async def _play_down(world: World) -> None:
    """Everyone checks or calls until the hand is over."""
    for _ in range(30):
        snapshot = world.snapshot()
        if snapshot.actor_user_id is None:
            return
        legal = snapshot.legal
        await world.slash(world.actor(), "check" if legal is not None and legal.can_check else "call")


async def test_a_spectator_verifies_a_showdown_and_the_file_verifies_on_its_own(world: World, tmp_path: Path) -> None:
    # Heads-up, hand 1: alice (player 0, BB) and bob (button, SB) check it down; alice shows her kings first,
    # bob cannot win and mucks: the board and alice's cards are revealed (7), bob's stay secret.
    world.decks.queue(["KhKd", "AhQs"], "Kc9d4s2h7c")
    await world.seat({"alice": 100, "bob": 100})
    await world.slash("alice", "poker start")
    fingerprint = world.snapshot().seal
    assert fingerprint and f"`{fingerprint}`" in world.table_message().embeds[0].description
    await _play_down(world)
    flop = next(m for m in world.messages() if m.content.startswith("**Flop**"))
    assert [a.filename for a in flop.attachments] == ["table.png"]
    picture = Image.open(io.BytesIO(await flop.attachments[0].read()))
    assert picture.format == "PNG" and picture.size == (900, 600)

    answer = await world.slash("sam", "poker verify", hand=1)
    text = answer.response.content
    assert text.startswith(
        f"✅ Hand #1: the 7 revealed cards match the deck sealed before the first action (`{fingerprint}`)"
    )
    phh = (await answer.response.attachments[0].read()).decode()
    assert '"d dh p1 KhKd"' in phh and '"d dh p2 ????"' in phh and "AhQs" not in phh
    path = tmp_path / "hand1.phh"
    path.write_text(phh)
    assert engine_main(["verify", str(path)]) == 0
    tampered = tmp_path / "tampered.phh"
    tampered.write_text(phh.replace("d db Kc9d4s", "d db Kc9d3s"))
    assert engine_main(["verify", str(tampered)]) == 1


async def test_verify_gives_a_folded_hand_to_no_one_but_its_owner(world: World, tmp_path: Path) -> None:
    world.decks.queue(["5c5d", "8s8h"], "")
    await world.seat({"alice": 100, "bob": 100})
    await world.slash("alice", "poker start")
    await world.slash(world.actor(), "fold")  # bob (the button) folds before the flop: nothing is shown
    bob = await world.slash("bob", "poker verify", hand=1)
    assert bob.response.content.startswith("✅ Hand #1: the 2 revealed cards match")  # his own two cards
    alice = await world.slash("alice", "poker verify", hand=1)
    phh = (await alice.response.attachments[0].read()).decode()
    assert '"d dh p2 ????"' in phh and "8s" not in phh and "8h" not in phh
    path = tmp_path / "alice.phh"
    path.write_text(phh)
    assert engine_main(["verify", str(path)]) == 0  # her own cards, proven by the proofs in her file
    spectator = await world.slash("sam", "poker verify", hand=1)
    assert spectator.response.content.startswith("Hand #1: no card you could see was revealed.")
    assert "8s" not in (await spectator.response.attachments[0].read()).decode()
    french = await world.slash(world.speaks("amelie", "fr"), "poker verify", hand=1)
    assert french.response.content.startswith("Donne n° 1\u00a0: aucune carte que tu pouvais voir n'a été révélée.")


async def test_poker_table_answers_with_the_picture_and_verify_refuses_outside_a_table(world: World) -> None:
    refused = await world.slash("sam", "poker verify", hand=1)
    assert refused.response.ephemeral and "There is no table in this channel" in refused.response.content
    world.acknowledge_refusals()
    await world.seat({"alice": 100, "bob": 100})
    await world.slash("alice", "poker start")
    answer = await world.slash("sam", "poker table")
    assert answer.response.ephemeral
    assert [a.filename for a in answer.response.attachments] == ["table.png"]
    missing = await world.slash("sam", "poker verify", hand=7)
    assert missing.response.content == "No hand #7 at this table."
    world.acknowledge_refusals()


async def test_a_table_created_without_pictures_sends_none(world: World) -> None:
    await world.seat({"alice": 100, "bob": 100}, pictures=False)
    await world.slash("alice", "poker start")
    await _play_down(world)
    assert all(not m.attachments for m in world.messages())
    answer = await world.slash("alice", "poker table")
    assert not answer.response.attachments
