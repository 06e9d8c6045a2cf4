"""The table service's pictures and sealed decks, as the channel and the players see them (RecordingNotifier):
street and showdown messages carry a picture drawn from the public table, never the table message's edits;
the options turn them off; every hand is sealed before its first action, the seal survives a restart, the DMs
prove the hole cards and the revealed cards verify."""

from __future__ import annotations

import io

from PIL import Image

from bot.poker import ActionKind, HandResult
from bot.poker.seal import CardProof, DeckSeal, verify_hand, verify_proof
from bot.storage import Storage
from bot.tables import (
    ManualClock,
    RecordingNotifier,
    StreetAnnouncement,
    TableService,
)
from bot.tables.record import stored_hand
from tests.tables.conftest import CHANNEL, GUILD, Decks, deck_for, play_to_end_of_hand
from tests.tables.test_flow import seat_and_start


def _png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


async def test_street_and_showdown_messages_carry_a_picture_and_table_edits_never_do(
    service: TableService, notifier: RecordingNotifier, decks: Decks
) -> None:
    decks.queue.append(deck_for(["7c 2d", "8h 3s", "Ah Ad"], "Kc 9d 4s 5h Jc"))
    await seat_and_start(service)
    runner = service.get(CHANNEL)
    await play_to_end_of_hand(service)
    await runner.drain()
    streets = [a for a, _ in notifier.pictures if isinstance(a, StreetAnnouncement)]
    results = [a for a, _ in notifier.pictures if isinstance(a, HandResult)]
    assert [s.street for s in streets] == [1, 2, 3]  # flop, turn, river
    assert len(results) == 1 and results[0].showdown
    for _announcement, picture in notifier.pictures:
        assert picture.filename.endswith(".png") and _png(picture.data).size == (900, 600)
    # every street and the result had a picture; nothing else did (notices, the table's edits)
    pictured = {id(a) for a, _ in notifier.pictures}
    assert {id(a) for a in notifier.announcements if isinstance(a, StreetAnnouncement | HandResult)} == (pictured)


async def test_a_table_with_pictures_off_sends_none(service: TableService, notifier: RecordingNotifier) -> None:
    await seat_and_start(service, pictures=False)
    await play_to_end_of_hand(service)
    await service.get(CHANNEL).drain()
    assert any(isinstance(a, StreetAnnouncement) for a in notifier.announcements)
    assert notifier.pictures == []


async def test_a_server_turning_pictures_off_stops_its_open_tables(
    service: TableService, notifier: RecordingNotifier, storage: Storage
) -> None:
    await seat_and_start(service)
    assert await service.set_pictures(GUILD, False) == 1
    assert service.get(CHANNEL).view().options.pictures is False
    assert (await storage.table_for_channel(CHANNEL)).settings["pictures"] is False  # stored: kept after a restart
    await play_to_end_of_hand(service)
    await service.get(CHANNEL).drain()
    assert notifier.pictures == []
    assert await service.set_pictures(GUILD, False) == 0


async def test_every_hand_is_sealed_before_its_first_action_and_the_dm_proves_the_hole_cards(
    service: TableService, notifier: RecordingNotifier, storage: Storage
) -> None:
    users = await seat_and_start(service)
    runner = service.get(CHANNEL)
    await runner.drain()
    fingerprint = notifier.posted[-1].seal
    assert fingerprint is not None and len(fingerprint) == 32  # on the table message before anyone acted
    row = await storage.hand_by_number(runner.ids.table_id, 1)
    deck = stored_hand(row).record.deck
    seal = DeckSeal.from_json(deck, row.record["seal"])
    assert seal.fingerprint() == fingerprint and stored_hand(row).seal == seal
    for user in users:
        tokens = notifier.hole_proofs[(1, user)]
        proofs = [CardProof.from_token(token) for token in tokens]
        assert tuple(p.card for p in proofs) == runner.hole_cards(user)
        assert all(verify_proof(seal.root, p) for p in proofs)


async def test_the_seal_survives_a_restart(
    service: TableService, storage: Storage, notifier: RecordingNotifier, clock: ManualClock, decks: Decks
) -> None:
    await seat_and_start(service)
    runner = service.get(CHANNEL)
    await runner.drain()
    fingerprint = runner.snapshot().seal
    await service.close()
    again = TableService(storage, notifier, clock=clock, rng_factory=decks)
    await again.restore()
    try:
        assert again.get(CHANNEL).snapshot().seal == fingerprint
    finally:
        await again.close()


