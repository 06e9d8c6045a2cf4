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
from importlib import resources

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from bot.poker.cards import Card, full_deck
from bot.render.cards import rank_text
from bot.render.i18n import format_number
from bot.render.picture.layout import (
    BACK,
    BACK_LINE,
    BACKGROUND,
    BADGE_HEIGHT,
    BOARD_CARD,
    CARD_EDGE,
    CARD_FACE,
    CHIP,
    CHIP_DISC,
    CHIP_EDGE,
    EMPTY_SEAT,
    FELT,
    FELT_LINE,
    FELT_LINE_INSET,
    FOUR_COLOUR,
    HEIGHT,
    LAYOUTS,
    MARK_DISC,
    PLATE,
    PLATE_EDGE,
    PLATE_RADIUS,
    PLATE_SIZE,
    RAIL,
    RAIL_EDGE,
    RAIL_WIDTH,
    ROBOT,
    ROBOT_BADGE,
    ROBOT_SIZE,
    SEAT_CARD,
    SUIT_GLYPHS,
    TABLE_BOX,
    TABLE_RADIUS,
    TEXT,
    TEXT_DIM,
    TWO_COLOUR,
    WIDTH,
    Box,
    Colour,
    badge_box,
    marks_anchor,
    plate_origin,
    robot_box,
    seat_centre,
)

FONT_FILE = "DejaVuSansCondensed-Bold.ttf"

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
def font(size: int) -> ImageFont.FreeTypeFont:
    """The package's font at `size` pixels, laid out the same everywhere (basic layout)."""
    path = resources.files("bot.render").joinpath("fonts", FONT_FILE)
    with resources.as_file(path) as file:
        return ImageFont.truetype(str(file), size, layout_engine=ImageFont.Layout.BASIC)


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


@lru_cache(maxsize=4096)
def fit(text: str, size: int, width: int, min_size: int | None = None) -> tuple[str, int]:
    """`text` and the largest font size from `size` down to `min_size` (steps of 2) at which it fits `width`
    pixels, cut with "…" at `min_size` when even that is too wide."""
    low = min_size if min_size is not None else size
    for s in range(size, low - 1, -2):
        if font(s).getlength(text) <= width:
            return text, s
    f = font(low)
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…", low


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
    caches = (table_scanlines, _rgb_felt, _digit, _number, _text, _passing_text, _coverage, empty_seat, plate, card)
    for cached in (*caches, badge, marks, robot, empty_place):
        cached.cache_clear()
    for clear in DEPENDENT_CACHES:
        clear()


# ------------------------------------------------------------------------------------------------ sprites


def _text_mask(text: str, size: int, anchor: str) -> tuple[Image.Image, int, int]:
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
    mask, left, top = _text_mask(text, size, anchor)
    return _tinted(mask, colour), left, top


@cache
def _coverage(colour: Colour, background: Colour) -> np.ndarray[tuple[int], np.dtype[np.uint8]]:
    """The palette index of `colour` over `background` at each coverage 0..255: a strip of the 256 coverages
    blended and turned into indices as a text piece is (`_flat`), so that `_coverage(...)[mask]` is that piece."""
    strip = Image.frombytes("L", (256, 1), bytes(range(256)))
    row: np.ndarray[tuple[int], np.dtype[np.uint8]] = _flat((256, 1), background, [(_tinted(strip, colour), 0, 0)])[0]
    return row


def rounded(size: tuple[int, int], radius: int, fill: Colour | None, outline: Colour | None, width: int) -> Image.Image:
    """A rounded rectangle as a transparent RGBA sprite."""
    image = Image.new("RGBA", size, (0, 0, 0, 0))
    ImageDraw.Draw(image).rounded_rectangle(
        (0, 0, size[0] - 1, size[1] - 1), radius=radius, fill=fill, outline=outline, width=width
    )
    return image


def disc(diameter: int, fill: Colour | None, outline: Colour, width: int) -> Image.Image:
    """A disc (button, blinds, chip, empty seat) as a transparent RGBA sprite."""
    image = Image.new("RGBA", (diameter, diameter), (0, 0, 0, 0))
    ImageDraw.Draw(image).ellipse((0, 0, diameter - 1, diameter - 1), fill=fill, outline=outline, width=width)
    return image


def text_layer(text: str, size: int, colour: Colour, xy: tuple[float, float], anchor: str = "la") -> Layer:
    """`text` as a layer anchored at canvas point `xy` (Pillow's text anchors)."""
    sprite, left, top = _text_sprite(text, size, colour, anchor)
    return sprite, round(xy[0]) + left, round(xy[1]) + top


