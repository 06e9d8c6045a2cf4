"""The table picture (bot/render/picture/): golden files per layout, the public view only, the package's font.

Goldens live in tests/render/goldens; after a deliberate change of the picture, draw them again with
`python scripts/picture_goldens.py` (or `POKER_UPDATE_GOLDENS=1` with this file) and look at each one.
"""

from __future__ import annotations

import dataclasses
import io
import os
from importlib import resources
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.poker.cards import parse_cards
from bot.poker.events import HoleCardsDealt
from bot.render.events import pot_label, street_name
from bot.render.i18n import format_number, t
from bot.render.picture import (
    COMPUTER_MARK,
    HEIGHT,
    WIDTH,
    SceneSeat,
    SeatOdds,
    TableScene,
    clean_name,
    draw,
    draw_image,
    draw_rows,
    draw_scanlines,
    draw_table,
    encode_png,
    encode_rows,
    encode_scanlines,
    layout_for,
    runs,
    samples,
    scene_from_snapshot,
    sprites,
    warm_up,
)
from bot.render.picture.draw import badge_label, odds_label
from bot.render.picture.layout import CENTRE_BOX, FELT, PLATE, STACK

GOLDENS = Path(__file__).parent / "goldens"
#: A pixel "differs" when its grey level moved by more than this (anti-aliasing of another FreeType build moves
#: less; Pillow's wheels bundle their FreeType, so the same Pillow draws the same pixels).
CHANNEL_TOLERANCE = 64
#: At most this share of the pixels may differ (54 pixels): one digit of a stack changed is about twice as many.
DIFFERING_SHARE = 0.0001


def _differing_share(a: Image.Image, b: Image.Image) -> float:
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).convert("L")
    histogram = diff.point(lambda v: 255 if v > CHANNEL_TOLERANCE else 0).histogram()
    return histogram[255] / (a.width * a.height)


@pytest.mark.parametrize("name", sorted(samples.golden_scenes()))
def test_picture_matches_its_golden_file(name: str) -> None:
    scene = samples.golden_scenes()[name]
    data = draw_table(scene)
    path = GOLDENS / f"{name}.png"
    if os.environ.get("POKER_UPDATE_GOLDENS"):
        path.write_bytes(data)
    drawn = Image.open(io.BytesIO(data))
    golden = Image.open(path)
    assert drawn.size == golden.size == (WIDTH, HEIGHT)
    assert _differing_share(drawn, golden) <= DIFFERING_SHARE, f"{name} differs from {path}"


def test_golden_comparison_catches_a_changed_card() -> None:
    """The tolerance is not so wide that a different card (here the turn) passes."""
    snapshot = samples.hand_in_play(10)
    other = dataclasses.replace(snapshot, board=parse_cards("Ks9d4cJh"))
    a, b = draw_image(scene_from_snapshot(snapshot)), draw_image(scene_from_snapshot(other))
    assert _differing_share(a, b) > DIFFERING_SHARE


def test_golden_comparison_catches_a_changed_stack() -> None:
    snapshot = samples.hand_in_play(6)
    seats = list(snapshot.seats)
    seats[3] = dataclasses.replace(seats[3], stack=seats[3].stack + 1)  # 211 -> 212
    other = dataclasses.replace(snapshot, seats=tuple(seats))
    a, b = draw_image(scene_from_snapshot(snapshot)), draw_image(scene_from_snapshot(other))
    assert _differing_share(a, b) > DIFFERING_SHARE


@pytest.mark.parametrize(
    "snapshot",
    [samples.hand_in_play(2), samples.hand_in_play(6), samples.hand_in_play(10), samples.all_in_with_odds()[0]],
    ids=["2", "6", "10", "all-in"],
)
def test_private_hole_cards_never_reach_the_picture(snapshot: samples.SampleSnapshot) -> None:
    """A snapshot that (wrongly) carries every player's dealt cards draws the very same bytes as the public one,
    and its scene holds no card beyond those shown."""
    careless = samples.with_private_cards(snapshot)
    scene = scene_from_snapshot(careless)
    assert scene == scene_from_snapshot(snapshot)
    assert draw_table(scene) == draw_table(scene_from_snapshot(snapshot))
    public = {c for s in scene.seats for c in s.shown} | set(scene.board)
    secret = {c for e in careless.events if isinstance(e, HoleCardsDealt) for c in e.cards}
    shown = {c for e in snapshot.events for c in getattr(e, "cards", ())}
    assert not (secret - shown) & public


