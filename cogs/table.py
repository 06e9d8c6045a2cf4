"""The `/poker` command group, one cog (`TableCog`, a discord.py GroupCog): the table in this channel (open it,
start, end, the blind schedule, the table message again, your cards, a hand's sealed deck) here; seats and chips in
cogs/seats.py, practice in cogs/practice.py (the parts the cog derives from); what they share in cogs/common.py.
The server's administration, `/poker-admin`, is its own cog (cogs/admin.py).

Thin: parse the options, call the table service or storage, render with bot.render. Refusals are raised as
PokerError and answered by the tree's error handler (ephemeral, in the user's language). Public messages use
the table's language; answers seen by one person use `interaction.locale`.
"""

from __future__ import annotations

import io
import logging
import time
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Range
from discord.ext import commands

from bot.discord_ui.advance import PreActionButton, ReturnButton
from bot.discord_ui.components import answer_unknown_component, template_of
from bot.discord_ui.errors import NO_MENTIONS, CommandRefused, send_private
from bot.discord_ui.options import CheckedCog
from bot.discord_ui.parts import has_parts, parts, table_service
from bot.discord_ui.puzzles import PuzzleButton, Puzzles
from bot.discord_ui.run_twice import RunTwiceButton
from bot.discord_ui.shows import ShowButton, ShowCardButton
from bot.discord_ui.standings import PageButton, verify_answer
from bot.discord_ui.table_settings import levels_text, parse_levels, table_language, table_options
from bot.discord_ui.table_view import AMOUNT_FORM, BuyInButton, show_hole_cards, submit_amount
from bot.discord_ui.texts import choice, en
from bot.poker import LevelBy, TableKind
from bot.render import escape_name, t
from bot.tables import InteractionReply, ServiceError
from bot.tables.options import BETTING_STRUCTURES, LEARNING, MAX_TIME_BANK
from bot.tables.pictures import table_picture
from bot.tables.puzzle_board import PuzzleBoard
from cogs.common import BLIND_MAX, CHIPS_MAX, SEATS, TIMER, command_ids
from cogs.practice import PracticeCommands
from cogs.seats import SeatCommands

log = logging.getLogger(__name__)