def compose(layout: int, box: Box, layers: Sequence[Layer], under: Sequence[Layer] = ()) -> Piece:
    """The piece that covers `box` of the empty table of `layout`: the felt there, `under` and `layers` blended
    over it in order (each at its canvas position), turned into palette indices."""
    region = felt_region(layout, box).convert("RGB")
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
def _rgb_felt(layout: int) -> Image.Image:
    """The empty table (background, rail, felt) in RGB, drawn at twice the size and scaled down so that the
    curves are smooth. The same for every layout today; keyed by layout so that a layout may differ."""
    scale = 2
    image = Image.new("RGB", (WIDTH * scale, HEIGHT * scale), BACKGROUND)
    draw = ImageDraw.Draw(image)
    sx = [v * scale for v in (TABLE_BOX[0] * WIDTH, TABLE_BOX[1] * HEIGHT, TABLE_BOX[2] * WIDTH, TABLE_BOX[3] * HEIGHT)]
    draw.rounded_rectangle(sx, radius=TABLE_RADIUS * scale, fill=RAIL, outline=RAIL_EDGE, width=6 * scale)
    inset = RAIL_WIDTH * scale
    inner = (sx[0] + inset, sx[1] + inset, sx[2] - inset, sx[3] - inset)
    draw.rounded_rectangle(inner, radius=TABLE_RADIUS * scale - inset, fill=FELT)
    line = FELT_LINE_INSET * scale
    ring = (inner[0] + line, inner[1] + line, inner[2] - line, inner[3] - line)
    draw.rounded_rectangle(ring, radius=TABLE_RADIUS * scale - inset - line, outline=FELT_LINE, width=2 * scale)
    return image.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)


@cache
def table_scanlines(layout: int) -> Indices:
    """The empty table of `layout` in palette indices, as PNG scanlines: `HEIGHT` rows one column wider than the
    picture, their column 0 (each row's filter type) 0. Every picture starts as a copy of it (`draw.draw_rows`)."""
    rows = np.zeros((HEIGHT, WIDTH + 1), np.uint8)
    rows[:, 1:] = indices(to_palette(_rgb_felt(layout)))
    _rgb_felt.cache_clear()  # the RGB one is needed only to make this one
    rows.flags.writeable = False
    return rows


def felt_region(layout: int, box: Box) -> Image.Image:
    """`box` of the empty table of `layout` (canvas coordinates) as a palette image; 0 outside the canvas."""
    left, top, right, bottom = box
    region = np.zeros((bottom - top, right - left), np.uint8)
    x0, y0, x1, y1 = max(left, 0), max(top, 0), min(right, WIDTH), min(bottom, HEIGHT)
    if x0 < x1 and y0 < y1:
        region[y0 - top : y1 - top, x0 - left : x1 - left] = table_scanlines(layout)[y0:y1, x0 + 1 : x1 + 1]
    return as_image(region)


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
    return compose(layout, box, [pill, layer], under=[_plate_layer(layout, seat, *plate_look)])


def text(words: str, size: int, colour: Colour, background: Colour, anchor: str = "la", passing: bool = False) -> Piece:
    """`words` in `colour` on a flat `background`, and the offset of the piece from the anchor point.

    A number (chip counts: new ones at nearly every picture) is put together from its pre-drawn characters
    (`number_piece`), the same pixels as the whole text drawn at once but four times cheaper; other texts are drawn
    whole: their coverage by FreeType, turned into palette indices through the table of the 256 blends of `colour`
    over `background` (`_coverage`: the same indices as the blended RGB piece quantized, for a fifth of the cost).
    Each kind has its own bounded cache, so that the stream of new chip counts never pushes the names out, nor do
    `passing` texts (a picture's title and pots, new at every street: a small cache of their own); about 6 MB at
    most in all."""
    if words and anchor == "la" and NUMBER_CHARACTERS.issuperset(words):
        return _number(words, size, colour, background)
    if passing:
        return _passing_text(words, size, colour, background, anchor)
    return _text(words, size, colour, background, anchor)


def _drawn_text(words: str, size: int, colour: Colour, background: Colour, anchor: str) -> Piece:
    if RECORDER is not None:  # the palette's computation sees the text blended in RGB, as it was drawn before
        sprite, left, top = _text_sprite(words, size, colour, anchor)
        return _flat(sprite.size, background, [(sprite, 0, 0)]), left, top
    mask, left, top = _text_mask(words, size, anchor)
    array: Indices = _coverage(colour, background)[np.asarray(mask)]
    array.flags.writeable = False
    return array, left, top


_text = lru_cache(maxsize=1024)(_drawn_text)
_passing_text = lru_cache(maxsize=64)(_drawn_text)


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
    array: Indices = np.hstack(digits) if len(digits) > 1 else digits[0]
    array.flags.writeable = False
    return array, 0, top


