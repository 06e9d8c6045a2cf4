"""Message catalogues (English, French) and locale-aware formatting: `t()`, `format_chips()`, ordinals.

The catalogues are the JSON files in `bot/render/locales/` (`en.json` is the reference, `fr.json` its
translation), flat maps from a dotted key to a template in `str.format` syntax (`"Minimum raise is to
{amount}"`). A value may also be a plural map `{"one": ..., "other": ...}` chosen by the `count` parameter
with the CLDR rules of Babel. Lookups never raise: a key missing in French falls back to English, a key
missing everywhere renders as the key itself, an unknown placeholder stays as `{name}`; each such gap is
logged once.

Formatting of parameters inside templates:
- `int` values are formatted as numbers of the locale (`1,000` / `1 000` with U+202F in French);
  `{n:raw}` keeps the digits as they are (for ids, seat numbers are small anyway);
- `Rank(14)` values take their grammatical form from the catalogue: `{r:name}` "ace"/"as",
  `{r:plural}` "aces"/"as", `{r:high}` "ace high"/"à l'as", `{r:of}` "of aces"/"d'as";
- `{text:lower}` lowercases the first letter of a string (a hand name inside a French sentence).
"""

from __future__ import annotations

import json
import logging
import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import Any, Protocol, TypeAlias

from babel import Locale as BabelLocale
from babel.lists import format_list
from babel.numbers import format_decimal, get_group_symbol, get_minus_sign_symbol, parse_pattern

log = logging.getLogger(__name__)

ENGLISH = "en"
FRENCH = "fr"
LANGUAGES: tuple[str, ...] = (ENGLISH, FRENCH)

# French typography wants a no-break space before ":" and a narrow one before ";", "!" and "?".
# Applied to the French templates (never to the parameters: names are left as typed).
_FRENCH_SPACES = (
    (" :", "\u00a0:"),
    (" ;", "\u202f;"),
    (" !", "\u202f!"),
    (" ?", "\u202f?"),
    ("« ", "«\u00a0"),
    (" »", "\u00a0»"),
)

_warned: set[tuple[str, ...]] = set()


class LocaleEnum(Protocol):
    """A locale given as an enum whose value is its spelling: `discord.Locale.french` (value "fr")."""

    @property
    def value(self) -> str: ...


#: Whatever names a reader's language: a spelling ("fr", "fr-FR", "en_US"), `discord.Locale` (an interaction's
#: `locale` / `guild_locale`), or None (unknown: English). `normalize_locale` maps it to a catalogue language.
Locale: TypeAlias = str | LocaleEnum | None


def locale_language(locale: Locale) -> str | None:
    """The catalogue language a locale spelling names, or None: "fr", "fr-FR", "fr_CA", `discord.Locale.french`
    -> "fr"; "en-US", "en-GB" -> "en"; None, "de", ... -> None."""
    value: object = getattr(locale, "value", locale)  # never raises, whatever a caller passed
    if isinstance(value, str):
        primary = value.strip().replace("_", "-").split("-", 1)[0].lower()
        if primary in (ENGLISH, FRENCH):
            return primary
    return None


def normalize_locale(locale: Locale) -> str:
    """Map any locale spelling to a catalogue language: "fr", "fr-FR", "fr_CA", `discord.Locale.french`
    -> "fr"; anything else (None, "en-US", "en-GB", "de", ...) -> "en". Remembered per spelling (`_LANGUAGES`:
    every rendering asks)."""
    try:
        return _LANGUAGES[locale]
    except KeyError:
        language = locale_language(locale) or ENGLISH
        if len(_LANGUAGES) < _LANGUAGES_MAX:
            _LANGUAGES[locale] = language
        return language
    except TypeError:  # not hashable: never a real locale, worked out every time (never raises)
        return locale_language(locale) or ENGLISH


#: The catalogue language of each locale spelling seen (`normalize_locale`), at most `_LANGUAGES_MAX`.
_LANGUAGES: dict[object, str] = {}
_LANGUAGES_MAX = 256


@cache
def _babel_locale(language: str) -> BabelLocale:
    return BabelLocale.parse(language)


@cache
def catalogue(language: str) -> Mapping[str, str | Mapping[str, str]]:
    """The raw catalogue of one language ("en" or "fr") as loaded from its JSON file (read-only use)."""
    text = resources.files("bot.render").joinpath("locales", f"{language}.json").read_text(encoding="utf-8")
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError(f"catalogue {language}.json is not a JSON object")
    return data