def test_a_scene_has_no_field_for_a_card_that_is_not_public() -> None:
    """The only cards a seat of the picture carries are its shown ones: no hole-card field exists to fill."""
    seat_fields = {f.name for f in dataclasses.fields(SceneSeat)}
    scene_fields = {f.name for f in dataclasses.fields(TableScene)}
    assert not {"hole", "hole_cards", "cards"} & (seat_fields | scene_fields)
    assert "shown" in seat_fields


def test_a_seat_still_in_the_hand_is_drawn_face_down_and_a_folded_one_without_cards() -> None:
    scene = scene_from_snapshot(samples.hand_in_play(10))
    by_seat = {s.seat: s for s in scene.seats}
    assert by_seat[1].dealt and not by_seat[1].shown  # active: card backs
    assert by_seat[5].dealt and by_seat[5].state == "all_in"
    assert not by_seat[3].dealt  # folded
    assert not by_seat[7].dealt  # sitting out


def test_showdown_scene_shows_the_shown_hands_with_their_names_and_the_winners() -> None:
    snapshot, result = samples.showdown()
    scene = scene_from_snapshot(snapshot, result)
    by_seat = {s.seat: s for s in scene.seats}
    assert by_seat[1].shown == parse_cards("AhKh") and by_seat[1].won == 130
    assert by_seat[2].shown == parse_cards("9s9c") and by_seat[2].won == 240
    assert by_seat[2].hand == "Three of a kind, nines"
    assert by_seat[5].shown and by_seat[5].won == 0
    assert scene.pots == (240, 130) and scene.street == "showdown"
    french = scene_from_snapshot(samples.showdown("fr")[0], result)
    assert {s.seat: s for s in french.seats}[2].hand == "Brelan de neuf"


def test_odds_go_to_their_seats() -> None:
    snapshot, odds = samples.all_in_with_odds()
    scene = scene_from_snapshot(snapshot, None, odds)
    by_seat = {s.seat: s for s in scene.seats}
    assert by_seat[2].odds == SeatOdds(0.853, 0.0)
    assert by_seat[1].shown == parse_cards("AhKh")  # turned face up (a HandShown event)
    assert by_seat[3].odds is None


def test_language_and_four_colour_deck_change_the_picture() -> None:
    english = draw_image(scene_from_snapshot(samples.hand_in_play(10)))
    french = draw_image(scene_from_snapshot(samples.hand_in_play(10, "fr")))
    assert _differing_share(english, french) > 0.0005
    two = draw_image(scene_from_snapshot(samples.all_in_with_odds()[0]))
    four = draw_image(scene_from_snapshot(samples.all_in_with_odds()[0], four_colour=True))
    assert _differing_share(two, four) > 0.0005


@pytest.mark.parametrize(("max_seats", "layout"), [(2, 2), (3, 6), (6, 6), (7, 10), (9, 10), (10, 10)])
def test_layout_follows_the_number_of_seats(max_seats: int, layout: int) -> None:
    assert layout_for(max_seats) == layout


def test_picture_is_a_small_png() -> None:
    snapshot, result = samples.showdown()
    data = draw_table(scene_from_snapshot(snapshot, result))
    image = Image.open(io.BytesIO(data))
    image.load()  # decodes: CRCs and zlib stream are valid
    assert image.format == "PNG" and image.size == (WIDTH, HEIGHT) and image.mode == "P"
    assert len(data) < 200_000


@pytest.mark.parametrize("name", sorted(samples.golden_scenes()))
def test_encoder_writes_every_pixel_of_the_drawing_as_it_is(name: str) -> None:
    """The picture is drawn in the PNG's own palette mode: encoding loses nothing (same indices, same colours)."""
    image = draw_image(samples.golden_scenes()[name])
    decoded = Image.open(io.BytesIO(encode_png(image)))
    assert decoded.mode == image.mode == "P"
    assert decoded.tobytes() == image.tobytes()
    assert decoded.convert("RGB").tobytes() == image.convert("RGB").tobytes()


