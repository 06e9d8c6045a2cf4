"""How the app builds the table service for Discord: storage + a `DiscordNotifier` over the bot's client."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord_ui.notifier import DiscordNotifier
from bot.discord_ui.parts import parts
from bot.storage import Storage
from bot.tables import TableService


def create_table_service(bot: discord.Client, *, storage: Storage | None = None, **options: Any) -> TableService:
    """`TableService(bot.storage, DiscordNotifier(bot))`; `options` go to TableService (clock, rng_factory,
    deck_factory, next_hand_delay_s, computer_delay_s, idle_wait); `storage`: the tables' storage instead of the
    bot's (a test injecting storage faults). The notifier shares the bot's `people` (names and locales seen in
    interactions); the service runs only the guilds of the shards the bot's `ownership` holds, when it has one
    (bot/tables/ownership.py)."""
    bot_parts = parts(bot)
    ownership = getattr(bot, "ownership", None)
    if ownership is not None:
        options.setdefault("owns", ownership.owns)
    return TableService(
        bot_parts.storage if storage is None else storage, DiscordNotifier(bot, bot_parts.people), **options
    )
