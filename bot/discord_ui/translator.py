"""The slash-command translator: serves command descriptions, option names and descriptions, and choice
names from the render catalogues (`cmd.*`, `choice.*` keys) so Discord shows them in French to French
clients. Command names stay English so a mixed server shares one vocabulary (issue 7).

Keys are derived from where the string is used: `cmd.<qualified name, dots>.desc` for a command or group
description, `cmd.<command>.opt.<python parameter name>.name|desc` for an option, `choice.<value>` for a
choice; a `locale_str(..., key="...")` extra overrides the derived key. English clients get Discord's
default text (the cogs use the English catalogue text as the default).
"""

from __future__ import annotations

import logging
import re
from typing import Any

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.render.i18n import FRENCH, has_key, normalize_locale, t

log = logging.getLogger(__name__)

# Discord's rule for a localized option name.
_OPTION_NAME = re.compile(r"^[-_\w]{1,32}$")
_DESCRIPTION_MAX = 100


def catalogue_key(string: app_commands.locale_str, context: app_commands.TranslationContextTypes) -> str | None:
    """The catalogue key for a command string, or None for strings that are not translated (command names)."""
    explicit = string.extras.get("key")
    if isinstance(explicit, str):
        return explicit
    where = context.location
    data: Any = context.data  # Command/Group, Parameter or Choice depending on `where`
    if where in (Where.command_description, Where.group_description):
        return f"cmd.{data.qualified_name.replace(' ', '.')}.desc"
    if where in (Where.parameter_name, Where.parameter_description):
        suffix = "name" if where is Where.parameter_name else "desc"
        return f"cmd.{data.command.qualified_name.replace(' ', '.')}.opt.{data.name}.{suffix}"
    if where is Where.choice_name:
        return f"choice.{data.value}"
    return None


class CatalogueTranslator(app_commands.Translator):
    """`tree.set_translator(CatalogueTranslator())` before syncing. Translates into French only; returns None
    (Discord's English default) for other locales, for command names, and for keys missing from the French
    catalogue (each logged once)."""

    def __init__(self) -> None:
        self._missing: set[str] = set()

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The French text for `string` at `context`, or None to keep the default."""
        if normalize_locale(locale) != FRENCH:
            return None
        key = catalogue_key(string, context)
        if key is None:
            return None
        if not has_key(key, FRENCH):
            if key not in self._missing:
                self._missing.add(key)
                log.warning("No French text for command string %r (key %s)", string.message, key)
            return None
        text = t(key, FRENCH)
        if context.location is Where.parameter_name:
            if not _OPTION_NAME.match(text) or text != text.lower():
                log.warning("French option name %r (key %s) is not valid for Discord", text, key)
                return None
            return text
        return text[:_DESCRIPTION_MAX]
