"""The table as a picture: a PNG drawn with Pillow from the public view of a table only.

Two steps, so that no hole card that is not public can reach the drawing:

1. `scene_from_snapshot(snapshot, result=None, odds=None)` reads the public snapshot of a table (the service's
   `TableSnapshot` or render's `TableView`: seats, board, pots, this hand's public events) and, at the end of a
   hand, its `HandResult`, and builds a `TableScene`. The only cards it takes for a seat are those shown: a
   `HandShown` event (the showdown, or hands turned face up at an all-in) or a `ShownHand` of the result. A
   `HoleCardsDealt` event, should one be among the events, is ignored.
2. `draw_table(scene)` draws the scene and encodes it as PNG bytes. A `TableScene` has no field for a card that
   is not public: a seat holds either its shown cards or none (the picture draws card backs for a seat still
   in the hand).

The drawing is the same on every machine: the font ships with the package (DejaVu Sans Condensed Bold,
`bot/render/fonts`, its licence beside it), text is laid out with Pillow's basic layout (never the optional
libraqm), and what does not change from one picture to the next (the felt, card faces and backs, fonts) is
drawn once and cached. Texts follow the table's language (EN/FR catalogues). Layouts: up to 2, up to 6 and up
to 10 seats (the table's `max_seats`); the canvas is `WIDTH` × `HEIGHT` pixels, readable on a phone where
Discord shows it about 400 px wide.
"""

from __future__ import annotations

import struct
import unicodedata
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import Any, Protocol

from PIL import Image, ImageDraw, ImageFont

from bot.poker.cards import Card
from bot.poker.events import HandShown
from bot.poker.result import HandResult
from bot.render.cards import rank_text
from bot.render.events import pot_amounts, pot_label, street_name
from bot.render.hands import hand_name
from bot.render.i18n import format_number, format_percent, t
from bot.render.table import TableSnapshot

__all__ = [
    "HEIGHT",
    "WIDTH",
    "OddsLike",
    "SceneSeat",
    "SeatOdds",
    "TableScene",
    "draw_image",
    "draw_table",
    "encode_png",
    "layout_for",
    "scene_from_snapshot",
]

WIDTH = 900
HEIGHT = 600
FONT_FILE = "DejaVuSansCondensed-Bold.ttf"
PNG_NAME = "table.png"

# Seat states, as the service's SeatView.state.
ACTIVE, FOLDED, ALL_IN, SITTING_OUT, WAITING = "active", "folded", "all_in", "sitting_out", "waiting"

# Colours (RGB).
BACKGROUND = (30, 33, 38)
RAIL = (74, 48, 30)
RAIL_EDGE = (40, 26, 16)
FELT = (28, 110, 62)
FELT_LINE = (46, 140, 84)
PLATE = (22, 24, 28)
PLATE_DIM = (48, 50, 56)
PLATE_EDGE = (90, 94, 102)
ACTOR_EDGE = (255, 214, 0)
WINNER_EDGE = (255, 180, 0)
TEXT = (245, 245, 245)
TEXT_DIM = (150, 153, 160)
STACK = (255, 214, 102)
ODDS = (130, 235, 150)
ALL_IN_BADGE = (198, 40, 40)
WIN_BADGE = (46, 160, 67)
CARD_FACE = (252, 252, 250)
CARD_EDGE = (60, 60, 60)
BACK = (35, 72, 160)
BACK_LINE = (90, 130, 220)
CHIP = (230, 230, 230)
CHIP_EDGE = (200, 40, 40)

#: Suit symbols and colours: the two-colour deck (spades and clubs black, hearts and diamonds red) and the
#: four-colour deck (spades black, hearts red, diamonds blue, clubs green).
SUIT_GLYPHS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
TWO_COLOUR = {"s": (20, 20, 20), "h": (200, 20, 30), "d": (200, 20, 30), "c": (20, 20, 20)}
FOUR_COLOUR = {"s": (20, 20, 20), "h": (200, 20, 30), "d": (20, 90, 200), "c": (20, 130, 40)}

# Sizes (pixels).
BOARD_CARD = (76, 106)
SEAT_CARD = (44, 62)
PLATE_SIZE = (230, 104)

