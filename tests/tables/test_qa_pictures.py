"""What QA saw in the table's pictures (street and result messages), as a spectator reads them: a run-out's
pictures must not tell the result before the river, and a picture's title names what happened."""

from __future__ import annotations

import dataclasses
from typing import Any

from bot.poker import ActionKind, HandResult
from bot.render.picture import draw_table, scene_from_snapshot
from bot.tables import RecordingNotifier, StreetAnnouncement, TableService, TableSnapshot
from bot.tables.pictures import run_out_view, street_snapshot
from tests.tables.conftest import ALICE, BOB, CHANNEL, CHLOE, Decks, actor, deck_for
from tests.tables.test_flow import seat_and_start


def pictured(notifier: RecordingNotifier, kind: type) -> list[tuple[Any, TableSnapshot]]:
    """The announcements of `kind` that carried a picture, each with the snapshot it was drawn from."""
    return [
        (a, snap)
        for (a, _p), snap in zip(notifier.pictures, notifier.picture_snapshots, strict=True)
        if isinstance(a, kind)
    ]


async def test_every_all_in_player_reads_all_in_on_the_run_out_pictures_winner_or_not(
    service: TableService, notifier: RecordingNotifier, decks: Decks
) -> None:
    """Three players all-in before the flop: on the flop and turn pictures only the player who goes on to lose
    every chip wore the ALL-IN badge (the winners' seats read as still playing, stack 0), so the picture of the
    flop named the loser. Every player all-in is marked all-in on every street of the run-out."""
    # Chloé (button) shoves, Alice (small blind) shoves, Bob (big blind) calls: all three are all-in.
    decks.queue.append(deck_for(["AsAh", "KsKh", "QdQc"], "2c7d9hTd3s"))
    await seat_and_start(service, users=(ALICE, BOB, CHLOE))
    runner = service.get(CHANNEL)
    for _ in range(3):
        await runner.act(actor(service), ActionKind.ALL_IN)
    await runner.drain()
    streets = pictured(notifier, StreetAnnouncement)
    assert len(streets) == 4  # face up where the betting closed (before the flop), then flop, turn, river
    for announcement, snapshot in streets:
        shown = street_snapshot(snapshot, announcement)
        odds, faces = run_out_view(shown, announcement)
        scene = scene_from_snapshot(shown, None, odds, faces=faces)
        assert {(s.name, s.stack, s.state) for s in scene.seats} == {
            ("Alice", 0, "all_in"),
            ("Bob", 0, "all_in"),
            ("Chloé", 0, "all_in"),
        }, announcement.street


async def test_the_picture_of_a_hand_won_uncontested_is_not_titled_showdown(
    service: TableService, notifier: RecordingNotifier
) -> None:
    """Everyone folded to Bob: the message says "Hand #1 is over" (no showdown, no hand shown), and so does its
    picture's title, never "Hand #1 · Showdown" ("Donne n° 1 · Abattage" in French), in both languages."""
    await seat_and_start(service, users=(ALICE, BOB, CHLOE))
    runner = service.get(CHANNEL)
    await runner.act(actor(service), ActionKind.FOLD)
    await runner.act(actor(service), ActionKind.FOLD)
    await runner.drain()
    results = pictured(notifier, HandResult)
    assert len(results) == 1
    result, snapshot = results[0]
    assert not result.showdown
    scene = scene_from_snapshot(snapshot, result)
    assert scene.street == "over"
    for language in ("en", "fr"):
        over = dataclasses.replace(scene, language=language)
        assert draw_table(over) != draw_table(dataclasses.replace(over, street="showdown"))
