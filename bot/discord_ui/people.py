"""Who is who: display names and Discord locales of the members the bot has seen, by user id.

The bot runs with the guilds intent only (no member list), so names for leaderboards and hand histories
come from interactions it has seen, then from the member cache, then from one REST lookup each.
Locales are remembered from interactions so that a DM (hole cards) speaks the player's language.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

import discord

from bot.render import Locale
from bot.tables.computer_names import computer_display_name

log = logging.getLogger(__name__)


class People:
    """Bounded memory (least recently seen dropped first) of user id -> display name and locale."""

    def __init__(self, capacity: int = 10_000) -> None:
        self.capacity = capacity
        self._names: OrderedDict[int, str] = OrderedDict()
        self._locales: OrderedDict[int, str] = OrderedDict()

    def _put(self, store: OrderedDict[int, str], user_id: int, value: str) -> None:
        store[user_id] = value
        store.move_to_end(user_id)
        while len(store) > self.capacity:
            store.popitem(last=False)

    def remember(self, user: discord.abc.User, locale: Locale = None) -> None:
        """Note a user's display name and, when given, their Discord locale (e.g. `interaction.locale`)."""
        self.note(user.id, user.display_name, locale)

    def note(self, user_id: int, display_name: str, locale: Locale = None) -> None:
        """`remember` from plain values: a user id, the display name Discord shows (nick, else global name, else
        username) and, when given, their Discord locale (a spelling such as "fr", or `discord.Locale`)."""
        self._put(self._names, user_id, display_name)
        value = getattr(locale, "value", locale)
        if isinstance(value, str) and value:
            self._put(self._locales, user_id, value)

    def remember_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Note who acted and in which language."""
        self.remember(interaction.user, interaction.locale)

    def locale(self, user_id: int, default: str) -> str:
        """The user's last seen Discord locale, else `default`."""
        return self._locales.get(user_id, default)

    def name(self, user_id: int) -> str | None:
        """The user's last seen display name, or None."""
        return self._names.get(user_id)

    async def names(
        self, client: discord.Client, guild_id: int | None, user_ids: Iterable[int], language: Locale = "en"
    ) -> dict[int, str]:
        """Display names for `user_ids`: remembered, else the member cache, else one REST lookup (member, then
        user); a user that can't be found is shown as "#<id>". A computer player is named from its id in
        `language` (the reader's: "🤖 Solide 3" for a French reader), never from stored text."""
        result: dict[int, str] = {}
        guild = client.get_guild(guild_id) if guild_id is not None else None
        for user_id in dict.fromkeys(user_ids):
            computer = computer_display_name(user_id, language)
            if computer is not None:  # a computer player (bot/tables/computers.py): no Discord user to ask
                result[user_id] = computer
                continue
            name = self._names.get(user_id)
            if name is None and guild is not None:
                member = guild.get_member(user_id)
                if member is None:
                    try:
                        member = await guild.fetch_member(user_id)
                    except discord.HTTPException:
                        member = None
                if member is not None:
                    name = member.display_name
            if name is None:
                user = client.get_user(user_id)
                if user is None:
                    try:
                        user = await client.fetch_user(user_id)
                    except discord.HTTPException:
                        user = None
                name = user.display_name if user is not None else None
            if name is None:
                log.info("no name found for user %s", user_id)
                name = f"#{user_id}"
            else:
                self._put(self._names, user_id, name)
            result[user_id] = name
        return result
