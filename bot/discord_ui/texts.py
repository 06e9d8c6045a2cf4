"""Texts of the slash commands themselves: English defaults taken from the catalogues (French comes from the
tree's translator, bot/discord_ui/translator.py, with the same keys), so no cog holds a user-facing literal."""

from __future__ import annotations

from discord import app_commands

from bot.render.i18n import ENGLISH, t


def en(key: str) -> str:
    """The English catalogue text of `key` (a command or option description), Discord's default text."""
    return t(key, ENGLISH)


def choice(value: str) -> app_commands.Choice[str]:
    """An option choice whose name is the catalogue's `choice.<value>` (translated by the tree's translator). A string
    enum's member (`TableKind.CASH`) gives its plain string, the type Discord sends back (`check_options` compares
    types too)."""
    return app_commands.Choice(name=en(f"choice.{value}"), value=str(value))
