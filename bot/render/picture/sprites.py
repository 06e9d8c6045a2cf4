"""The table picture's pre-drawn pieces, in the picture's final form: arrays of indices of the shipped palette
(`bot.render.picture.palette.PALETTE`, numpy `uint8`, one row per pixel row) that the drawing copies into the
picture's rows as plain rectangles, without masks.

Every piece is drawn once in RGB with its anti-aliased edges blended over what lies under it (a flat colour,
or the empty table at the piece's place), turned into palette indices once (`to_palette`), and cached as a
read-only array: the felt per layout, empty seats, plates, card faces and backs, texts, badges, the
button/blind/bet marks, the computer player's mark. A picture is then a copy of the felt and a few dozen
rectangle copies (`bot.render.picture.draw`), with nothing left to blend or convert. Arrays rather than Pillow
images: a slice assignment costs a third of `Image.paste` (whose Python wrapper costs more than its copy), and
the rows are compressed where they lie, without `Image.tobytes`. Caches are bounded (`lru_cache`) where the keys
vary (texts with chip counts, badges with amounts).

The font ships with the package (DejaVu Sans Condensed Bold, `bot/render/fonts`, its licence beside it), laid
out with Pillow's basic layout (never the optional libraqm): the same pixels on every machine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, lru_cache

import numpy as np
from PIL import Image, ImageDraw

from bot.poker.cards import Card, full_deck
from bot.render.i18n import format_number
from bot.render.picture.layout import (
    BADGE_HEIGHT,
    BADGE_OVERLAP,
    BOARD_CARD,
    CHIP,
    CHIP_DISC,
    CHIP_EDGE,
    EMPTY_SEAT,
    FELT,
    FELT_LINE,
    HEIGHT,
    LAYOUTS,
    MARK_DISC,
    PLATE,
    PLATE_EDGE,
    PLATE_RADIUS,
    PLATE_SIZE,
    ROBOT,
    ROBOT_BADGE,
    ROBOT_SIZE,
    SEAT_CARD,
    TEXT,
    TEXT_DIM,
    WIDTH,
    Box,
    Colour,
    badge_box,
    marks_anchor,
    plate_origin,
    robot_box,
    seat_centre,
)
from bot.render.picture.shapes import (
    card_back,
    card_face,
    card_mask,
    disc,
    felt_drawing,
    font,
    robot_mask,
    rounded,
)

#: Palette indices, one row per pixel row (read-only when cached).
Indices = np.ndarray[tuple[int, int], np.dtype[np.uint8]]
#: A piece: its indices and the canvas point its top left corner goes to (or, for a text, its offset from the
#: anchor point).
Piece = tuple[Indices, int, int]
#: A layer to blend into a piece: an RGBA sprite and the canvas position of its top left corner.
Layer = tuple[Image.Image, int, int]
#: A mark beside a seat: ("mark", text, fill, ink) for the button and blinds, ("bet", amount, fill, ink) for a bet.
Mark = tuple[str, str, Colour, Colour]


@cache
def _missing_glyph() -> bytes:
    """What the font draws for a character it lacks (its .notdef box): a private-use code point's bitmap."""
    return bytes(font(20).getmask("\ue000"))


@lru_cache(maxsize=4096)
def drawable(ch: str) -> bool:
    """Whether the font has a glyph for `ch` (else Pillow would draw its empty box): a character whose bitmap is
    the .notdef box is missing. Spaces are drawable."""
    if ch.isspace():
        return True
    return bytes(font(20).getmask(ch)) != _missing_glyph()


def text_length(text: str, size: int) -> float:
    """`font(size).getlength(text)`: for a number (only `NUMBER_CHARACTERS`, whole-pixel advances and no kerning
    between them, as `number_piece` relies on) the sum of its characters' kept advances, a fifth of the cost."""
    if text and NUMBER_CHARACTERS.issuperset(text):
        return sum(_advance(ch, size) for ch in text)
    return font(size).getlength(text)


