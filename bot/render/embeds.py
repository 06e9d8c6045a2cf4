"""Embeds as plain data (`EmbedSpec`) and Discord's size limits, enforced by construction.

The Discord layer turns a spec into a `discord.Embed` with `discord.Embed.from_dict(spec.to_dict())`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from bot.render.i18n import Locale, t

# Discord's limits (characters).
CONTENT_MAX = 2000
TITLE_MAX = 256
DESCRIPTION_MAX = 4096
FIELDS_MAX = 25
FIELD_NAME_MAX = 256
FIELD_VALUE_MAX = 1024
FOOTER_MAX = 2048
EMBED_TOTAL_MAX = 6000
BUTTON_LABEL_MAX = 80
MODAL_TITLE_MAX = 45
TEXT_INPUT_LABEL_MAX = 45
TEXT_INPUT_PLACEHOLDER_MAX = 100
NAME_MAX = 32  # a display name is cut to this many characters before escaping

ELLIPSIS = "…"

COLOR_TABLE = 0x2E7D32  # felt green: a hand in play
COLOR_IDLE = 0x607D8B  # grey: waiting for players
COLOR_SHOWDOWN = 0xF9A825  # gold: pots awarded
COLOR_INFO = 0x1E88E5  # blue: standings, stats, history
COLOR_ERROR = 0xC62828


@dataclass(frozen=True)
class EmbedField:
    """One embed field: name <= 256 chars, value <= 1024 chars (`make_embed` enforces it)."""

    name: str
    value: str
    inline: bool = False


@dataclass(frozen=True)
class EmbedSpec:
    """An embed as plain data. Build it with `make_embed` to have every Discord limit respected."""

    title: str
    description: str = ""
    fields: tuple[EmbedField, ...] = field(default=())
    footer: str = ""
    color: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The Discord API shape, accepted by `discord.Embed.from_dict`."""
        data: dict[str, Any] = {"type": "rich", "title": self.title}
        if self.description:
            data["description"] = self.description
        if self.fields:
            data["fields"] = [{"name": f.name, "value": f.value, "inline": f.inline} for f in self.fields]
        if self.footer:
            data["footer"] = {"text": self.footer}
        if self.color is not None:
            data["color"] = self.color
        return data

    def total_length(self) -> int:
        """Characters Discord counts against the 6,000 limit (title, description, fields, footer)."""
        return (
            len(self.title)
            + len(self.description)
            + sum(len(f.name) + len(f.value) for f in self.fields)
            + len(self.footer)
        )


