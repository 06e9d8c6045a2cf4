"""The `/poker` command group: open and run a table in this channel, sit down and leave, chips (rebuy, refill,
balance); and `/poker-admin`: the server's settings and ledger audit (Manage Server).

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

from bot.discord_ui.advance import PreActionButton, ReturnButton, send_return_choice
from bot.discord_ui.components import answer_unknown_component, template_of
from bot.discord_ui.errors import NO_MENTIONS, CommandRefused, send_private
from bot.discord_ui.notifier import to_embed
from bot.discord_ui.options import CheckedCog
from bot.discord_ui.parts import has_parts, parts, table_service
from bot.discord_ui.puzzles import PuzzleButton, Puzzles
from bot.discord_ui.run_twice import RunTwiceButton
from bot.discord_ui.standings import PageButton, verify_answer
from bot.discord_ui.table_settings import (
    changed_defaults,
    levels_text,
    parse_levels,
    table_language,
    table_options,
)
from bot.discord_ui.table_view import (
    AMOUNT_FORM,
    ActionButton,
    BuyInButton,
    show_hole_cards,
    submit_amount,
)
from bot.discord_ui.texts import choice, en
from bot.poker.settings import MAX_PLAYERS, MIN_PLAYERS
from bot.render import escape_name, render_audit, render_settings, t
from bot.tables import CASH, TOURNAMENT, InteractionReply, ServiceError, TableSnapshot
from bot.tables.options import BETTING_STRUCTURES, LEARNING, MAX_TIME_BANK, MAX_TURN_TIMEOUT, MIN_TURN_TIMEOUT
from bot.tables.pictures import table_picture
from bot.tables.puzzle_board import PuzzleBoard

log = logging.getLogger(__name__)

# The bounds of the options below (checked at the door by CheckedCog: discord.py does not enforce them).
CHIPS_MAX = 1_000_000_000
BLIND_MAX = 1_000_000
HOURS_MAX = 24 * 365
SEATS = Range[int, MIN_PLAYERS, MAX_PLAYERS]
TIMER = Range[int, MIN_TURN_TIMEOUT, MAX_TURN_TIMEOUT]


def _ids(interaction: discord.Interaction[Any]) -> tuple[int, int]:
    """(guild id, channel id) of a guild-only command."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise CommandRefused("guild_only")
    return interaction.guild_id, interaction.channel_id


def _seat_stack(snapshot: TableSnapshot, user_id: int) -> int:
    return next((s.stack for s in snapshot.seats if s.user_id == user_id), 0)


