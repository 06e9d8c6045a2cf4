"""The table picture drawn: a copy of the pre-drawn empty table and a few dozen pre-drawn pieces copied in as
plain rectangles (`bot.render.picture.sprites`), as indices of the palette the PNG is written with
(`bot.render.picture.png`), into rows laid out as the PNG's scanlines.

Each piece already carries what lies under it (the felt, a plate's colour), so the order of the pastes is the
order of the layers: empty seats, the centre (title, blinds, board, pots), then each seat (plate, cards, name,
stack, third line, badge) and its marks (button, blind, bet).

A seat's pieces and their places depend only on the seat as drawn (`SceneSeat`), the layout, the language and
the deck: they are worked out once and kept (`seat_pieces`, the last `SEAT_CACHE` seats), since most seats look
the same from one street's picture to the next. An entry holds references to pieces, most of them shared with
sprites' caches, some its own (a stack's digits once `sprites` dropped them): about 1.6 MB in all when full at
1,024 entries (measured: what clearing it frees after busy tables).
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from PIL import Image

from bot.poker.cards import Card
from bot.render.events import pot_label, street_name
from bot.render.i18n import format_number, format_percent, t
from bot.render.picture import runs, shapes, sprites
from bot.render.picture.layout import (
    ACTOR_BADGE,
    ACTOR_EDGE,
    ALL_IN,
    ALL_IN_BADGE,
    BLIND_FILL,
    BLINDS_TEXT,
    BOARD_CARD,
    BOARD_GAP,
    BUTTON_FILL,
    BUTTON_INK,
    CENTRE_WIDTH,
    DIM_STATES,
    FELT,
    HEIGHT,
    ODDS,
    PLATE,
    PLATE_DIM,
    PLATE_EDGE,
    PLATE_SIZE,
    ROBOT_BADGE_WIDTH,
    SEAT_CARD,
    SPLIT_BADGE,
    STACK,
    TEXT,
    TEXT_DIM,
    WIDTH,
    WIN_BADGE,
    WINNER_EDGE,
    Colour,
    layout_for,
    plate_origin,
)
from bot.render.picture.scene import OddsLike, SceneSeat, SeatOdds, TableScene
from bot.render.picture.sprites import Indices

__all__ = [
    "SEAT_CACHE",
    "badge_label",
    "draw_image",
    "draw_rows",
    "draw_scanlines",
    "hand_name_lines",
    "odds_label",
    "seat_cache_info",
    "seat_pieces",
]

#: A piece placed on the scanlines: its indices (cut to the rows' bounds), the column and the row of its top left
#: corner in the rows (one column to the right of the picture's: column 0 holds each PNG row's filter type).
Placed = tuple[Indices, int, int]
#: How many seats' pieces `seat_pieces` keeps: a seat comes back unchanged in its table's next picture, after
#: the other tables' pictures (100 busy tables of six: about 600 seats later; `samples.table_series`: 25 % hits at
#: 640 as at 1,024, none at 512). Each process of a cluster fills it: 640 rather than 1,024 holds 0.6 MB less at
#: 100 tables, 1 MB less at 50 (benchmarks/README.md, eighth session).
SEAT_CACHE = 640


def _place(into: list[Placed], piece: Indices, x: int, y: int) -> None:
    """Add `piece` with its top left corner at canvas point (x, y) of the picture, cut to the rows' bounds."""
    x += 1
    height, width = piece.shape
    if x < 0 or y < 0 or x + width > WIDTH + 1 or y + height > HEIGHT:
        piece = piece[max(0, -y) : HEIGHT - y, max(0, -x) : WIDTH + 1 - x]
        x, y = max(0, x), max(0, y)
        if not piece.size:
            return
    into.append((piece, x, y))


def _place_text(
    into: list[Placed],
    xy: tuple[float, float],
    words: str,
    size: int,
    colour: Colour,
    background: Colour,
    anchor: str = "la",
    passing: bool = False,
) -> None:
    """Place `words` at `xy` (Pillow's anchor); `passing`: a title or pots line (`runs.passing_text`)."""
    if passing:
        piece, left, top = runs.passing_text(words, size, colour, background, anchor)
    else:
        piece, left, top = sprites.text(words, size, colour, background, anchor)
    _place(into, piece, round(xy[0]) + left, round(xy[1]) + top)


