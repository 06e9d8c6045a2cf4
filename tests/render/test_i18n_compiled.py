"""Templates compiled once render exactly as `string.Formatter` read them at every rendering (issue 14: the
catalogue's formatting made cheaper without changing one character), and numbers are grouped exactly as Babel
groups them."""

from __future__ import annotations

import pytest
from babel.numbers import format_decimal
from hypothesis import given
from hypothesis import strategies as st

from bot.render import i18n
from bot.render.i18n import Rank, catalogue, format_number, placeholders, t


@pytest.fixture(autouse=True)
def fresh_renderings():
    i18n.clear_render_cache()
    yield
    i18n.clear_render_cache()


def formatter_text(template: str, language: str, key: str, params: dict[str, object]) -> str:
    """What `string.Formatter` (the catalogue's formatter, `_Formatter`) makes of a template: the reference."""
    text = i18n.french_spacing(template) if language == "fr" else template
    try:
        return i18n._Formatter(language, key).vformat(text, (), params)
    except (ValueError, IndexError, KeyError, AttributeError):
        return text


class Shown:
    """A parameter that is neither a number nor a string: rendered with its own `__format__`."""

    def __format__(self, spec: str) -> str:
        return f"<{spec}>"


#: Values of every kind a template's field formats apart (ints of both signs and sizes, bools, strings with
#: braces and capitals, a float, a rank, an object with its own format).
VALUES: tuple[object, ...] = (0, 7, -1234, 98_765_432, True, False, "Élodie {x}", "A", 2.5, Rank(14), Shown())


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_catalogue_template_renders_as_the_formatter_read_it(language):
    checked = 0
    for key, entry in catalogue(language).items():
        templates = entry.values() if isinstance(entry, dict) else (entry,)
        names = sorted(placeholders(entry))
        for index in range(len(VALUES)):
            params: dict[str, object] = {name: VALUES[(index + k) % len(VALUES)] for k, name in enumerate(names)}
            if names and index % 3 == 0:
                del params[names[-1]]  # a missing parameter: "{name}"
            if isinstance(entry, dict):
                params["count"] = (1, 2, 0)[index % 3]
            got = t(key, language, **params)
            form = i18n._choose_plural(entry, language, params.get("count")) if isinstance(entry, dict) else entry
            assert form in templates
            assert got == formatter_text(form, language, key, params), (key, params)
            checked += 1
    assert checked > 7000


ODD_TEMPLATES = (
    "{{literal}} {amount} }}{{",
    "{amount!r} and {amount!s}",
    "{amount:>8} {amount:x} {amount:.2f}",
    "{} {}",
    "{0} {amount}",
    "{amount.real} {amount[0]}",
    "unclosed {amount",
    "stray } brace",
    "{amount:{width}}",
    "{amount:raw} {amount:lower} {name:lower} {name:raw} {name:bad spec}",
    "",
    "{name}{name}{amount}",
    "a « b » : c ; d ! e ? f",
)


@pytest.mark.parametrize("template", ODD_TEMPLATES)
@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("amount", [5_000, "Abc", 1.5, True])
def test_odd_templates_render_as_the_formatter_read_them(monkeypatch, template, language, amount):
    real = i18n.catalogue
    swapped = {language: {**real(language), "test.odd": template}}
    monkeypatch.setattr(i18n, "catalogue", lambda lang: swapped.get(lang) or real(lang))
    params = {"amount": amount, "name": "Zoé", "width": 6}
    assert t("test.odd", language, **params) == formatter_text(template, language, "test.odd", params)


@given(st.integers(min_value=-(10**25) + 1, max_value=10**25 - 1), st.sampled_from(["en", "fr"]))
def test_numbers_are_grouped_as_babel_groups_them(n, language):
    assert format_number(n, language) == format_decimal(n, locale=language)