@lru_cache(maxsize=256)
def _advance(ch: str, size: int) -> float:
    return font(size).getlength(ch)


def fit(text: str, size: int, width: int, min_size: int | None = None) -> tuple[str, int]:
    """`text` and the largest font size from `size` down to `min_size` (steps of 2) at which it fits `width`
    pixels, cut with "…" at `min_size` when even that is too wide. The last 4,096 texts that are not numbers
    are kept; a number (a chip count: new at nearly every picture, and measured from its characters' kept
    advances) is fitted again each time, so that the stream of them does not push the names out."""
    if text and NUMBER_CHARACTERS.issuperset(text):
        return _fit(text, size, width, min_size)
    return _kept_fit(text, size, width, min_size)


def _fit(text: str, size: int, width: int, min_size: int | None) -> tuple[str, int]:
    low = min_size if min_size is not None else size
    for s in range(size, low - 1, -2):
        if text_length(text, s) <= width:
            return text, s
    f = font(low)
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…", low


_kept_fit = lru_cache(maxsize=4096)(_fit)


@lru_cache(maxsize=4096)
def fit_in_two(text: str, size: int, width: int, min_size: int) -> tuple[tuple[str, ...], int]:
    """`text` on one line at the largest size from `size` down to `min_size` (steps of 2) at which it fits `width`
    pixels, else on two lines at `min_size`, broken where both fit: after the last comma that lets them (between the
    hand and its kickers: "Two pair, queens and deuces," / "jack kicker"), else at the last space or hyphen that
    does. Cut with "…" on one line (as `fit`) only when no break fits."""
    for s in range(size, min_size - 1, -2):
        if text_length(text, s) <= width:
            return (text,), s
    commas: list[tuple[str, str]] = []
    others: list[tuple[str, str]] = []
    for i, ch in enumerate(text):
        if ch == " ":
            (commas if text[i - 1 : i] == "," else others).append((text[:i], text[i + 1 :]))
        elif ch == "-":
            others.append((text[: i + 1], text[i + 1 :]))
    for first, second in (*reversed(commas), *reversed(others)):
        if first and second and max(text_length(first, min_size), text_length(second, min_size)) <= width:
            return (first, second), min_size
    return (fit(text, min_size, width)[0],), min_size


# ------------------------------------------------------------------------------------------------ palette


@cache
def _palette() -> Image.Image:
    """The shipped palette (`bot.render.picture.palette.PALETTE`) as a palette image, to quantize against."""
    from bot.render.picture.palette import PALETTE

    image = Image.new("P", (1, 1))
    image.putpalette(PALETTE)
    return image


#: When a list, every RGB image turned into palette indices is appended to it (`compute_palette` reads them).
RECORDER: list[Image.Image] | None = None


def to_palette(image: Image.Image) -> Image.Image:
    """An RGB image as indices of the shipped palette (nearest colour, no dithering: flat colours stay flat)."""
    if RECORDER is not None:
        RECORDER.append(image.copy())
    return image.quantize(palette=_palette(), dither=Image.Dither.NONE)


def indices(image: Image.Image) -> Indices:
    """A palette image's indices as a read-only array (what the caches keep)."""
    array: Indices = np.array(image, dtype=np.uint8)
    array.flags.writeable = False
    return array


def as_image(array: Indices) -> Image.Image:
    """Palette indices as a Pillow palette image with the shipped palette (a copy)."""
    image = Image.frombytes("P", (array.shape[1], array.shape[0]), np.ascontiguousarray(array).tobytes())
    image.putpalette(_palette().getpalette() or [])
    return image


#: Caches of pieces kept outside this module (`bot.render.picture.draw`'s seats), cleared with these.
DEPENDENT_CACHES: list[Callable[[], None]] = []