def test_the_palette_keeps_every_pre_drawn_piece_within_a_few_levels() -> None:
    """Each piece is drawn in RGB and turned into the shipped palette's colours once: every channel of every pixel
    of every piece the samples draw (felt, plates, cards of both decks, texts, badges, marks) stays within 16
    levels of its RGB drawing, 1 on average."""
    sprites.clear_caches()
    recorded: list[Image.Image] = []
    sprites.RECORDER = recorded
    try:
        for scene in samples.golden_scenes().values():
            draw_image(scene)
    finally:
        sprites.RECORDER = None
        sprites.clear_caches()
    assert len(recorded) > 50
    worst, total, pixels = 0, 0, 0
    for piece in recorded:
        histogram = ImageChops.difference(piece, sprites.to_palette(piece).convert("RGB")).convert("L").histogram()
        worst = max(worst, max(v for v, n in enumerate(histogram) if n))
        total += sum(v * n for v, n in enumerate(histogram))
        pixels += piece.width * piece.height
    assert worst <= 16
    assert total / pixels < 1.0


@pytest.mark.parametrize("layout", [2, 6, 10])
def test_the_centre_is_drawn_on_plain_felt(layout: int) -> None:
    """Title, blinds, board and pots are pre-drawn on the felt's flat colour: the centre box must be just that."""
    centre = sprites.felt_region(layout, CENTRE_BOX).convert("RGB")
    assert centre.getcolors() is not None and len(centre.getcolors() or ()) == 1
    assert centre.getpixel((0, 0)) == sprites.to_palette(Image.new("RGB", (1, 1), FELT)).convert("RGB").getpixel((0, 0))


def test_names_with_control_characters_are_drawn_without_them() -> None:
    snapshot = samples.hand_in_play(2)
    seats = (dataclasses.replace(snapshot.seats[0], name="Al\u202eice\u200b"), snapshot.seats[1])
    scene = scene_from_snapshot(dataclasses.replace(snapshot, seats=seats))
    assert scene.seats[0].name == "Alice"


def test_the_font_ships_with_the_package_with_its_licence() -> None:
    fonts = resources.files("bot.render").joinpath("fonts")
    assert fonts.joinpath("DejaVuSansCondensed-Bold.ttf").is_file()
    assert "Bitstream Vera" in fonts.joinpath("LICENSE-DejaVu.txt").read_text(encoding="utf-8")


def test_a_name_the_font_cannot_draw_becomes_the_seat_number() -> None:
    """CJK or emoji names would be boxes: what the font lacks is left out, and a name with nothing left is drawn
    as its seat ("Seat 1" / "Place 1")."""
    snapshot = samples.hand_in_play(2)
    seats = (
        dataclasses.replace(snapshot.seats[0], name="李小龍🐉"),
        dataclasses.replace(snapshot.seats[1], name="Zoé 🎲"),
    )
    scene = scene_from_snapshot(dataclasses.replace(snapshot, seats=seats))
    assert [s.name for s in scene.seats] == ["", "Zoé"]
    french = dataclasses.replace(snapshot, seats=seats, language="fr")
    assert draw_table(scene) != draw_table(scene_from_snapshot(french))  # "Seat 1" / "Place 1"