def _warn_once(*what: str) -> None:
    if what not in _warned:
        _warned.add(what)
        log.warning(what[0], *what[1:])


@dataclass(frozen=True)
class Rank:
    """A card rank (2..14, ace 14) given to a template, which picks its grammatical form with a format spec."""

    value: int


class _Missing:
    def __init__(self, name: str) -> None:
        self.name = name


class _Formatter(string.Formatter):
    def __init__(self, language: str, key: str) -> None:
        super().__init__()
        self.language = language
        self.key = key

    def get_field(self, field_name: str, args: Any, kwargs: Any) -> tuple[Any, str]:
        # Only plain names: templates never reach into attributes or indexes of parameters.
        if field_name in kwargs:
            return kwargs[field_name], field_name
        _warn_once("Catalogue %s/%s: no parameter %r given", self.language, self.key, field_name)
        return _Missing(field_name), field_name

    def format_field(self, value: Any, format_spec: str) -> str:
        return _format_value(value, format_spec, self.language, self.key)


def _format_value(value: object, format_spec: str, language: str, key: str) -> str:
    """A parameter as a template's field shows it (see the module docstring): numbers of the locale, ranks' forms,
    `lower`, `raw`; anything else with `format` (a bad spec logged once, the value shown as `str`)."""
    if isinstance(value, _Missing):
        return "{" + value.name + "}"
    if isinstance(value, Rank):
        return t(f"rank.{value.value}.{format_spec or 'name'}", language)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return str(value) if format_spec == "raw" else format_number(value, language)
    if format_spec == "lower":
        text = str(value)
        return text[:1].lower() + text[1:]
    if format_spec == "raw":
        return str(value)
    try:
        return str(format(value, format_spec))
    except (ValueError, TypeError):
        _warn_once("Catalogue %s/%s: bad format spec %r", language, key, format_spec)
        return str(value)


def _choose_plural(value: Mapping[str, str], language: str, count: object) -> str:
    form = "other"
    if isinstance(count, int) and not isinstance(count, bool):
        form = _babel_locale(language).plural_form(abs(count))
    return value.get(form) or value.get("other") or next(iter(value.values()), "")


def t(key: str, locale: Locale = ENGLISH, /, **params: object) -> str:
    """Render the catalogue message `key` in `locale` (any spelling, see `normalize_locale`) with `params`.

    Never raises: a missing French key uses the English one, a key missing in English too returns the key
    itself, an unknown placeholder is left as `{name}`, a malformed template is returned unformatted; each
    gap is logged once. A plural entry is chosen by the `count` parameter. Renderings of hashable parameters
    are remembered (`RENDER_CACHE_SIZE` most recent): a table message asks for the same seat lines, labels
    and amounts at every action.
    """
    language = normalize_locale(locale)
    if not params:
        return _render_cached(key, language, (), ())
    try:
        # The types are part of the key: True and 1, or 1.0 and 1, are equal and hash alike but render apart.
        return _render_cached(key, language, tuple(params.items()), tuple(map(type, params.values())))
    except TypeError:  # an unhashable parameter (a list, a dict): rendered every time
        return _render(key, language, params)


def t_uncached(key: str, locale: Locale = ENGLISH, /, **params: object) -> str:
    """`t` without its memory: the same text (same fallbacks, never raises), not remembered. For a text whose
    caller remembers it itself (a line of the table message) or that will not come back (a deadline in it): the
    cache of `t` then keeps the texts that do."""
    return _render(key, normalize_locale(locale), params)


#: How many renderings `t` remembers (about 1 MiB when full; one table message needs a few dozen).
RENDER_CACHE_SIZE = 2048
#: How many numbers formatted by Babel are remembered (only for a language whose grouping `_int_symbols` can't
#: write itself, and for int subclasses).
NUMBER_CACHE_SIZE = 1024


@lru_cache(maxsize=RENDER_CACHE_SIZE)
def _render_cached(key: str, language: str, params: tuple[tuple[str, object], ...], _types: tuple[type, ...]) -> str:
    return _render(key, language, dict(params))


#: The `cache_clear` of the caches of rendered text built on `t` elsewhere (`derived_cache`).
_DERIVED_CACHES: list[Callable[[], None]] = []


