"""How the app builds the table service for Discord: storage + a `DiscordNotifier` over the bot's client."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord_ui.notifier import DiscordNotifier
from bot.discord_ui.parts import parts
from bot.tables import TableService


def create_table_service(bot: discord.Client, **options: Any) -> TableService:
    """`TableService(bot.storage, DiscordNotifier(bot))`; `options` go to TableService (clock, rng_factory).
    The notifier shares the bot's `people` (names and locales seen in interactions)."""
    bot_parts = parts(bot)
    return TableService(bot_parts.storage, DiscordNotifier(bot, bot_parts.people), **options)
