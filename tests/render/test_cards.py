"""Cards as text: rank + suit symbol in text presentation."""

from dataclasses import dataclass

import pytest

from bot.render.cards import card_text, cards_text

VS15 = "\ufe0e"


@dataclass(frozen=True)
class C:
    rank: int
    suit: str


@pytest.mark.parametrize(
    ("card", "text"),
    [
        (C(14, "s"), "A♠"),
        (C(13, "h"), "K♥"),
        (C(12, "d"), "Q♦"),
        (C(11, "c"), "J♣"),
        (C(10, "s"), "10♠"),
        (C(9, "h"), "9♥"),
        (C(2, "c"), "2♣"),
    ],
)
def test_card_is_rank_then_suit_symbol_in_text_presentation(card, text):
    assert card_text(card) == text + VS15
    assert card_text(card).replace(VS15, "") == text


def test_cards_are_separated_by_spaces():
    assert cards_text([C(14, "s"), C(13, "h")]).replace(VS15, "") == "A♠ K♥"


def test_no_cards_is_a_dash():
    assert cards_text([]) == "—"


def test_every_card_of_the_deck_has_a_distinct_text():
    deck = [C(rank, suit) for rank in range(2, 15) for suit in "cdhs"]
    assert len({card_text(card) for card in deck}) == 52


def test_unknown_suit_is_refused():
    with pytest.raises(KeyError):
        card_text(C(14, "x"))
