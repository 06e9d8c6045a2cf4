"""The picture's title and pots put together from pre-drawn parts: "Hand #35 · Flop", "Pot: 1,672".

These texts are new at nearly every picture (each table's own hand number, pots that grow), and drawing a
text whole by FreeType costs ~100-200 us. Split between each digit and the text around the digits, they are
made of a few dozen parts at most ("Hand #", "3", "5", " · Flop"), each drawn once and kept: the text is its
parts' coverages side by side, each at its pen position (the sum of the advances before it), turned into
palette indices through the table of the colour's blends (`sprites.coverage`). The font's hinted advances of
these parts are whole pixels, with no kerning across a part's edge and no ink outside the text's box, so this
is the very image of the whole text drawn at once (tests/render/test_picture.py checks every title and pot
line of both languages over a range of numbers); a text whose parts do not fit so (a fractional advance, ink
outside the box) is drawn whole. While the palette is computed (`sprites.RECORDER`), texts are drawn whole.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from bot.render.picture import shapes, sprites
from bot.render.picture.layout import Colour
from bot.render.picture.sprites import Indices, Piece

__all__ = ["PART_CACHE", "TEXT_CACHE", "assembled", "passing_text"]

#: How many parts (a digit, or the text between digits, at one size) are kept: about 1 KB each.
PART_CACHE = 512
#: How many passing texts are kept (a picture's title and pots: drawn again only for the same picture). About 7 KB
#: each: 16 have the hits of 1,024 (half the calls, the same picture's second drawing) in the busy series at 100
#: tables played as load.py plays (8 too; 4 not), where 64 kept 0.4 MiB in each process (issue 14).
TEXT_CACHE = 16

_PARTS = re.compile(r"[0-9]|[^0-9]+")


@lru_cache(maxsize=PART_CACHE)
def _part(part: str, size: int) -> tuple[Indices, int, int, float, bool]:
    """A part's coverage at the "la" anchor, the offset of its box from the pen, its advance (pixels), and
    whether it has any ink."""
    mask, left, top = sprites.text_mask(part, size, "la")
    array = np.asarray(mask)
    return array, left, top, shapes.font(size).getlength(part), bool(array.any())


def assembled(words: str, size: int, anchor: str) -> tuple[Indices, int, int] | None:
    """`words`' coverage put together from its parts and its box's offset from the anchor point, as
    `sprites.text_mask` draws it whole; None when the parts do not fit (see the module's docstring)."""
    left, top, right, bottom = (int(v) for v in shapes.font(size).getbbox(words, anchor=anchor))
    placed = []
    pen = 0
    parts = _PARTS.findall(words)
    for i, part in enumerate(parts):
        mask, part_x, part_y, advance, inked = _part(part, size)
        if advance != int(advance) and i < len(parts) - 1:
            return None
        if inked:  # a part of spaces has no ink to place (nor a box that counts)
            placed.append((mask, pen + part_x, part_y))
        pen += int(advance)
    if not placed:
        return None
    # The box of the parts' ink, from the pen's origin: the whole text's box at the "la" anchor.
    origin_x, origin_y = min(x for _, x, _ in placed), min(y for _, _, y in placed)
    out = np.zeros((max(1, bottom - top), max(1, right - left)), np.uint8)
    for mask, x, y in placed:
        height, width = mask.shape
        x, y = x - origin_x, y - origin_y
        if x + width > out.shape[1] or y + height > out.shape[0]:
            return None
        region = out[y : y + height, x : x + width]
        np.maximum(region, mask, out=region)
    return out, left, top


@lru_cache(maxsize=TEXT_CACHE)
def passing_text(words: str, size: int, colour: Colour, background: Colour, anchor: str) -> Piece:
    """`words` in `colour` on a flat `background` (a title or pots line), and the piece's offset from the anchor
    point: put together from its parts when it has digits and they fit, else drawn whole; the last
    `TEXT_CACHE` are kept, apart from the names and other lasting texts (`sprites.text`)."""
    if sprites.RECORDER is None and any(ch.isdigit() for ch in words):
        found = assembled(words, size, anchor)
        if found is not None:
            mask, left, top = found
            array: Indices = sprites.coverage(colour, background).take(mask)
            array.flags.writeable = False
            return array, left, top
    return sprites.drawn_text(words, size, colour, background, anchor)


sprites.DEPENDENT_CACHES.extend((_part.cache_clear, passing_text.cache_clear))