def test_odds_with_a_tie_keep_the_word_for_winning() -> None:
    """The tie figure comes after the chance to win, which stays named ("Win"/"Gagne"), in both languages."""
    assert odds_label(SeatOdds(0.82, 0.0), "en") == "Win 82%"
    assert odds_label(SeatOdds(0.40, 0.03), "en") == "Win 40% · tie 3%"
    assert odds_label(SeatOdds(0.065, 0.012, exact=False), "en") == "Win ≈ 6% · tie 1%"
    assert odds_label(SeatOdds(0.065, 0.012, exact=False), "fr") == "Gagne ≈ 6\xa0% · partage 1\xa0%"


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Wins +240", "Split pot +105", "ALL-IN", "TO ACT"]),
        ("fr", ["Gagne +240", "Pot partagé +105", "TAPIS", "À PARLER"]),
    ],
)
def test_badges_say_who_won_the_pot_or_a_share_of_a_split_pot(language: str, words: list[str]) -> None:
    seat = SceneSeat(seat=1, name="Alice", stack=100)
    labels = [
        badge_label(dataclasses.replace(seat, won=240), language),
        badge_label(dataclasses.replace(seat, won=105, split=True), language),
        badge_label(dataclasses.replace(seat, state="all_in"), language),
        badge_label(dataclasses.replace(seat, is_actor=True), language),
    ]
    assert [label[0] if label else None for label in labels] == words
    assert badge_label(seat, language) is None


def test_a_split_pot_marks_each_of_its_winners() -> None:
    snapshot, result = samples.split_pot()
    by_seat = {s.seat: s for s in scene_from_snapshot(snapshot, result).seats}
    assert (by_seat[1].won, by_seat[1].split) == (105, True)
    assert (by_seat[3].won, by_seat[3].split) == (105, True)
    assert (by_seat[2].won, by_seat[2].split) == (0, False)
    outright = {s.seat: s for s in scene_from_snapshot(*samples.showdown()).seats}
    assert outright[2].won == 240 and not outright[2].split
    # The badge says so: the same seats drawn as outright winners look different.
    scene = scene_from_snapshot(snapshot, result)
    whole = dataclasses.replace(scene, seats=tuple(dataclasses.replace(s, split=False) for s in scene.seats))
    assert _differing_share(draw_image(scene), draw_image(whole)) > 0.0005


def test_a_computer_player_is_marked_with_a_drawn_robot_instead_of_its_emoji() -> None:
    snapshot, result = samples.split_pot()
    scene = scene_from_snapshot(snapshot, result)
    by_seat = {s.seat: s for s in scene.seats}
    assert by_seat[3].computer and by_seat[3].name == "Solid 3"
    assert not by_seat[1].computer and by_seat[1].name == "Alice"
    human = dataclasses.replace(scene, seats=tuple(dataclasses.replace(s, computer=False) for s in scene.seats))
    assert _differing_share(draw_image(scene), draw_image(human)) > 0.0002


def test_a_member_named_like_a_computer_player_gets_no_robot_badge() -> None:
    """The badge comes from the seat's user id (computer players sit with negative ids), never from the name: a
    member who calls themself "🤖 Solid 3" is drawn as a member."""
    snapshot, result = samples.split_pot()
    impostor = tuple(dataclasses.replace(s, name="🤖 Solid 9") if s.seat == 1 else s for s in snapshot.seats)
    scene = scene_from_snapshot(dataclasses.replace(snapshot, seats=impostor), result)
    by_seat = {s.seat: s for s in scene.seats}
    assert not by_seat[1].computer and by_seat[1].name == "Solid 9"
    assert by_seat[3].computer


@pytest.mark.parametrize("language", ["en", "fr"])
def test_computer_names_start_with_the_mark_the_picture_draws(language: str) -> None:
    """A computer player's catalogue name starts with the mark the picture takes off (it draws a badge)."""
    assert t("computer.name", language, level="Solid", seat=3).startswith(COMPUTER_MARK)


def test_the_font_check_knows_which_characters_have_a_glyph() -> None:
    assert all(sprites.drawable(ch) for ch in "Aé€≈·…♠♥♦♣ÉŒßЖλ\u202f")
    assert not any(sprites.drawable(ch) for ch in "李小龍🐉🎲🤖")
    assert clean_name("李小龍🐉") == ""
    assert clean_name("Zoé 🎲 ✨") == "Zoé"
    assert clean_name("🤖 Solide 3") == "Solide 3"
    assert clean_name("Bob שלום محمد") == "Bob"  # right to left: would be drawn backwards


