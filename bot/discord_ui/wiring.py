"""How the app builds the table service for Discord: storage + a `DiscordNotifier` over the bot's client."""

from __future__ import annotations

from typing import Any

from bot.discord_ui.notifier import DiscordNotifier
from bot.discord_ui.people import People
from bot.storage import Storage
from bot.tables import TableService


def create_table_service(bot: Any, *, storage: Storage | None = None, **options: Any) -> TableService:
    """`TableService(bot.storage, DiscordNotifier(bot))`; `options` go to TableService (clock, rng_factory,
    deck_factory, next_hand_delay_s, computer_delay_s, idle_wait); `storage`: the tables' storage instead of the
    bot's (a test injecting storage faults). The notifier shares the bot's `people` (names and locales seen in
    interactions) when it has one."""
    people = getattr(bot, "people", None)
    notifier = DiscordNotifier(bot, people if isinstance(people, People) else None)
    return TableService(bot.storage if storage is None else storage, notifier, **options)
