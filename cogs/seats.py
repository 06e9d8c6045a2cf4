"""`/poker` seats and chips: join, leave, sit out, sit in, kick; rebuy, refill, balance (a part of
`TableCog`, cogs/table.py, never loaded alone).

Thin: parse the options, call the table service or storage, answer privately in `interaction.locale`; refusals are
raised and answered by the tree's error handler.
"""

from __future__ import annotations

import time
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Range
from discord.ext import commands

from bot.discord_ui.advance import send_return_choice
from bot.discord_ui.errors import CommandRefused, send_private
from bot.discord_ui.parts import parts, table_service
from bot.discord_ui.texts import en
from bot.poker import TableKind
from bot.poker.settings import MAX_PLAYERS
from bot.render import escape_name, t
from bot.tables import InteractionReply, TableSnapshot
from cogs.common import CHIPS_MAX, command_ids


def _seat_stack(snapshot: TableSnapshot, user_id: int) -> int:
    return next((s.stack for s in snapshot.seats if s.user_id == user_id), 0)


class SeatCommands(commands.Cog):
    """Sitting down and standing up, and a member's chips (see the module docstring)."""

    @app_commands.command(name="join", description=en("cmd.poker.join.desc"))
    @app_commands.describe(seat=en("cmd.poker.join.opt.seat.desc"), buy_in=en("cmd.poker.join.opt.buy_in.desc"))
    async def join(
        self,
        interaction: discord.Interaction[Any],
        seat: Range[int, 1, MAX_PLAYERS] | None = None,
        buy_in: Range[int, 1, CHIPS_MAX] | None = None,
    ) -> None:
        """Sit down (a cash table buys in from the member's balance)."""
        guild_id, channel_id = command_ids(interaction)
        service = table_service(interaction.client)
        user = interaction.user
        number = await service.get(channel_id).join(user.id, user.display_name, seat, buy_in)
        snapshot = service.get(channel_id).snapshot()
        stack = _seat_stack(snapshot, user.id)
        if snapshot.kind is TableKind.CASH:
            balance = await parts(interaction.client).storage.balance(guild_id, user.id)
            text = t("join.done_balance", interaction.locale, seat=number, stack=stack, balance=balance)
        else:
            text = t("join.done", interaction.locale, seat=number, stack=stack)
        await send_private(interaction, text)
        owed = service.get(channel_id).blinds_owed(user.id)
        if owed is not None:  # missed blinds (issue 16): a new player at a running table posts or waits
            await send_return_choice(interaction, channel_id, owed)

    @app_commands.command(name="leave", description=en("cmd.poker.leave.desc"))
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Stand up now, or, in a hand, forfeit it at once (folded) and stand up when it ends."""
        guild_id, channel_id = command_ids(interaction)
        service = table_service(interaction.client)
        before = service.get(channel_id).snapshot()
        stack = _seat_stack(before, interaction.user.id)
        if not await service.get(channel_id).leave(interaction.user.id):
            text = t("leave.pending", interaction.locale)
        elif before.kind is TableKind.CASH:
            balance = await parts(interaction.client).storage.balance(guild_id, interaction.user.id)
            text = t("leave.done", interaction.locale, stack=stack, balance=balance)
        else:
            text = t("leave.done_tournament", interaction.locale)
        await send_private(interaction, text)

    @app_commands.command(name="sitout", description=en("cmd.poker.sitout.desc"))
    async def sitout(self, interaction: discord.Interaction[Any]) -> None:
        """Keep the seat and chips, skip the next hands."""
        _guild_id, channel_id = command_ids(interaction)
        await table_service(interaction.client).get(channel_id).sit_out(interaction.user.id)
        await send_private(interaction, t("sitout.done", interaction.locale))

    @app_commands.command(name="sitin", description=en("cmd.poker.sitin.desc"))
    async def sitin(self, interaction: discord.Interaction[Any]) -> None:
        """Be dealt in again from the next hand."""
        _guild_id, channel_id = command_ids(interaction)
        runner = table_service(interaction.client).get(channel_id)
        await runner.sit_in(interaction.user.id)
        owed = runner.blinds_owed(interaction.user.id)
        if owed is not None:  # missed blinds (issue 16): post them, or wait for the big blind
            await send_return_choice(interaction, channel_id, owed)
            return
        await send_private(interaction, t("sitin.done", interaction.locale))

    @app_commands.command(name="kick", description=en("cmd.poker.kick.desc"))
    @app_commands.describe(member=en("cmd.poker.kick.opt.member.desc"))
    async def kick(self, interaction: discord.Interaction[Any], member: discord.Member) -> None:
        """Remove a player (host or Manage Server), at the end of the hand if they are in one."""
        _guild_id, channel_id = command_ids(interaction)
        if member.id == interaction.user.id:
            raise CommandRefused("cannot_kick_self")
        is_admin = interaction.permissions.manage_guild
        now = (
            await table_service(interaction.client)
            .get(channel_id)
            .kick(interaction.user.id, member.id, is_admin=is_admin)
        )
        key = "kick.done" if now else "notice.leaving"
        await send_private(interaction, t(key, interaction.locale, name=escape_name(member.display_name)))

    # ------------------------------------------------------------------ chips

    @app_commands.command(name="rebuy", description=en("cmd.poker.rebuy.desc"))
    @app_commands.describe(amount=en("cmd.poker.rebuy.opt.amount.desc"))
    async def rebuy(self, interaction: discord.Interaction[Any], amount: Range[int, 1, CHIPS_MAX]) -> None:
        """Add chips from the balance to the member's stack, up to the maximum buy-in (asked during a hand: made
        when it ends)."""
        _guild_id, channel_id = command_ids(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        # The answer ("done", or "made when the hand ends") is stored with the rebuy and sent by the table's outbox
        # (docs/outbox.md).
        reply = InteractionReply(interaction.application_id, interaction.token, str(interaction.locale), time.time())
        await table_service(interaction.client).get(channel_id).rebuy(interaction.user.id, amount, reply)

    @app_commands.command(name="refill", description=en("cmd.poker.refill.desc"))
    async def refill(self, interaction: discord.Interaction[Any]) -> None:
        """Claim the server's grant again when both balance and stacks are empty (once per cooldown)."""
        guild_id, _channel_id = command_ids(interaction)
        balance = await table_service(interaction.client).refill(guild_id, interaction.user.id)
        await send_private(interaction, t("refill.done", interaction.locale, amount=balance, balance=balance))

    @app_commands.command(name="balance", description=en("cmd.poker.balance.desc"))
    async def balance(self, interaction: discord.Interaction[Any]) -> None:
        """The member's chips on this server (not counting stacks on tables)."""
        guild_id, _channel_id = command_ids(interaction)
        balance = await parts(interaction.client).storage.balance(guild_id, interaction.user.id)
        await send_private(interaction, t("balance.show", interaction.locale, balance=balance))