def clear_caches() -> None:
    """Forget every pre-drawn piece (after a change of palette), and what other modules keep of them."""
    caches = (table_scanlines, felt_drawing, _digit, _number, _text, coverage, empty_seat, plate, card)
    for cached in (*caches, badge, marks, robot, empty_place, disc, _plate_top):
        cached.cache_clear()
    for clear in DEPENDENT_CACHES:
        clear()


# ------------------------------------------------------------------------------------------------ sprites


def text_mask(text: str, size: int, anchor: str) -> tuple[Image.Image, int, int]:
    """`text`'s coverage (mode "L", 255 where fully inked) and the offset of its top left corner from the anchor."""
    f = font(size)
    left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    return mask, left, top


def _tinted(mask: Image.Image, colour: Colour) -> Image.Image:
    sprite = Image.new("RGBA", mask.size, (*colour, 0))
    sprite.putalpha(mask)
    return sprite


def _text_sprite(text: str, size: int, colour: Colour, anchor: str) -> tuple[Image.Image, int, int]:
    """`text` as an RGBA sprite of `colour` and the offset of its top left corner from the anchor point."""
    mask, left, top = text_mask(text, size, anchor)
    return _tinted(mask, colour), left, top


@cache
def coverage(colour: Colour, background: Colour) -> np.ndarray[tuple[int], np.dtype[np.uint8]]:
    """The palette index of `colour` over `background` at each coverage 0..255: a strip of the 256 coverages
    blended and turned into indices as a text piece is (`_flat`), so that `coverage(...)[mask]` is that piece."""
    strip = Image.frombytes("L", (256, 1), bytes(range(256)))
    row: np.ndarray[tuple[int], np.dtype[np.uint8]] = _flat((256, 1), background, [(_tinted(strip, colour), 0, 0)])[0]
    return row


def text_layer(text: str, size: int, colour: Colour, xy: tuple[float, float], anchor: str = "la") -> Layer:
    """`text` as a layer anchored at canvas point `xy` (Pillow's text anchors)."""
    sprite, left, top = _text_sprite(text, size, colour, anchor)
    return sprite, round(xy[0]) + left, round(xy[1]) + top


def compose(layout: int, box: Box, layers: Sequence[Layer], under: Sequence[Layer] = ()) -> Piece:
    """The piece that covers `box` of the empty table of `layout`: the felt there, `under` and `layers` blended
    over it in order (each at its canvas position), turned into palette indices."""
    region = _felt_rgb(layout, box)
    for sprite, x, y in (*under, *layers):
        region.paste(sprite, (x - box[0], y - box[1]), sprite)
    return indices(to_palette(region)), box[0], box[1]


def _flat(size: tuple[int, int], background: Colour, layers: Sequence[tuple[Image.Image, int, int]]) -> Indices:
    region = Image.new("RGB", size, background)
    for sprite, x, y in layers:
        region.paste(sprite, (x, y), sprite)
    return indices(to_palette(region))


# ------------------------------------------------------------------------------------------------ pieces


@cache
def table_scanlines(layout: int) -> Indices:
    """The empty table of `layout` in palette indices, as PNG scanlines: `HEIGHT` rows one column wider than the
    picture, their column 0 (each row's filter type) 0. Every picture starts as a copy of it (`draw.draw_rows`)."""
    rows = np.zeros((HEIGHT, WIDTH + 1), np.uint8)
    rows[:, 1:] = indices(to_palette(felt_drawing(layout)))
    felt_drawing.cache_clear()  # the RGB one is needed only to make this one
    rows.flags.writeable = False
    return rows


def _felt_indices(layout: int, box: Box) -> Indices:
    left, top, right, bottom = box
    region = np.zeros((bottom - top, right - left), np.uint8)
    x0, y0, x1, y1 = max(left, 0), max(top, 0), min(right, WIDTH), min(bottom, HEIGHT)
    if x0 < x1 and y0 < y1:
        region[y0 - top : y1 - top, x0 - left : x1 - left] = table_scanlines(layout)[y0:y1, x0 + 1 : x1 + 1]
    return region