def _paste(rows: np.ndarray, placed: Sequence[Placed]) -> None:
    for piece, x, y in placed:
        height, width = piece.shape
        rows[y : y + height, x : x + width] = piece


def odds_label(odds: OddsLike, language: str) -> str:
    """A seat's chances at an all-in: "Win 42%", or "Win 40% · tie 3%" when a tie is possible; "≈ " before
    the figures of an estimate."""
    approx = "" if getattr(odds, "exact", True) else "≈ "
    win = approx + format_percent(odds.win, language, 0)
    if odds.tie >= 0.005:
        return t("picture.odds_tie", language, win=win, tie=format_percent(odds.tie, language, 0))
    return t("picture.odds_win", language, win=win)


def badge_label(seat: SceneSeat, language: str) -> tuple[str, Colour] | None:
    """The badge on a seat's plate top edge and its colour: what it won ("Wins +240", or "Split pot +105" for
    a share of a split pot), else all-in, else to act; None for none."""
    if seat.won:
        key, colour = ("picture.split_won", SPLIT_BADGE) if seat.split else ("picture.won", WIN_BADGE)
        return t(key, language, amount=seat.won), colour
    if seat.state == ALL_IN:
        return t("picture.state.all_in", language), ALL_IN_BADGE
    if seat.is_actor:
        return t("picture.to_act", language), ACTOR_BADGE
    return None


#: A shown hand's name (the plate's third line): from `HAND_SIZE` down to `HAND_MIN_SIZE` on one line, else on two
#: lines at `HAND_MIN_SIZE` (`sprites.fit_in_two`), `HAND_INSET` from the plate's sides; the lower line's descender
#: line `HAND_LINES_BOTTOM` above the plate's bottom (clear of a winner's 4-pixel edge), and the cards moved up from
#: `CARD_TOP` to `CARD_TOP_TWO_LINES` (clear of the upper line's ascenders; below a winner's edge).
HAND_SIZE, HAND_MIN_SIZE, HAND_INSET, HAND_LINES_BOTTOM = 22, 14, 8, 5
CARD_TOP, CARD_TOP_TWO_LINES = 8, 6


def hand_name_lines(hand: str) -> tuple[tuple[str, ...], int]:
    """The lines a shown hand's name is drawn on (one, or two when it is too long for one) and their font size:
    every hand name of both catalogues fits whole (tests/render/test_picture.py measures them all)."""
    return sprites.fit_in_two(hand, HAND_SIZE, PLATE_SIZE[0] - 2 * HAND_INSET, HAND_MIN_SIZE)


def seat_pieces(layout: int, language: str, four_colour: bool, seat: SceneSeat) -> tuple[Placed, ...]:
    """The pieces that draw `seat` in `layout` and their places (plate, cards, name, stack, third line, badge,
    robot, marks), kept for the last `SEAT_CACHE` seats when the seat's odds are `SeatOdds` (hashable) or None."""
    if seat.odds is None or type(seat.odds) is SeatOdds:
        return _kept_seat_pieces(layout, language, four_colour, _seat_fields(seat))
    return _seat_pieces(layout, language, four_colour, seat)


#: A seat's fields as a plain tuple: a key hashed and compared in C (a frozen dataclass's own hash and equality
#: run a generated Python method over its fields, several times slower).
_seat_fields = operator.attrgetter(*(f.name for f in dataclasses.fields(SceneSeat)))


@lru_cache(maxsize=SEAT_CACHE)
def _kept_seat_pieces(layout: int, language: str, four_colour: bool, fields: tuple[object, ...]) -> tuple[Placed, ...]:
    return _seat_pieces(layout, language, four_colour, SceneSeat(*fields))  # type: ignore[arg-type]


