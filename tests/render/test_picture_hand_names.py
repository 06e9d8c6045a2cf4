"""Shown hands' names on the table picture (bot/render/picture/draw.py, `hand_name_lines`): every name of both
catalogues, of every hand class and with the longest kickers, fits its plate whole (no "…"), measured with the
font and sizes the drawing uses, and is drawn as those lines, clear of the cards and inside the plate, in every
layout (2, 6 and 10 seats)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

import numpy as np
import pytest

from bot.poker import HandCategory
from bot.poker.cards import parse_cards
from bot.poker.evaluation import CLASS_COUNT, NAMED_RANKS
from bot.render.hands import hand_name
from bot.render.picture import SceneSeat, sprites
from bot.render.picture.draw import HAND_INSET, HAND_MIN_SIZE, hand_name_lines, seat_pieces
from bot.render.picture.layout import LAYOUTS, PLATE, PLATE_SIZE, SEAT_CARD, TEXT_DIM, plate_origin
from bot.render.picture.shapes import font

#: The room of the plate's third line, as the drawing gives it.
ROOM = PLATE_SIZE[0] - 2 * HAND_INSET
RANKS = range(14, 1, -1)
STRAIGHTS = {frozenset((5, 4, 3, 2, 14))} | {frozenset(range(high, high - 5, -1)) for high in range(14, 5, -1)}


@dataclass(frozen=True)
class Value:
    """A hand class as `hand_name` and `deciding_kickers` read it (their documented stand-in)."""

    category: int
    ranks: tuple[int, ...]
    is_royal: bool = False


def hand_classes() -> Iterator[Value]:
    """Every class of five-card hand (`CLASS_COUNT` of them), by category and naming ranks."""
    no_straight = [c for c in itertools.combinations(RANKS, 5) if frozenset(c) not in STRAIGHTS]
    yield from (Value(HandCategory.HIGH_CARD, c) for c in no_straight)
    for pair in RANKS:
        for kickers in itertools.combinations([r for r in RANKS if r != pair], 3):
            yield Value(HandCategory.PAIR, (pair, *kickers))
    for high, low in itertools.combinations(RANKS, 2):
        yield from (Value(HandCategory.TWO_PAIR, (high, low, k)) for k in RANKS if k not in (high, low))
    for trips in RANKS:
        for kickers in itertools.combinations([r for r in RANKS if r != trips], 2):
            yield Value(HandCategory.THREE_OF_A_KIND, (trips, *kickers))
    yield from (Value(HandCategory.STRAIGHT, (high,)) for high in range(14, 4, -1))
    yield from (Value(HandCategory.FLUSH, c) for c in no_straight)
    yield from (Value(HandCategory.FULL_HOUSE, (t, p)) for t in RANKS for p in RANKS if p != t)
    yield from (Value(HandCategory.FOUR_OF_A_KIND, (q, k)) for q in RANKS for k in RANKS if k != q)
    yield from (Value(HandCategory.STRAIGHT_FLUSH, (high,)) for high in range(13, 4, -1))
    yield Value(HandCategory.STRAIGHT_FLUSH, (14,), is_royal=True)


@cache
def every_hand_name(language: str) -> frozenset[str]:
    """Every name a shown hand can have in `language`: each class alone, and with each number of kickers named
    (against a hand of its category that differs first at that kicker), up to all of them."""
    names: set[str] = set()
    for value in hand_classes():
        names.add(hand_name(value, language))  # type: ignore[arg-type]  # the documented stand-in
        for index in range(NAMED_RANKS[HandCategory(value.category)], len(value.ranks)):
            other = list(value.ranks)
            other[index] = 2 if other[index] != 2 else 3
            names.add(hand_name(value, language, [Value(value.category, tuple(other))]))  # type: ignore[list-item]
    return frozenset(names)


def test_the_enumeration_holds_every_hand_class() -> None:
    assert len(set(hand_classes())) == CLASS_COUNT


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_hand_name_fits_its_plate_whole(language: str) -> None:
    names = every_hand_name(language)
    assert len(names) > 9_000
    for name in names:
        lines, size = hand_name_lines(name)
        assert size >= HAND_MIN_SIZE and 1 <= len(lines) <= 2, name
        assert "…" not in "".join(lines)
        assert lines[0] == name or " ".join(lines) == name or ("".join(lines) == name and lines[0].endswith("-"))
        for line in lines:
            assert font(size).getlength(line) <= ROOM, (name, line, size)


def test_the_longest_names_are_broken_between_the_hand_and_its_kickers_where_that_fits() -> None:
    assert hand_name_lines("Deux paires, valets et quatre, kicker sept") == (
        ("Deux paires, valets et quatre,", "kicker sept"),
        HAND_MIN_SIZE,
    )
    assert hand_name_lines("Carte haute, roi, kickers dame-valet-neuf-six") == (
        ("Carte haute, roi,", "kickers dame-valet-neuf-six"),
        HAND_MIN_SIZE,
    )
    # No comma leaves both lines short enough: the last space that does.
    assert hand_name_lines("Carte haute, dame, kickers valet-quatre-trois-deux") == (
        ("Carte haute, dame, kickers", "valet-quatre-trois-deux"),
        HAND_MIN_SIZE,
    )
    assert hand_name_lines("Pair of sevens") == (("Pair of sevens",), 22)


def _longest(language: str) -> list[str]:
    """The longest name of each category in `language` (at the smallest size)."""
    by_first_word: dict[str, str] = {}
    for name in every_hand_name(language):
        key = name.split(",")[0].split(" ")[0]
        if key not in by_first_word or font(HAND_MIN_SIZE).getlength(name) > font(HAND_MIN_SIZE).getlength(
            by_first_word[key]
        ):
            by_first_word[key] = name
    return sorted(by_first_word.values())


def _box(placed: tuple[np.ndarray, int, int]) -> tuple[int, int, int, int]:
    piece, x, y = placed
    return x - 1, y, x - 1 + piece.shape[1], y + piece.shape[0]  # canvas coordinates (column 0: filter byte)


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_long_hand_name_is_drawn_whole_clear_of_the_cards_and_inside_its_plate(layout: int, language: str) -> None:
    cards = parse_cards("Jh7c")
    for seat_number, hand in itertools.product(range(1, layout + 1), _longest(language)):
        seat = SceneSeat(seat_number, "Jean-Sébastien", 1234, dealt=True, shown=cards, hand=hand, won=360)
        placed = seat_pieces(layout, language, False, seat)
        lines, size = hand_name_lines(hand)
        drawn = [
            next(p for p in placed if np.array_equal(p[0], sprites.text(line, size, TEXT_DIM, PLATE, "ld")[0]))
            for line in lines
        ]
        card_boxes = [
            _box(p)
            for p in placed
            if any(np.array_equal(p[0], sprites.card(card, SEAT_CARD, False, PLATE)) for card in cards)
        ]
        assert len(card_boxes) == 2
        x0, y0 = plate_origin(layout, seat_number)
        inside = (x0 + 4, y0 + 4, x0 + PLATE_SIZE[0] - 4, y0 + PLATE_SIZE[1] - 4)  # within a winner's edge
        boxes = [_box(p) for p in drawn]
        for box in boxes:
            assert inside[0] <= box[0] and box[2] <= inside[2] and inside[1] <= box[1] and box[3] <= inside[3]
            assert not any(_overlap(box, card) for card in card_boxes), (hand, box, card_boxes)
        assert not any(_overlap(a, b) for a, b in itertools.combinations(boxes, 2))