def felt_region(layout: int, box: Box) -> Image.Image:
    """`box` of the empty table of `layout` (canvas coordinates) as a palette image; 0 outside the canvas."""
    return as_image(_felt_indices(layout, box))


@cache
def _palette_rgb() -> np.ndarray[tuple[int, int], np.dtype[np.uint8]]:
    from bot.render.picture.palette import PALETTE

    return np.frombuffer(PALETTE, np.uint8).reshape(256, 3)


def _felt_rgb(layout: int, box: Box) -> Image.Image:
    """`felt_region(layout, box).convert("RGB")`, by a look-up in the palette's colours (a tenth of the cost)."""
    return Image.fromarray(_palette_rgb()[_felt_indices(layout, box)], "RGB")


@cache
def empty_seat(layout: int, seat: int) -> Piece:
    """An empty seat: a ring with the seat's number."""
    cx, cy = seat_centre(layout, seat)
    half = EMPTY_SEAT // 2
    box = (cx - half, cy - half, cx - half + EMPTY_SEAT, cy - half + EMPTY_SEAT)
    ring = (disc(EMPTY_SEAT, None, PLATE_EDGE, 2), box[0], box[1])
    return compose(layout, box, [ring, text_layer(str(seat), 20, TEXT_DIM, (cx, cy), "mm")])


def _plate_layer(layout: int, seat: int, fill: Colour, edge: Colour, width: int) -> Layer:
    x0, y0 = plate_origin(layout, seat)
    return rounded(PLATE_SIZE, PLATE_RADIUS, fill, edge, width), x0, y0


@lru_cache(maxsize=16)
def _plate_top(fill: Colour, edge: Colour, width: int) -> Image.Image:
    """The plate's top `BADGE_OVERLAP` rows (what lies under a badge astride its edge), kept (7 KB each)."""
    return rounded(PLATE_SIZE, PLATE_RADIUS, fill, edge, width).crop((0, 0, PLATE_SIZE[0], BADGE_OVERLAP))


def _under_badge(layout: int, seat: int, plate_look: tuple[Colour, Colour, int]) -> Layer:
    """The part of seat `seat`'s plate a badge astride its top edge covers (`layout.badge_box`, `robot_box`)."""
    x0, y0 = plate_origin(layout, seat)
    return _plate_top(*plate_look), x0, y0


@lru_cache(maxsize=256)
def plate(layout: int, seat: int, fill: Colour, edge: Colour, width: int) -> Piece:
    """Seat `seat`'s plate (`fill`, an edge of `width` pixels), with the table around its rounded corners."""
    x0, y0 = plate_origin(layout, seat)
    return compose(
        layout, (x0, y0, x0 + PLATE_SIZE[0], y0 + PLATE_SIZE[1]), [_plate_layer(layout, seat, fill, edge, width)]
    )


@lru_cache(maxsize=512)
def badge(layout: int, seat: int, plate_look: tuple[Colour, Colour, int], label: str, fill: Colour, room: int) -> Piece:
    """A label on seat `seat`'s plate top edge (won, all-in, to act), at most `room` pixels wide (its font
    shrinks to fit), over that plate (`plate_look`: its fill, edge and edge width) and the table above it."""
    words, size = fit(label, 20, room - 16, 14)
    width = int(font(size).getlength(words)) + 16
    box = badge_box(layout, seat, width)
    pill = (rounded((width, BADGE_HEIGHT), 10, fill, None, 0), box[0], box[1])
    layer = text_layer(words, size, TEXT, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), "mm")
    return compose(layout, box, [pill, layer], under=[_under_badge(layout, seat, plate_look)])