def _seat_pieces(layout: int, language: str, four_colour: bool, seat: SceneSeat) -> tuple[Placed, ...]:
    placed: list[Placed] = []
    pw, ph = PLATE_SIZE
    x0, y0 = plate_origin(layout, seat.seat)
    dim = seat.state in DIM_STATES
    fill = PLATE_DIM if dim else PLATE
    edge = WINNER_EDGE if seat.won else ACTOR_EDGE if seat.is_actor else PLATE_EDGE
    look = (fill, edge, 4 if (seat.won or seat.is_actor) else 2)
    piece, px, py = sprites.plate(layout, seat.seat, *look)
    _place(placed, piece, px, py)
    # Third line: the odds at an all-in, the shown hand's name (on two lines when it is too long for one), or the
    # state.
    third: str | None = None
    hand_lines: tuple[str, ...] = ()
    if seat.odds is not None:
        third = odds_label(seat.odds, language)
    elif seat.hand:
        hand_lines, hand_size = hand_name_lines(seat.hand)
    elif dim:
        third = t(f"picture.state.{seat.state}", language)
    # Cards on the left: the shown ones face up, a seat still in the hand face down; a little higher above a hand
    # named on two lines, to leave them room.
    cw = SEAT_CARD[0]
    text_x = x0 + 10
    if seat.shown or seat.dealt:
        cards: Sequence[Card | None] = seat.shown if seat.shown else (None, None)
        card_y = y0 + (CARD_TOP_TWO_LINES if len(hand_lines) > 1 else CARD_TOP)
        for i, card in enumerate(cards[:2]):
            _place(placed, sprites.card(card, SEAT_CARD, four_colour, fill), x0 + 8 + i * (cw + 4), card_y)
        text_x = x0 + 8 + 2 * (cw + 4) + 4
    name, size = sprites.fit(seat.name or t("picture.seat", language, n=seat.seat), 28, x0 + pw - 8 - text_x, 20)
    _place_text(placed, (text_x, y0 + 6), name, size, TEXT_DIM if dim else TEXT, fill)
    stack, size = sprites.fit(format_number(seat.stack, language), 28, x0 + pw - 8 - text_x, 20)
    _place_text(placed, (text_x, y0 + 40), stack, size, STACK, fill)
    if len(hand_lines) == 1:
        _place_text(placed, (x0 + HAND_INSET, y0 + ph - 6), hand_lines[0], hand_size, TEXT_DIM, fill, "ld")
    for n, words in enumerate(hand_lines if len(hand_lines) > 1 else ()):
        y = y0 + ph - HAND_LINES_BOTTOM - (len(hand_lines) - 1 - n) * (hand_size + 1)
        _place_text(placed, (x0 + HAND_INSET, y), words, hand_size, TEXT_DIM, fill, "ld")
    if third:
        # The odds with a tie ("Gagne ≈ 62 % · partage 12 %") may use the plate's whole width and a smaller font
        # rather than lose a figure to "…".
        inset, smallest = (6, 14) if seat.odds is not None else (8, 16)
        line, size = sprites.fit(third, 22, pw - 2 * inset, smallest)
        _place_text(placed, (x0 + inset, y0 + ph - 6), line, size, ODDS if seat.odds else TEXT_DIM, fill, "ld")
    label = badge_label(seat, language)
    if label is not None:
        room = pw - 20 - (ROBOT_BADGE_WIDTH + 6 if seat.computer else 0)  # clear of the robot's badge
        piece, bx, by = sprites.badge(layout, seat.seat, look, *label, room)
        _place(placed, piece, bx, by)
    if seat.computer:
        piece, rx, ry = sprites.robot(layout, seat.seat, look)
        _place(placed, piece, rx, ry)
    # Beside the plate, towards the centre: the button, the blind, the bet.
    items: list[sprites.Mark] = []
    if seat.is_button:
        items.append(("mark", "D", BUTTON_FILL, BUTTON_INK))
    if seat.blind in ("small_blind", "big_blind"):
        key = "table.seat.sb" if seat.blind == "small_blind" else "table.seat.bb"
        items.append(("mark", t(key, language), BLIND_FILL, TEXT))
    if seat.bet:
        items.append(("bet", format_number(seat.bet, language), TEXT, TEXT))
    if items:
        piece, mx, my = sprites.marks(layout, seat.seat, tuple(items))
        _place(placed, piece, mx, my)
    return tuple(placed)


sprites.DEPENDENT_CACHES.append(_kept_seat_pieces.cache_clear)
#: `seat_pieces`' cache figures (hits, misses, maxsize, currsize), as `functools.lru_cache` counts them.
seat_cache_info = _kept_seat_pieces.cache_info