#: Seat centres as fractions of the canvas, for seats 1..N clockwise from the top left, per layout.
LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((0.5, 0.1), (0.5, 0.9)),
    6: ((0.3, 0.1), (0.7, 0.1), (0.87, 0.5), (0.7, 0.9), (0.3, 0.9), (0.13, 0.5)),
    10: (
        (0.24, 0.1),
        (0.5, 0.1),
        (0.76, 0.1),
        (0.87, 0.365),
        (0.87, 0.635),
        (0.76, 0.9),
        (0.5, 0.9),
        (0.24, 0.9),
        (0.13, 0.635),
        (0.13, 0.365),
    ),
}


class OddsLike(Protocol):
    """A seat's chances at an all-in (the equity module's figures, e.g. `bot.poker.equity.PlayerOdds`): `win`
    and `tie` as fractions 0..1. An `exact` attribute, when there is one and it is False, marks a Monte Carlo
    estimate (drawn with "≈"); without it the figures are taken as exact."""

    @property
    def win(self) -> float: ...

    @property
    def tie(self) -> float: ...


@dataclass(frozen=True)
class SeatOdds:
    """A seat's chance to win and to tie (fractions 0..1); `exact` False for an estimate (drawn "≈ 42%")."""

    win: float
    tie: float = 0.0
    exact: bool = True


@dataclass(frozen=True)
class SceneSeat:
    """One occupied seat as drawn: name, stack and bet (chips, this street), state ("active", "folded",
    "all_in", "sitting_out", "waiting"), marks (button, actor, blind "small_blind"/"big_blind").

    dealt: holds cards in this hand (drawn face down unless `shown`); shown: the cards it showed (public);
    hand: the name of the shown hand, already in the table's language; won: chips won at the end of the hand
    (0: none); odds: its chances at an all-in. There is no field for a card that is not public."""

    seat: int
    name: str
    stack: int
    bet: int = 0
    state: str = ACTIVE
    is_button: bool = False
    is_actor: bool = False
    blind: str | None = None
    dealt: bool = False
    shown: tuple[Card, ...] = ()
    hand: str | None = None
    won: int = 0
    odds: OddsLike | None = None


@dataclass(frozen=True)
class TableScene:
    """What the picture shows (public information only). language: "en"/"fr"; hand_number: 0 between the
    first hands; blinds and ante in chips; max_seats: the table's seats (picks the layout); seats: the occupied
    ones; board: community cards; pots: chips of each pot, main first (what the channel is told,
    `pot_amounts`); street: the street's catalogue name ("flop", ... "showdown") or None between hands;
    four_colour: draw the four-colour deck."""

    language: str
    hand_number: int
    small_blind: int
    big_blind: int
    ante: int
    max_seats: int
    seats: tuple[SceneSeat, ...]
    board: tuple[Card, ...] = ()
    pots: tuple[int, ...] = ()
    street: str | None = None
    four_colour: bool = False


def layout_for(max_seats: int) -> int:
    """The layout drawn for a table of `max_seats` seats: 2, 6 or 10."""
    return 2 if max_seats <= 2 else 6 if max_seats <= 6 else 10


#: The code points the shipped font draws (DejaVu Sans covers Latin, Greek, Cyrillic and Armenian, Latin and
#: Greek extended, punctuation and currency signs); other characters (CJK, emoji...) would be drawn as boxes.
DRAWABLE = ((0x20, 0x7E), (0xA0, 0x058F), (0x1E00, 0x1FFF), (0x2000, 0x206F), (0x20A0, 0x20CF))


def _drawable(ch: str) -> bool:
    code = ord(ch)
    return any(low <= code <= high for low, high in DRAWABLE)


def _clean_name(name: str) -> str:
    """A display name as the picture can draw it: without control or format characters (bidirectional
    overrides, zero-width joiners) nor characters the font lacks; "" when nothing is left (the seat's number is
    drawn instead)."""
    kept = "".join(ch for ch in name if unicodedata.category(ch) not in ("Cc", "Cf") and _drawable(ch))
    return " ".join(kept.split())


