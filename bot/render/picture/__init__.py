"""The table as a picture: a PNG drawn with Pillow from the public view of a table only.

Two steps, so that no hole card that is not public can reach the drawing:

1. `scene_from_snapshot(snapshot, result=None, odds=None)` (`scene.py`) reads the public snapshot of a table and,
   at the end of a hand, its `HandResult`, and builds a `TableScene`: the only cards it takes for a seat are
   those shown; a `TableScene` has no field for a card that is not public.
2. `draw_table(scene)` draws the scene (`draw.py`) and encodes it as PNG bytes (`png.py`).

The modules: `layout.py` (canvas, seat places, sizes, colours), `shapes.py` (the font and the shapes drawn in
RGB), `sprites.py` (the pre-drawn pieces), `runs.py` (titles and pots from pre-drawn parts), `draw.py` (a picture
from its pieces), `png.py` (the encoder), `palette.py` (the shipped 256 colours), `samples.py` (sample tables:
goldens, benchmark).

How it stays cheap (issue 15: draw + encode p99 < 10 ms; issue 14: the picture thread's CPU per action;
benchmarks/README.md has the figures). The picture is drawn directly in the form it is written in: 8-bit palette
indices in a numpy array laid out as the PNG's scanlines (a first column for each row's filter byte). Every piece
that a picture is made of (the felt per layout, empty seats, plates, cards, texts, badges, marks) is drawn once in
RGB with its anti-aliasing blended over what lies under it, turned into palette indices once and cached as a
read-only array; a text is FreeType's coverage looked up in the indices of its colour's 256 blends over its
background; a chip count not drawn yet is put together from its pre-drawn characters, a title or pots line ("Hand
#35 · Flop") from its pre-drawn parts, the very pixels of the whole text. A picture is then one copy of the empty
table and a few dozen slice copies (the pieces of a seat that looks as it did at an earlier picture are taken as
they were placed then): no alpha blending, no RGB to palette conversion, no Pillow call once the pieces are drawn.
The rows are compressed where they lie with ISA-L (`isal`), about six times faster than zlib (level 1) at the same
size, now most of a picture's cost (~0.45 ms). The caches, all bounded: pieces about 6 MB at most (texts 1,024,
numbers 512, badges 512, marks 1,024, cards 512, plates 256...), seats' placed pieces 1,024 entries of references
(~1 MB), title/pots parts 512 (~0.5 MB) and texts 64, names 2,048 (~0.2 MB); 4,800 pictures of 100 busy tables grow
a process by 5 MiB (main before issue 14's change: 10 MiB).

The drawing is the same on every machine: the font ships with the package (DejaVu Sans Condensed Bold,
`bot/render/fonts`, its licence beside it), laid out with Pillow's basic layout (never the optional libraqm).
Characters the font lacks are left out of names rather than drawn as empty boxes; a computer player's name
mark (🤖) becomes a drawn robot before its name. Texts follow the table's language (EN/FR catalogues). A shown hand's
name is never cut: one line from 22 down to 14 px, else two lines at 14 px, broken after the comma before the
kickers where that fits (`draw.hand_name_lines`; tests/render/test_picture_hand_names.py measures every name of
both catalogues). Layouts:
up to 2, up to 6 and up to 10 seats (the table's `max_seats`); the canvas is `WIDTH` × `HEIGHT` pixels,
readable on a phone where Discord shows it about 400 px wide.
"""

from __future__ import annotations

from bot.render.picture.draw import draw_image, draw_rows, draw_scanlines
from bot.render.picture.layout import HEIGHT, WIDTH, layout_for
from bot.render.picture.png import compute_palette, encode_png, encode_rows, encode_scanlines
from bot.render.picture.scene import (
    COMPUTER_MARK,
    OddsLike,
    SceneSeat,
    SeatOdds,
    TableScene,
    clean_name,
    scene_from_snapshot,
)
from bot.render.picture.sprites import warm_up

__all__ = [
    "COMPUTER_MARK",
    "HEIGHT",
    "WIDTH",
    "OddsLike",
    "SceneSeat",
    "SeatOdds",
    "TableScene",
    "clean_name",
    "compute_palette",
    "draw_image",
    "draw_rows",
    "draw_scanlines",
    "draw_table",
    "encode_png",
    "encode_rows",
    "encode_scanlines",
    "layout_for",
    "scene_from_snapshot",
    "warm_up",
]


def draw_table(scene: TableScene) -> bytes:
    """The picture of `scene` as PNG bytes (`WIDTH` × `HEIGHT`, 8-bit palette), drawn as the PNG's scanlines
    and compressed as they are (`draw_rows`, `encode_rows`)."""
    return encode_rows(draw_rows(scene))
