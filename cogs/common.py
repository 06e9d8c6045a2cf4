"""What the `/poker` and `/poker-admin` commands share: the bounds of their options and the ids of a guild-only
command. (`/poker` is one cog, `cogs.table.TableCog`, whose commands are spread by subject over cogs/table.py,
seats.py and practice.py; `/poker-admin` is cogs/admin.py: docs/architecture.md, "How to add a command".)
"""

from __future__ import annotations

from typing import Any

import discord
from discord.app_commands import Range

from bot.discord_ui.errors import CommandRefused
from bot.poker.settings import MAX_PLAYERS, MIN_PLAYERS
from bot.tables.options import MAX_TURN_TIMEOUT, MIN_TURN_TIMEOUT

# The bounds of the options (checked at the door by CheckedCog: discord.py does not enforce them).
CHIPS_MAX = 1_000_000_000
BLIND_MAX = 1_000_000
HOURS_MAX = 24 * 365
SEATS = Range[int, MIN_PLAYERS, MAX_PLAYERS]
TIMER = Range[int, MIN_TURN_TIMEOUT, MAX_TURN_TIMEOUT]


def command_ids(interaction: discord.Interaction[Any]) -> tuple[int, int]:
    """(guild id, channel id) of a guild-only command. Raises CommandRefused("guild_only")."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise CommandRefused("guild_only")
    return interaction.guild_id, interaction.channel_id
