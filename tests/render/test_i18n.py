"""Catalogues and formatting: both languages complete and consistent, fallbacks that never crash."""

import logging
import re

import pytest

from bot.render import i18n
from bot.render.i18n import (
    catalogue,
    format_chips,
    format_names,
    format_percent,
    format_signed_chips,
    normalize_locale,
    ordinal,
    placeholders,
    t,
)

NNBSP = "\u202f"  # narrow no-break space: Babel's French group separator
NBSP = "\u00a0"


@pytest.fixture(autouse=True)
def fresh_renderings():
    """`t` remembers renderings; tests that swap a catalogue must not see (or leave) the other's."""
    i18n.clear_render_cache()
    yield
    i18n.clear_render_cache()


def test_every_key_exists_in_both_languages():
    assert set(catalogue("en")) == set(catalogue("fr"))


@pytest.mark.parametrize("key", sorted(catalogue("en")))
def test_key_has_same_placeholders_in_both_languages(key):
    en, fr = catalogue("en")[key], catalogue("fr")[key]
    assert placeholders(en) == placeholders(fr)
    assert isinstance(en, str) == isinstance(fr, str)
    if not isinstance(en, str):
        assert "other" in en and "other" in fr and "one" in en and "one" in fr
        assert "count" in placeholders(en)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_message_renders_without_leftover_placeholder_or_warning(language, caplog):
    class Value:
        def __format__(self, spec):
            return "X"

    for key, template in catalogue(language).items():
        params = {name: Value() for name in placeholders(template)}
        if "count" in params:
            params["count"] = 2
        for name in ("r1", "r2"):
            if name in params:
                params[name] = i18n.Rank(13)
        with caplog.at_level(logging.WARNING, logger="bot.render.i18n"):
            text = t(key, language, **params)
        assert "{" not in text and "}" not in text, key
        assert text.strip(), key
    assert not caplog.records


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("fr", "fr"),
        ("fr-FR", "fr"),
        ("fr_CA", "fr"),
        ("FR", "fr"),
        ("en", "en"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("de", "en"),
        ("", "en"),
        (None, "en"),
        (42, "en"),
    ],
)
def test_locale_normalisation(given, expected):
    assert normalize_locale(given) == expected


def test_locale_objects_with_a_value_like_discord_locale():
    class FakeLocale:
        value = "fr"

    assert normalize_locale(FakeLocale()) == "fr"
    assert t("button.fold", FakeLocale()) == "Se coucher"


@pytest.mark.parametrize(
    ("n", "en", "fr"),
    [
        (0, "0", "0"),
        (22, "22", "22"),
        (999, "999", "999"),
        (1000, "1,000", f"1{NNBSP}000"),
        (1234567, "1,234,567", f"1{NNBSP}234{NNBSP}567"),
        (-1500, "-1,500", f"-1{NNBSP}500"),
    ],
)
def test_chips_are_formatted_per_locale(n, en, fr):
    assert format_chips(n, "en") == en
    assert format_chips(n, "en-GB") == en
    assert format_chips(n, "fr") == fr


def test_integers_in_messages_use_the_locale_grouping():
    assert t("error.min_raise", "en", amount=1000) == "Minimum raise is to 1,000"
    assert t("error.min_raise", "fr", amount=1000) == f"Relance minimum{NBSP}: 1{NNBSP}000"


def test_raw_spec_keeps_digits_for_numbers_that_are_not_amounts():
    assert t("history.title", "en", number=1234) == "Hand #1234"
    assert t("history.title", "fr", number=1234) == "Donne n° 1234"


def test_signed_chips_and_percentages():
    assert format_signed_chips(1200, "en") == "+1,200"
    assert format_signed_chips(-300, "fr") == "\u2212300"
    assert format_signed_chips(0, "en") == "0"
    assert format_percent(0.254, "en") == "25.4%"
    assert format_percent(0.254, "fr") == f"25,4{NBSP}%"


def test_names_are_joined_as_each_language_does():
    assert format_names(["Alice", "Bob", "Chloé"], "en") == "Alice, Bob, and Chloé"
    assert format_names(["Alice", "Bob", "Chloé"], "fr") == "Alice, Bob et Chloé"
    assert format_names(["Alice", "Bob"], "fr") == "Alice et Bob"
    assert format_names([], "en") == ""


@pytest.mark.parametrize(
    ("n", "en", "fr"),
    [
        (1, "1st", "1re"),
        (2, "2nd", "2e"),
        (3, "3rd", "3e"),
        (4, "4th", "4e"),
        (11, "11th", "11e"),
        (12, "12th", "12e"),
        (13, "13th", "13e"),
        (21, "21st", "21e"),
        (22, "22nd", "22e"),
        (101, "101st", "101e"),
    ],
)
def test_ordinals(n, en, fr):
    assert ordinal(n, "en") == en
    assert ordinal(n, "fr") == fr


def test_plural_forms_follow_each_language():
    assert t("leaderboard.wins_value", "en", count=1) == "1 win"
    assert t("leaderboard.wins_value", "en", count=0) == "0 wins"
    assert t("leaderboard.wins_value", "fr", count=0) == "0 victoire"
    assert t("leaderboard.wins_value", "fr", count=1) == "1 victoire"
    assert t("leaderboard.wins_value", "fr", count=2) == "2 victoires"
    assert t("leaderboard.wins_value", "fr", count=1_000_000) == f"1{NNBSP}000{NNBSP}000 victoires"


