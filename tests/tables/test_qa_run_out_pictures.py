"""What QA saw in the pictures of an all-in run-out (the flop, turn and river messages drawn before the showdown):
the pictures must not tell the result before the river."""

from __future__ import annotations

from bot.poker import ActionKind
from bot.render.picture import scene_from_snapshot
from bot.tables import RecordingNotifier, StreetAnnouncement, TableService
from bot.tables.pictures import run_out_view, street_snapshot
from tests.tables.conftest import ALICE, BOB, CHANNEL, CHLOE, Decks, actor, deck_for
from tests.tables.test_flow import seat_and_start


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
    streets = [
        (a, snap)
        for (a, _p), snap in zip(notifier.pictures, notifier.picture_snapshots, strict=True)
        if isinstance(a, StreetAnnouncement)
    ]
    assert len(streets) == 3  # flop, turn, river
    for announcement, snapshot in streets:
        shown = street_snapshot(snapshot, announcement)
        odds, faces = run_out_view(shown, announcement)
        scene = scene_from_snapshot(shown, None, odds, faces=faces)
        assert {(s.name, s.stack, s.state) for s in scene.seats} == {
            ("Alice", 0, "all_in"),
            ("Bob", 0, "all_in"),
            ("Chloé", 0, "all_in"),
        }, announcement.street
