"""Table settings from a server's defaults and the options of `/poker create` or `/poker-admin settings`.

A server's table defaults (`GuildSettings.table_defaults`: small_blind, big_blind, starting_stack,
turn_timeout, min_buy_in, max_buy_in) describe stacks at its default blinds; a table created at other blinds
keeps the same stacks counted in big blinds. A default the server lacks is the one of `bot/tables/options.py`
(the one set of numbers: 100 chips at 1/2 = 50 BB, buy-in 20 to 50 BB).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from bot.poker import TableKind
from bot.render.announce import render_level_blinds
from bot.render.i18n import Locale
from bot.render.standings import language_in_force
from bot.storage import GuildSettings
from bot.tables import TableOptions
from bot.tables.errors import ServiceError
from bot.tables.options import (
    DEFAULT_BIG_BLIND,
    DEFAULT_SMALL_BLIND,
    DEFAULT_TURN_TIMEOUT,
    MAX_BUY_IN_BB,
    MIN_BUY_IN_BB,
    STACK_BB,
    rescaled,
)

#: The largest stored default read as a number (Discord's largest integer).
STORED_MAX = 2**53 - 1


def stored(defaults: Mapping[str, Any], key: str) -> int | None:
    """A server's stored table default `key` if it is a whole number of 1 to STORED_MAX, else None: defaults
    stored before every option was checked at the command's door may hold a float such as 1e+20 (issue 12)."""
    value = defaults.get(key)
    return value if type(value) is int and 1 <= value <= STORED_MAX else None


def _stored_or(defaults: Mapping[str, Any], key: str, fallback: int) -> int:
    value = stored(defaults, key)
    return fallback if value is None else value


def _scaled(defaults: Mapping[str, Any], key: str, in_big_blinds: int, big_blind: int) -> int:
    """The server's default `key` (a stack at its default big blind) at `big_blind`; `in_big_blinds` big blinds
    when it has none."""
    value = stored(defaults, key)
    if value is None:
        return in_big_blinds * big_blind
    return rescaled(value, _stored_or(defaults, "big_blind", DEFAULT_BIG_BLIND), big_blind)


