"""The standings' Discord helpers (bot/discord_ui/standings.py) read a table's channel through its guild."""

from __future__ import annotations

from unittest import mock

import discord

from bot.discord_ui.standings import channel_name, table_title
from bot.poker import TableKind
from bot.storage import TableRow, TableStatus

TABLE = TableRow(7, 42, 500, 1, TableKind.CASH, {}, None, None, TableStatus.OPEN, 0.0, None, ())


def client_with(guild: discord.Guild | None) -> mock.Mock:
    """A client whose cache has `guild` (or none); its `get_channel`, which walks every guild, must not be used."""
    client = mock.Mock(spec_set=discord.Client)
    client.get_guild.return_value = guild
    client.get_channel.side_effect = AssertionError("Client.get_channel walks every guild of the process")
    return client


def test_the_channel_name_is_read_through_the_tables_guild() -> None:
    guild = mock.Mock(spec_set=discord.Guild)
    channel = mock.Mock(spec_set=discord.TextChannel)
    channel.name = "poker"
    guild.get_channel_or_thread.return_value = channel
    client = client_with(guild)
    assert channel_name(client, TABLE) == "#poker"
    client.get_guild.assert_called_once_with(42)
    guild.get_channel_or_thread.assert_called_once_with(500)


def test_a_channel_not_in_the_cache_is_named_by_the_tables_title() -> None:
    guild = mock.Mock(spec_set=discord.Guild)
    guild.get_channel_or_thread.return_value = None
    assert channel_name(client_with(guild), TABLE) == table_title(TABLE)
    assert channel_name(client_with(None), TABLE) == table_title(TABLE)