def scene_from_snapshot(
    snapshot: TableSnapshot,
    result: HandResult | None = None,
    odds: Mapping[int, OddsLike] | None = None,
    *,
    faces: Mapping[int, Sequence[Card]] | None = None,
    four_colour: bool = False,
) -> TableScene:
    """The scene of a table from its public snapshot.

    snapshot: the service's public `TableSnapshot` (bot/render/table.py). result: the hand's `HandResult` at its end
    (shown hands, pots won), or None. odds: chances by seat number at an all-in, or None. faces: hole cards
    turned face up by the rules at an all-in (everyone all-in: the hands are shown before the run-out), by seat.

    Cards come only from what was shown (`HandShown` events of the snapshot, `faces`, `result.shown`); hole
    cards that are not public have no way in (`HoleCardsDealt` is ignored)."""
    seats = tuple(getattr(snapshot, "seats", ()))
    by_player = {s.player: s for s in seats if getattr(s, "player", None) is not None}
    shown: dict[int, tuple[Card, ...]] = {}
    values: dict[int, Any] = {}
    for event in getattr(snapshot, "events", ()):
        if isinstance(event, HandShown) and event.player in by_player:
            shown[by_player[event.player].seat] = tuple(event.cards)
            values[by_player[event.player].seat] = event.value
    for seat_number, cards in (faces or {}).items():
        if cards:
            shown[seat_number] = tuple(cards)
    won: dict[int, int] = {}
    board = tuple(getattr(snapshot, "board", ()))
    street_value = getattr(snapshot, "street", None)
    street = None if street_value is None else _street_key(street_value)
    bets = sum(int(s.bet) for s in seats)
    pots = tuple(pot_amounts(getattr(snapshot, "pots", ()), bets)) if street is not None else ()
    if result is not None:
        by_user = {getattr(s, "user_id", None): s for s in seats}
        for hand in result.shown:
            seat = by_user.get(hand.user_id)
            if seat is not None:
                shown[seat.seat] = tuple(hand.cards)
                values[seat.seat] = hand.value
        for pot in result.pots:
            for user_id, _name, chips in pot.winners:
                seat = by_user.get(user_id)
                if seat is not None:
                    won[seat.seat] = won.get(seat.seat, 0) + int(chips)
        board = tuple(result.board) or board
        pots = tuple(int(p.amount) for p in result.pots if p.amount)
        street = "showdown" if result.showdown else street
    against = list(values.values())
    language = getattr(snapshot, "language", "en")
    scene_seats = []
    for s in sorted(seats, key=lambda s: s.seat):
        state = str(getattr(s.state, "value", s.state))
        dealt = getattr(s, "player", None) is not None and state in (ACTIVE, ALL_IN) and street is not None
        value = values.get(s.seat)
        scene_seats.append(
            SceneSeat(
                seat=int(s.seat),
                name=_clean_name(str(s.name)),
                stack=int(s.stack),
                bet=int(s.bet) if result is None else 0,
                state=state,
                is_button=bool(s.is_button),
                is_actor=bool(s.is_actor) and result is None,
                blind=_value(getattr(s, "blind", None)),
                dealt=dealt,
                shown=shown.get(s.seat, ()),
                hand=hand_name(value, language, against) if value is not None else None,
                won=won.get(s.seat, 0),
                odds=odds.get(s.seat) if odds is not None else None,
            )
        )
    return TableScene(
        language=language,
        hand_number=int(getattr(snapshot, "hand_number", 0)),
        small_blind=int(getattr(snapshot, "small_blind", 0)),
        big_blind=int(getattr(snapshot, "big_blind", 0)),
        ante=int(getattr(snapshot, "ante", 0)),
        max_seats=int(getattr(snapshot, "max_seats", 10)),
        seats=tuple(scene_seats),
        board=board,
        pots=pots,
        street=street,
        four_colour=four_colour,
    )


def _value(mark: Any) -> str | None:
    """An enum's value or a plain string (the service's marks may be either)."""
    return None if mark is None else str(getattr(mark, "value", mark))


def _street_key(street: Any) -> str:
    return {0: "preflop", 1: "flop", 2: "turn", 3: "river"}.get(int(street), "showdown")


# ---------------------------------------------------------------------------------------------- drawing


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """The package's font at `size` pixels, laid out the same everywhere (basic layout)."""
    path = resources.files("bot.render").joinpath("fonts", FONT_FILE)
    with resources.as_file(path) as file:
        return ImageFont.truetype(str(file), size, layout_engine=ImageFont.Layout.BASIC)


