"""The door of every slash command: each option value is checked against the command's own declaration before
the command runs.

discord.py passes on whatever a request holds: it does not enforce `app_commands.Range` or `choices` on the
values it receives, a request may send any JSON for any option (a string for an integer option, `null`...), and
integers past 2**53 arrive as floats (`1e+20`). So the bounds are declared once, beside the options they bound
(`Range[int, 1, BLIND_MAX]`, `choices=...` in the cogs: Discord shows them to members), and `check_options`
refuses any value outside them — type, integrality, range, length, choice, a member that was not resolved, a
required option missing — with a clear private answer (`OptionRefused`, in the reader's language). Every cog of
the bot derives from `CheckedCog`, whose `interaction_check` (discord.py runs it before each of the cog's
commands) is `check_options`.
"""

from __future__ import annotations

import math
from typing import Any

import discord
from discord import AppCommandOptionType as OptionType
from discord import app_commands
from discord.ext import commands

from bot.render.embeds import clamp
from bot.render.i18n import Locale, has_key, t

#: Discord's bounds of an integer option without its own (±(2**53 - 1)).
INTEGER_LIMIT = 2**53 - 1
#: How much of a refused value the answer repeats.
SHOWN_MAX = 40


class OptionRefused(app_commands.CheckFailure):
    """An option value the command does not accept (nothing has run). `option`: the option's name as declared;
    `command`: the command's qualified name; `value`: what was received, shown clamped; `rule`: what is
    allowed ("integer", "number", "text", "choice", "boolean", "member", or "missing" when a required option
    is absent) with `params` (min, max, choices)."""

    def __init__(self, command: str, option: str, value: object, rule: str, **params: Any) -> None:
        super().__init__(f"option {option!r} of /{command} refused: {_shown(value)} ({rule})")
        self.command = command
        self.option = option
        self.value = value
        self.rule = rule
        self.params = params

    def text(self, locale: Locale) -> str:
        """The refusal in `locale`: "“1e+20” is not a valid starting_grant: a whole number from 0 to
        1,000,000,000" / "« 1e+20 » n'est pas une valeur possible pour jetons_depart : ..."."""
        option_key = f"cmd.{self.command.replace(' ', '.')}.opt.{self.option}.name"
        option = t(option_key, locale) if has_key(option_key, "en") else self.option
        if self.rule == "missing":
            return t("error.missing_option", locale, option=option)
        params = dict(self.params)
        if self.rule == "choice":
            params["choices"] = ", ".join(t(f"choice.{value}", locale) for value in params["choices"])
        allowed = t(f"allowed.value.{self.rule}", locale, **params)
        return t("error.bad_value", locale, value=_shown(self.value), option=option, allowed=allowed)