def derived_cache(cache_clear: Callable[[], None]) -> None:
    """Register a cache of text rendered with `t` (its `cache_clear`): `clear_render_cache` clears it too."""
    _DERIVED_CACHES.append(cache_clear)


def clear_render_cache() -> None:
    """Forget the remembered renderings (for tests that swap a catalogue; catalogues never change at run time),
    those of the caches registered with `derived_cache` too."""
    _render_cached.cache_clear()
    _COMPILED.clear()
    _ENTRIES.clear()
    _format_number.cache_clear()
    _LANGUAGES.clear()
    for cache_clear in _DERIVED_CACHES:
        cache_clear()


def _render(key: str, language: str, params: Mapping[str, object]) -> str:
    try:
        entry, fallback = _ENTRIES[key, language]
    except KeyError:
        entry, fallback = _ENTRIES[key, language] = _entry(key, language)
    if fallback:
        _warn_once("Missing %s translation for %r: using English", language, key)
    if entry is None:
        _warn_once("Unknown catalogue key %r", key)
        return key
    if isinstance(entry, tuple):
        pieces, text = entry
    else:
        template = _choose_plural(entry, language, params.get("count"))
        try:
            pieces, text = _COMPILED[template, language]
        except KeyError:
            pieces, text = _COMPILED[template, language] = _compile(template, language)
    try:
        if pieces is None:
            return _Formatter(language, key).vformat(text, (), params)
        parts: list[str] = []
        for piece in pieces:
            if isinstance(piece, str):
                parts.append(piece)
                continue
            name, spec = piece
            if name not in params:
                _warn_once("Catalogue %s/%s: no parameter %r given", language, key, name)
                parts.append("{" + name + "}")
                continue
            value = params[name]
            kind = value.__class__
            if kind is str and not spec:
                parts.append(value)  # type: ignore[arg-type]
            elif kind is int and spec != "raw":
                parts.append(format_number(value, language))  # type: ignore[arg-type]
            else:
                parts.append(_format_value(value, spec, language, key))
        return "".join(parts)
    except (ValueError, IndexError, KeyError, AttributeError) as exc:
        _warn_once("Catalogue %s/%s: malformed template (%s)", language, key, str(exc))
        return text


#: A catalogue entry as `_render` reads it, by (key, language): the compiled template (a plural entry: its plural
#: map, each form compiled when chosen; None: no such key), and whether it is English standing in for a missing
#: translation. At most every key of both catalogues.
_ENTRIES: dict[tuple[str, str], tuple[_Compiled | Mapping[str, str] | None, bool]] = {}


def _entry(key: str, language: str) -> tuple[_Compiled | Mapping[str, str] | None, bool]:
    """Look `key` up once (a key missing in French: the English entry) and compile a plain template."""
    value = catalogue(language).get(key)
    fallback = False
    if value is None and language != ENGLISH:
        value = catalogue(ENGLISH).get(key)
        fallback = value is not None
    if value is None or isinstance(value, Mapping):
        return value, fallback
    try:
        compiled = _COMPILED[value, language]
    except KeyError:
        compiled = _COMPILED[value, language] = _compile(value, language)
    return compiled, fallback


#: A compiled template: its pieces (a literal text, or a (parameter name, format spec) field) and the template as
#: formatted (French spacing applied). Pieces are None for a template that `string.Formatter` must read itself
#: (malformed, or with a conversion, a nested spec or a positional field: none of the catalogues' templates).
_Compiled: TypeAlias = tuple[tuple[str | tuple[str, str], ...] | None, str]

#: The compiled form of each template seen, by (template, language): at most every template of both catalogues.
_COMPILED: dict[tuple[str, str], _Compiled] = {}


def _compile(template: str, language: str) -> _Compiled:
    """Parse a template once (as `string.Formatter` would at every rendering) into literal and field pieces."""
    text = french_spacing(template) if language == FRENCH else template
    pieces: list[str | tuple[str, str]] = []
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError:
        return None, text
    for literal, name, spec, conversion in parsed:
        if literal:
            pieces.append(literal)
        if name is None:
            continue
        spec = spec or ""
        if not name or name.isdigit() or conversion is not None or "{" in spec:
            return None, text
        pieces.append((name, spec))
    return tuple(pieces), text


def has_key(key: str, locale: Locale) -> bool:
    """Whether the catalogue of `locale` itself (no fallback) has `key`."""
    return key in catalogue(normalize_locale(locale))