def _fit(text: str, size: int, width: int, min_size: int | None = None) -> tuple[str, ImageFont.FreeTypeFont]:
    """`text` in the largest font from `size` down to `min_size` that fits `width` pixels, cut with "…" when
    even that is too wide."""
    low = min_size if min_size is not None else size
    for s in range(size, low - 1, -2):
        f = font(s)
        if f.getlength(text) <= width:
            return text, f
    f = font(low)
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…", f


@lru_cache(maxsize=2048)
def _text_mask(text: str, size: int, anchor: str) -> tuple[Image.Image, int, int]:
    """`text` rendered once as a grey mask (the same text at the same size is drawn from the cache after)."""
    f = font(size)
    left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    return mask, left, top


def _text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    f: ImageFont.FreeTypeFont,
    fill: tuple[int, int, int],
    anchor: str = "la",
) -> None:
    """Draw `text` at `xy` (Pillow's text anchors) from the text cache."""
    mask, left, top = _text_mask(text, int(f.size), anchor)
    image.paste(fill, (round(xy[0]) + left, round(xy[1]) + top), mask)


@cache
def _sprite_rounded(
    size: tuple[int, int],
    radius: int,
    fill: tuple[int, int, int] | None,
    outline: tuple[int, int, int] | None,
    width: int,
) -> Image.Image:
    """A rounded rectangle as a transparent sprite (plates, badges, empty board places), drawn once."""
    image = Image.new("RGBA", size, (0, 0, 0, 0))
    ImageDraw.Draw(image).rounded_rectangle(
        (0, 0, size[0] - 1, size[1] - 1), radius=radius, fill=fill, outline=outline, width=width
    )
    return image


@cache
def _sprite_disc(
    diameter: int, fill: tuple[int, int, int] | None, outline: tuple[int, int, int], width: int
) -> Image.Image:
    """A disc (button, blinds, chip, empty seat) as a transparent sprite, drawn once."""
    image = Image.new("RGBA", (diameter, diameter), (0, 0, 0, 0))
    ImageDraw.Draw(image).ellipse((0, 0, diameter - 1, diameter - 1), fill=fill, outline=outline, width=width)
    return image


def _paste(image: Image.Image, sprite: Image.Image, xy: tuple[float, float]) -> None:
    image.paste(sprite, (round(xy[0]), round(xy[1])), sprite)


@cache
def _felt(layout: int) -> Image.Image:
    """The empty table (background, rail, felt), drawn once per layout at twice the size and scaled down so
    that the curves are smooth."""
    scale = 2
    image = Image.new("RGB", (WIDTH * scale, HEIGHT * scale), BACKGROUND)
    draw = ImageDraw.Draw(image)
    box = (0.07 * WIDTH, 0.13 * HEIGHT, 0.93 * WIDTH, 0.87 * HEIGHT)
    sx = [v * scale for v in box]
    draw.rounded_rectangle(sx, radius=int(0.37 * HEIGHT * scale), fill=RAIL, outline=RAIL_EDGE, width=6 * scale)
    inset = 18 * scale
    inner = (sx[0] + inset, sx[1] + inset, sx[2] - inset, sx[3] - inset)
    draw.rounded_rectangle(inner, radius=int(0.37 * HEIGHT * scale) - inset, fill=FELT)
    line = 14 * scale
    ring = (inner[0] + line, inner[1] + line, inner[2] - line, inner[3] - line)
    draw.rounded_rectangle(ring, radius=int(0.37 * HEIGHT * scale) - inset - line, outline=FELT_LINE, width=2 * scale)
    return image.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)