def text(words: str, size: int, colour: Colour, background: Colour, anchor: str = "la") -> Piece:
    """`words` in `colour` on a flat `background`, and the offset of the piece from the anchor point.

    A number (chip counts: new ones at nearly every picture) is put together from its pre-drawn characters
    (`number_piece`), the same pixels as the whole text drawn at once but four times cheaper; other texts are drawn
    whole: their coverage by FreeType, turned into palette indices through the table of the 256 blends of `colour`
    over `background` (`coverage`: the same indices as the blended RGB piece quantized, for a fifth of the cost).
    Each kind has its own bounded cache, so that the stream of new chip counts never pushes the names out (nor do
    a picture's title and pots: `bot.render.picture.runs`); about 6 MB at most in all."""
    if words and anchor == "la" and NUMBER_CHARACTERS.issuperset(words):
        return _number(words, size, colour, background)
    return _text(words, size, colour, background, anchor)


def drawn_text(words: str, size: int, colour: Colour, background: Colour, anchor: str) -> Piece:
    """`words` drawn whole, not kept (`text` keeps it): the piece and its offset from the anchor point."""
    if RECORDER is not None:  # the palette's computation sees the text blended in RGB, as it was drawn before
        sprite, left, top = _text_sprite(words, size, colour, anchor)
        return _flat(sprite.size, background, [(sprite, 0, 0)]), left, top
    mask, left, top = text_mask(words, size, anchor)
    array: Indices = coverage(colour, background).take(np.asarray(mask))
    array.flags.writeable = False
    return array, left, top


_text = lru_cache(maxsize=1024)(drawn_text)


def text_piece(words: str, size: int, colour: Colour, background: Colour, anchor: str) -> tuple[Image.Image, int, int]:
    """`words` drawn whole by FreeType on a flat `background`, as a palette image, and its offset from the anchor
    point (the cached piece `text` pastes for a text that is not a number)."""
    array, left, top = _text(words, size, colour, background, anchor)
    return as_image(array), left, top


#: The characters of the numbers the picture draws (digits, the locales' group separators, signs).
NUMBER_CHARACTERS = frozenset("0123456789+-,.\u00a0\u202f")


@cache
def _number_band(size: int) -> tuple[int, int]:
    """The rows (from the "la" anchor's top) that every number character's ink lies within, at `size`."""
    _, top, _, bottom = font(size).getbbox("".join(sorted(NUMBER_CHARACTERS)), anchor="la")
    return int(top), int(bottom)


@lru_cache(maxsize=1024)
def _digit(ch: str, size: int, colour: Colour, background: Colour) -> Indices:
    """One number character as wide as its advance (the pen's step), on the rows of `_number_band`."""
    top, bottom = _number_band(size)
    image = Image.new("RGB", (max(1, int(font(size).getlength(ch))), bottom - top), background)
    ImageDraw.Draw(image).text((0, -top), ch, font=font(size), fill=colour, anchor="la")
    return indices(to_palette(image))


@lru_cache(maxsize=512)
def _number(words: str, size: int, colour: Colour, background: Colour) -> Piece:
    top, _ = _number_band(size)
    digits = [_digit(ch, size, colour, background) for ch in words]
    array: Indices = np.concatenate(digits, axis=1) if len(digits) > 1 else digits[0]
    array.flags.writeable = False
    return array, 0, top


def number_piece(words: str, size: int, colour: Colour, background: Colour) -> tuple[Image.Image, int, int]:
    """`words` (only `NUMBER_CHARACTERS`) from its characters side by side, as a palette image, and its offset from
    the "la" anchor point (the cached piece `text` pastes for a number). The font's number characters have
    whole-pixel advances, no kerning between them and no ink outside their advance at the picture's sizes, so
    this is the very image of the whole text (tests/render/test_picture.py checks it)."""
    array, left, top = _number(words, size, colour, background)
    return as_image(array), left, top


@lru_cache(maxsize=512)
def card(face: Card | None, size: tuple[int, int], four_colour: bool, background: Colour) -> Indices:
    """A card face (or its back, for None) with rounded corners on a flat `background`."""
    drawn = card_back(size) if face is None else card_face(face, size, four_colour)
    sprite = drawn.convert("RGBA")
    sprite.putalpha(card_mask(size))
    return _flat(size, background, [(sprite, 0, 0)])


