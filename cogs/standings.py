"""Standings and history (issue 5): `/leaderboard [by]`, `/stats [member]`, `/history [hand]` — private answers
in the asking member's language. Thin: parse, read storage, render (bot/discord_ui/standings.py)."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Range
from discord.ext import commands

from bot.discord_ui.errors import CommandRefused, send_private
from bot.discord_ui.options import CheckedCog
from bot.discord_ui.parts import parts
from bot.discord_ui.standings import (
    PageButton,
    computer_choices,
    computer_stats_embed,
    find_computer,
    history_hand,
    history_list,
    leaderboard_message,
    stats_embed,
)
from bot.discord_ui.texts import choice, en
from bot.render import t
from bot.tables import ServiceError

log = logging.getLogger(__name__)


class StandingsCog(CheckedCog):
    """The server's ranking, a member's numbers, and the hands of this channel's table."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description=en("cmd.leaderboard.desc"))
    @app_commands.guild_only()
    @app_commands.describe(by=en("cmd.leaderboard.opt.by.desc"))
    @app_commands.choices(by=[choice("balance"), choice("net"), choice("wins")])
    async def leaderboard(self, interaction: discord.Interaction[Any], by: str = "balance") -> None:
        """The first page of the ranking, with the caller's own rank."""
        if interaction.guild_id is None:
            raise CommandRefused("guild_only")
        await interaction.response.defer(ephemeral=True, thinking=True)
        embed, view = await leaderboard_message(
            self.bot, interaction.guild_id, interaction.user.id, by, 0, interaction.locale
        )
        await send_private(interaction, embed=embed, view=view)

    @app_commands.command(name="stats", description=en("cmd.stats.desc"))
    @app_commands.guild_only()
    @app_commands.describe(member=en("cmd.stats.opt.member.desc"), computer=en("cmd.stats.opt.computer.desc"))
    async def stats(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member | None = None,
        computer: Range[str, 1, 100] | None = None,
    ) -> None:
        """Hands played and won, won at showdown, biggest pot, net, VPIP, PFR, tournaments (default: yours); or
        those of a computer player (`computer`, from the autocomplete's list: docs/practice.md)."""
        if interaction.guild_id is None:
            raise CommandRefused("guild_only")
        if computer is not None:
            if member is not None:
                raise CommandRefused("stats.member_or_computer")
            known = await parts(self.bot).storage.computer_players(interaction.guild_id)
            user_id = find_computer(computer, known)
            if user_id is None:
                raise CommandRefused("stats.no_computer", name=computer)
            await interaction.response.defer(ephemeral=True, thinking=True)
            embed = await computer_stats_embed(self.bot, interaction.guild_id, user_id, interaction.locale)
            await send_private(interaction, embed=embed)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        embed = await stats_embed(
            self.bot,
            interaction.guild_id,
            member or interaction.user,
            interaction.locale,
            viewer_id=interaction.user.id,
        )
        await send_private(interaction, embed=embed)

    @stats.autocomplete("computer")
    async def computer_names(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The computer players that played on this server, named in the reader's language. Never raises."""
        if interaction.guild_id is None or not isinstance(current, str):
            return []
        try:
            found = await computer_choices(self.bot, interaction.guild_id, current, interaction.locale)
        except Exception:
            log.exception("computer players' names failed in guild %s", interaction.guild_id)
            return []
        return [app_commands.Choice(name=name, value=value) for name, value in found]

    @app_commands.command(name="history", description=en("cmd.history.desc"))
    @app_commands.guild_only()
    @app_commands.describe(hand=en("cmd.history.opt.hand.desc"))
    async def history(
        self, interaction: discord.Interaction[Any], hand: Range[int, 1, 1_000_000_000] | None = None
    ) -> None:
        """The table's last hands, or one hand street by street with its PHH file."""
        if interaction.channel_id is None:
            raise CommandRefused("guild_only")
        # The open table, or the last one closed here: its hands stay readable after /poker end.
        table = await parts(self.bot).storage.latest_table_for_channel(interaction.channel_id)
        if table is None:
            raise ServiceError("no_table")
        await interaction.response.defer(ephemeral=True, thinking=True)
        if hand is None:
            embed = await history_list(self.bot, table, interaction.user.id, interaction.locale)
            await send_private(interaction, embed=embed)
            return
        embed, file = await history_hand(self.bot, table, hand, interaction.user.id, interaction.locale)
        await send_private(interaction, t("history.export", interaction.locale, number=hand), embed=embed, file=file)


async def setup(bot: commands.Bot) -> None:
    """Load the cog and make the leaderboard's page buttons persistent."""
    bot.add_dynamic_items(PageButton)
    await bot.add_cog(StandingsCog(bot))