def test_french_typography_puts_no_break_spaces_before_double_punctuation():
    assert t("error.cannot_check", "fr", to_call=6) == f"Tu ne peux pas dire parole{NBSP}: 6 à suivre"
    assert t("elimination.winner", "fr", name="Alice") == f"Alice remporte le tournoi{NNBSP}!"
    assert "«\u00a0Gérer le serveur\u00a0»" in t("error.not_manager", "fr")


def test_names_given_as_parameters_are_left_untouched_by_french_typography():
    assert t("event.fold", "fr", name="Bob ! ?") == "Bob ! ? se couche"


def test_missing_french_key_falls_back_to_english_and_is_logged_once(monkeypatch, caplog):
    real = i18n.catalogue
    french = dict(real("fr"))
    del french["error.min_raise"]
    monkeypatch.setattr(i18n, "catalogue", lambda language: french if language == "fr" else real(language))
    with caplog.at_level(logging.WARNING, logger="bot.render.i18n"):
        first = t("error.min_raise", "fr", amount=22)
        second = t("error.min_raise", "fr", amount=24)
    assert first == "Minimum raise is to 22"
    assert second == "Minimum raise is to 24"
    warnings = [r for r in caplog.records if "error.min_raise" in r.getMessage()]
    assert len(warnings) == 1
    assert "fr" in warnings[0].getMessage()


def test_unknown_key_returns_the_key_and_is_logged_once(caplog):
    with caplog.at_level(logging.WARNING, logger="bot.render.i18n"):
        assert t("no.such.key", "fr") == "no.such.key"
        assert t("no.such.key", "en", amount=3) == "no.such.key"
    assert len([r for r in caplog.records if "no.such.key" in r.getMessage()]) == 1


def test_missing_parameter_leaves_the_placeholder_and_never_crashes(caplog):
    with caplog.at_level(logging.WARNING, logger="bot.render.i18n"):
        assert t("error.min_raise", "en") == "Minimum raise is to {amount}"
    assert any("amount" in r.getMessage() for r in caplog.records)


def test_unknown_placeholder_in_a_translation_never_crashes(monkeypatch):
    real = i18n.catalogue
    french = dict(real("fr"))
    french["error.min_raise"] = "Relance minimum : {montant} {0} {amount.x} {amount[0]}"
    monkeypatch.setattr(i18n, "catalogue", lambda language: french if language == "fr" else real(language))
    text = t("error.min_raise", "fr", amount=22)
    assert text.startswith("Relance minimum")
    assert "{montant}" in text


def test_malformed_template_is_returned_as_is(monkeypatch):
    real = i18n.catalogue
    french = dict(real("fr"))
    french["error.min_raise"] = "Relance minimum : {amount"
    monkeypatch.setattr(i18n, "catalogue", lambda language: french if language == "fr" else real(language))
    assert t("error.min_raise", "fr", amount=22).startswith("Relance minimum")


def test_extra_parameters_are_ignored():
    assert t("button.fold", "en", amount=3, name="x") == "Fold"


def test_parameters_named_key_or_locale_do_not_clash():
    assert t("history.not_found", "en", number=4, key="k", locale="fr") == "No hand #4 at this table."


# Discord's rules for localized option names: 1-32 chars, lowercase, letters/digits/-/_ only.
_OPTION_NAME = re.compile(r"^[-_\w]{1,32}$")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_command_texts_fit_discord_rules(language):
    for key, text in catalogue(language).items():
        if key.startswith("cmd.") and ".opt." in key and key.endswith(".name"):
            assert _OPTION_NAME.match(text) and text == text.lower(), (key, text)
        elif key.startswith("cmd.") or key.startswith("choice."):
            assert 1 <= len(t(key, language)) <= 100, (key, text)


def test_option_names_are_unique_within_each_command():
    for language in ("en", "fr"):
        by_command: dict[str, list[str]] = {}
        for key, text in catalogue(language).items():
            if key.startswith("cmd.") and ".opt." in key and key.endswith(".name"):
                by_command.setdefault(key.split(".opt.")[0], []).append(text)
        for command, names in by_command.items():
            assert len(names) == len(set(names)), (language, command)


def test_english_option_names_are_the_python_parameter_names():
    for key, text in catalogue("en").items():
        if key.startswith("cmd.") and ".opt." in key and key.endswith(".name"):
            assert key.split(".opt.")[1] == text + ".name"


def test_renderings_are_remembered_per_parameter_type():
    """The cache never mixes values that compare equal but render differently (True == 1)."""
    key = next(k for k, v in i18n.catalogue("en").items() if isinstance(v, str) and "{amount}" in v)
    assert t(key, "en", amount=1) != t(key, "en", amount=True)
    assert t(key, "en", amount=1200) == t(key, "en", amount=1200)
    assert "1,200" in t(key, "en", amount=1200)
    assert t(key, "fr", amount=1200) != t(key, "en", amount=1200)
