"""Standings views: the leaderboard page with persistent Previous/Next buttons, a member's stats, and the hand
history of a table (list, one hand, its PHH file) — all shown privately, in the viewer's language.

The page buttons are `DynamicItem`s (`poker:lb:<by>:<offset>:<p|n>`): they work after a restart, and the
page is computed for whoever presses (their own rank below the page).
"""

from __future__ import annotations

import asyncio
import io
import math
from collections.abc import Iterable
from typing import Any

import discord

from bot.discord_ui.errors import CommandRefused, guarded
from bot.discord_ui.history import phh_for, seal_of, verify_for, visible_events
from bot.discord_ui.notifier import to_embed
from bot.discord_ui.parts import parts
from bot.poker.equity import runout_odds
from bot.render import (
    LeaderboardEntry,
    Locale,
    cards_text,
    render_hand_history,
    render_history_line,
    render_history_list,
    render_leaderboard,
    render_stats,
    t,
)
from bot.storage import HandRow, LeaderboardBy, TableRow
from bot.tables.computer_names import computer_display_name
from bot.tables.record import hand_users, replay

PAGE_SIZE = 10
HISTORY_HANDS = 10
#: /leaderboard's `by` choices -> storage's ranking.
RANKINGS: dict[str, LeaderboardBy] = {
    "balance": LeaderboardBy.BALANCE,
    "net": LeaderboardBy.NET,
    "wins": LeaderboardBy.TOURNAMENT_WINS,
}


async def leaderboard_message(
    client: discord.Client, guild_id: int, user_id: int, by: str, offset: int, locale: Locale
) -> tuple[discord.Embed, discord.ui.View | None]:
    """One page of the server's ranking (PAGE_SIZE members from `offset`), the viewer's own rank below it,
    and Previous/Next buttons when there is more than one page. Looking at the standings is a first touch:
    the viewer's account opens (with its starting grant) if they had none, so they are ranked by balance."""
    offset = max(0, offset)
    await parts(client).storage.balance(guild_id, user_id)
    page = await parts(client).storage.leaderboard(
        guild_id, RANKINGS.get(by, LeaderboardBy.BALANCE), limit=PAGE_SIZE, offset=offset, user_id=user_id
    )
    ids = [row.user_id for row in page.rows] + ([page.own.user_id] if page.own is not None else [])
    names = await parts(client).people.names(client, guild_id, ids, locale)
    entries = [LeaderboardEntry(row.rank, names[row.user_id], row.value) for row in page.rows]
    caller = LeaderboardEntry(page.own.rank, names[page.own.user_id], page.own.value) if page.own else None
    pages = max(1, math.ceil(page.total / PAGE_SIZE))
    number = offset // PAGE_SIZE + 1
    embed = to_embed(render_leaderboard(entries, by, locale, page=number, pages=pages, caller=caller))
    if pages == 1:
        return embed, None
    view = discord.ui.View(timeout=None)
    view.add_item(PageButton(by, offset - PAGE_SIZE, "p", label=t("button.previous", locale), disabled=offset == 0))
    view.add_item(
        PageButton(
            by, offset + PAGE_SIZE, "n", label=t("button.next", locale), disabled=offset + PAGE_SIZE >= page.total
        )
    )
    return embed, view


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"poker:lb:(?P<by>balance|net|wins):(?P<offset>-?[0-9]{1,9}):(?P<way>[pn])",
):
    """Previous / Next of the leaderboard: shows the page at `offset` for the presser."""

    def __init__(self, by: str, offset: int, way: str, *, label: str | None = None, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"poker:lb:{by}:{offset}:{way}",
                disabled=disabled,
            )
        )
        self.by = by
        self.offset = offset

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> PageButton:
        """Rebuild from the custom_id (after a restart too)."""
        return cls(match["by"], int(match["offset"]), match["way"], label=getattr(item, "label", None))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Replace the page in place."""
        await guarded(interaction, lambda: self._turn(interaction))

    async def _turn(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.guild_id is None:
            raise CommandRefused("guild_only")
        await interaction.response.defer()
        embed, view = await leaderboard_message(
            interaction.client, interaction.guild_id, interaction.user.id, self.by, self.offset, interaction.locale
        )
        await interaction.edit_original_response(embed=embed, view=view)


async def stats_embed(
    client: discord.Client, guild_id: int, member: discord.abc.User, locale: Locale, *, viewer_id: int | None = None
) -> discord.Embed:
    """`/stats` of a member on this server (the figures `StatsRow` defines). A member looking at their own
    (`viewer_id` is theirs) touches their chips: their account opens if they had none, as `/poker balance`;
    another member's stats open nothing (no balance shown for a member without an account)."""
    if viewer_id == member.id:
        await parts(client).storage.balance(guild_id, member.id)
    row = await parts(client).storage.stats(guild_id, member.id)
    return to_embed(render_stats(member.display_name, row, locale))


async def computer_stats_embed(client: discord.Client, guild_id: int, user_id: int, locale: Locale) -> discord.Embed:
    """`/stats computer:` — a computer player's figures on this server, like a member's (the same `StatsRow`),
    named in the reader's language and marked as a computer player (no balance: its chips are the house's)."""
    row = await parts(client).storage.stats(guild_id, user_id)
    name = computer_display_name(user_id, locale) or str(user_id)
    return to_embed(render_stats(name, row, locale, computer=True))


def find_computer(text: str, known: Iterable[int]) -> int | None:
    """The computer player among `known` (user ids) that `text` names: its id as the autocomplete sends it
    ("-2003"), or its name in English or French, with or without the 🤖 ("Solid 3", "solide 3"); else None."""
    wanted = " ".join(text.replace("🤖", " ").split()).casefold()
    for user_id in known:
        if wanted == str(user_id):
            return user_id
        for language in ("en", "fr"):
            name = computer_display_name(user_id, language) or ""
            if " ".join(name.replace("🤖", " ").split()).casefold() == wanted:
                return user_id
    return None