@pytest.mark.parametrize("name", sorted(samples.golden_scenes()))
def test_every_text_of_the_picture_has_glyphs_in_the_font(name: str) -> None:
    """No empty boxes: every character of every name, hand, odds and state the samples draw is in the font."""
    scene = samples.golden_scenes()[name]
    texts = [s.name for s in scene.seats] + [s.hand or "" for s in scene.seats]
    texts += [odds_label(s.odds, scene.language) for s in scene.seats if s.odds is not None]
    texts += [t(f"picture.{key}", scene.language) for key in ("state.all_in", "state.folded", "to_act")]
    texts += [t("picture.split_won", scene.language, amount=1234)]
    missing = {ch for text in texts for ch in text if not sprites.drawable(ch)}
    assert not missing


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("size", [28, 24, 20])
def test_numbers_put_together_from_their_characters_are_the_whole_text_drawn(language: str, size: int) -> None:
    """Chip counts are assembled from pre-drawn characters (new counts at nearly every picture): pixel for pixel
    the same as the whole text drawn at once, group separators ("," / narrow no-break space) and signs included."""
    background = sprites.to_palette(Image.new("RGB", (1, 1), PLATE)).convert("RGB").getpixel((0, 0))
    for value in (0, 7, 42, 1_000, 12_345, 987_654_321):
        for words in (format_number(value, language), "+" + format_number(value, language)):
            canvases = []
            for piece, left, top in (
                sprites.number_piece(words, size, STACK, PLATE),  # assembled
                sprites.text_piece(words, size, STACK, PLATE, "la"),  # drawn whole
            ):
                canvas = Image.new("RGB", (400, 60), background)
                canvas.paste(piece.convert("RGB"), (40 + left, 10 + top))
                canvases.append(canvas)
            assert ImageChops.difference(*canvases).getbbox() is None, words
            assert sprites.text_length(words, size) == sprites.font(size).getlength(words), words


def test_a_learning_table_shows_every_hand_face_up() -> None:
    """At a learning table the snapshot carries each seat's cards (dealt face up): the picture draws them."""
    snapshot = samples.hand_in_play(6)
    cards = {1: parse_cards("AsKd"), 2: parse_cards("7h7c")}
    seats = tuple(dataclasses.replace(s, cards=cards.get(s.seat, ())) for s in snapshot.seats)
    learning = dataclasses.replace(snapshot, seats=seats)
    by_seat = {s.seat: s for s in scene_from_snapshot(learning).seats}
    assert by_seat[1].shown == parse_cards("AsKd") and by_seat[2].shown == parse_cards("7h7c")
    assert not by_seat[4].shown and by_seat[4].dealt
    assert (
        _differing_share(draw_image(scene_from_snapshot(learning)), draw_image(scene_from_snapshot(snapshot))) > 0.001
    )


def test_warm_up_draws_the_tables_and_every_card_ahead() -> None:
    sprites.clear_caches()
    warm_up()
    assert sprites.table_scanlines.cache_info().currsize == 3
    assert sprites.card.cache_info().currsize == 2 * 53  # 52 faces and the back, on the board and on a plate
    assert sprites.empty_seat.cache_info().currsize == 2 + 6 + 10


def test_a_picture_drawn_from_kept_seats_is_the_picture_drawn_afresh() -> None:
    """A seat's pieces are kept between pictures (`draw.seat_pieces`): drawing every sample again, once the seats
    are kept, in any order and in both languages, gives the very bytes of a first drawing with nothing kept."""
    scenes = samples.golden_scenes()
    fresh = {}
    for name, scene in scenes.items():
        sprites.clear_caches()
        fresh[name] = draw_table(scene)
    sprites.clear_caches()
    for name in [*scenes, *reversed(scenes)]:
        assert draw_table(scenes[name]) == fresh[name], name
    assert draw.seat_cache_info().hits >= sum(len(s.seats) for s in scenes.values())


def test_a_seat_whose_odds_cannot_be_kept_is_drawn_the_same() -> None:
    """Odds of any `OddsLike` kind (here an unhashable one) are drawn as `SeatOdds` with the same figures are."""

    class Odds:
        __hash__ = None  # type: ignore[assignment]

        def __init__(self, win: float, tie: float, exact: bool) -> None:
            self.win, self.tie, self.exact = win, tie, exact

    scene = samples.golden_scenes()["all_in_odds"]
    other = dataclasses.replace(
        scene,
        seats=tuple(
            dataclasses.replace(s, odds=Odds(s.odds.win, s.odds.tie, s.odds.exact))
            if isinstance(s.odds, SeatOdds)
            else s
            for s in scene.seats
        ),
    )
    assert draw_table(other) == draw_table(scene)