def number_piece(words: str, size: int, colour: Colour, background: Colour) -> tuple[Image.Image, int, int]:
    """`words` (only `NUMBER_CHARACTERS`) from its characters side by side, as a palette image, and its offset from
    the "la" anchor point (the cached piece `text` pastes for a number). The font's number characters have
    whole-pixel advances, no kerning between them and no ink outside their advance at the picture's sizes, so
    this is the very image of the whole text (tests/render/test_picture.py checks it)."""
    array, left, top = _number(words, size, colour, background)
    return as_image(array), left, top


@cache
def _card_mask(size: tuple[int, int]) -> Image.Image:
    w, h = size
    mask = Image.new("L", (w * 2, h * 2), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w * 2 - 1, h * 2 - 1), radius=max(6, w // 5) * 2, fill=255)
    return mask.resize(size, Image.Resampling.LANCZOS)


def _card_face(card: Card, size: tuple[int, int], four_colour: bool) -> Image.Image:
    """A card face: large rank at the top left, large suit below it, a small suit at the bottom right."""
    w, h = size
    image = Image.new("RGB", size, CARD_FACE)
    draw = ImageDraw.Draw(image)
    colour = (FOUR_COLOUR if four_colour else TWO_COLOUR)[card.suit]
    rank = rank_text(card.rank)
    rank_font = font(int(h * 0.46))
    if rank_font.getlength(rank) > w * 0.9:  # "10" on a narrow card
        rank_font = font(int(h * 0.40))
    draw.text((w * 0.08, h * 0.02), rank, font=rank_font, fill=colour)
    suit_font = font(int(h * 0.5))
    draw.text((w * 0.96, h * 0.99), SUIT_GLYPHS[card.suit], font=suit_font, fill=colour, anchor="rd")
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=max(6, w // 5), outline=CARD_EDGE, width=1)
    return image


def _card_back(size: tuple[int, int]) -> Image.Image:
    w, h = size
    image = Image.new("RGB", size, BACK)
    draw = ImageDraw.Draw(image)
    for x in range(-h, w, 8):
        draw.line((x, 0, x + h, h), fill=BACK_LINE, width=2)
    draw.rounded_rectangle((3, 3, w - 4, h - 4), radius=max(4, w // 6), outline=CARD_FACE, width=2)
    return image


@lru_cache(maxsize=512)
def card(face: Card | None, size: tuple[int, int], four_colour: bool, background: Colour) -> Indices:
    """A card face (or its back, for None) with rounded corners on a flat `background`."""
    drawn = _card_back(size) if face is None else _card_face(face, size, four_colour)
    sprite = drawn.convert("RGBA")
    sprite.putalpha(_card_mask(size))
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


def _robot_mask(size: int) -> Image.Image:
    """A small robot's head (antenna, ears, eyes, mouth) as a mask, drawn at four times the size and scaled down."""
    s = size * 4
    mask = Image.new("L", (s, s), 0)
    draw = ImageDraw.Draw(mask)
    u = s / 26  # drawn on a 26-unit grid
    draw.line((13 * u, 2 * u, 13 * u, 6 * u), fill=255, width=round(2 * u))  # antenna
    draw.ellipse((10.5 * u, 0, 15.5 * u, 5 * u), fill=255)
    draw.rounded_rectangle((2 * u, 6 * u, 24 * u, 25 * u), radius=round(5 * u), fill=255)  # head
    draw.rounded_rectangle((0, 12 * u, 3 * u, 19 * u), radius=round(u), fill=255)  # ears
    draw.rounded_rectangle((23 * u, 12 * u, 26 * u - 1, 19 * u), radius=round(u), fill=255)
    draw.ellipse((5.5 * u, 10 * u, 11.5 * u, 16 * u), fill=0)  # eyes
    draw.ellipse((14.5 * u, 10 * u, 20.5 * u, 16 * u), fill=0)
    draw.rounded_rectangle((8 * u, 19 * u, 18 * u, 21.5 * u), radius=round(u), fill=0)  # mouth
    return mask.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=64)
def robot(layout: int, seat: int, plate_look: tuple[Colour, Colour, int]) -> Piece:
    """The computer player's mark: a robot's head on a badge astride seat `seat`'s plate top edge, at its left
    end (the other badges are at the right end), over that plate and the table above it; the same in every
    language, and clear of the name."""
    box = robot_box(layout, seat)
    width, height = box[2] - box[0], box[3] - box[1]
    pill = (rounded((width, height), 10, ROBOT_BADGE, None, 0), box[0], box[1])
    head = Image.new("RGBA", (ROBOT_SIZE, ROBOT_SIZE), (*ROBOT, 0))
    head.putalpha(_robot_mask(ROBOT_SIZE))
    face = (head, box[0] + (width - ROBOT_SIZE) // 2, box[1] + (height - ROBOT_SIZE) // 2)
    return compose(layout, box, [pill, face], under=[_plate_layer(layout, seat, *plate_look)])


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