class TableCog(CheckedCog):
    """`/poker ...`: one table per channel (bot.tables), chips per server (bot.storage)."""

    poker = app_commands.Group(name="poker", description=en("cmd.poker.desc"), guild_only=True)
    # Discord keeps default_member_permissions on top-level commands only: the server's own commands are a group
    # of their own, shown to members with Manage Server (the check in code stays: a server may show them to more).
    admin = app_commands.Group(
        name="poker-admin",
        description=en("cmd.poker-admin.desc"),
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.puzzles = Puzzles(PuzzleBoard(bot.storage))  # type: ignore[attr-defined]
        bot.puzzles = self.puzzles  # type: ignore[attr-defined]

    async def cog_unload(self) -> None:
        """Stop the puzzles' reveal timers."""
        self.puzzles.stop()

    @commands.Cog.listener("on_interaction")
    async def on_amount_form(self, interaction: discord.Interaction[Any]) -> None:
        """A submitted Bet…/Raise… form, handled from its custom_id (`submit_amount`): it works after a restart."""
        await submit_amount(interaction)

    @commands.Cog.listener("on_interaction")
    async def on_unknown_component(self, interaction: discord.Interaction[Any]) -> None:
        """A `poker:*` press or form that nothing would answer (malformed, forged) gets a private answer."""
        kinds = (ActionButton, BuyInButton, PageButton, RunTwiceButton, PreActionButton, ReturnButton, PuzzleButton)
        buttons = tuple(template_of(kind) for kind in kinds)
        await answer_unknown_component(interaction, buttons=buttons, forms=(AMOUNT_FORM,))

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Remember who acts and in which language (names for standings, locale for hole-card DMs)."""
        if has_parts(self.bot):
            parts(self.bot).people.remember_interaction(interaction)

    # ------------------------------------------------------------------ the table

    @poker.command(name="create", description=en("cmd.poker.create.desc"))
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
        kind=[choice(CASH), choice(TOURNAMENT), choice(LEARNING)],
        betting=[choice(value) for value in BETTING_STRUCTURES],
    )
    async def create(
        self,
        interaction: discord.Interaction[Any],
        kind: str = CASH,
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
        guild_id, channel_id = _ids(interaction)
        service = table_service(interaction.client)
        settings = await parts(interaction.client).storage.guild_settings(guild_id)
        learning = kind == LEARNING  # a tournament's chips, face up, the coach on (docs/practice.md)
        options = table_options(
            settings.table_defaults,
            kind=TOURNAMENT if learning else kind,
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
        key = "notice.tournament_created" if options.kind == TOURNAMENT else "notice.table_created"
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

    @poker.command(name="join", description=en("cmd.poker.join.desc"))
    @app_commands.describe(seat=en("cmd.poker.join.opt.seat.desc"), buy_in=en("cmd.poker.join.opt.buy_in.desc"))
    async def join(
        self,
        interaction: discord.Interaction[Any],
        seat: Range[int, 1, MAX_PLAYERS] | None = None,
        buy_in: Range[int, 1, CHIPS_MAX] | None = None,
    ) -> None:
        """Sit down (a cash table buys in from the member's balance)."""
        guild_id, channel_id = _ids(interaction)
        service = table_service(interaction.client)
        user = interaction.user
        number = await service.get(channel_id).join(user.id, user.display_name, seat, buy_in)
        snapshot = service.get(channel_id).snapshot()
        stack = _seat_stack(snapshot, user.id)
        if snapshot.kind == CASH:
            balance = await parts(interaction.client).storage.balance(guild_id, user.id)
            text = t("join.done_balance", interaction.locale, seat=number, stack=stack, balance=balance)
        else:
            text = t("join.done", interaction.locale, seat=number, stack=stack)
        await send_private(interaction, text)
        owed = service.get(channel_id).blinds_owed(user.id)
        if owed is not None:  # missed blinds (issue 16): a new player at a running table posts or waits
            await send_return_choice(interaction, channel_id, owed)

    @poker.command(name="leave", description=en("cmd.poker.leave.desc"))
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Stand up now, or, in a hand, forfeit it at once (folded) and stand up when it ends."""
        guild_id, channel_id = _ids(interaction)
        service = table_service(interaction.client)
        before = service.get(channel_id).snapshot()
        stack = _seat_stack(before, interaction.user.id)
        if not await service.get(channel_id).leave(interaction.user.id):
            text = t("leave.pending", interaction.locale)
        elif before.kind == CASH:
            balance = await parts(interaction.client).storage.balance(guild_id, interaction.user.id)
            text = t("leave.done", interaction.locale, stack=stack, balance=balance)
        else:
            text = t("leave.done_tournament", interaction.locale)
        await send_private(interaction, text)

    @poker.command(name="start", description=en("cmd.poker.start.desc"))
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        """Deal the first hand; hands then follow by themselves."""
        _guild_id, channel_id = _ids(interaction)
        service = table_service(interaction.client)
        await service.get(channel_id).start_game(interaction.user.id, is_admin=interaction.permissions.manage_guild)
        language = service.get(channel_id).snapshot().language
        await interaction.response.send_message(t("notice.game_starting", language), allowed_mentions=NO_MENTIONS)

    @poker.command(name="sitout", description=en("cmd.poker.sitout.desc"))
    async def sitout(self, interaction: discord.Interaction[Any]) -> None:
        """Keep the seat and chips, skip the next hands."""
        _guild_id, channel_id = _ids(interaction)
        await table_service(interaction.client).get(channel_id).sit_out(interaction.user.id)
        await send_private(interaction, t("sitout.done", interaction.locale))

    @poker.command(name="sitin", description=en("cmd.poker.sitin.desc"))
    async def sitin(self, interaction: discord.Interaction[Any]) -> None:
        """Be dealt in again from the next hand."""
        _guild_id, channel_id = _ids(interaction)
        runner = table_service(interaction.client).get(channel_id)
        await runner.sit_in(interaction.user.id)
        owed = runner.blinds_owed(interaction.user.id)
        if owed is not None:  # missed blinds (issue 16): post them, or wait for the big blind
            await send_return_choice(interaction, channel_id, owed)
            return
        await send_private(interaction, t("sitin.done", interaction.locale))

    @poker.command(name="cards", description=en("cmd.poker.cards.desc"))
    async def cards(self, interaction: discord.Interaction[Any]) -> None:
        """The member's hole cards, privately."""
        _guild_id, channel_id = _ids(interaction)
        await show_hole_cards(interaction, table_service(interaction.client), channel_id)

    @poker.command(name="table", description=en("cmd.poker.table.desc"))
    async def table(self, interaction: discord.Interaction[Any]) -> None:
        """Post the table message again at the bottom of the channel; the answer (private) carries the picture of
        the table now (unless the table's pictures are off): the table message itself is edited after every action,
        and a picture there would soon be out of date."""
        _guild_id, channel_id = _ids(interaction)
        runner = table_service(interaction.client).get(channel_id)
        await runner.repost()
        picture = await table_picture(runner.snapshot(), runner.view().options)
        file = None if picture is None else discord.File(io.BytesIO(picture.data), filename=picture.filename)
        await send_private(interaction, t("action.done", interaction.locale), file=file)

    @poker.command(name="verify", description=en("cmd.poker.verify.desc"))
    @app_commands.describe(hand=en("cmd.poker.verify.opt.hand.desc"))
    async def verify(self, interaction: discord.Interaction[Any], hand: Range[int, 1, 1_000_000_000]) -> None:
        """Whether hand N's revealed cards match the deck sealed before its first action (bot.poker.seal), with its
        PHH file and proofs once it is over."""
        _guild_id, channel_id = _ids(interaction)
        table = await parts(interaction.client).storage.latest_table_for_channel(channel_id)
        if table is None:
            raise ServiceError("no_table")
        await interaction.response.defer(ephemeral=True, thinking=True)
        text, file = await verify_answer(interaction.client, table, hand, interaction.user.id, interaction.locale)
        await send_private(interaction, text, file=file)

    @poker.command(name="end", description=en("cmd.poker.end.desc"))
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        """Close the table (host or Manage Server): a hand in progress is refunded, stacks go back."""
        _guild_id, channel_id = _ids(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        is_admin = interaction.permissions.manage_guild
        # The answer is stored with the close and sent by the table's outbox (docs/outbox.md).
        reply = InteractionReply(interaction.application_id, interaction.token, str(interaction.locale), time.time())
        await table_service(interaction.client).get(channel_id).end(interaction.user.id, is_admin=is_admin, reply=reply)

    @poker.command(name="kick", description=en("cmd.poker.kick.desc"))
    @app_commands.describe(member=en("cmd.poker.kick.opt.member.desc"))
    async def kick(self, interaction: discord.Interaction[Any], member: discord.Member) -> None:
        """Remove a player (host or Manage Server), at the end of the hand if they are in one."""
        _guild_id, channel_id = _ids(interaction)
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

    @poker.command(name="puzzle", description=en("cmd.poker.puzzle.desc"))
    @app_commands.describe(action=en("cmd.poker.puzzle.opt.action.desc"))
    @app_commands.choices(action=[choice("new"), choice("reveal"), choice("record")])
    async def puzzle(self, interaction: discord.Interaction[Any], action: str = "new") -> None:
        """Post a decision puzzle here, reveal the open one now, or show your record (docs/practice.md)."""
        guild_id, channel_id = _ids(interaction)
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

    @poker.command(name="coach", description=en("cmd.poker.coach.desc"))
    @app_commands.describe(mode=en("cmd.poker.coach.opt.mode.desc"))
    @app_commands.choices(mode=[choice("on"), choice("off")])
    async def coach(self, interaction: discord.Interaction[Any], mode: str = "on") -> None:
        """Turn your coach on or off at this table: on your turn, "My cards" adds its advice (docs/practice.md)."""
        _guild_id, channel_id = _ids(interaction)
        await table_service(interaction.client).get(channel_id).set_coach(interaction.user.id, mode == "on")
        await send_private(interaction, t(f"coach.turned_{mode}", interaction.locale))

    @poker.command(name="addbot", description=en("cmd.poker.addbot.desc"))
    @app_commands.describe(level=en("cmd.poker.addbot.opt.level.desc"))
    @app_commands.choices(level=[choice("beginner"), choice("solid")])
    async def addbot(self, interaction: discord.Interaction[Any], level: str = "beginner") -> None:
        """Seat a computer player (host or Manage Server), before or between hands (docs/practice.md)."""
        _guild_id, channel_id = _ids(interaction)
        is_admin = interaction.permissions.manage_guild
        service = table_service(interaction.client)
        seat = await service.get(channel_id).add_computer(interaction.user.id, level, is_admin=is_admin)
        name = next(s.name for s in service.get(channel_id).snapshot().seats if s.seat == seat)
        await send_private(interaction, t("addbot.done", interaction.locale, name=name, seat=seat))

    @poker.command(name="removebot", description=en("cmd.poker.removebot.desc"))
    @app_commands.describe(seat=en("cmd.poker.removebot.opt.seat.desc"))
    async def removebot(self, interaction: discord.Interaction[Any], seat: Range[int, 1, MAX_PLAYERS]) -> None:
        """Take away the computer player at a seat (host or Manage Server), between hands."""
        _guild_id, channel_id = _ids(interaction)
        is_admin = interaction.permissions.manage_guild
        service = table_service(interaction.client)
        name = next((s.name for s in service.get(channel_id).snapshot().seats if s.seat == seat), str(seat))
        await service.get(channel_id).remove_computer(interaction.user.id, seat, is_admin=is_admin)
        await send_private(interaction, t("kick.done", interaction.locale, name=name))

    @poker.command(name="schedule", description=en("cmd.poker.schedule.desc"))
    @app_commands.describe(
        levels=en("cmd.poker.schedule.opt.levels.desc"),
        every=en("cmd.poker.schedule.opt.every.desc"),
        by=en("cmd.poker.schedule.opt.by.desc"),
    )
    @app_commands.choices(by=[choice("hands"), choice("minutes")])
    async def schedule(
        self,
        interaction: discord.Interaction[Any],
        levels: Range[str, 3, 400],
        every: Range[int, 1, 1000] = 10,
        by: str = "hands",
    ) -> None:
        """The host agrees the tournament's blind levels before the first hand; the channel is told."""
        _guild_id, channel_id = _ids(interaction)
        parsed = parse_levels(levels)
        if parsed is None:
            raise CommandRefused("schedule_format", text=levels[:100])
        service = table_service(interaction.client)
        is_admin = interaction.permissions.manage_guild
        await service.get(channel_id).set_blind_schedule(interaction.user.id, parsed, by, every, is_admin=is_admin)
        language = service.get(channel_id).snapshot().language
        text = t(f"schedule.set.{by}", language, levels=levels_text(parsed, language), count=every)
        await interaction.response.send_message(text, allowed_mentions=NO_MENTIONS)

    # ------------------------------------------------------------------ chips

    @poker.command(name="rebuy", description=en("cmd.poker.rebuy.desc"))
    @app_commands.describe(amount=en("cmd.poker.rebuy.opt.amount.desc"))
    async def rebuy(self, interaction: discord.Interaction[Any], amount: Range[int, 1, CHIPS_MAX]) -> None:
        """Add chips from the balance to the member's stack, up to the maximum buy-in (asked during a hand: made
        when it ends)."""
        _guild_id, channel_id = _ids(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        # The answer ("done", or "made when the hand ends") is stored with the rebuy and sent by the table's outbox
        # (docs/outbox.md).
        reply = InteractionReply(interaction.application_id, interaction.token, str(interaction.locale), time.time())
        await table_service(interaction.client).get(channel_id).rebuy(interaction.user.id, amount, reply)

    @poker.command(name="refill", description=en("cmd.poker.refill.desc"))
    async def refill(self, interaction: discord.Interaction[Any]) -> None:
        """Claim the server's grant again when both balance and stacks are empty (once per cooldown)."""
        guild_id, _channel_id = _ids(interaction)
        balance = await table_service(interaction.client).refill(guild_id, interaction.user.id)
        await send_private(interaction, t("refill.done", interaction.locale, amount=balance, balance=balance))

    @poker.command(name="balance", description=en("cmd.poker.balance.desc"))
    async def balance(self, interaction: discord.Interaction[Any]) -> None:
        """The member's chips on this server (not counting stacks on tables)."""
        guild_id, _channel_id = _ids(interaction)
        balance = await parts(interaction.client).storage.balance(guild_id, interaction.user.id)
        await send_private(interaction, t("balance.show", interaction.locale, balance=balance))

    # ------------------------------------------------------------------ server administration

    @admin.command(name="settings", description=en("cmd.poker-admin.settings.desc"))
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
        guild_id, _channel_id = _ids(interaction)
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

    @admin.command(name="audit", description=en("cmd.poker-admin.audit.desc"))
    @app_commands.checks.has_permissions(manage_guild=True)
    async def audit(self, interaction: discord.Interaction[Any]) -> None:
        """Check the server's chip ledger: balances + chips on tables = chips issued (Manage Server)."""
        guild_id, _channel_id = _ids(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        report = await parts(interaction.client).storage.audit(guild_id)
        spec = render_audit(report, interaction.locale)
        await send_private(interaction, embed=to_embed(spec))


async def setup(bot: commands.Bot) -> None:
    """Load the cog and make the table buttons and the Bet…/Raise… form persistent (they work after a restart)."""
    bot.add_dynamic_items(ActionButton, BuyInButton, RunTwiceButton, PreActionButton, ReturnButton, PuzzleButton)
    await bot.add_cog(TableCog(bot))