def french_spacing(text: str) -> str:
    """Put the no-break spaces French typography wants before ":" (U+00A0) and ";!?" (U+202F)."""
    for plain, fixed in _FRENCH_SPACES:
        text = text.replace(plain, fixed)
    return text


def placeholders(template: str | Mapping[str, str]) -> frozenset[str]:
    """The parameter names a catalogue entry uses (all plural forms together)."""
    texts: Iterable[str] = template.values() if isinstance(template, Mapping) else (template,)
    names: set[str] = set()
    for text in texts:
        for _literal, field, _spec, _conversion in string.Formatter().parse(text):
            if field is not None:
                names.add(field)
    return frozenset(names)


def format_number(n: int, locale: Locale) -> str:
    """An integer with the locale's grouping: 1234567 -> "1,234,567" (en) / "1 234 567" (fr, U+202F)."""
    language = normalize_locale(locale)
    try:
        symbols = _SYMBOLS[language]
    except KeyError:
        symbols = _SYMBOLS[language] = _int_symbols(language)
    if symbols is None or n.__class__ is not int or not -_FAST_LIMIT < n < _FAST_LIMIT:
        return _format_number(n, language)
    text = f"{n:,}"
    group, minus = symbols
    if group != ",":
        text = text.replace(",", group)
    if minus != "-" and n < 0:
        text = minus + text[1:]
    return text


#: `_int_symbols` of each language met.
_SYMBOLS: dict[str, tuple[str, str] | None] = {}


#: Ints up to 24 digits are grouped by `format_number` itself (`_int_symbols` checks that length); longer ones by
#: Babel (beyond 25 digits it raises `decimal.InvalidOperation`: no chip count comes near).
_FAST_LIMIT = 10**24


def _int_symbols(language: str) -> tuple[str, str] | None:
    """The group and minus symbols with which Python's own grouping ("{:,}") writes an int exactly as Babel's
    `format_decimal` does in `language` (what the numbers of every length, both signs, show); None when it does
    not (a locale grouping otherwise: `format_number` then asks Babel, remembering its answers)."""
    babel_locale = _babel_locale(language)
    group, minus = get_group_symbol(babel_locale), get_minus_sign_symbol(babel_locale)
    for digits in range(1, 25):  # the grouping depends only on the number of digits: one number of each length
        for n in (int("1234567890" * 3) // 10 ** (30 - digits), -(int("9876543210" * 3) // 10 ** (30 - digits))):
            text = f"{n:,}".replace(",", group)
            if n < 0:
                text = minus + text[1:]
            if text != format_decimal(n, locale=babel_locale):
                return None
    return group, minus


@lru_cache(maxsize=NUMBER_CACHE_SIZE)
def _format_number(n: int, language: str) -> str:
    return str(format_decimal(n, locale=_babel_locale(language)))


def format_chips(n: int, locale: Locale) -> str:
    """A chip amount (int) as the locale writes numbers; same as `format_number`, named for what it is."""
    return format_number(n, locale)


def format_signed_chips(n: int, locale: Locale) -> str:
    """A chip difference with its sign: +1,200 / −300 (net winnings)."""
    text = format_number(abs(n), locale)
    return f"+{text}" if n > 0 else (f"\u2212{text}" if n < 0 else text)


def format_percent(ratio: float, locale: Locale, digits: int = 1) -> str:
    """A ratio 0..1 as a percentage with `digits` decimals: 0.254 -> "25.4%" / "25,4 %"."""
    babel_locale = _babel_locale(normalize_locale(locale))
    pattern = parse_pattern(babel_locale.percent_formats[None])
    pattern.frac_prec = (digits, digits)
    return str(pattern.apply(ratio, babel_locale))


def format_names(names: Iterable[str], locale: Locale) -> str:
    """Join names as the language does: "Alice, Bob, and Chloé" / "Alice, Bob et Chloé"."""
    items = list(names)
    if not items:
        return ""
    return format_list(items, locale=_babel_locale(normalize_locale(locale)))


def ordinal(n: int, locale: Locale) -> str:
    """A place as an ordinal: 1st 2nd 3rd 4th 11th 21st (en); 1re 2e 3e (fr, feminine: "la 1re place")."""
    if normalize_locale(locale) == FRENCH:
        return f"{n}re" if n == 1 else f"{n}e"
    if 10 <= n % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
