"""Top-level action commands as players type them: `/fold`, `/check`, `/call`, `/bet amount`, `/raise amount`
(a raise is TO a total for the street), `/allin` — the same as the table message's buttons.

The table service checks the turn and the amount (refusals change nothing and are answered privately by the
tree's error handler); the channel sees the action on the table message; the player gets a private line
confirming what was done. Amounts are suggested by autocomplete: minimum, half pot, pot, all-in.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Range
from discord.ext import commands

from bot.discord_ui.errors import CommandRefused, send_private
from bot.discord_ui.options import CheckedCog
from bot.discord_ui.parts import parts, table_service
from bot.discord_ui.texts import en
from bot.discord_ui.turns import explain
from bot.poker import ActionKind, PlayerActed, PokerError
from bot.render import format_chips, parse_amount, render_event_line, t
from bot.tables.errors import storage_cause, storage_outcome

log = logging.getLogger(__name__)

#: Discord's largest integer option value (2**53 - 1).
AMOUNT_MAX = 2**53 - 1
CHOICES_MAX = 25


async def act(interaction: discord.Interaction[Any], kind: ActionKind, amount: int | None = None) -> None:
    """Play `kind` for the user at this channel's table; answer privately with what was done, as soon as it is
    stored (docs/architecture.md, "Answering a slash command": an action that ends the hand is answered before the
    hand's end is stored)."""
    if interaction.channel_id is None:
        raise CommandRefused("guild_only")
    channel_id = interaction.channel_id
    service = table_service(interaction.client)
    runner = service.get(channel_id)
    names = runner.player_names()
    answer: asyncio.Task[None] | None = None

    def line(acted: PlayerActed) -> str:
        return render_event_line(acted, names, interaction.locale) or t("action.done", interaction.locale)

    def stored(acted: PlayerActed) -> None:  # under the table's lock: the answer goes out beside the rest
        nonlocal answer
        answer = asyncio.create_task(send_private(interaction, line(acted)), name=f"answer-{interaction.id}")

    try:
        acted = await runner.act(interaction.user.id, kind, amount, stored=stored)
    except Exception as error:
        if answer is None:  # nothing stored: a refusal (or a fault) is the answer
            if isinstance(error, PokerError):
                raise explain(error, service, channel_id) from error
            raise
        # The action is stored and answered: what failed after it (storing the hand's end) is the table's to
        # resume from (TableRunner._resume_later); a second answer would contradict the first. A storage fault
        # then is a warning (the table reads storage again), anything else a bug.
        if storage_outcome(error) is None:
            log.exception("table in channel %s: after a stored action of /%s", channel_id, kind.value)
        else:
            cause = storage_cause(error)
            log.warning(
                "table in channel %s: /%s is stored; a write after it failed: %s", channel_id, kind.value, cause
            )
        await answer
        return
    if answer is None:
        await send_private(interaction, line(acted))
    else:
        await answer


async def amount_choices(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[int]]:
    """Autocomplete for /bet and /raise: the amount being typed, then the suggestions of the table service
    (minimum, half pot, pot, all-in — only those that are legal now). Never raises."""
    choices: list[app_commands.Choice[int]] = []
    # Discord sends what is being typed as a string; a forged request may send anything.
    typed = parse_amount(current, interaction.locale) if isinstance(current, str) else None
    if typed is not None and 1 <= typed <= AMOUNT_MAX:
        choices.append(app_commands.Choice(name=format_chips(typed, interaction.locale), value=typed))
    if interaction.channel_id is None:
        return choices
    try:
        service = parts(interaction.client).tables
        runner = service.find(interaction.channel_id) if service is not None else None
        suggestions = runner.amount_suggestions(interaction.user.id) if runner is not None else []
    except Exception:
        log.exception("amount suggestions failed in channel %s", interaction.channel_id)
        return choices
    for key, amount in suggestions:
        if amount != typed:
            name = t(f"suggest.{key}", interaction.locale, amount=amount)
            choices.append(app_commands.Choice(name=name, value=amount))
    return choices[:CHOICES_MAX]


class ActionsCog(CheckedCog):
    """The action commands of the hand being played in this channel."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="fold", description=en("cmd.fold.desc"))
    @app_commands.guild_only()
    async def fold(self, interaction: discord.Interaction[Any]) -> None:
        """Fold."""
        await act(interaction, ActionKind.FOLD)

    @app_commands.command(name="check", description=en("cmd.check.desc"))
    @app_commands.guild_only()
    async def check(self, interaction: discord.Interaction[Any]) -> None:
        """Check (refused when facing a bet)."""
        await act(interaction, ActionKind.CHECK)

    @app_commands.command(name="call", description=en("cmd.call.desc"))
    @app_commands.guild_only()
    async def call(self, interaction: discord.Interaction[Any]) -> None:
        """Call the current bet (all-in when the stack is shorter)."""
        await act(interaction, ActionKind.CALL)

    @app_commands.command(name="bet", description=en("cmd.bet.desc"))
    @app_commands.guild_only()
    @app_commands.describe(amount=en("cmd.bet.opt.amount.desc"))
    @app_commands.autocomplete(amount=amount_choices)
    async def bet(self, interaction: discord.Interaction[Any], amount: Range[int, 1, AMOUNT_MAX]) -> None:
        """Bet `amount` chips when nobody has bet on this street."""
        await act(interaction, ActionKind.BET, amount)

    @app_commands.command(name="raise", description=en("cmd.raise.desc"))
    @app_commands.guild_only()
    @app_commands.describe(amount=en("cmd.raise.opt.amount.desc"))
    @app_commands.autocomplete(amount=amount_choices)
    async def raise_(self, interaction: discord.Interaction[Any], amount: Range[int, 1, AMOUNT_MAX]) -> None:
        """Raise TO a total of `amount` chips on this street (rule book 000 §05)."""
        await act(interaction, ActionKind.RAISE, amount)

    @app_commands.command(name="allin", description=en("cmd.allin.desc"))
    @app_commands.guild_only()
    async def allin(self, interaction: discord.Interaction[Any]) -> None:
        """Put the whole stack in."""
        await act(interaction, ActionKind.ALL_IN)


async def setup(bot: commands.Bot) -> None:
    """Load the cog."""
    await bot.add_cog(ActionsCog(bot))