def _blinds(defaults: Mapping[str, Any], small_blind: int | None, big_blind: int | None) -> tuple[int, int]:
    if small_blind is None and big_blind is None:
        return _stored_or(defaults, "small_blind", DEFAULT_SMALL_BLIND), _stored_or(
            defaults, "big_blind", DEFAULT_BIG_BLIND
        )
    if big_blind is None:
        assert small_blind is not None
        return small_blind, 2 * small_blind
    if small_blind is None:
        return max(1, big_blind // 2), big_blind
    return small_blind, big_blind


def table_options(
    defaults: Mapping[str, Any],
    *,
    kind: TableKind = TableKind.CASH,
    small_blind: int | None = None,
    big_blind: int | None = None,
    stack: int | None = None,
    min_buy_in: int | None = None,
    max_buy_in: int | None = None,
    seats: int | None = None,
    timer: int | None = None,
    ante: int | None = None,
    big_blind_ante: int | None = None,
    straddle: bool | None = None,
    run_it_twice: bool | None = None,
    betting: str | None = None,
    dead_button: bool | None = None,
    missed_blinds: bool | None = None,
    time_bank: int | None = None,
    pictures: bool | None = None,
    four_colour: bool | None = None,
) -> TableOptions:
    """Validated `TableOptions` for `/poker create`: each option given wins, the server's defaults fill the
    rest (stacks scaled to the blinds; pictures on unless the server turned them off). Only one blind given:
    the other is half / double it. `stack` is the
    tournament's starting stack or the cash table's default buy-in (the buy-in range widens to include it
    unless given). Raises ServiceError("bad_option") naming the first setting out of range, and
    ServiceError("cash_table_option") for a buy-in limit given to a tournament (its players all start with
    `stack`: a limit would do nothing)."""
    if kind in tuple(TableKind):  # its string ("tournament") is read as the member, as TableOptions reads it
        kind = TableKind(kind)
    if kind is not TableKind.CASH:
        for option, value in (("min_buy_in", min_buy_in), ("max_buy_in", max_buy_in)):
            if value is not None:
                raise ServiceError("cash_table_option", option=option)
    sb, bb = _blinds(defaults, small_blind, big_blind)
    default_stack = _scaled(defaults, "starting_stack", STACK_BB, bb)
    low = min_buy_in if min_buy_in is not None else _scaled(defaults, "min_buy_in", MIN_BUY_IN_BB, bb)
    high = max_buy_in if max_buy_in is not None else _scaled(defaults, "max_buy_in", MAX_BUY_IN_BB, bb)
    if stack is not None and kind is TableKind.CASH:
        low = low if min_buy_in is not None else min(low, stack)
        high = high if max_buy_in is not None else max(high, stack)
    # A tournament's `stack` is its starting stack only: its buy-in range (a cash table's) must not refuse it.
    buy_in = stack if stack is not None and kind is TableKind.CASH else min(max(default_stack, low), high)
    settings: dict[str, Any] = {
        "kind": kind,
        "small_blind": sb,
        "big_blind": bb,
        "starting_stack": stack if stack is not None else default_stack,
        "buy_in": buy_in,
        "min_buy_in": low,
        "max_buy_in": high,
        "turn_timeout": timer if timer is not None else _stored_or(defaults, "turn_timeout", DEFAULT_TURN_TIMEOUT),
        "ante": ante or 0,
        "big_blind_ante": big_blind_ante or 0,
        "straddle": bool(straddle),
        "run_it_twice": bool(run_it_twice),
        "betting": betting or "no-limit",
        "dead_button": bool(dead_button),
        "missed_blinds": bool(missed_blinds),
        "pictures": pictures if pictures is not None else defaults.get("pictures") is not False,
        "four_colour": bool(four_colour),
    }
    if time_bank is not None:
        settings["time_bank"] = time_bank
    if seats is not None:
        settings["seats"] = seats
    return TableOptions(**settings).validated()


def changed_defaults(
    defaults: Mapping[str, Any],
    *,
    small_blind: int | None = None,
    big_blind: int | None = None,
    stack: int | None = None,
    timer: int | None = None,
    pictures: bool | None = None,
) -> dict[str, Any]:
    """The table defaults to store after `/poker-admin settings` (only the keys that change). New blinds scale the
    buy-in range (and the stack, unless given) so they keep their size in big blinds; `pictures` False turns the
    table pictures off for the server's tables. Raises ServiceError("bad_option") when the result would not make
    a valid table."""
    changes: dict[str, Any] = {}
    if pictures is not None:
        changes["pictures"] = pictures
    if small_blind is not None or big_blind is not None:
        sb, bb = _blinds(defaults, small_blind, big_blind)
        changes.update(small_blind=sb, big_blind=bb)
        for key, in_big_blinds in (
            ("min_buy_in", MIN_BUY_IN_BB),
            ("max_buy_in", MAX_BUY_IN_BB),
            ("starting_stack", STACK_BB),
        ):
            changes[key] = _scaled(defaults, key, in_big_blinds, bb)
    if stack is not None:
        changes["starting_stack"] = stack
    if timer is not None:
        changes["turn_timeout"] = timer
    table_options({**defaults, **changes})  # validates: raises bad_option
    return changes


def table_language(settings: GuildSettings, guild_locale: Locale) -> str:
    """The language of a new table: the server's `/poker-admin settings language` when it chose one (even the bot's
    default), else the server's Discord language (English or French), else the bot's default — the rule of
    `bot.render.language_in_force`, which `/poker-admin settings` shows with its reason."""
    return language_in_force(settings.chosen_language, guild_locale, settings.language)[0]


_LEVEL = re.compile(r"^\s*(\d{1,9})\s*/\s*(\d{1,9})\s*(?:/\s*(\d{1,9})\s*)?$")


def parse_levels(text: str) -> tuple[tuple[int, int, int], ...] | None:
    """Blind levels typed as "1/2, 2/4, 5/10/1" (small blind/big blind[/ante], separated by commas or
    semicolons) -> ((1, 2, 0), (2, 4, 0), (5, 10, 1)); None when the text is not that (the table service then
    checks the values themselves)."""
    levels = []
    for part in re.split(r"[,;]", text):
        if not part.strip():
            continue
        match = _LEVEL.match(part)
        if match is None:
            return None
        levels.append((int(match[1]), int(match[2]), int(match[3] or 0)))
    return tuple(levels) or None


def levels_text(levels: tuple[tuple[int, int, int], ...], locale: Locale) -> str:
    """Levels in order, each written as the table and the level-up notices write it: "1/2 → 2/4 → 5/10, ante 1"
    (never the typed shorthand "5/10/1", whose third number a spectator cannot read)."""
    return " → ".join(render_level_blinds(level, locale) for level in levels)
