"""`/poker-admin`: the server's settings and its ledger audit (Manage Server).

Thin: read the options, call storage and the table service, answer privately in `interaction.locale`.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Range
from discord.ext import commands

from bot.discord_ui.errors import send_private
from bot.discord_ui.notifier import to_embed
from bot.discord_ui.options import CheckedCog
from bot.discord_ui.parts import parts, table_service
from bot.discord_ui.table_settings import changed_defaults
from bot.discord_ui.texts import choice, en
from bot.render import render_audit, render_settings, t
from cogs.common import BLIND_MAX, CHIPS_MAX, HOURS_MAX, TIMER, command_ids


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class AdminCog(CheckedCog, commands.GroupCog, group_name="poker-admin", group_description=en("cmd.poker-admin.desc")):
    """`/poker-admin ...`: the server's own commands (see the module docstring). Discord keeps
    default_member_permissions on top-level commands only, so they are a group of their own, shown to members with
    Manage Server (the check in code stays: a server may show them to more)."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="settings", description=en("cmd.poker-admin.settings.desc"))
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.describe(
        language=en("cmd.poker-admin.settings.opt.language.desc"),
        starting_grant=en("cmd.poker-admin.settings.opt.starting_grant.desc"),
        refill_cooldown=en("cmd.poker-admin.settings.opt.refill_cooldown.desc"),
        small_blind=en("cmd.poker-admin.settings.opt.small_blind.desc"),
        big_blind=en("cmd.poker-admin.settings.opt.big_blind.desc"),
        stack=en("cmd.poker-admin.settings.opt.stack.desc"),
        timer=en("cmd.poker-admin.settings.opt.timer.desc"),
        pictures=en("cmd.poker-admin.settings.opt.pictures.desc"),
    )
    @app_commands.choices(language=[choice("en"), choice("fr")])
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        language: str | None = None,
        starting_grant: Range[int, 0, CHIPS_MAX] | None = None,
        refill_cooldown: Range[int, 0, HOURS_MAX] | None = None,
        small_blind: Range[int, 1, BLIND_MAX] | None = None,
        big_blind: Range[int, 1, BLIND_MAX] | None = None,
        stack: Range[int, 1, CHIPS_MAX] | None = None,
        timer: TIMER | None = None,
        pictures: bool | None = None,
    ) -> None:
        """Show the server's settings, changing those given first (Manage Server). New tables use them; `pictures`
        applies to the server's open tables too."""
        guild_id, _channel_id = command_ids(interaction)
        storage = parts(interaction.client).storage
        current = await storage.guild_settings(guild_id)
        table_changes = changed_defaults(
            current.table_defaults,
            small_blind=small_blind,
            big_blind=big_blind,
            stack=stack,
            timer=timer,
            pictures=pictures,
        )
        changed = bool(table_changes) or any(v is not None for v in (language, starting_grant, refill_cooldown))
        if changed:
            current = await storage.update_guild_settings(
                guild_id,
                language=language,
                starting_grant=starting_grant,
                refill_cooldown_s=None if refill_cooldown is None else refill_cooldown * 3600,
                table_defaults=table_changes or None,
            )
            if language is not None:
                await table_service(interaction.client).set_language(guild_id, language)
            if pictures is not None:
                await table_service(interaction.client).set_pictures(guild_id, pictures)
        content = t("settings.updated", interaction.locale) if changed else None
        spec = render_settings(current, interaction.locale, guild_locale=interaction.guild_locale)
        await send_private(interaction, content, embed=to_embed(spec))

    @app_commands.command(name="audit", description=en("cmd.poker-admin.audit.desc"))
    @app_commands.checks.has_permissions(manage_guild=True)
    async def audit(self, interaction: discord.Interaction[Any]) -> None:
        """Check the server's chip ledger: balances + chips on tables = chips issued (Manage Server)."""
        guild_id, _channel_id = command_ids(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        report = await parts(interaction.client).storage.audit(guild_id)
        spec = render_audit(report, interaction.locale)
        await send_private(interaction, embed=to_embed(spec))


async def setup(bot: commands.Bot) -> None:
    """Load the cog."""
    await bot.add_cog(AdminCog(bot))