def _shown(value: object) -> str:
    """A received value as the refusal repeats it: one line, at most SHOWN_MAX characters."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * SHOWN_MAX:
        return "…"  # never build a huge int's digits (Python refuses past 4,300 of them)
    if isinstance(value, discord.Object):
        return str(value.id)
    text = value if isinstance(value, str) else repr(value)
    return clamp(" ".join(text.split()), SHOWN_MAX)


def check_value(command: str, parameter: app_commands.Parameter, value: object) -> None:
    """Raise OptionRefused unless `value` is what `parameter` declares: one of the declared choices (same type
    too) when there are choices (and no autocomplete); else an `int` (not a bool, not a float) within
    min_value..max_value (else ±(2**53 - 1)) for an integer; a finite number for a number; a `str` of
    min_value..max_value characters for a string; a `bool` for a boolean; a member of the server for a user
    option. `None` (a JSON null) is never a value."""
    choices = [choice.value for choice in parameter.choices]
    if choices and not parameter.autocomplete:
        if not any(type(value) is type(choice) and value == choice for choice in choices):
            raise OptionRefused(command, parameter.name, value, "choice", choices=choices)
        return
    low, high = parameter.min_value, parameter.max_value
    kind = parameter.type
    if kind is OptionType.integer:
        low = -INTEGER_LIMIT if low is None else low
        high = INTEGER_LIMIT if high is None else high
        if type(value) is not int or not low <= value <= high:
            raise OptionRefused(command, parameter.name, value, "integer", min=int(low), max=int(high))
    elif kind is OptionType.number:
        low = -INTEGER_LIMIT if low is None else low
        high = INTEGER_LIMIT if high is None else high
        number = value if isinstance(value, int | float) and not isinstance(value, bool) else None
        if number is None or not math.isfinite(number) or not low <= number <= high:
            raise OptionRefused(command, parameter.name, value, "number", min=int(low), max=int(high))
    elif kind is OptionType.string:
        low = 0 if low is None else int(low)
        high = 6000 if high is None else int(high)
        if not isinstance(value, str) or not low <= len(value) <= high:
            raise OptionRefused(command, parameter.name, value, "text", min=low, max=high)
    elif kind is OptionType.boolean:
        if type(value) is not bool:
            raise OptionRefused(command, parameter.name, value, "boolean")
    elif kind is OptionType.user:
        # Every user option of the bot names a member of the server (a `discord.Member`): a user who is not one
        # (or an id Discord did not resolve, a `discord.Object`) is refused here rather than by discord.py.
        if not isinstance(value, discord.Member):
            raise OptionRefused(command, parameter.name, value, "member")


def check_options(interaction: discord.Interaction[Any]) -> bool:
    """True when every option of the invoked command is acceptable (`check_value`) and every required one is
    there; raises OptionRefused otherwise. The namespace holds only what the request sent (discord.py fills in
    defaults later); options the command does not declare are ignored (discord.py drops them)."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return True
    received = {name: value for name, value in interaction.namespace}  # Namespace has no keys(): iterate
    for parameter in command.parameters:
        if parameter.display_name not in received:
            if parameter.required:
                raise OptionRefused(command.qualified_name, parameter.name, None, "missing")
            continue
        check_value(command.qualified_name, parameter, received[parameter.display_name])
    return True


#: Option types discord.py converts while reading the request, before any check runs: a number (`float(value)`) and
#: the snowflakes (user, channel, role, mentionable, attachment: `int(value)`).
_NUMBER = 10
_SNOWFLAKES = frozenset({6, 7, 8, 9, 11})
_GROUPS = frozenset({1, 2})


def unreadable_option(interaction: discord.Interaction[Any]) -> OptionRefused | None:
    """The refusal for a slash command request that discord.py could not even read (it would raise before any
    check: a member id that is not a number, a number option holding text, an option without a value), or None.
    Run by the tree's `interaction_check`, before discord.py builds the options."""
    if interaction.type is not discord.InteractionType.application_command:
        return None
    data: Any = interaction.data if isinstance(interaction.data, dict) else {}  # raw JSON of the request
    path = [str(data.get("name", "?"))]
    options: Any = data.get("options", [])
    while True:
        if not isinstance(options, list) or not all(isinstance(o, dict) for o in options):
            return OptionRefused(" ".join(path), "options", options, "missing")
        group = next((o for o in options if o.get("type") in _GROUPS), None)
        if group is None:
            break
        path.append(str(group.get("name", "?")))
        options = group.get("options", [])
    command = " ".join(path)
    for option in options:
        name, kind = option.get("name"), option.get("type")
        if not isinstance(name, str) or not isinstance(kind, int) or "value" not in option:
            return OptionRefused(command, str(name), option.get("value"), "missing")
        value = option["value"]
        if kind == _NUMBER and (isinstance(value, bool) or not isinstance(value, int | float)):
            return OptionRefused(command, name, value, "number", min=-INTEGER_LIMIT, max=INTEGER_LIMIT)
        if kind in _SNOWFLAKES and not (
            isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 20
        ):
            return OptionRefused(command, name, value, "member")
    return None


class CheckedCog(commands.Cog):
    """The base of the bot's cogs: every option of every app command of the cog passes `check_options` before
    the command runs (discord.py calls a cog's `interaction_check` for each of its app commands)."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """See `check_options`."""
        return check_options(interaction)
