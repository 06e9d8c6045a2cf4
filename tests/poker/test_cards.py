"""Cards: parsing, formatting, the deck and shuffling with an injected generator."""

from __future__ import annotations

import random

import pytest

from bot.poker import CARDS, Card, CardParseError, format_cards, full_deck, parse_card, parse_cards, shuffled_deck


def test_card_has_rank_suit_and_prints_short() -> None:
    card = parse_card("Ah")
    assert (card.rank, card.suit, str(card)) == (14, "h", "Ah")
    assert card == Card(14, "h") and hash(card) == hash(Card(14, "h"))


def test_parse_cards_accepts_compact_spaced_and_comma_forms() -> None:
    expected = (Card(14, "h"), Card(13, "d"))
    assert parse_cards("AhKd") == parse_cards("Ah Kd") == parse_cards("Ah,Kd") == expected
    assert format_cards(expected) == "AhKd"
    assert parse_cards("") == ()


@pytest.mark.parametrize("text", ["Ax", "1h", "AhK", "AhAh", "??"])
def test_bad_card_text_is_refused(text: str) -> None:
    with pytest.raises(CardParseError):
        parse_cards(text)


def test_full_deck_has_52_distinct_cards_indexed_for_the_evaluator() -> None:
    deck = full_deck()
    assert len(deck) == len(set(deck)) == 52
    assert [c.index for c in CARDS] == list(range(52))
    assert str(CARDS[0]) == "2c" and str(CARDS[51]) == "As"


def test_shuffled_deck_is_reproducible_with_a_seeded_rng_and_random_without() -> None:
    assert shuffled_deck(random.Random(7)) == shuffled_deck(random.Random(7))
    assert sorted(shuffled_deck()) == sorted(full_deck())
    assert shuffled_deck() != shuffled_deck()  # SystemRandom: equal twice has probability 1/52!


def test_the_deck_is_shuffled_by_rng_shuffle_so_tests_can_stack_it() -> None:
    class Stacked(random.Random):
        def shuffle(self, x: list) -> None:  # type: ignore[override]
            x.reverse()

    assert shuffled_deck(Stacked()) == full_deck()[::-1]
