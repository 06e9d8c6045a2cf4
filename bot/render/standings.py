"""Standings and history: the leaderboard page, a member's stats, the hand history (a list of hands and
one hand street by street). Hole cards appear only where they were shown at showdown, or for the
viewer's own seat when the caller passes it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from bot.poker import (
    Card,
    Event,
    HandMucked,
    HandShown,
    HoleCardsDealt,
    PotAwarded,
    StreetDealt,
    UncalledBetReturned,
    hand_result_from_events,
)
from bot.poker.equity import StreetOdds
from bot.poker.events import ShownByChoice
from bot.render.cards import cards_text
from bot.render.embeds import (
    COLOR_ERROR,
    COLOR_INFO,
    DESCRIPTION_MAX,
    FIELD_VALUE_MAX,
    EmbedField,
    EmbedSpec,
    clamp,
    clamp_lines,
    escape_name,
    make_embed,
)
from bot.render.events import (
    Names,
    player_name,
    pot_count_of,
    render_event_line,
    render_event_lines,
    shown_values,
    street_key,
)
from bot.render.hands import hand_name
from bot.render.i18n import ENGLISH, Locale, format_percent, format_signed_chips, locale_language, t
from bot.render.odds import render_odds

LEADERBOARD_BY = ("balance", "net", "wins")


@dataclass(frozen=True)
class LeaderboardEntry:
    """One ranked member: rank (1-based), display name, value (chips for "balance"/"net", count for "wins")."""

    rank: int
    name: str
    value: int


def _leaderboard_value(value: int, by: str, locale: Locale) -> str:
    if by == "wins":
        return t("leaderboard.wins_value", locale, count=value)
    if by == "net":
        return format_signed_chips(value, locale)
    return t("leaderboard.chips_value", locale, amount=value)


def render_leaderboard(
    entries: Sequence[LeaderboardEntry],
    by: str,
    locale: Locale,
    *,
    page: int = 1,
    pages: int = 1,
    caller: LeaderboardEntry | None = None,
) -> EmbedSpec:
    """One page of `/leaderboard`: by "balance" (default), "net" (net winnings at cash tables, signed) or
    "wins" (tournament wins), as `Storage.leaderboard` ranks them; the caller's own rank below the page (even
    when it is on another page; when `caller` is None, why this ranking has no place for them); "Page 2/5" in
    the footer. An empty ranking says what it counts ("No tournament has finished here yet..."), never that
    nobody played. Any page size fits (lines are cut to the limits)."""
    by = by if by in LEADERBOARD_BY else "balance"
    lines = [
        t(
            "leaderboard.line",
            locale,
            rank=e.rank,
            name=escape_name(e.name),
            value=_leaderboard_value(e.value, by, locale),
        )
        for e in entries
    ]
    if not lines:
        lines = [t(f"leaderboard.empty.{by}", locale)]
    if caller is not None:
        you = t("leaderboard.you", locale, rank=caller.rank, value=_leaderboard_value(caller.value, by, locale))
    else:
        you = t(f"leaderboard.you_unranked.{by}", locale)
    description = clamp_lines(lines, DESCRIPTION_MAX - len(you) - 2, locale) + "\n\n" + you
    return make_embed(
        t(f"leaderboard.title.{by}", locale),
        description,
        footer=t("leaderboard.page", locale, page=page, pages=max(pages, 1)),
        color=COLOR_INFO,
    )


class MemberStats(Protocol):
    """What `/stats` shows, as the storage's `StatsRow` defines each figure (render sits below storage: this is
    what it reads of it). Chips are ints; vpip/pfr are percentages 0..100 of the preflop_decisions (hands in
    which the member was asked to act before the flop); balance None: not shown (no account)."""

    @property
    def hands_played(self) -> int: ...
    @property
    def hands_won(self) -> int: ...
    @property
    def won_at_showdown(self) -> int: ...
    @property
    def went_to_showdown(self) -> int: ...
    @property
    def hands_shown(self) -> int: ...
    @property
    def biggest_pot(self) -> int: ...
    @property
    def net(self) -> int: ...
    @property
    def vpip(self) -> float: ...
    @property
    def pfr(self) -> float: ...
    @property
    def preflop_decisions(self) -> int: ...
    @property
    def tournaments_played(self) -> int: ...
    @property
    def tournaments_won(self) -> int: ...
    @property
    def balance(self) -> int | None: ...


def render_stats(name: str, stats: MemberStats, locale: Locale, *, computer: bool = False) -> EmbedSpec:
    """`/stats`: hands played / won, won at showdown (of those that went), hands shown, biggest pot, net chips at cash
    tables (signed), VPIP and PFR as percentages ("—" before any hand with a preflop decision), tournaments
    played / won, and the balance when given. stats: the storage's `StatsRow`. `computer`: the stats of a computer
    player (issue 17), said so above the figures (its chips are the house's: no balance; never on the leaderboard)."""
    none = t("common.none", locale)
    played = stats.hands_played

    def pct(value: float) -> str:
        return format_percent(value / 100, locale) if stats.preflop_decisions else none

    fields = [
        EmbedField(t("stats.hands_played", locale), t("common.number", locale, n=played), True),
        EmbedField(t("stats.hands_won", locale), t("common.number", locale, n=stats.hands_won), True),
        EmbedField(
            t("stats.showdowns_won", locale),
            t("stats.pair", locale, a=stats.won_at_showdown, b=stats.went_to_showdown),
            True,
        ),
        EmbedField(t("stats.hands_shown", locale), t("common.number", locale, n=stats.hands_shown), True),
        EmbedField(t("stats.biggest_pot", locale), t("common.number", locale, n=stats.biggest_pot), True),
        EmbedField(t("stats.net", locale), format_signed_chips(stats.net, locale), True),
        EmbedField(t("stats.vpip", locale), pct(stats.vpip), True),
        EmbedField(t("stats.pfr", locale), pct(stats.pfr), True),
        EmbedField(
            t("stats.tournaments", locale),
            t("stats.pair", locale, a=stats.tournaments_played, b=stats.tournaments_won),
            True,
        ),
    ]
    if stats.balance is not None and not computer:
        fields.append(EmbedField(t("stats.balance", locale), t("common.number", locale, n=stats.balance), True))
    lines = [t("stats.computer", locale)] if computer else []
    if not played:
        lines.append(t("stats.none", locale))
    description = "\n".join(lines)
    return make_embed(
        t("stats.title", locale, name=escape_name(name)),
        description,
        fields,
        footer=t("stats.footer", locale),
        color=COLOR_INFO,
    )


def format_duration(seconds: int, locale: Locale) -> str:
    """A duration in the largest whole unit: 86400 -> "24 hours" / "24 heures", 90 -> "90 seconds"."""
    for key, size in (("duration.hours", 3600), ("duration.minutes", 60)):
        if seconds and seconds % size == 0:
            return t(key, locale, count=seconds // size)
    return t("duration.seconds", locale, count=seconds)


class LanguageSource(StrEnum):
    """Why a server's tables speak the language they do."""

    CHOSEN = "chosen"  # the server chose it with /poker-admin settings
    DISCORD = "discord"  # the server's Discord language (English or French)
    DEFAULT = "default"  # the bot's default: the server chose none and its Discord language is neither


def language_in_force(
    chosen: str | None, guild_locale: Locale, bot_default: str = ENGLISH
) -> tuple[str, LanguageSource]:
    """The language a server's new tables speak ("en"/"fr") and why: the one rule, used to open tables and to
    show it in `/poker-admin settings`. `chosen`: the server's own choice (`GuildSettings.chosen_language`);
    `guild_locale`: its Discord language as Discord reports it (a `discord.Locale`, "fr", "en-US"..., or None)."""
    if chosen is not None:
        return chosen, LanguageSource.CHOSEN
    spoken = locale_language(guild_locale)
    if spoken is not None:
        return spoken, LanguageSource.DISCORD
    return bot_default, LanguageSource.DEFAULT


class ServerSettings(Protocol):
    """What `/poker-admin settings` shows of the storage's `GuildSettings`."""

    @property
    def language(self) -> str: ...
    @property
    def chosen_language(self) -> str | None: ...
    @property
    def starting_grant(self) -> int: ...
    @property
    def refill_cooldown_s(self) -> int: ...
    @property
    def table_defaults(self) -> Mapping[str, object]: ...


class AuditFigures(Protocol):
    """What `/poker-admin audit` shows of the storage's `AuditReport`."""

    @property
    def ok(self) -> bool: ...
    @property
    def balances(self) -> int: ...
    @property
    def on_tables(self) -> int: ...
    @property
    def issued(self) -> int: ...
    @property
    def problems(self) -> tuple[str, ...]: ...


def render_settings(settings: ServerSettings, locale: Locale, *, guild_locale: Locale = None) -> EmbedSpec:
    """`/poker-admin settings`: the language in force and why (`language_in_force`: "French — the server's Discord
    language"), starting grant, refill cooldown and the defaults of new tables. settings: the storage's
    `GuildSettings` (chosen_language, starting_grant, refill_cooldown_s, table_defaults mapping with
    small_blind, big_blind, buy_in or starting_stack, turn_timeout, pictures); guild_locale: the server's Discord
    language."""
    defaults = settings.table_defaults
    language, source = language_in_force(settings.chosen_language, guild_locale, settings.language)
    shown = t(f"settings.language_value.{source.value}", locale, language=t(f"language.{language}", locale))
    fields = [
        EmbedField(t("settings.language", locale), shown, True),
        EmbedField(t("settings.starting_grant", locale), t("common.number", locale, n=settings.starting_grant), True),
        EmbedField(t("settings.refill_cooldown", locale), format_duration(settings.refill_cooldown_s, locale), True),
    ]
    if "small_blind" in defaults and "big_blind" in defaults:
        blinds = t("table.blinds", locale, sb=defaults["small_blind"], bb=defaults["big_blind"])
        fields.append(EmbedField(t("settings.default_blinds", locale), blinds, True))
    stack = defaults.get("buy_in", defaults.get("starting_stack"))
    if stack is not None:
        fields.append(EmbedField(t("settings.default_stack", locale), t("common.number", locale, n=stack), True))
    timeout = defaults.get("turn_timeout")
    if isinstance(timeout, int | float):
        fields.append(EmbedField(t("settings.default_timer", locale), format_duration(int(timeout), locale), True))
    pictures = defaults.get("pictures") is not False  # on unless the server turned them off
    fields.append(
        EmbedField(t("settings.pictures", locale), t(f"settings.pictures_{'on' if pictures else 'off'}", locale), True)
    )
    return make_embed(t("settings.title", locale), "", fields, color=COLOR_INFO)


def render_audit(report: AuditFigures, locale: Locale) -> EmbedSpec:
    """`/poker-admin audit` from the storage's `AuditReport` (ok, balances, on_tables, issued, problems): the
    invariant balances + chips on tables = chips issued, and the problems found (as the ledger words them)."""
    key = "audit.ok" if report.ok else "audit.failed"
    line = t(key, locale, balances=report.balances, on_tables=report.on_tables, issued=report.issued)
    problems = [f"- {p}" for p in report.problems]
    description = clamp_lines([line, *(["", *problems] if problems else [])], DESCRIPTION_MAX, locale)
    return make_embed(t("audit.title", locale), description, color=COLOR_INFO if report.ok else COLOR_ERROR)


def _history_sections(
    events: Sequence[Event],
    names: Names,
    locale: Locale,
    odds: Sequence[StreetOdds] = (),
    faces: Mapping[int, Sequence[Card]] | None = None,
) -> list[tuple[str, list[str]]]:
    """(street heading, lines) pairs: preflop, then one per dealt street (a second board's named so), then the
    result. `odds` (`bot.poker.equity.StreetOdds`, of an all-in run-out) go at the end of the section of the
    board they were worked out on, with `faces` (the face-up hole cards by hand player index). A hand run twice
    names each shown hand on both boards, as the showdown message does (`hand_result_from_events` reads them)."""
    pot_count = pot_count_of(events)
    shown = shown_values(events)
    second_values = {s.user_id: s.second_value for s in hand_result_from_events(0, events, ()).shown}
    twice = [value for value in second_values.values() if value is not None]
    by_board = {len(point.board): point.odds for point in odds}
    sections: list[tuple[str, list[str]]] = [(t("street.preflop", locale), [])]
    result: list[str] = []
    pending: list[str] = []

    def odds_lines(board_size: int) -> list[str]:
        point = by_board.get(board_size)
        return [] if point is None else render_odds(point, names, faces or {}, locale)

    pending = odds_lines(0)
    for event in events:
        match event:
            case StreetDealt(street=street, board=board, run=run):
                sections[-1][1].extend(pending)
                street_words = t(f"street.{street_key(street)}", locale)
                heading = t("history.street_cards", locale, street=street_words, cards=cards_text(board))
                if run == 2:
                    heading = f"{t('street.second_board', locale)} · {heading}"
                sections.append((heading, []))
                pending = [] if run == 2 else odds_lines(len(board))
                continue
            case PotAwarded():
                continue  # after the loop, grouped as at the showdown
            case HandShown(player=player, cards=cards, value=value) if (
                second := second_values.get(player)
            ) is not None:
                result.append(
                    t(
                        "history.shows_twice",
                        locale,
                        name=player_name(names, player, locale),
                        cards=cards_text(cards),
                        first=hand_name(value, locale, shown),
                        second=hand_name(second, locale, twice),
                    )
                )
                continue
        line = render_event_line(event, names, locale, pot_count=pot_count, shown=shown)
        if line is None:
            continue
        if isinstance(event, HandShown | HandMucked | UncalledBetReturned | ShownByChoice):
            result.append(line)
        else:
            sections[-1][1].append(line)
    sections[-1][1].extend(pending)
    result += render_event_lines([e for e in events if isinstance(e, PotAwarded)], names, locale)
    sections.append((t("history.result", locale), result))
    return sections


def render_hand_history(
    number: int,
    events: Sequence[Event],
    names: Names,
    locale: Locale,
    *,
    table: str | None = None,
    viewer: int | None = None,
    starting_stacks: Sequence[int] = (),
    odds: Sequence[StreetOdds] = (),
    faces: Mapping[int, Sequence[Card]] | None = None,
) -> EmbedSpec:
    """One hand street by street, for `/history hand`: players and starting stacks, then preflop, flop, turn,
    river (board shown at each street) with every action, then the shown hands, pots won and uncalled bets.

    events: the hand's engine events (e.g. `Hand.from_record(record).events`); names: display names by hand
    player index; viewer: the hand player index of the member asking, whose own hole cards are added
    (everyone else's appear only if shown at showdown); starting_stacks: chips by player index; odds and
    faces: an all-in run-out's figures (`bot.poker.equity.runout_odds`) and the face-up hands, shown at the
    end of each street they were worked out on (issue 15).
    """
    title = (
        t("history.title_table", locale, number=number, table=clamp(table, 100))
        if table
        else t("history.title", locale, number=number)
    )
    players = []
    for index, stack in enumerate(starting_stacks):
        players.append(t("event.share", locale, name=player_name(names, index, locale), amount=stack))
    description = " · ".join(players)
    if viewer is not None:
        own = next((e.cards for e in events if isinstance(e, HoleCardsDealt) and e.player == viewer and e.cards), None)
        if own:
            description = (description + "\n" if description else "") + t(
                "history.your_cards", locale, cards=cards_text(own)
            )
    fields = []
    for heading, lines in _history_sections(events, names, locale, odds, faces):
        lines = lines or [t("history.none_this_street", locale)]
        fields.append(EmbedField(clamp(heading, 256), clamp_lines(lines, FIELD_VALUE_MAX, locale)))
    return make_embed(title, clamp(description, DESCRIPTION_MAX), fields, color=COLOR_INFO)


def render_history_line(
    number: int, events: Sequence[Event], names: Names, locale: Locale, *, cancelled: bool = False
) -> str:
    """One hand in a list: "#12 · A♠ K♥ 7♦ 2♣ 9♠ · Alice wins the pot (60) with Flush, ace high"; a hand
    cancelled before its end (`/poker end` in a hand: every bet returned) says so: "#19 · 4♦ 10♠ 5♥ · cancelled,
    every bet returned"."""
    board: tuple[Card, ...] = ()
    second: tuple[Card, ...] = ()
    for event in events:
        if isinstance(event, StreetDealt):
            if event.run == 2:
                second = event.board
            else:
                board = event.board
    # The pots paid, grouped as at the showdown (one line per winner and hand).
    awards = render_event_lines([e for e in events if isinstance(e, PotAwarded)], names, locale)
    summary = t("history.cancelled", locale) if cancelled else "; ".join(awards) or t("common.none", locale)
    if second:  # a hand run twice: both boards
        first, other = cards_text(board), cards_text(second)
        return t("history.line_boards", locale, number=number, board=first, second=other, summary=summary)
    if board:
        return t("history.line_board", locale, number=number, board=cards_text(board), summary=summary)
    return t("history.line", locale, number=number, summary=summary)


def render_history_list(lines: Sequence[str], table: str, locale: Locale) -> EmbedSpec:
    """`/history` without a hand: the lines of `render_history_line`, newest first as given, cut to fit."""
    body = clamp_lines(list(lines), DESCRIPTION_MAX, locale) if lines else t("history.empty", locale)
    return make_embed(
        t("history.list_title", locale, table=clamp(table, 100)),
        body,
        footer=t("history.footer", locale) if lines else "",
        color=COLOR_INFO,
    )
