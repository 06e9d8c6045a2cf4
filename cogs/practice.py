"""`/poker` practice: decision puzzles, the coach, computer players (docs/practice.md). A part of `TableCog`
(cogs/table.py), never loaded alone."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Range
from discord.ext import commands

from bot.discord_ui.errors import send_private
from bot.discord_ui.parts import parts, table_service
from bot.discord_ui.puzzles import Puzzles
from bot.discord_ui.table_settings import table_language
from bot.discord_ui.texts import choice, en
from bot.poker.settings import MAX_PLAYERS
from bot.render import t
from cogs.common import command_ids


class PracticeCommands(commands.Cog):
    """Puzzles, the coach and computer players (see the module docstring)."""

    #: The channels' decision puzzles (made by `TableCog`).
    puzzles: Puzzles

    @app_commands.command(name="puzzle", description=en("cmd.poker.puzzle.desc"))
    @app_commands.describe(action=en("cmd.poker.puzzle.opt.action.desc"))
    @app_commands.choices(action=[choice("new"), choice("reveal"), choice("record")])
    async def puzzle(self, interaction: discord.Interaction[Any], action: str = "new") -> None:
        """Post a decision puzzle here, reveal the open one now, or show your record (docs/practice.md)."""
        guild_id, channel_id = command_ids(interaction)
        if action == "record":
            record = await parts(interaction.client).storage.puzzle_record(guild_id, interaction.user.id)
            text = t(
                "puzzle.record",
                interaction.locale,
                answered=record.answered,
                favoured=record.favoured,
                revealed=record.revealed,
            )
            await send_private(interaction, text)
            return
        settings = await parts(interaction.client).storage.guild_settings(guild_id)
        language = table_language(settings, interaction.guild_locale)
        if action == "reveal":
            await interaction.response.defer(ephemeral=True)
            await self.puzzles.reveal(interaction.channel, channel_id, language)
            await send_private(interaction, t("action.done", interaction.locale))
            return
        await self.puzzles.post(interaction, language, table_service(interaction.client).clock)

    @app_commands.command(name="coach", description=en("cmd.poker.coach.desc"))
    @app_commands.describe(mode=en("cmd.poker.coach.opt.mode.desc"))
    @app_commands.choices(mode=[choice("on"), choice("off")])
    async def coach(self, interaction: discord.Interaction[Any], mode: str = "on") -> None:
        """Turn your coach on or off at this table: on your turn, "My cards" adds its advice (docs/practice.md)."""
        _guild_id, channel_id = command_ids(interaction)
        await table_service(interaction.client).get(channel_id).set_coach(interaction.user.id, mode == "on")
        await send_private(interaction, t(f"coach.turned_{mode}", interaction.locale))

    @app_commands.command(name="addbot", description=en("cmd.poker.addbot.desc"))
    @app_commands.describe(level=en("cmd.poker.addbot.opt.level.desc"))
    @app_commands.choices(level=[choice("beginner"), choice("solid")])
    async def addbot(self, interaction: discord.Interaction[Any], level: str = "beginner") -> None:
        """Seat a computer player (host or Manage Server), before or between hands (docs/practice.md)."""
        _guild_id, channel_id = command_ids(interaction)
        is_admin = interaction.permissions.manage_guild
        service = table_service(interaction.client)
        seat = await service.get(channel_id).add_computer(interaction.user.id, level, is_admin=is_admin)
        name = next(s.name for s in service.get(channel_id).snapshot().seats if s.seat == seat)
        await send_private(interaction, t("addbot.done", interaction.locale, name=name, seat=seat))

    @app_commands.command(name="removebot", description=en("cmd.poker.removebot.desc"))
    @app_commands.describe(seat=en("cmd.poker.removebot.opt.seat.desc"))
    async def removebot(self, interaction: discord.Interaction[Any], seat: Range[int, 1, MAX_PLAYERS]) -> None:
        """Take away the computer player at a seat (host or Manage Server), between hands."""
        _guild_id, channel_id = command_ids(interaction)
        is_admin = interaction.permissions.manage_guild
        service = table_service(interaction.client)
        name = next((s.name for s in service.get(channel_id).snapshot().seats if s.seat == seat), str(seat))
        await service.get(channel_id).remove_computer(interaction.user.id, seat, is_admin=is_admin)
        await send_private(interaction, t("kick.done", interaction.locale, name=name))