@pytest.mark.parametrize("name", ["hand_2_seats", "showdown_10_seats_fr"])
def test_the_rows_encode_as_the_scanlines_image_does(name: str) -> None:
    scene = samples.golden_scenes()[name]
    assert encode_rows(draw_rows(scene)) == encode_scanlines(draw_scanlines(scene)) == draw_table(scene)


def _centre_texts(language: str) -> list[tuple[str, int]]:
    """Titles and pots lines as the centre of the picture writes them, over a range of numbers."""
    texts = []
    for number in [*range(1, 60), 99, 100, 1234, 99999]:
        for street in range(5):
            texts.append(
                (f"{t('street.announce.hand', language, number=number)} · {street_name(street, language)}", 26)
            )
        texts.append((t("result.title", language, number=number), 26))
    for amount in [*range(0, 400, 7), 1000, 12345, 987654, 1234567]:
        texts.append((t("pot.item", language, label=t("pot.single", language), amount=amount), 24))
        main = t("pot.item", language, label=pot_label(0, 3, language, article=False), amount=amount)
        side = t("pot.item", language, label=pot_label(2, 3, language, article=False), amount=amount * 3 + 1)
        texts += [(f"{main} · {side}", size) for size in (24, 22, 20, 18)]
    return texts


@pytest.mark.parametrize("language", ["en", "fr"])
def test_titles_and_pots_put_together_from_their_parts_are_the_whole_text_drawn(language: str) -> None:
    """A picture's title and pots (new at nearly every picture) are put together from pre-drawn parts
    (`runs.assembled`): pixel for pixel FreeType's drawing of the whole text, at the same place."""
    for words, size in _centre_texts(language):
        parts = runs.assembled(words, size, "mm")
        assert parts is not None, words
        mask, left, top = sprites.text_mask(words, size, "mm")
        assert (parts[1], parts[2]) == (left, top), words
        assert parts[0].tobytes() == mask.tobytes() and parts[0].shape == (mask.height, mask.width), words


def test_chip_counts_do_not_push_the_names_out_of_the_kept_fits() -> None:
    """`sprites.fit` keeps no number (new chip counts at nearly every picture): 5,000 of them leave a name's fit
    kept, and are fitted as a text is (the largest size that fits, cut at the smallest)."""
    sprites.fit("Jean-Sébastien 12", 28, 150, 20)
    for n in range(5000):
        assert sprites.fit(f"{n * 7919:,}", 28, 60, 20)[1] in range(20, 29, 2)
    hits = sprites._kept_fit.cache_info().hits
    sprites.fit("Jean-Sébastien 12", 28, 150, 20)
    assert sprites._kept_fit.cache_info().hits == hits + 1
    words, size = sprites.fit("1,234,567", 28, 40, 20)
    assert size == 20 and words.endswith("…") and sprites.text_length(words, 20) <= 40


def test_the_passing_texts_kept_serve_each_pictures_second_drawing_of_them() -> None:
    """`runs.passing_text` keeps `TEXT_CACHE` texts (16, about 7 KB each; 64 held 0.4 MiB in each process,
    issue 14): a busy series' pictures, each title and pots line new, are served half the time, as by a cache of
    any size (the picture's second drawing of each), and the cache stays within its bound."""
    from bot.render.picture import draw_table, runs, sprites
    from bot.render.picture.scene import scene_from_snapshot

    sprites.clear_caches()
    for snapshot, result in samples.table_series(20, 1, seed=3, checks=True):
        draw_table(scene_from_snapshot(snapshot, result))
    info = runs.passing_text.cache_info()
    assert info.maxsize == runs.TEXT_CACHE == 16 and info.currsize <= 16
    assert info.hits / (info.hits + info.misses) > 0.45  # 0.49 here; 0.37 with 4 kept
