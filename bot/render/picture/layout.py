"""The table picture's geometry and colours: canvas size, seat places per layout, plate and card sizes, where a
seat's marks and badges go. Pure numbers: nothing here draws.

Coordinates are pixels of the `WIDTH` × `HEIGHT` canvas, x to the right, y down; boxes are (left, top, right,
bottom) with right and bottom excluded, as Pillow's.
"""

from __future__ import annotations

WIDTH = 900
HEIGHT = 600

Colour = tuple[int, int, int]
Box = tuple[int, int, int, int]

# Seat states, as the service's SeatView.state (`bot.render.table.SeatState` values).
ACTIVE, FOLDED, ALL_IN, SITTING_OUT, WAITING = "active", "folded", "all_in", "sitting_out", "waiting"
#: States drawn on a dimmed plate.
DIM_STATES = (FOLDED, SITTING_OUT, WAITING)

# Colours (RGB).
BACKGROUND: Colour = (30, 33, 38)
RAIL: Colour = (74, 48, 30)
RAIL_EDGE: Colour = (40, 26, 16)
FELT: Colour = (28, 110, 62)
FELT_LINE: Colour = (46, 140, 84)
PLATE: Colour = (22, 24, 28)
PLATE_DIM: Colour = (48, 50, 56)
PLATE_EDGE: Colour = (90, 94, 102)
ACTOR_EDGE: Colour = (255, 214, 0)
WINNER_EDGE: Colour = (255, 180, 0)
TEXT: Colour = (245, 245, 245)
TEXT_DIM: Colour = (150, 153, 160)
STACK: Colour = (255, 214, 102)
ODDS: Colour = (130, 235, 150)
BLINDS_TEXT: Colour = (200, 225, 210)
ALL_IN_BADGE: Colour = (198, 40, 40)
WIN_BADGE: Colour = (46, 160, 67)
SPLIT_BADGE: Colour = (40, 90, 180)
ACTOR_BADGE: Colour = (150, 110, 0)
BUTTON_FILL: Colour = (250, 250, 250)
BUTTON_INK: Colour = (20, 20, 20)
BLIND_FILL: Colour = (40, 90, 180)
CARD_FACE: Colour = (252, 252, 250)
CARD_EDGE: Colour = (60, 60, 60)
BACK: Colour = (35, 72, 160)
BACK_LINE: Colour = (90, 130, 220)
CHIP: Colour = (230, 230, 230)
CHIP_EDGE: Colour = (200, 40, 40)
ROBOT: Colour = (245, 245, 245)
ROBOT_BADGE: Colour = (90, 94, 102)

#: Suit symbols and colours: the two-colour deck (spades and clubs black, hearts and diamonds red) and the
#: four-colour deck (spades black, hearts red, diamonds blue, clubs green).
SUIT_GLYPHS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
TWO_COLOUR: dict[str, Colour] = {"s": (20, 20, 20), "h": (200, 20, 30), "d": (200, 20, 30), "c": (20, 20, 20)}
FOUR_COLOUR: dict[str, Colour] = {"s": (20, 20, 20), "h": (200, 20, 30), "d": (20, 90, 200), "c": (20, 130, 40)}

# Sizes (pixels).
BOARD_CARD = (76, 106)
SEAT_CARD = (44, 62)
PLATE_SIZE = (230, 104)
PLATE_RADIUS = 14
BADGE_HEIGHT = 28
BADGE_OVERLAP = 8  # how far a badge comes down over its plate
EMPTY_SEAT = 45  # the disc of an empty seat (diameter)
MARK_DISC = 33  # button and blinds
CHIP_DISC = 25  # beside a bet
ROBOT_SIZE = 22  # the computer player's robot, on its badge
ROBOT_BADGE_WIDTH = 40
BOARD_GAP = 8
#: The centre column's width (title, blinds, pots): the board's and a margin.
CENTRE_WIDTH = 5 * BOARD_CARD[0] + 32