@cache
def empty_place(size: tuple[int, int]) -> Indices:
    """A board place with no card yet: its outline on the felt."""
    return _flat(size, FELT, [(rounded(size, 12, None, FELT_LINE, 2), 0, 0)])


@lru_cache(maxsize=1024)
def marks(layout: int, seat: int, items: tuple[Mark, ...]) -> Piece:
    """A seat's marks beside its plate, towards the centre (`layout.marks_anchor`): `items` are ("mark", text,
    fill, ink) discs (button, blinds) and ("bet", amount, fill, ink) chips with the amount (colours unused)."""
    bet_size = 24
    widths = [34.0 if kind == "mark" else 30 + font(bet_size).getlength(value) for kind, value, _, _ in items]
    total = sum(widths) + 8 * (len(items) - 1)
    ax, y, align = marks_anchor(layout, seat)
    x = ax - total / 2 if align == "m" else ax - total if align == "r" else ax
    layers: list[Layer] = []
    for (kind, value, fill, ink), width in zip(items, widths, strict=True):
        if kind == "mark":
            layers.append((disc(MARK_DISC, fill, (0, 0, 0), 2), round(x), round(y - 16)))
            layers.append(text_layer(value, 17 if len(value) > 1 else 20, ink, (x + 16, y), "mm"))
        else:
            layers.append((disc(CHIP_DISC, CHIP, CHIP_EDGE, 5), round(x), round(y - 12)))
            layers.append(text_layer(value, bet_size, TEXT, (x + 30, y), "lm"))
        x += width + 8
    box = (
        max(0, min(lx for _, lx, _ in layers)),
        max(0, min(ly for _, _, ly in layers)),
        min(WIDTH, max(lx + s.width for s, lx, _ in layers)),
        min(HEIGHT, max(ly + s.height for s, _, ly in layers)),
    )
    return compose(layout, box, layers)


@lru_cache(maxsize=64)
def robot(layout: int, seat: int, plate_look: tuple[Colour, Colour, int]) -> Piece:
    """The computer player's mark: a robot's head on a badge astride seat `seat`'s plate top edge, at its left
    end (the other badges are at the right end), over that plate and the table above it; the same in every
    language, and clear of the name."""
    box = robot_box(layout, seat)
    width, height = box[2] - box[0], box[3] - box[1]
    pill = (rounded((width, height), 10, ROBOT_BADGE, None, 0), box[0], box[1])
    head = Image.new("RGBA", (ROBOT_SIZE, ROBOT_SIZE), (*ROBOT, 0))
    head.putalpha(robot_mask(ROBOT_SIZE))
    face = (head, box[0] + (width - ROBOT_SIZE) // 2, box[1] + (height - ROBOT_SIZE) // 2)
    return compose(layout, box, [pill, face], under=[_under_badge(layout, seat, plate_look)])


def warm_up(four_colour: bool = False) -> None:
    """Draw ahead what the first pictures of a process would otherwise draw (the empty table of every layout,
    every card face and back on the board and on a plate, plates and empty seats, the fonts, the locales' number
    formats): about 0.3 s, for a caller that would rather spend it at start-up than in its first pictures."""
    for layout, places in LAYOUTS.items():
        table_scanlines(layout)
        for seat in range(1, len(places) + 1):
            empty_seat(layout, seat)
            plate(layout, seat, PLATE, PLATE_EDGE, 2)
    for face in (None, *full_deck()):
        card(face, BOARD_CARD, four_colour, FELT)
        card(face, SEAT_CARD, four_colour, PLATE)
    empty_place(BOARD_CARD)
    for size in range(14, 29):
        font(size)
    for language in ("en", "fr"):
        format_number(0, language)  # the locales' number data (babel) is loaded at its first use