async def test_a_played_hands_revealed_cards_verify_against_its_seal(
    service: TableService, notifier: RecordingNotifier, storage: Storage, decks: Decks
) -> None:
    decks.queue.append(deck_for(["7c 2d", "8h 3s", "Ah Ad"], "Kc 9d 4s 5h Jc"))
    small, _big, _button = await seat_and_start(service)
    runner = service.get(CHANNEL)
    await runner.act(runner.snapshot().actor_user_id, ActionKind.CALL)
    await runner.act(small, ActionKind.FOLD)
    await play_to_end_of_hand(service)
    await runner.drain()
    row = await storage.hand_by_number(runner.ids.table_id, 1)
    from bot.discord_ui.history import seal_of, verify_for
    from bot.tables.record import replay

    hand = replay(row)
    seal = seal_of(row)
    assert seal is not None
    spectator = verify_for(hand, seal, None)
    assert spectator.ok and spectator.checked == 5 + 2 * 2  # the board and the two hands shown
    folded = hand.hole_cards[0]
    public = seal.public_proofs(3, 5, [1, 2])
    assert not {p.card for p in public} & set(folded)  # the folded hand stays secret
    assert not verify_hand(seal.root, 3, hand.board, {0: tuple(folded)}, public).ok


async def test_a_run_out_street_draws_the_face_up_hands_and_their_odds(
    service: TableService, notifier: RecordingNotifier
) -> None:
    """The odds module's street announcement (odds per pot by hand player index, face-up cards): the picture
    shows each seat's cards and its main-pot chances; a snapshot alone shows neither."""
    from dataclasses import dataclass

    from bot.poker import parse_cards
    from bot.render.picture import scene_from_snapshot
    from bot.tables.pictures import draw_picture, run_out_view

    @dataclass(frozen=True)
    class PlayerOdds:
        win: float
        tie: float

    @dataclass(frozen=True)
    class PotOdds:
        players: tuple[int, ...]
        odds: tuple[PlayerOdds, ...]

    @dataclass(frozen=True)
    class Odds:
        pots: tuple[PotOdds, ...]
        exact: bool

    @dataclass(frozen=True)
    class RunOutStreet(StreetAnnouncement):
        odds: Odds | None = None
        faces: tuple[tuple, ...] = ()

    users = await seat_and_start(service)
    snapshot = service.get(CHANNEL).snapshot()
    faces = (parse_cards("AhAd"), parse_cards("KsKc"), ())
    odds = Odds((PotOdds((0, 1), (PlayerOdds(0.81, 0.01), PlayerOdds(0.18, 0.01))),), exact=True)
    street = RunOutStreet(1, 1, (), (), (), odds=odds, faces=faces)
    per_seat, face_up = run_out_view(snapshot, street)
    seat_of = {s.user_id: s.seat for s in snapshot.seats}
    assert face_up == {seat_of[users[0]]: parse_cards("AhAd"), seat_of[users[1]]: parse_cards("KsKc")}
    assert per_seat[seat_of[users[0]]].win == 0.81 and seat_of[users[2]] not in per_seat
    picture = draw_picture(snapshot, street, service.get(CHANNEL).view().options)
    plain = draw_picture(snapshot, StreetAnnouncement(1, 1, (), (), ()), service.get(CHANNEL).view().options)
    assert picture is not None and plain is not None and picture.data != plain.data
    scene = scene_from_snapshot(snapshot, None, per_seat, faces=face_up)
    assert {s.seat: s.shown for s in scene.seats if s.shown} == face_up


async def test_an_all_in_run_outs_pictures_show_the_hands_face_up_with_their_odds(
    service: TableService, notifier: RecordingNotifier, decks: Decks
) -> None:
    """The odds module's run-out street (issue 15): its picture is the scene with both hands face up and each
    seat's exact chances (the kings 42 of 44 on the turn); the same snapshot without them draws differently."""
    from bot.poker import Street
    from bot.render.picture import draw_table, scene_from_snapshot
    from bot.tables.pictures import run_out_view, street_snapshot
    from tests.tables.conftest import ALICE, BOB, actor

    decks.queue.append(deck_for(["AsAh", "KsKh"], "2c7d9hKd3s"))
    await seat_and_start(service, users=(ALICE, BOB))
    runner = service.get(CHANNEL)
    await runner.act(actor(service), ActionKind.CALL)
    await runner.act(actor(service), ActionKind.CHECK)
    await runner.act(actor(service), ActionKind.ALL_IN)
    await runner.act(actor(service), ActionKind.CALL)
    await runner.drain()
    pictured = {
        a.street: (a, p, snap)
        for (a, p), snap in zip(notifier.pictures, notifier.picture_snapshots, strict=True)
        if isinstance(a, StreetAnnouncement)
    }
    turn, picture, snapshot = pictured[Street.TURN]
    assert len(snapshot.board) == 5  # announced with the board out: the picture shows the turn's board
    snapshot = street_snapshot(snapshot, turn)
    # and the stacks as they were on the turn: the pot not paid yet (100 each, all in the middle)
    assert sum(s.stack for s in snapshot.seats) + sum(p.amount for p in turn.pots) == 200
    odds, faces = run_out_view(snapshot, turn)
    assert odds is not None and sorted(round(o.win * 44) for o in odds.values()) == [2, 42]
    assert sorted(str(c) for cards in faces.values() for c in cards) == ["Ah", "As", "Kh", "Ks"]
    # what was attached is the scene with the hands face up and the odds, not the bare snapshot
    assert picture.data == draw_table(scene_from_snapshot(snapshot, None, odds, faces=faces))
    assert picture.data != draw_table(scene_from_snapshot(snapshot))
