"""Refusals as localized sentences: engine `PokerError`s and table-service errors, by code and params.

Both share the catalogue namespace `error.<code>`, the one place where a refusal's text lives (the engine's codes
are `bot.poker.errors.CODES`, the service's `bot.tables.errors.CODES`; tests check that each has both languages);
the params of the error fill the template. A code the catalogues do not know (a defect those tests catch) falls
back to the error's `str()` and a warning in the log, so a new code never crashes and never shows a raw key.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from bot.poker import PokerError
from bot.render.embeds import CONTENT_MAX, clamp, escape_name
from bot.render.events import Names
from bot.render.i18n import Locale, has_key, t

log = logging.getLogger(__name__)

_ACTIONS = ("fold", "check", "call", "bet", "raise", "all_in")
#: The slash-command option (its localized name) through which a table setting is chosen, when it differs from
#: "cmd.poker.create.opt.<setting>.name".
_SETTING_OPTIONS = {
    "turn_timeout": "cmd.poker.create.opt.timer.name",
    "starting_stack": "cmd.poker.create.opt.stack.name",
    "blind_levels": "cmd.poker.schedule.opt.levels.name",
    "level_length": "cmd.poker.schedule.opt.every.name",
    "level_by": "cmd.poker.schedule.opt.by.name",
}


def render_error(code: str, locale: Locale, params: Mapping[str, object] | None = None, *, fallback: str = "") -> str:
    """The message for refusal `code` with `params` (ints are chips unless the template says otherwise):
    "min_raise" {"amount": 22} -> "Minimum raise is to 22" / "Relance minimum : 22".

    Names in params ("name") are escaped; an "action" param that is an action kind is translated. Unknown
    code: `fallback` when given (the error's English text), else the generic "That is not allowed right now".
    """
    values = dict(params or {})
    if isinstance(values.get("name"), str):
        values["name"] = escape_name(str(values["name"]))
    action = values.get("action")
    if isinstance(action, str) and action.lower() in _ACTIONS:  # an ActionKind is a str too
        values["action"] = t(f"action.{action.lower()}", locale)
    if code in ("bad_option", "cash_table_option") and isinstance(values.get("option"), str):
        _translate_setting(values, locale)
    key = f"error.{code}"
    if not has_key(key, "en"):
        log.warning("No catalogue message for error code %r", code)
        return clamp(fallback or t("error.unknown", locale), CONTENT_MAX)
    return clamp(t(key, locale, **values), CONTENT_MAX)


def render_poker_error(error: PokerError, locale: Locale, names: Names | None = None) -> str:
    """The localized message of a `PokerError` (engine or table service): uses its `code` and `params`,
    falls back to `str(error)`. names: display names by hand player index, to say whose turn it is when
    the engine's "not_your_turn" gives the actor's index."""
    code = error.code
    params: dict[str, object] = dict(error.params)
    actor = params.get("actor")
    if code == "not_your_turn" and names is not None and isinstance(actor, int):
        try:
            name = str(names[actor])
        except (KeyError, IndexError, TypeError):
            name = t("player.fallback", locale, n=actor + 1)
        return render_error("not_your_turn_named", locale, {"name": name})
    return render_error(code, locale, params, fallback=str(error))


def _translate_setting(values: dict[str, object], locale: Locale) -> None:
    """A refused setting ("bad_option", "cash_table_option") in the reader's language: the setting named as its
    command option is (`petite_blind` in French), and what it allows from the catalogue (`allowed.<setting>`, with
    the refusal's numbers)."""
    setting = str(values["option"])
    option_key = _SETTING_OPTIONS.get(setting, f"cmd.poker.create.opt.{setting}.name")
    if has_key(option_key, "en"):
        values["option"] = t(option_key, locale)
    allowed_key = f"allowed.{setting}"
    if has_key(allowed_key, "en"):
        numbers = {k: v for k, v in values.items() if k not in ("option", "allowed")}
        values["allowed"] = t(allowed_key, locale, **numbers)
