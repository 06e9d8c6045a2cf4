"""The table picture's shapes drawn in RGB before they become pieces (`bot.render.picture.sprites`): the font, the
empty table, rounded rectangles and discs, card faces and backs, the computer player's robot. Pure drawing:
nothing here is turned into palette indices.
"""

from __future__ import annotations

from functools import cache, lru_cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

from bot.poker.cards import Card
from bot.render.cards import rank_text
from bot.render.picture.layout import (
    BACK,
    BACK_LINE,
    BACKGROUND,
    CARD_EDGE,
    CARD_FACE,
    FELT,
    FELT_LINE,
    FELT_LINE_INSET,
    FOUR_COLOUR,
    HEIGHT,
    RAIL,
    RAIL_EDGE,
    RAIL_WIDTH,
    SUIT_GLYPHS,
    TABLE_BOX,
    TABLE_RADIUS,
    TWO_COLOUR,
    WIDTH,
    Colour,
)

__all__ = ["FONT_FILE", "card_back", "card_face", "card_mask", "disc", "felt_drawing", "font", "robot_mask", "rounded"]

FONT_FILE = "DejaVuSansCondensed-Bold.ttf"


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """The package's font at `size` pixels, laid out the same everywhere (basic layout)."""
    path = resources.files("bot.render").joinpath("fonts", FONT_FILE)
    with resources.as_file(path) as file:
        return ImageFont.truetype(str(file), size, layout_engine=ImageFont.Layout.BASIC)


def rounded(size: tuple[int, int], radius: int, fill: Colour | None, outline: Colour | None, width: int) -> Image.Image:
    """A rounded rectangle as a transparent RGBA sprite."""
    image = Image.new("RGBA", size, (0, 0, 0, 0))
    ImageDraw.Draw(image).rounded_rectangle(
        (0, 0, size[0] - 1, size[1] - 1), radius=radius, fill=fill, outline=outline, width=width
    )
    return image


@lru_cache(maxsize=32)
def disc(diameter: int, fill: Colour | None, outline: Colour, width: int) -> Image.Image:
    """A disc (button, blinds, chip, empty seat) as a transparent RGBA sprite (kept: a few, of 4 KB at most; the
    pieces are pasted from it, never into it)."""
    image = Image.new("RGBA", (diameter, diameter), (0, 0, 0, 0))
    ImageDraw.Draw(image).ellipse((0, 0, diameter - 1, diameter - 1), fill=fill, outline=outline, width=width)
    return image


@cache
def felt_drawing(layout: int) -> Image.Image:
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
def card_mask(size: tuple[int, int]) -> Image.Image:
    w, h = size
    mask = Image.new("L", (w * 2, h * 2), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w * 2 - 1, h * 2 - 1), radius=max(6, w // 5) * 2, fill=255)
    return mask.resize(size, Image.Resampling.LANCZOS)


def card_face(card: Card, size: tuple[int, int], four_colour: bool) -> Image.Image:
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


def card_back(size: tuple[int, int]) -> Image.Image:
    w, h = size
    image = Image.new("RGB", size, BACK)
    draw = ImageDraw.Draw(image)
    for x in range(-h, w, 8):
        draw.line((x, 0, x + h, h), fill=BACK_LINE, width=2)
    draw.rounded_rectangle((3, 3, w - 4, h - 4), radius=max(4, w // 6), outline=CARD_FACE, width=2)
    return image


def robot_mask(size: int) -> Image.Image:
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