#: Seat centres as fractions of the canvas, for seats 1..N clockwise from the top left, per layout. The top row
#: leaves room above its plates for their badges.
LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((0.5, 0.12), (0.5, 0.9)),
    6: ((0.3, 0.12), (0.7, 0.12), (0.87, 0.5), (0.7, 0.9), (0.3, 0.9), (0.13, 0.5)),
    10: (
        (0.24, 0.12),
        (0.5, 0.12),
        (0.76, 0.12),
        (0.87, 0.365),
        (0.87, 0.635),
        (0.76, 0.9),
        (0.5, 0.9),
        (0.24, 0.9),
        (0.13, 0.635),
        (0.13, 0.365),
    ),
}

#: The felt's box: the rail's outer edge (fractions of the canvas), the rail's width and the line inside the felt.
TABLE_BOX = (0.07, 0.13, 0.93, 0.87)
RAIL_WIDTH = 18
FELT_LINE_INSET = 14
TABLE_RADIUS = int(0.37 * HEIGHT)


def layout_for(max_seats: int) -> int:
    """The layout drawn for a table of `max_seats` seats: 2, 6 or 10."""
    return 2 if max_seats <= 2 else 6 if max_seats <= 6 else 10


def seat_centre(layout: int, seat: int) -> tuple[int, int]:
    """The centre of seat `seat` (1-based) in `layout`, in whole pixels."""
    positions = LAYOUTS[layout]
    fx, fy = positions[(seat - 1) % len(positions)]
    return round(fx * WIDTH), round(fy * HEIGHT)


def plate_origin(layout: int, seat: int) -> tuple[int, int]:
    """The top left corner of seat `seat`'s plate."""
    cx, cy = seat_centre(layout, seat)
    return cx - PLATE_SIZE[0] // 2, cy - PLATE_SIZE[1] // 2


def badge_box(layout: int, seat: int, width: int) -> Box:
    """A badge `width` pixels wide astride the plate's top edge, at its right end, high enough to stay clear of
    the name's letters under it."""
    x0, y0 = plate_origin(layout, seat)
    right = x0 + PLATE_SIZE[0] - 10
    return right - width, y0 - BADGE_HEIGHT + BADGE_OVERLAP, right, y0 + BADGE_OVERLAP


def robot_box(layout: int, seat: int) -> Box:
    """The computer player's badge: astride the plate's top edge like the others, but at its left end."""
    x0, y0 = plate_origin(layout, seat)
    return x0 + 10, y0 - BADGE_HEIGHT + BADGE_OVERLAP, x0 + 10 + ROBOT_BADGE_WIDTH, y0 + BADGE_OVERLAP


def marks_anchor(layout: int, seat: int) -> tuple[int, int, str]:
    """Where a seat's marks (button, blind, bet) go: x, y and the alignment ("l", "m" or "r") of the row.

    Under a seat of the top row, over one of the bottom row (clear of its badge), over a seat at the side
    (between the seats, out of the board's way); aligned towards the middle of the table."""
    cx, cy = seat_centre(layout, seat)
    pw, ph = PLATE_SIZE
    x0, y0 = plate_origin(layout, seat)
    if cy < HEIGHT * 0.2 or cy > HEIGHT * 0.8:
        y = y0 + ph + 24 if cy < HEIGHT / 2 else y0 - 40
        if abs(cx - WIDTH / 2) < 10:
            return cx, y, "m"
        return (x0 + pw - 8, y, "r") if cx < WIDTH / 2 else (x0 + 8, y, "l")
    return (x0 + 8, y0 - 24, "l") if cx < WIDTH / 2 else (x0 + pw - 8, y0 - 24, "r")


#: The box of the felt that holds the centre (title, blinds, board, pots): drawn on the plain felt colour, which
#: it must be (a test checks it on every layout).
CENTRE_BOX: Box = (WIDTH // 2 - CENTRE_WIDTH // 2 - 40, 165, WIDTH // 2 + CENTRE_WIDTH // 2 + 40, 450)