def clamp(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters, ending with "…" when cut."""
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 1)].rstrip() + ELLIPSIS


def clamp_lines(lines: Sequence[str], limit: int, locale: Locale, *, keep: str = "first") -> str:
    """Join `lines` with newlines within `limit` characters. Lines that do not fit are dropped (the last ones
    with keep="first", the first ones with keep="last") and replaced by "… and N more lines"."""
    text = "\n".join(lines)
    if len(text) <= limit:  # then every line fits too: nothing to cut
        return text
    lines = [clamp(line, limit) for line in lines]
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    order = lines if keep == "first" else lines[::-1]
    for shown in range(len(order) - 1, -1, -1):
        note = t("common.more_lines", locale, count=len(order) - shown)
        kept = [*order[:shown], note]
        if keep != "first":
            kept.reverse()
        text = "\n".join(kept)
        if len(text) <= limit:
            return text
    return clamp(t("common.more_lines", locale, count=len(order)), limit)


def make_embed(
    title: str,
    description: str = "",
    fields: Iterable[EmbedField] = (),
    footer: str = "",
    color: int | None = None,
) -> EmbedSpec:
    """An `EmbedSpec` cut to Discord's limits: each part to its own limit, at most 25 fields, and the whole
    to 6,000 characters (fields dropped from the end, then the description shortened)."""
    title = clamp(title, TITLE_MAX) or ELLIPSIS
    description = clamp(description, DESCRIPTION_MAX)
    footer = clamp(footer, FOOTER_MAX)
    kept = [
        EmbedField(clamp(f.name, FIELD_NAME_MAX) or ELLIPSIS, clamp(f.value, FIELD_VALUE_MAX) or ELLIPSIS, f.inline)
        for f in list(fields)[:FIELDS_MAX]
    ]
    spec = EmbedSpec(title, description, tuple(kept), footer, color)
    while spec.total_length() > EMBED_TOTAL_MAX and kept:
        kept.pop()
        spec = EmbedSpec(title, description, tuple(kept), footer, color)
    excess = spec.total_length() - EMBED_TOTAL_MAX
    if excess > 0:
        spec = EmbedSpec(title, clamp(description, max(0, len(description) - excess)), (), footer, color)
    return spec


def embed_dict(
    title: str,
    description: str = "",
    fields: Sequence[tuple[str, str]] = (),
    footer: str = "",
    color: int | None = None,
) -> dict[str, Any]:
    """`make_embed(title, description, fields, footer, color).to_dict()` (fields: (name, value) pairs, not inline),
    built directly when every part is already within Discord's limits (what a table message always is: nothing
    to cut, no spec to build), else by `make_embed`. A fresh dict every time: the caller's to change."""
    total = len(title) + len(description) + len(footer)
    fits = 0 < len(title) <= TITLE_MAX and len(description) <= DESCRIPTION_MAX and len(footer) <= FOOTER_MAX
    for name, value in fields:
        total += len(name) + len(value)
        fits = fits and 0 < len(name) <= FIELD_NAME_MAX and 0 < len(value) <= FIELD_VALUE_MAX
    if not fits or total > EMBED_TOTAL_MAX or len(fields) > FIELDS_MAX:
        return make_embed(title, description, [EmbedField(n, v) for n, v in fields], footer, color).to_dict()
    data: dict[str, Any] = {"type": "rich", "title": title}
    if description:
        data["description"] = description
    if fields:
        data["fields"] = [{"name": name, "value": value, "inline": False} for name, value in fields]
    if footer:
        data["footer"] = {"text": footer}
    if color is not None:
        data["color"] = color
    return data


_MARKDOWN = re.compile(r"([\\*_~`|>\[\]#])")


#: Invisible format characters (Unicode category Cf) that a name may keep: the zero-width joiner and non-joiner
#: that emoji sequences and some scripts need, and the tag characters of subdivision flags (🏴 + tags).
_KEPT_FORMAT = frozenset({"\u200c", "\u200d", *map(chr, range(0xE0020, 0xE0080))})


def _visible(char: str) -> bool:
    return char in _KEPT_FORMAT or unicodedata.category(char) != "Cf"


def strip_invisible(text: str) -> str:
    """`text` without the invisible format characters that can forge what a reader sees: every bidirectional
    control (U+202E right-to-left override and the rest of Unicode's Bidi_Control set: U+061C, U+200E/F,
    U+202A–U+202E, U+2066–U+2069) and the other characters of category Cf (zero-width space, word joiner,
    soft hyphen, BOM, interlinear annotations...), except `_KEPT_FORMAT`."""
    if text.isascii():
        return text
    return "".join(char for char in text if _visible(char))


#: How many escaped names `escape_name` remembers (the same players' names are shown at every action).
NAME_CACHE_SIZE = 2048


@lru_cache(maxsize=NAME_CACHE_SIZE)
def escape_name(name: str, max_length: int = NAME_MAX) -> str:
    """A display name safe to put in a message: invisible format characters removed (`strip_invisible`: no
    right-to-left override can reverse the text after it), one line, at most `max_length` characters (+ "…"),
    Discord markdown escaped, and @mentions neutralised (a zero-width space after "@"). Remembered
    (`NAME_CACHE_SIZE` names)."""
    one_line = " ".join(strip_invisible(name).split()) or "?"
    short = clamp(one_line, max_length)
    return _MARKDOWN.sub(r"\\\1", short).replace("@", "@\u200b")


def discord_timestamp(unix_seconds: float, style: str = "R") -> str:
    """A Discord timestamp tag, shown in each reader's own time and language: 1700000000 -> "<t:1700000000:R>"."""
    return f"<t:{int(unix_seconds)}:{style}>"