@app_commands.guild_only()
class TableCog(
    SeatCommands,
    PracticeCommands,
    CheckedCog,
    commands.GroupCog,
    group_name="poker",
    group_description=en("cmd.poker.desc"),
):
    """`/poker ...`: one table per channel (bot.tables), chips per server (bot.storage). Its commands: the table's
    below, seats and chips in `SeatCommands` (cogs/seats.py), practice in `PracticeCommands` (cogs/practice.py)."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.puzzles = Puzzles(PuzzleBoard(bot.storage))  # type: ignore[attr-defined]
        bot.puzzles = self.puzzles  # type: ignore[attr-defined]

    async def cog_load(self) -> None:
        """Take back the puzzles left open by the previous process (their reveals re-armed: docs/practice.md)."""
        service = parts(self.bot).tables
        if service is not None:
            await self.puzzles.restore(self.bot, service.clock, service.owns)

    async def cog_unload(self) -> None:
        """Stop the puzzles' reveal timers."""
        self.puzzles.stop()

    @commands.Cog.listener("on_interaction")
    async def on_amount_form(self, interaction: discord.Interaction[Any]) -> None:
        """A submitted Bet…/Raise… form, handled from its custom_id (`submit_amount`): it works after a restart."""
        await submit_amount(interaction)

    @commands.Cog.listener("on_interaction")
    async def on_unknown_component(self, interaction: discord.Interaction[Any]) -> None:
        """A `poker:*` press or form that nothing would answer (malformed, forged) gets a private answer. (The
        table message's own buttons never come here: bot/discord_ui/presses.py answers each of them.)"""
        kinds = (BuyInButton, PageButton, RunTwiceButton, PreActionButton, ReturnButton, PuzzleButton)
        shows = (ShowButton, ShowCardButton)
        buttons = tuple(template_of(kind) for kind in (*kinds, *shows))
        await answer_unknown_component(interaction, buttons=buttons, forms=(AMOUNT_FORM,))

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Remember who acts and in which language (names for standings, locale for hole-card DMs)."""
        if has_parts(self.bot):
            parts(self.bot).people.remember_interaction(interaction)

    # ------------------------------------------------------------------ the table

    # ------------------------------------------------------------------ the table

    @app_commands.command(name="create", description=en("cmd.poker.create.desc"))
    @app_commands.describe(
        kind=en("cmd.poker.create.opt.kind.desc"),
        small_blind=en("cmd.poker.create.opt.small_blind.desc"),
        big_blind=en("cmd.poker.create.opt.big_blind.desc"),
        stack=en("cmd.poker.create.opt.stack.desc"),
        min_buy_in=en("cmd.poker.create.opt.min_buy_in.desc"),
        max_buy_in=en("cmd.poker.create.opt.max_buy_in.desc"),
        seats=en("cmd.poker.create.opt.seats.desc"),
        timer=en("cmd.poker.create.opt.timer.desc"),
        ante=en("cmd.poker.create.opt.ante.desc"),
        big_blind_ante=en("cmd.poker.create.opt.big_blind_ante.desc"),
        straddle=en("cmd.poker.create.opt.straddle.desc"),
        run_it_twice=en("cmd.poker.create.opt.run_it_twice.desc"),
        betting=en("cmd.poker.create.opt.betting.desc"),
        dead_button=en("cmd.poker.create.opt.dead_button.desc"),
        missed_blinds=en("cmd.poker.create.opt.missed_blinds.desc"),
        time_bank=en("cmd.poker.create.opt.time_bank.desc"),
        pictures=en("cmd.poker.create.opt.pictures.desc"),
        four_colour=en("cmd.poker.create.opt.four_colour.desc"),
    )
    @app_commands.choices(
        kind=[choice(TableKind.CASH), choice(TableKind.TOURNAMENT), choice(LEARNING)],
        betting=[choice(value) for value in BETTING_STRUCTURES],
    )
    async def create(
        self,
        interaction: discord.Interaction[Any],
        kind: str = TableKind.CASH,
        small_blind: Range[int, 1, BLIND_MAX] | None = None,
        big_blind: Range[int, 1, BLIND_MAX] | None = None,
        stack: Range[int, 1, CHIPS_MAX] | None = None,
        min_buy_in: Range[int, 1, CHIPS_MAX] | None = None,
        max_buy_in: Range[int, 1, CHIPS_MAX] | None = None,
        seats: SEATS | None = None,
        timer: TIMER | None = None,
        ante: Range[int, 0, BLIND_MAX] | None = None,
        big_blind_ante: Range[int, 0, BLIND_MAX] | None = None,
        straddle: bool | None = None,
        run_it_twice: bool | None = None,
        betting: str | None = None,
        dead_button: bool | None = None,
        missed_blinds: bool | None = None,
        time_bank: Range[int, 0, MAX_TIME_BANK] | None = None,
        pictures: bool | None = None,
        four_colour: bool | None = None,
    ) -> None:
        """Open a table here; the channel sees who opened it and the table message."""
        guild_id, channel_id = command_ids(interaction)
        service = table_service(interaction.client)
        settings = await parts(interaction.client).storage.guild_settings(guild_id)
        learning = kind == LEARNING  # a tournament's chips, face up, the coach on (docs/practice.md)
        options = table_options(
            settings.table_defaults,
            kind=TableKind.TOURNAMENT if learning else TableKind(kind),  # a declared choice (checked at the door)
            small_blind=small_blind,
            big_blind=big_blind,
            stack=stack,
            min_buy_in=min_buy_in,
            max_buy_in=max_buy_in,
            seats=seats,
            timer=timer,
            ante=ante,
            big_blind_ante=big_blind_ante,
            straddle=straddle,
            run_it_twice=run_it_twice,
            betting=betting,
            dead_button=dead_button,
            missed_blinds=missed_blinds,
            time_bank=time_bank,
            pictures=pictures,
            four_colour=four_colour,
        )
        if learning:
            options = options.with_changes(learning=True)
        language = table_language(settings, interaction.guild_locale)
        snapshot = await service.create_table(guild_id, channel_id, interaction.user.id, options, language=language)
        key = "notice.tournament_created" if options.kind is TableKind.TOURNAMENT else "notice.table_created"
        key = "notice.learning_created" if learning else key
        text = t(
            key,
            snapshot.language,
            host=escape_name(interaction.user.display_name),
            sb=options.small_blind,
            bb=options.big_blind,
            seats=options.seats,
            stack=options.starting_stack,
        )
        if options.run_it_twice:
            text += "\n" + t("notice.run_it_twice_offered", snapshot.language)
        await interaction.response.send_message(text, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="start", description=en("cmd.poker.start.desc"))
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        """Deal the first hand; hands then follow by themselves."""
        _guild_id, channel_id = command_ids(interaction)
        service = table_service(interaction.client)
        await service.get(channel_id).start_game(interaction.user.id, is_admin=interaction.permissions.manage_guild)
        language = service.get(channel_id).snapshot().language
        await interaction.response.send_message(t("notice.game_starting", language), allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="end", description=en("cmd.poker.end.desc"))
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        """Close the table (host or Manage Server): a hand in progress is refunded, stacks go back."""
        _guild_id, channel_id = command_ids(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        is_admin = interaction.permissions.manage_guild
        # The answer is stored with the close and sent by the table's outbox (docs/outbox.md).
        reply = InteractionReply(interaction.application_id, interaction.token, str(interaction.locale), time.time())
        await table_service(interaction.client).get(channel_id).end(interaction.user.id, is_admin=is_admin, reply=reply)

    @app_commands.command(name="schedule", description=en("cmd.poker.schedule.desc"))
    @app_commands.describe(
        levels=en("cmd.poker.schedule.opt.levels.desc"),
        every=en("cmd.poker.schedule.opt.every.desc"),
        by=en("cmd.poker.schedule.opt.by.desc"),
    )
    @app_commands.choices(by=[choice(LevelBy.HANDS), choice(LevelBy.MINUTES)])
    async def schedule(
        self,
        interaction: discord.Interaction[Any],
        levels: Range[str, 3, 400],
        every: Range[int, 1, 1000] = 10,
        by: str = LevelBy.HANDS,
    ) -> None:
        """The host agrees the tournament's blind levels before the first hand; the channel is told."""
        _guild_id, channel_id = command_ids(interaction)
        parsed = parse_levels(levels)
        if parsed is None:
            raise CommandRefused("schedule_format", text=levels[:100])
        service = table_service(interaction.client)
        is_admin = interaction.permissions.manage_guild
        unit = LevelBy(by)
        await service.get(channel_id).set_blind_schedule(interaction.user.id, parsed, unit, every, is_admin=is_admin)
        language = service.get(channel_id).snapshot().language
        text = t(f"schedule.set.{by}", language, levels=levels_text(parsed, language), count=every)
        await interaction.response.send_message(text, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="table", description=en("cmd.poker.table.desc"))
    async def table(self, interaction: discord.Interaction[Any]) -> None:
        """Post the table message again at the bottom of the channel; the answer (private) carries the picture of
        the table now (unless the table's pictures are off): the table message itself is edited after every action,
        and a picture there would soon be out of date."""
        _guild_id, channel_id = command_ids(interaction)
        runner = table_service(interaction.client).get(channel_id)
        await runner.repost()
        picture = await table_picture(runner.snapshot(), runner.view().options)
        file = None if picture is None else discord.File(io.BytesIO(picture.data), filename=picture.filename)
        await send_private(interaction, t("action.done", interaction.locale), file=file)

    @app_commands.command(name="cards", description=en("cmd.poker.cards.desc"))
    async def cards(self, interaction: discord.Interaction[Any]) -> None:
        """The member's hole cards, privately."""
        _guild_id, channel_id = command_ids(interaction)
        await show_hole_cards(interaction, table_service(interaction.client), channel_id)

    @app_commands.command(name="verify", description=en("cmd.poker.verify.desc"))
    @app_commands.describe(hand=en("cmd.poker.verify.opt.hand.desc"))
    async def verify(self, interaction: discord.Interaction[Any], hand: Range[int, 1, 1_000_000_000]) -> None:
        """Whether hand N's revealed cards match the deck sealed before its first action (bot.poker.seal), with its
        PHH file and proofs once it is over."""
        _guild_id, channel_id = command_ids(interaction)
        table = await parts(interaction.client).storage.latest_table_for_channel(channel_id)
        if table is None:
            raise ServiceError("no_table")
        await interaction.response.defer(ephemeral=True, thinking=True)
        text, file = await verify_answer(interaction.client, table, hand, interaction.user.id, interaction.locale)
        await send_private(interaction, text, file=file)


async def setup(bot: commands.Bot) -> None:
    """Load the cog and make the table buttons and the Bet…/Raise… form persistent (they work after a restart)."""
    bot.add_dynamic_items(BuyInButton, RunTwiceButton, PreActionButton, ReturnButton, PuzzleButton)
    bot.add_dynamic_items(ShowButton, ShowCardButton)
    await bot.add_cog(TableCog(bot))