@cache
def _card_mask(size: tuple[int, int]) -> Image.Image:
    w, h = size
    mask = Image.new("L", (w * 2, h * 2), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w * 2 - 1, h * 2 - 1), radius=max(6, w // 5) * 2, fill=255)
    return mask.resize(size, Image.Resampling.LANCZOS)


@cache
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


@cache
def _card_back(size: tuple[int, int]) -> Image.Image:
    w, h = size
    image = Image.new("RGB", size, BACK)
    draw = ImageDraw.Draw(image)
    for x in range(-h, w, 8):
        draw.line((x, 0, x + h, h), fill=BACK_LINE, width=2)
    draw.rounded_rectangle((3, 3, w - 4, h - 4), radius=max(4, w // 6), outline=CARD_FACE, width=2)
    return image


def _paste_card(image: Image.Image, card: Card | None, xy: tuple[int, int], size: tuple[int, int], four: bool) -> None:
    face = _card_back(size) if card is None else _card_face(card, size, four)
    image.paste(face, xy, _card_mask(size))


def _badge(image: Image.Image, right_top: tuple[float, float], text: str, fill: tuple[int, int, int]) -> None:
    """A label on a plate's top edge, at its right end (clear of the name, which starts on the left)."""
    f = font(20)
    width = int(f.getlength(text)) + 16
    right, y = right_top
    _paste(image, _sprite_rounded((width, 28), 10, fill, None, 0), (right - width, y - 14))
    _text(image, (right - width / 2, y), text, f, TEXT, "mm")


def _odds_text(odds: OddsLike, language: str) -> str:
    """A seat's chances at an all-in: "Win 42%", or "42% · tie 3%" when a tie is possible; "≈ " before the
    figures of an estimate."""
    approx = "" if getattr(odds, "exact", True) else "≈ "
    win = approx + format_percent(odds.win, language, 0)
    if odds.tie >= 0.005:
        return t("picture.odds_tie", language, win=win, tie=format_percent(odds.tie, language, 0))
    return t("picture.odds_win", language, win=win)


def _seat_centre(layout: int, seat: int) -> tuple[float, float]:
    positions = LAYOUTS[layout]
    fx, fy = positions[(seat - 1) % len(positions)]
    return fx * WIDTH, fy * HEIGHT


def _draw_seat(image: Image.Image, scene: TableScene, seat: SceneSeat) -> None:
    layout = layout_for(scene.max_seats)
    cx, cy = _seat_centre(layout, seat.seat)
    pw, ph = PLATE_SIZE
    x0, y0 = cx - pw / 2, cy - ph / 2
    dim = seat.state in (FOLDED, SITTING_OUT, WAITING)
    edge = WINNER_EDGE if seat.won else ACTOR_EDGE if seat.is_actor else PLATE_EDGE
    plate = _sprite_rounded((pw, ph), 14, PLATE_DIM if dim else PLATE, edge, 4 if (seat.won or seat.is_actor) else 2)
    _paste(image, plate, (x0, y0))
    language = scene.language
    # Cards on the left: the shown ones face up, a seat still in the hand face down.
    cw = SEAT_CARD[0]
    text_x = x0 + 10
    if seat.shown or seat.dealt:
        cards: Sequence[Card | None] = seat.shown if seat.shown else (None, None)
        for i, card in enumerate(cards[:2]):
            _paste_card(image, card, (int(x0 + 8 + i * (cw + 4)), int(y0 + 8)), SEAT_CARD, scene.four_colour)
        text_x = x0 + 8 + 2 * (cw + 4) + 4
    text_w = int(x0 + pw - 8 - text_x)
    name, name_font = _fit(seat.name or t("picture.seat", language, n=seat.seat), 28, text_w, 20)
    _text(image, (text_x, y0 + 6), name, name_font, TEXT_DIM if dim else TEXT)
    stack, stack_font = _fit(format_number(seat.stack, language), 28, text_w, 20)
    _text(image, (text_x, y0 + 40), stack, stack_font, STACK)
    # Third line: the odds at an all-in, the shown hand's name, or the state.
    third: str | None = None
    if seat.odds is not None:
        third = _odds_text(seat.odds, language)
    elif seat.hand:
        third = seat.hand
    elif seat.state in (FOLDED, SITTING_OUT, WAITING):
        third = t(f"picture.state.{seat.state}", language)
    if third:
        line, line_font = _fit(third, 22, pw - 16, 16)
        _text(image, (x0 + 8, y0 + ph - 6), line, line_font, ODDS if seat.odds else TEXT_DIM, "ld")
    # Badges on the top edge: won, all-in, to act.
    if seat.won:
        _badge(image, (x0 + pw - 10, y0), "+" + format_number(seat.won, language), WIN_BADGE)
    elif seat.state == ALL_IN:
        _badge(image, (x0 + pw - 10, y0), t("picture.state.all_in", language), ALL_IN_BADGE)
    elif seat.is_actor:
        _badge(image, (x0 + pw - 10, y0), t("picture.to_act", language), (150, 110, 0))
    # Beside the plate, towards the centre: the button, the blind, the bet.
    marks: list[tuple[str, tuple[int, int, int], tuple[int, int, int]]] = []
    if seat.is_button:
        marks.append(("D", (250, 250, 250), (20, 20, 20)))
    if seat.blind in ("small_blind", "big_blind"):
        key = "table.seat.sb" if seat.blind == "small_blind" else "table.seat.bb"
        marks.append((t(key, language), (40, 90, 180), TEXT))
    items: list[tuple[str, Any]] = [("mark", m) for m in marks]
    if seat.bet:
        items.append(("bet", format_number(seat.bet, language)))
    if items:
        _draw_marks(image, items, _marks_anchor(cx, cy))


def _marks_anchor(cx: float, cy: float) -> tuple[float, float, str]:
    """Where a seat's marks go (x, y, alignment "l"/"m"/"r"): under a seat of the top row, over one of the
    bottom row, over a seat at the side (between the seats, out of the board's way); aligned towards the
    middle of the table."""
    pw, ph = PLATE_SIZE
    x0, y0 = cx - pw / 2, cy - ph / 2
    if cy < HEIGHT * 0.2 or cy > HEIGHT * 0.8:
        y = y0 + ph + 28 if cy < HEIGHT / 2 else y0 - 40  # over a bottom seat: clear of its badge
        if abs(cx - WIDTH / 2) < 10:
            return cx, y, "m"
        return (x0 + pw - 8, y, "r") if cx < WIDTH / 2 else (x0 + 8, y, "l")
    return (x0 + 8, y0 - 24, "l") if cx < WIDTH / 2 else (x0 + pw - 8, y0 - 24, "r")


def _draw_marks(image: Image.Image, items: Sequence[tuple[str, Any]], anchor: tuple[float, float, str]) -> None:
    bet_font = font(24)
    widths = [34.0 if kind == "mark" else 30 + bet_font.getlength(value) for kind, value in items]
    total = sum(widths) + 8 * (len(items) - 1)
    ax, y, align = anchor
    x = ax - total / 2 if align == "m" else ax - total if align == "r" else ax
    for (kind, value), width in zip(items, widths, strict=True):
        if kind == "mark":
            text, fill, ink = value
            _paste(image, _sprite_disc(33, fill, (0, 0, 0), 2), (x, y - 16))
            _text(image, (x + 16, y), text, font(17 if len(text) > 1 else 20), ink, "mm")
        else:
            _paste(image, _sprite_disc(25, CHIP, CHIP_EDGE, 5), (x, y - 12))
            _text(image, (x + 30, y), value, bet_font, TEXT, "lm")
        x += width + 8


def _draw_centre(image: Image.Image, scene: TableScene) -> None:
    language = scene.language
    cx, cy = WIDTH / 2, HEIGHT / 2
    blinds = (
        t("level.blinds_ante", language, sb=scene.small_blind, bb=scene.big_blind, ante=scene.ante)
        if scene.ante
        else t("level.blinds", language, sb=scene.small_blind, bb=scene.big_blind)
    )
    title = t("street.announce.hand", language, number=scene.hand_number) if scene.hand_number else ""
    if scene.street is not None:
        street = street_name({"preflop": 0, "flop": 1, "turn": 2, "river": 3}.get(scene.street, 4), language)
        title = f"{title} · {street}" if title else street
    width = 5 * BOARD_CARD[0] + 32
    if title:
        text, f = _fit(title, 26, width, 18)
        _text(image, (cx, cy - 118), text, f, TEXT, "mm")
    text, f = _fit(t("picture.blinds", language, blinds=blinds), 22, width, 16)
    _text(image, (cx, cy - 88), text, f, (200, 225, 210), "mm")
    # The board: five places, the cards dealt so far.
    bw, bh = BOARD_CARD
    gap = 8
    left = cx - (5 * bw + 4 * gap) / 2
    top = cy - bh / 2 - 6
    for i in range(5):
        x = int(left + i * (bw + gap))
        if i < len(scene.board):
            _paste_card(image, scene.board[i], (x, int(top)), BOARD_CARD, scene.four_colour)
        elif scene.street is not None:
            _paste(image, _sprite_rounded((bw, bh), 12, None, FELT_LINE, 2), (x, top))
    # The pots under the board.
    pots = [p for p in scene.pots if p]
    if pots:
        if len(pots) == 1:
            parts = [t("pot.item", language, label=t("pot.single", language), amount=pots[0])]
        else:
            parts = [
                t("pot.item", language, label=pot_label(i, len(pots), language, article=False), amount=p)
                for i, p in enumerate(pots)
            ]
        # Every pot is named, on up to three lines under the board (smaller when there are many side pots).
        width = 5 * BOARD_CARD[0] + 32
        for size in (24, 22, 20, 18):
            lines = _wrap(parts, size, width)
            if len(lines) <= 3:
                break
        y = top + bh + 24
        for line in lines:
            text, f = _fit(line, size, width + 60, 14)
            _text(image, (cx, y), text, f, TEXT, "mm")
            y += size + 4


def _wrap(parts: Sequence[str], size: int, width: int) -> list[str]:
    lines: list[str] = []
    for part in parts:
        if lines and font(size).getlength(lines[-1] + " · " + part) <= width:
            lines[-1] += " · " + part
        else:
            lines.append(part)
    return lines


def draw_image(scene: TableScene) -> Image.Image:
    """The picture of `scene` as a Pillow image (`WIDTH` × `HEIGHT`, RGB)."""
    layout = layout_for(scene.max_seats)
    image = _felt(layout).copy()
    taken = {s.seat for s in scene.seats}
    for number in range(1, min(scene.max_seats, layout) + 1):
        if number not in taken:
            cx, cy = _seat_centre(layout, number)
            _paste(image, _sprite_disc(45, None, PLATE_EDGE, 2), (cx - 22, cy - 22))
            _text(image, (cx, cy), str(number), font(20), TEXT_DIM, "mm")
    _draw_centre(image, scene)
    for seat in scene.seats:
        _draw_seat(image, scene, seat)
    return image


def compute_palette() -> bytes:
    """The picture's 256 colours (768 bytes, RGB): Pillow's fast octree quantizer over the sample tables (every
    layout, both decks, a showdown, odds). Every colour the picture draws, and their anti-aliased blends on its
    backgrounds, is among them or within a few levels of one. Run by `scripts/picture_goldens.py`, which writes
    the result to `bot/render/picture_palette.py`: the bot itself never computes it (it would cost tens of MB
    and a fraction of a second at the first picture)."""
    from bot.render.picture_samples import golden_scenes  # the samples draw with this module

    images = [draw_image(scene) for scene in golden_scenes().values()]
    reference = Image.new("RGB", (WIDTH, HEIGHT * len(images)))
    for i, image in enumerate(images):
        reference.paste(image, (0, HEIGHT * i))
    quantized = reference.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return bytes((quantized.getpalette() or [])[: 3 * 256]).ljust(3 * 256, b"\0")


@cache
def _palette() -> Image.Image:
    """The shipped palette (`bot.render.picture_palette.PALETTE`) as a palette image, to quantize against."""
    from bot.render.picture_palette import PALETTE

    image = Image.new("P", (1, 1))
    image.putpalette(PALETTE)
    return image


def encode_png(image: Image.Image, level: int = 1) -> bytes:
    """The picture as PNG bytes: 8-bit palette (`_palette`, no dithering), no row filter, zlib at `level`.

    A palette image is a third of the bytes to compress and the picture's flat colours lose nothing visible
    (each channel within a few levels). Pillow's own PNG writer always runs the adaptive row filter on a
    truecolour image, which costs twice the compression itself on this picture; a palette image needs no
    filter. The file is the PNG specification's minimal one: signature, IHDR, PLTE, one IDAT, IEND, each chunk
    with its CRC-32; any PNG reader (Pillow, Discord, browsers) reads it."""
    indexed = image.convert("RGB").quantize(palette=_palette(), dither=Image.Dither.NONE)
    width, height = indexed.size
    raw = indexed.tobytes()
    rows = b"".join(b"\0" + raw[i : i + width] for i in range(0, len(raw), width))
    colours = bytes((indexed.getpalette() or [])[: 3 * 256])

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"PLTE", colours)
        + chunk(b"IDAT", zlib.compress(rows, level))
        + chunk(b"IEND", b"")
    )


def draw_table(scene: TableScene) -> bytes:
    """The picture of `scene` as PNG bytes (`WIDTH` × `HEIGHT`; `encode_png`)."""
    return encode_png(draw_image(scene))
