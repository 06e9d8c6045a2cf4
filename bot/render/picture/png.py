"""The table picture as PNG bytes: an 8-bit palette PNG, no row filter, compressed with ISA-L's deflate.

The picture is drawn in palette indices already, laid out as the PNG's scanlines (`draw.draw_rows`: a first
column for each row's filter byte), so encoding is one deflate stream over its bytes, read where they lie (no
copy), and the chunks. ISA-L
(`isal`, python-isal: Intel's Intelligent Storage Acceleration Library) writes a standard zlib stream about
six times faster than zlib at level 1 on this picture, and a little smaller. A palette image is a third of the
bytes of a truecolour one and needs no row filter (Pillow's own writer always runs the adaptive filter on
truecolour, which costs more than the compression). The file is the PNG specification's minimal one:
signature, IHDR, PLTE, one IDAT, IEND, each chunk with its CRC-32; any PNG reader (Pillow, Discord, browsers)
reads it.
"""

from __future__ import annotations

import struct
import zlib
from functools import cache

import numpy as np
from isal import isal_zlib
from PIL import Image

from bot.render.picture import sprites
from bot.render.picture.layout import WIDTH
from bot.render.picture.palette import PALETTE

__all__ = ["compute_palette", "encode_png", "encode_rows", "encode_scanlines"]

#: ISA-L's level (0..3): 1 is the fastest that still finds the long runs of this picture's flat colours.
LEVEL = 1


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


@cache
def _head(width: int, height: int) -> bytes:
    """The signature, IHDR and PLTE (the shipped palette) of a `width` × `height` picture."""
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"PLTE", PALETTE)


def encode_rows(rows: np.ndarray, level: int = LEVEL) -> bytes:
    """PNG bytes from the picture's scanlines as `draw.draw_rows` returns them: a C-contiguous uint8 array of
    indices of the shipped palette, one row per pixel row, whose column 0 holds each row's filter type; the same
    bytes as `encode_scanlines` of the same rows as an image. level: ISA-L's compression level, 0..3."""
    height, width = rows.shape
    return _head(width - 1, height) + _chunk(b"IDAT", isal_zlib.compress(rows, level)) + _chunk(b"IEND", b"")


def encode_scanlines(scanlines: Image.Image, level: int = LEVEL) -> bytes:
    """PNG bytes from a palette image laid out as PNG scanlines (`draw.draw_scanlines`): column 0 holds each
    row's filter type, the other columns the picture, so that its bytes are the PNG's image data as they are.
    level: ISA-L's compression level, 0..3."""
    width, height = scanlines.width - 1, scanlines.height
    colours = bytes((scanlines.getpalette() or [])[: 3 * 256])
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"PLTE", colours)
        + _chunk(b"IDAT", isal_zlib.compress(scanlines.tobytes(), level))
        + _chunk(b"IEND", b"")
    )


def encode_png(image: Image.Image, level: int = LEVEL) -> bytes:
    """`image` as PNG bytes: a palette image ("P") as it is, any other one first turned into indices of the
    shipped palette (`sprites.to_palette`). level: ISA-L's compression level, 0..3. (The bot's pictures skip the
    copy into scanlines: `draw_table` draws them as scanlines already.)"""
    if image.mode != "P":
        image = sprites.to_palette(image.convert("RGB"))
    scanlines = Image.new("P", (image.width + 1, image.height), 0)
    scanlines.putpalette(image.getpalette() or [])
    scanlines.paste(image, (1, 0))
    return encode_scanlines(scanlines, level)


def compute_palette() -> bytes:
    """The picture's 256 colours (768 bytes, RGB): Pillow's fast octree quantizer over every piece the sample
    tables draw (the felt, plates, cards of both decks, texts, badges, marks; every layout, a showdown, odds), in
    RGB, before they are turned into indices. Run by `scripts/picture_goldens.py --palette`, which writes the
    result to `bot/render/picture/palette.py`: the bot itself never computes it."""
    from bot.render.picture.draw import draw_image
    from bot.render.picture.samples import golden_scenes  # the samples draw with this package

    sprites.clear_caches()
    recorded: list[Image.Image] = []
    sprites.RECORDER = recorded
    try:
        for scene in golden_scenes().values():
            draw_image(scene)
    finally:
        sprites.RECORDER = None
        sprites.clear_caches()
    reference = Image.new("RGB", (WIDTH, sum(image.height for image in recorded)))
    y = 0
    for image in recorded:  # stacked: no piece is wider than the canvas (the felt is exactly as wide)
        reference.paste(image, (0, y))
        y += image.height
    quantized = reference.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return bytes((quantized.getpalette() or [])[: 3 * 256]).ljust(3 * 256, b"\0")
