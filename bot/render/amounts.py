"""The one reader of chip amounts typed by a person (the Bet…/Raise… form, `/bet` and `/raise` autocomplete).

What is read, and nothing else:

- ASCII digits `0`–`9` (never other scripts' digits: Arabic-Indic "١٤", full-width "８", superscripts...);
- optionally grouped by thousands with the reader's separator: a comma in English ("1,000"), a space in both
  languages ("1 000"; ordinary, no-break U+00A0 or narrow no-break U+202F space, as Discord shows French
  numbers). The first group has 1 to 3 digits, every later one exactly 3, with one separator throughout. A
  comma is a decimal mark in French and a point one in English, so "1,5" (fr) and "1.000" (en) are refused;
- one leading "-": a negative amount is still a number, which the engine answers with the minimum;
- ordinary spaces around it.

Refused (None): "+12", "1_0", "1e3", "12.5", line breaks or tabs ("16\\n"), and any text longer than
`AMOUNT_TEXT_MAX` characters, which is refused before it is read (so a 5,000-digit paste costs nothing).
"""

from __future__ import annotations

import re

from bot.render.i18n import ENGLISH, FRENCH, Locale, normalize_locale

#: Longest amount text read: 2**53 (Discord's largest integer, 16 digits) with 5 separators, a sign and spaces.
AMOUNT_TEXT_MAX = 24

_SPACE = "[ \u00a0\u202f]"
_PLAIN = "[0-9]+"
_SPACED = f"[0-9]{{1,3}}(?:{_SPACE}[0-9]{{3}})+"
_COMMAS = "[0-9]{1,3}(?:,[0-9]{3})+"
_AMOUNT = {
    FRENCH: re.compile(f"-?(?:{_PLAIN}|{_SPACED})"),
    ENGLISH: re.compile(f"-?(?:{_PLAIN}|{_SPACED}|{_COMMAS})"),
}


def parse_amount(text: str, locale: Locale = "en") -> int | None:
    """The whole number of chips in `text` as a reader in `locale` types it (see the module's rules): "1,000"
    (en), "1 000" (fr, en), "1000", "-5" (-5), "0" (0); None when it is not written that way or is longer than
    `AMOUNT_TEXT_MAX` characters. The caller decides what a zero or negative amount means."""
    if not isinstance(text, str) or len(text) > AMOUNT_TEXT_MAX:
        return None
    match = _AMOUNT[normalize_locale(locale)].fullmatch(text.strip(" "))
    if match is None:
        return None
    return int(re.sub(f",|{_SPACE}", "", match[0]))