async def computer_choices(client: discord.Client, guild_id: int, typed: str, locale: Locale) -> list[tuple[str, str]]:
    """Autocomplete of `/stats computer:`: (name in the reader's language, id as text) of the computer players
    that played on this server whose name contains what is typed, at most 25 (Discord's limit)."""
    typed = typed.replace("🤖", " ").strip().casefold()
    found = []
    for user_id in await parts(client).storage.computer_players(guild_id):
        name = computer_display_name(user_id, locale) or str(user_id)
        if typed in name.casefold():
            found.append((name, str(user_id)))
    return found[:25]


def table_title(table: TableRow) -> str:
    """How a table is named in history titles: its channel, as a mention (embed titles show it as text)."""
    return f"#{table.channel_id}"


async def history_list(client: discord.Client, table: TableRow, viewer_id: int, locale: Locale) -> discord.Embed:
    """The last finished hands of the table, newest first, one line each (board, who won what)."""
    rows = [row for row in await parts(client).storage.hands_for_table(table.id, limit=HISTORY_HANDS) if row.ended_at]
    users = {user for row in rows for user in hand_users(row)}
    names = await parts(client).people.names(client, table.guild_id, users, locale)
    lines = []
    for row in rows:
        hand = replay(row)
        players = [names[user] for user in hand_users(row)]
        cancelled = bool((row.result or {}).get("aborted"))
        lines.append(render_history_line(row.number, visible_events(hand, None), players, locale, cancelled=cancelled))
    return to_embed(render_history_list(lines, channel_name(client, table), locale))


async def history_hand(
    client: discord.Client, table: TableRow, number: int, viewer_id: int, locale: Locale
) -> tuple[discord.Embed, discord.File]:
    """One finished hand street by street (the viewer's own cards added) and its PHH file (others' cards
    only where shown at the showdown). Raises CommandRefused: history.not_found, history.in_progress."""
    row: HandRow | None = await parts(client).storage.hand_by_number(table.id, number)
    if row is None:
        raise CommandRefused("history.not_found", number=number)
    if row.ended_at is None:
        raise CommandRefused("history.in_progress", number=number)
    hand = replay(row)
    users = hand_users(row)
    names = await parts(client).people.names(client, table.guild_id, users, locale)
    players = [names[user] for user in users]
    viewer = users.index(viewer_id) if viewer_id in users else None
    title = channel_name(client, table)
    # An all-in run-out's odds (preflop counted exactly: milliseconds, 0.1 s on a process's first count).
    odds = await asyncio.get_running_loop().run_in_executor(None, runout_odds, hand)
    faces = {i: cards for i, cards in enumerate(hand.hole_cards) if not hand.folded[i]} if odds else {}
    embed = to_embed(
        render_hand_history(
            number,
            visible_events(hand, viewer),
            players,
            locale,
            table=title,
            viewer=viewer,
            starting_stacks=hand.starting_stacks,
            odds=odds,
            faces=faces,
        )
    )
    text = phh_for(hand, viewer, players=players, table=title, number=number, seal=seal_of(row))
    file = discord.File(io.BytesIO(text.encode("utf-8")), filename=f"table{table.id}-hand{number}.phh")
    return embed, file


async def verify_answer(
    client: discord.Client, table: TableRow, number: int, viewer_id: int, locale: Locale
) -> tuple[str, discord.File | None]:
    """`/poker verify hand:N`: whether the cards of hand N that the viewer has seen (the board so far, the hands
    shown, their own) match the deck sealed before its first action, and — once the hand is over — its PHH file
    with the proofs, to check with `python -m bot.poker verify`. Raises CommandRefused: history.not_found."""
    row: HandRow | None = await parts(client).storage.hand_by_number(table.id, number)
    if row is None:
        raise CommandRefused("history.not_found", number=number)
    hand = replay(row)
    seal = seal_of(row)
    if seal is None:
        return t("verify.unsealed", locale, number=number), None
    users = hand_users(row)
    viewer = users.index(viewer_id) if viewer_id in users else None
    result = verify_for(hand, seal, viewer)
    fingerprint = seal.fingerprint()
    if result.problems:
        text = t("verify.failed", locale, number=number, fingerprint=fingerprint, cards=cards_text(result.failed))
    elif not result.checked:
        key = "verify.nothing_yet" if row.ended_at is None else "verify.nothing"
        text = t(key, locale, number=number, fingerprint=fingerprint)
    else:
        text = t("verify.ok", locale, number=number, count=result.checked, fingerprint=fingerprint)
    if row.ended_at is None:
        return text, None
    names = await parts(client).people.names(client, table.guild_id, users, locale)
    phh = phh_for(
        hand, viewer, players=[names[u] for u in users], table=channel_name(client, table), number=number, seal=seal
    )
    file = discord.File(io.BytesIO(phh.encode("utf-8")), filename=f"table{table.id}-hand{number}.phh")
    return text + "\n" + t("verify.file", locale), file


def channel_name(client: discord.Client, table: TableRow) -> str:
    """The name of a table's channel as "#channel" (its title when the channel is not in the cache), read through
    the table's guild as the table message's title is (`Client.get_channel` walks every guild of the process)."""
    guild = client.get_guild(table.guild_id)
    channel = guild.get_channel_or_thread(table.channel_id) if guild is not None else None
    name = getattr(channel, "name", None)
    return f"#{name}" if name else table_title(table)