def _centre_pieces(scene: TableScene) -> list[Placed]:
    placed: list[Placed] = []
    language = scene.language
    cx, cy = WIDTH / 2, HEIGHT / 2
    blinds = (
        t("level.blinds_ante", language, sb=scene.small_blind, bb=scene.big_blind, ante=scene.ante)
        if scene.ante
        else t("level.blinds", language, sb=scene.small_blind, bb=scene.big_blind)
    )
    title = t("street.announce.hand", language, number=scene.hand_number) if scene.hand_number else ""
    if scene.street == "over":
        title = (
            t("result.title", language, number=scene.hand_number)
            if scene.hand_number
            else t("result.title_plain", language)
        )
    elif scene.street is not None:
        street = street_name({"preflop": 0, "flop": 1, "turn": 2, "river": 3}.get(scene.street, 4), language)
        title = f"{title} · {street}" if title else street
    if title:
        words, size = sprites.fit(title, 26, CENTRE_WIDTH, 18)
        _place_text(placed, (cx, cy - 118), words, size, TEXT, FELT, "mm", passing=True)
    words, size = sprites.fit(t("picture.blinds", language, blinds=blinds), 22, CENTRE_WIDTH, 16)
    _place_text(placed, (cx, cy - 88), words, size, BLINDS_TEXT, FELT, "mm")
    # The board: five places, the cards dealt so far.
    bw, bh = BOARD_CARD
    left = cx - (5 * bw + 4 * BOARD_GAP) / 2
    top = int(cy - bh / 2 - 6)
    for i in range(5):
        x = int(left + i * (bw + BOARD_GAP))
        if i < len(scene.board):
            _place(placed, sprites.card(scene.board[i], BOARD_CARD, scene.four_colour, FELT), x, top)
        elif scene.street is not None:
            _place(placed, sprites.empty_place(BOARD_CARD), x, top)
    # The pots under the board: every pot named, on up to three lines (smaller when there are many side pots).
    pots = [p for p in scene.pots if p]
    if pots:
        if len(pots) == 1:
            parts = [t("pot.item", language, label=t("pot.single", language), amount=pots[0])]
        else:
            parts = [
                t("pot.item", language, label=pot_label(i, len(pots), language, article=False), amount=p)
                for i, p in enumerate(pots)
            ]
        for size in (24, 22, 20, 18):
            lines = _wrap(parts, size, CENTRE_WIDTH)
            if len(lines) <= 3:
                break
        y = top + bh + 24
        for line in lines:
            words, fitted = sprites.fit(line, size, CENTRE_WIDTH + 60, 14)
            _place_text(placed, (cx, y), words, fitted, TEXT, FELT, "mm", passing=True)
            y += size + 4
    return placed


def _wrap(parts: Sequence[str], size: int, width: int) -> list[str]:
    lines: list[str] = []
    for part in parts:
        if lines and shapes.font(size).getlength(lines[-1] + " · " + part) <= width:
            lines[-1] += " · " + part
        else:
            lines.append(part)
    return lines


def draw_rows(scene: TableScene) -> np.ndarray:
    """The picture of `scene` as PNG scanlines: `HEIGHT` rows of `WIDTH` + 1 palette indices (uint8), whose
    column 0 holds each row's filter type (0, none) and columns 1..`WIDTH` the picture (`png.encode_rows`)."""
    layout = layout_for(scene.max_seats)
    rows = sprites.table_scanlines(layout).copy()
    taken = {s.seat for s in scene.seats}
    placed: list[Placed] = []
    for number in range(1, min(scene.max_seats, layout) + 1):
        if number not in taken:
            piece, x, y = sprites.empty_seat(layout, number)
            _place(placed, piece, x, y)
    _paste(rows, placed)
    _paste(rows, _centre_pieces(scene))
    language, four_colour = scene.language, scene.four_colour
    for seat in scene.seats:
        _paste(rows, seat_pieces(layout, language, four_colour, seat))
    rows[:, 0] = 0  # a piece cut by the picture's left edge must not change a filter type
    return rows


def draw_scanlines(scene: TableScene) -> Image.Image:
    """The picture of `scene` as PNG scanlines in a palette image (`draw_rows`, as a Pillow image)."""
    return sprites.as_image(draw_rows(scene))


def draw_image(scene: TableScene) -> Image.Image:
    """The picture of `scene` as a Pillow image: `WIDTH` × `HEIGHT`, mode "P" (the shipped palette)."""
    return sprites.as_image(draw_rows(scene)[:, 1:])
