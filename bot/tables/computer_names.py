"""Who a computer player is, from its user id alone (issue 17; docs/practice.md): its level and seat, and its name
in a language — "🤖 Solid 3" / "🤖 Solide 3".

A computer player's name is never read from stored text: every place that shows one (the table, announcements,
/history, /stats, the PHH file) derives it from the id in the reader's language, so a French reader sees the rule
book's words even for a table opened in English. Kept apart from bot/tables/computers.py so that the table state
(which names players) can use it without importing the computer players' play.
"""

from __future__ import annotations

from functools import lru_cache

from bot.poker.players import Level
from bot.render.i18n import Locale, normalize_locale, t
from bot.storage import is_computer_player

__all__ = ["computer_display_name", "computer_id", "computer_level", "computer_name"]

_CODES = {Level.BEGINNER: 1, Level.SOLID: 2}
_LEVELS = {code: level for level, code in _CODES.items()}


def computer_id(level: Level, seat: int) -> int:
    """The user id of a computer player of `level` (beginner or solid) at `seat`: -(1000 x level code + seat),
    e.g. -2003. Raises KeyError for a level that is never seated (the baselines)."""
    return -(1000 * _CODES[level] + seat)


def computer_level(user_id: int) -> Level | None:
    """The level of a computer player's user id, None for a member (or the house, or an unknown code)."""
    if not is_computer_player(user_id):
        return None
    return _LEVELS.get(-user_id // 1000)


@lru_cache(maxsize=256)
def _name(level: Level, seat: int, language: str) -> str:
    return t("computer.name", language, level=t(f"computer.level.{level.value}", language), seat=seat)


def computer_name(level: Level, seat: int, language: Locale) -> str:
    """Its name, marked as a computer player, in `language` (any spelling `bot.render.i18n` reads; English when
    unknown): "🤖 Solid 3" / "🤖 Solide 3"."""
    return _name(level, seat, normalize_locale(language))


def computer_display_name(user_id: int, language: Locale = "en") -> str | None:
    """The name of a computer player from its user id alone, in `language`; None for a member."""
    level = computer_level(user_id)
    return None if level is None else computer_name(level, -user_id % 1000, language)
