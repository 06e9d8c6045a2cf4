"""The one amount parser: ASCII digits with the reader's thousands separators, nothing else, bounded in length."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.render import AMOUNT_TEXT_MAX, format_chips, parse_amount

NNBSP = "\u202f"
NBSP = "\u00a0"


@pytest.mark.parametrize(
    ("text", "locale", "value"),
    [
        ("22", "en", 22),
        (" 1000 ", "en", 1000),
        ("1,000", "en", 1000),
        ("1,000,000", "en-US", 1_000_000),
        ("1 000", "en", 1000),
        ("1 000", "fr", 1000),
        (f"1{NBSP}000", "fr", 1000),
        (f"1{NNBSP}000{NNBSP}000", "fr", 1_000_000),
        ("1000000", "fr", 1_000_000),
        ("0", "en", 0),  # a number: the engine answers it with the minimum
        ("-5", "en", -5),
        ("-1,000", "en", -1000),
    ],
)
def test_amounts_typed_as_the_reader_writes_numbers_are_read(text, locale, value):
    assert parse_amount(text, locale) == value


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("12.5", "en"),
        ("1.000", "en"),  # a decimal point in English
        ("1.000.000", "en"),
        ("1,5", "fr"),  # a decimal comma in French
        ("1,000", "fr"),
        ("1,5", "en"),
        ("10,00", "en"),
        ("1000,000", "en"),  # first group longer than 3 digits
        ("1,000 000", "en"),  # two different separators
        (",100", "en"),
        ("100,", "en"),
        ("abc", "en"),
        ("", "en"),
        ("   ", "en"),
        ("-", "en"),
        ("--5", "en"),
        ("+12", "en"),
        ("1_0", "en"),
        ("1_000", "en"),
        ("1e3", "en"),
        ("0x10", "en"),
        ("16\n", "en"),
        ("\t16", "en"),
        ("1\n000", "fr"),
        ("١٤", "en"),  # Arabic-Indic digits
        ("٣", "fr"),
        ("８", "en"),  # full-width digit
        ("²", "en"),
        ("1\u2009000", "en"),  # U+2009 thin space is not a separator Discord shows
    ],
)
def test_anything_else_is_refused(text, locale):
    assert parse_amount(text, locale) is None


def test_a_very_long_amount_is_refused_before_it_is_read():
    assert parse_amount("9" * 5000) is None
    assert parse_amount("9" * (AMOUNT_TEXT_MAX + 1)) is None
    assert parse_amount("9" * 16) == 9_999_999_999_999_999
    assert parse_amount("9,007,199,254,740,992") == 2**53


@given(st.integers(min_value=0, max_value=2**53), st.sampled_from(["en", "en-GB", "fr", "fr-CA"]))
def test_every_amount_the_bot_shows_reads_back(amount, locale):
    assert parse_amount(format_chips(amount, locale), locale) == amount
    assert parse_amount(str(amount), locale) == amount


@given(st.text(max_size=AMOUNT_TEXT_MAX + 4), st.sampled_from(["en", "fr"]))
def test_any_text_is_read_as_ascii_digits_or_refused(text, locale):
    value = parse_amount(text, locale)
    if value is not None:
        kept = text.strip(" ").lstrip("-").replace(",", "").replace(" ", "").replace(NBSP, "").replace(NNBSP, "")
        assert kept.isascii() and kept.isdigit() and int(kept) == abs(value)
