"""New public messages about a hand or a table — streets, the showdown, eliminations, tournament placings,
the table's end — and the private hole-card messages.

Each renderer takes the table service's announcement value as it is. How a hand ended is the engine's
`HandResult` (`bot.poker.hand_result_from_events`); the service's other announcements sit above this layer, so
what a renderer reads of them is declared here as a `Protocol` (mypy checks the service's dataclasses against
it where the Discord layer passes them). Public renderers only ever receive shown cards: a `HandResult` has no
field for unshown hole cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import Protocol

from bot.poker import Card, HandResult, HandValue, LevelBy, Pot, Street
from bot.poker.equity import Odds
from bot.render.cards import cards_text
from bot.render.embeds import (
    COLOR_IDLE,
    COLOR_SHOWDOWN,
    CONTENT_MAX,
    DESCRIPTION_MAX,
    FIELD_VALUE_MAX,
    EmbedField,
    EmbedSpec,
    clamp,
    clamp_lines,
    escape_name,
    make_embed,
)
from bot.render.events import Award, pots_summary, render_awards, street_key
from bot.render.hands import hand_name
from bot.render.i18n import Locale, ordinal, t, t_uncached
from bot.render.odds import render_odds


class StreetNews(Protocol):
    """What `render_street` reads of the service's `StreetAnnouncement`: the street, its new cards, the whole
    board, the pots as they stand (main first); in an all-in run-out, which board (`run`) and the face-up
    hands' chances (`odds`, with `names` and `faces` by hand player index)."""

    @property
    def street(self) -> Street: ...
    @property
    def cards(self) -> tuple[Card, ...]: ...
    @property
    def board(self) -> tuple[Card, ...]: ...
    @property
    def pots(self) -> tuple[Pot, ...]: ...
    @property
    def run(self) -> int: ...
    @property
    def odds(self) -> Odds | None: ...
    @property
    def names(self) -> tuple[str, ...]: ...
    @property
    def faces(self) -> tuple[tuple[Card, ...], ...]: ...
    @property
    def face_up(self) -> bool: ...


class NoticeKind(StrEnum):
    """The kinds of public notice about one player (the service's `PlayerAnnouncement.kind`; what each carries is
    listed there, its text is `render_player_notice`'s). Stored as their strings in the outbox."""

    ELIMINATED = "eliminated"
    TIMED_OUT = "timed_out"
    DM_REFUSED = "dm_refused"
    COACH_DM_REFUSED = "coach_dm_refused"
    JOINED = "joined"
    LEFT = "left"
    KICKED = "kicked"
    BUSTED = "busted"
    FINISHED = "finished"
    REBUY = "rebuy"
    REBUY_FAILED = "rebuy_failed"
    SAT_OUT = "sat_out"
    SAT_IN = "sat_in"
    AUTO_FOLDED = "auto_folded"
    LEAVING = "leaving"
    FORFEITED = "forfeited"
    RUN_TWICE = "run_twice"


class PlayerNews(Protocol):
    """What `render_player_notice` reads of the service's `PlayerAnnouncement` (kinds listed there)."""

    @property
    def kind(self) -> NoticeKind: ...
    @property
    def name(self) -> str: ...
    @property
    def place(self) -> int | None: ...
    @property
    def action(self) -> str | None: ...
    @property
    def sat_out(self) -> bool: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def chips(self) -> int | None: ...
    @property
    def stack(self) -> int | None: ...


class LevelNews(Protocol):
    """What `render_level_up` reads of the service's `LevelAnnouncement`."""

    @property
    def level(self) -> int: ...
    @property
    def small_blind(self) -> int: ...
    @property
    def big_blind(self) -> int: ...
    @property
    def ante(self) -> int: ...
    @property
    def next_level(self) -> tuple[int, int, int] | None: ...
    @property
    def next_in(self) -> int | None: ...
    @property
    def by(self) -> LevelBy: ...


class ClosedNews(Protocol):
    """What `render_table_closed` reads of the service's `TableClosedAnnouncement`."""

    @property
    def cashed_out(self) -> tuple[tuple[int, str, int], ...]: ...
    @property
    def placings(self) -> tuple[tuple[int, int, str, int], ...]: ...
    @property
    def voided_hand(self) -> int | None: ...
    @property
    def tournament_over(self) -> bool: ...


def render_street(announcement: StreetNews, locale: Locale) -> str:
    """The flop, turn or river as a new message: "**Turn**: 2♣ · Board: A♠ K♥ 7♦ 2♣ · Pot: 66", or with side
    pots "... · Main pot: 79 · Side pot 1: 12", as the table message shows them (`pots_summary`).

    announcement: `street` (1..3), `cards` (this street's), `board` (all), `pots`; `run` (2: the second board of a
    hand run twice, so said) and `odds` with `names` and `faces` (an all-in run-out: the face-up hands' chances
    after this street, `render_odds`, on the next lines). `face_up`: no card dealt, the betting closed on this
    street with an all-in: "**All-in before the flop** · Pot: 200", then the odds from there.
    Several announcements (a run-out when everyone is all-in) can be joined with newlines by the caller,
    or passed at once to `render_streets`.
    """
    key = street_key(announcement.street)
    pots = pots_summary(announcement.pots, locale)
    card = cards_text(announcement.cards)
    kind = f"all_in.{key}" if announcement.face_up else key
    line = t(f"street.announce.{kind}", locale, board=cards_text(announcement.board), card=card, pots=pots)
    if announcement.run == 2:
        line = f"{t('street.second_board', locale)} · {line}"
    odds = announcement.odds
    if odds is not None:
        faces = dict(enumerate(announcement.faces))
        line = "\n".join([line, *render_odds(odds, announcement.names, faces, locale)])
    return clamp(line, CONTENT_MAX)


def render_streets(announcements: Iterable[StreetNews], locale: Locale) -> str:
    """Several streets in one message (one line each), e.g. the board run out after an all-in."""
    return clamp("\n".join(render_street(a, locale) for a in announcements), CONTENT_MAX)


def render_showdown(result: HandResult, locale: Locale) -> EmbedSpec:
    """The end of a hand as a new message: the board (both boards of a hand run twice), each shown hand with its
    name ("Alice: A♠ K♠ — Flush, ace high"; run twice, on each board: "— first board: ... · second board: ..."),
    who mucked, the winners of each pot with amounts (each half of a
    hand run twice with the board it was won on), and uncalled bets returned.

    Titled "Showdown" when hands were shown, "Hand #N is over" otherwise.
    """
    number = result.hand_number
    if result.showdown:
        title = t("showdown.title", locale, number=number) if number else t("showdown.title_plain", locale)
    else:
        title = t("result.title", locale, number=number) if number else t("result.title_plain", locale)
    description = t("showdown.board", locale, board=cards_text(result.board)) if result.board else ""
    if result.second_board:  # a hand run twice: both boards, each half of a pot says on which it was won
        first = t("showdown.first_board", locale, board=cards_text(result.board))
        description = first + "\n" + t("showdown.second_board", locale, board=cards_text(result.second_board))

    fields = []
    against = [s.value for s in result.shown]
    twice = [s.second_value for s in result.shown if s.second_value is not None]
    hand_lines = [
        t(
            "showdown.shown",
            locale,
            name=escape_name(s.name),
            cards=cards_text(s.cards),
            hand=hand_name(s.value, locale, against),
        )
        if s.second_value is None
        else t(  # a hand run twice: the hand made on each board, as each half of "Pots won" names it
            "showdown.shown_twice",
            locale,
            name=escape_name(s.name),
            cards=cards_text(s.cards),
            first=hand_name(s.value, locale, against),
            second=hand_name(s.second_value, locale, twice),
        )
        for s in result.shown
    ]
    hand_lines += [t("showdown.mucked", locale, name=escape_name(name)) for _uid, name in result.mucked]
    if hand_lines:
        fields.append(EmbedField(t("showdown.field.hands", locale), clamp_lines(hand_lines, FIELD_VALUE_MAX, locale)))
    awards = [
        Award(
            pot.index,
            pot.amount,
            tuple((escape_name(name), chips) for _uid, name, chips in pot.winners),
            pot.value,
            pot.beaten,
            pot.run,
        )
        for pot in result.pots
    ]
    pot_lines = render_awards(awards, locale, len({pot.index for pot in result.pots}))
    if pot_lines:
        fields.append(EmbedField(t("showdown.field.pots", locale), clamp_lines(pot_lines, FIELD_VALUE_MAX, locale)))
    returned = [
        t("showdown.returned", locale, name=escape_name(name), amount=chips) for _uid, name, chips in result.returned
    ]
    if returned:
        fields.append(EmbedField(t("showdown.field.returned", locale), clamp_lines(returned, FIELD_VALUE_MAX, locale)))
    return make_embed(title, description, fields, color=COLOR_SHOWDOWN)


def render_elimination(name: str, locale: Locale, place: int | None = None) -> str:
    """A player out of chips: "Bob is eliminated in 3rd place." / "Bob sort à la 3e place." in a
    tournament (place given), "Bob is out of chips." otherwise; place 1 is the tournament's winner."""
    name = escape_name(name)
    if place is None:
        return t("elimination.cash", locale, name=name)
    if place == 1:
        return t("elimination.winner", locale, name=name)
    return t("elimination.place", locale, name=name, place=ordinal(place, locale))


def render_player_notice(announcement: PlayerNews, locale: Locale) -> str:
    """A public line about one player, from the service's `PlayerAnnouncement` (`kind`, `name`, `place`,
    `action`, `sat_out`, `seat`, `chips`): eliminated, timed_out, dm_refused, coach_dm_refused, joined, left,
    sat_out, sat_in, kicked, auto_folded, forfeited (left during a hand: folded at once), busted (cash: out of
    chips, unseated), finished (left a started tournament: the place it gives), rebuy, rebuy_failed, run_twice
    (an answer to "run it twice?": action yes, yes_last, no, timeout). An unknown kind gives an empty string
    (nothing to post)."""
    a = announcement
    name = escape_name(a.name)
    match a.kind:
        case NoticeKind.ELIMINATED:
            return render_elimination(a.name, locale, a.place)
        case NoticeKind.TIMED_OUT:
            line = t("notice.timeout_check" if a.action == "check" else "notice.timeout_fold", locale, name=name)
            if a.sat_out:
                line += "\n" + t("notice.sat_out_timeouts", locale, name=name)
            return line
        case NoticeKind.DM_REFUSED | NoticeKind.COACH_DM_REFUSED:
            return t(f"notice.{a.kind}", locale, name=name)
        case NoticeKind.JOINED:
            if a.chips is None:
                return t("notice.joined_plain", locale, name=name, seat=a.seat or 0)
            return t("notice.joined", locale, name=name, seat=a.seat or 0, stack=a.chips)
        case NoticeKind.LEFT | NoticeKind.KICKED:
            key = f"notice.{a.kind}" if a.chips is not None else f"notice.{a.kind}_plain"
            return t(key, locale, name=name, stack=a.chips or 0)
        case NoticeKind.BUSTED:
            return t("notice.busted", locale, name=name)
        case NoticeKind.FINISHED:
            return t("notice.finished", locale, name=name, place=ordinal(a.place or 0, locale))
        case NoticeKind.REBUY:
            return t("notice.rebuy", locale, name=name, amount=a.chips or 0, stack=a.stack or 0)
        case NoticeKind.REBUY_FAILED:
            return t("notice.rebuy_failed", locale, name=name, amount=a.chips or 0)
        case NoticeKind.SAT_OUT | NoticeKind.SAT_IN | NoticeKind.AUTO_FOLDED | NoticeKind.LEAVING:
            return t(f"notice.{a.kind}", locale, name=name)
        case NoticeKind.FORFEITED:
            return t(f"notice.{a.kind}", locale, name=name)
        case NoticeKind.RUN_TWICE if a.action in ("yes", "yes_last", "no", "timeout", "left"):
            return t(f"notice.run_twice_{a.action}", locale, name=name)
    return ""


def render_tournament_result(
    placings: Sequence[tuple[int, int, str, int]], locale: Locale, *, by_stack: bool = False
) -> EmbedSpec:
    """Final placings of a tournament. placings: (place, user id, name, stack) in place order. by_stack: the host
    stopped it at the agreed time and players are ranked by stack (rule book 000 §07); stacks are then shown."""
    lines = []
    for place, _user_id, name, stack in placings:
        key = "tournament.placing_stack" if by_stack else "tournament.placing"
        lines.append(t(key, locale, place=ordinal(place, locale), name=escape_name(name), stack=stack))
    heading = t("tournament.by_stack" if by_stack else "tournament.last_standing", locale)
    return make_embed(
        t("tournament.title", locale), clamp_lines([heading, "", *lines], 4096, locale), color=COLOR_SHOWDOWN
    )


def render_table_closed(announcement: ClosedNews, locale: Locale) -> EmbedSpec:
    """The table's end, from the service's `TableClosedAnnouncement` (`cashed_out` (user id, name, chips),
    `placings` (place, user id, name, stack), `voided_hand`, `tournament_over`)."""
    a = announcement
    if a.tournament_over or a.placings:
        spec = render_tournament_result(a.placings, locale, by_stack=not a.tournament_over)
        lines = [spec.description]
        winner = next((row for row in a.placings if row[0] == 1), None)
        if a.tournament_over and winner is not None:  # the winner first, then the placings (issue 11 item 4)
            lines.insert(0, render_elimination(str(winner[2]), locale, 1) + "\n")
    else:
        spec = None
        lines = [t("notice.table_closed", locale)]
    if a.voided_hand:
        lines.insert(0, t("notice.hand_refunded", locale, number=a.voided_hand))
    fields = []
    if a.cashed_out:
        cashed = [t("event.share", locale, name=escape_name(name), amount=chips) for _uid, name, chips in a.cashed_out]
        fields.append(EmbedField(t("closed.cashed_out", locale), clamp_lines(cashed, FIELD_VALUE_MAX, locale)))
    title = spec.title if spec else t("closed.title", locale)
    return make_embed(
        title, clamp_lines(lines, DESCRIPTION_MAX, locale), fields, color=COLOR_SHOWDOWN if spec else COLOR_IDLE
    )


def render_hole_cards_dm(
    cards: Sequence[Card], hand_number: int, table: str, locale: Locale, proofs: Sequence[str] = ()
) -> str:
    """The private message with a player's hole cards: "Your cards for hand #12 at <#123>: **A♠ K♥**".
    table: how to point at the table (a channel mention or jump link). proofs: the tokens that prove these cards
    against the hand's sealed deck (bot.poker.seal), one per card, added under the cards. Private: never post it
    publicly. Not remembered by `t`'s cache (`t_uncached`): a DM's text names its hand and its proofs are new at
    every deal, so each of them (about 1.5 KB with its key) would only push out texts that come back."""
    text = t_uncached("dm.hole_cards", locale, number=hand_number, table=table, cards=cards_text(cards))
    if proofs:
        text += "\n" + t_uncached("dm.seal_proofs", locale, tokens="\n".join(f"`{token}`" for token in proofs))
    return clamp(text, CONTENT_MAX)


def render_my_cards(cards: Sequence[Card], locale: Locale, value: HandValue | None = None) -> str:
    """The ephemeral answer of My cards / `/poker cards`: "Your cards: **A♠ K♥**", with the best hand so
    far when `value` (a `HandValue` of cards + board) is given; "no cards" when `cards` is empty."""
    if not cards:
        return t("cards.none", locale)
    if value is not None:
        return t("cards.yours_with_hand", locale, cards=cards_text(cards), hand=hand_name(value, locale))
    return t("cards.yours", locale, cards=cards_text(cards))


def render_cards_shown(name: str, cards: Sequence[Card], locale: Locale) -> str:
    """The public line of cards shown by choice after a hand (issue 15): "Alice shows A♠ K♦" — the same line
    as in the hand's history (`event.shows_by_choice`)."""
    return t("event.shows_by_choice", locale, name=escape_name(name), cards=cards_text(cards))


def render_hand_summary(hand_number: int, result: HandResult | None, locale: Locale) -> str:
    """The one line an old table message becomes once it is no longer the live table (the channel then reads
    as a history): "Hand #3 · Alice wins 24 with Pair of kings · K♠ 9♦ 4♣ 2♥ A♣" (a hand run twice names both
    boards: "… · first board K♠ 9♦ 4♣ 2♥ A♣ · second board K♠ 9♦ 4♣ 7♥ 3♦").

    result: the hand's `HandResult` (winners summed over every pot, each with the hand that won their
    biggest pot when there was a showdown, named with the kicker that decided it, as the showdown does), or
    None when the message was replaced before its hand ended (`/poker table`) or showed no hand: it then says
    the table moved to a newer message."""
    if result is None:
        if hand_number:
            return clamp(t("summary.moved_hand", locale, number=hand_number), CONTENT_MAX)
        return clamp(t("summary.moved", locale), CONTENT_MAX)
    # user id -> (name, chips, value of the biggest pot won, the best hand that pot was won against)
    won: dict[int, tuple[str, int, HandValue | None, HandValue | None]] = {}
    for pot in sorted(result.pots, key=lambda p: p.amount, reverse=True):
        for user_id, name, chips in pot.winners:
            first = won.get(user_id, (name, 0, pot.value, pot.beaten))
            won[user_id] = (first[0], first[1] + chips, first[2], first[3])
    parts = [
        t("summary.win_with", locale, name=escape_name(name), amount=chips, hand=hand_name(value, locale, [beaten]))
        if value is not None and result.showdown
        else t("summary.win", locale, name=escape_name(name), amount=chips)
        for name, chips, value, beaten in won.values()
    ]
    line = t("summary.hand", locale, number=hand_number, winners=", ".join(parts))
    if result.second_board:  # a hand run twice: both boards
        board, second = cards_text(result.board), cards_text(result.second_board)
        line = t("summary.with_boards", locale, line=line, board=board, second=second)
    elif result.board:
        line = t("summary.with_board", locale, line=line, board=cards_text(result.board))
    return clamp(line, CONTENT_MAX)


def render_level_blinds(blinds: Sequence[int], locale: Locale) -> str:
    """A level's blinds: "2/4", or "5/10, ante 1". blinds: (small blind, big blind, ante) in chips."""
    small, big, ante = blinds
    if ante:
        return t("level.blinds_ante", locale, sb=small, bb=big, ante=ante)
    return t("level.blinds", locale, sb=small, bb=big)


def render_level_when(count: int, by: LevelBy, locale: Locale) -> str:
    """How soon a level starts: "in 2 hands" / "dans 2 donnes", or in minutes (`by` MINUTES)."""
    return t("level.in_minutes" if by == LevelBy.MINUTES else "level.in_hands", locale, count=count)


def render_level_up(announcement: LevelNews, locale: Locale) -> str:
    """The blinds went up (the service's `LevelAnnouncement`): "Blinds go up: level 2, 2/4 (next level in 2
    hands)." — or "(the last level)" when no level follows."""
    a = announcement
    blinds = render_level_blinds((a.small_blind, a.big_blind, a.ante), locale)
    if a.next_level is None or a.next_in is None:
        return clamp(t("level.up_last", locale, level=a.level, blinds=blinds), CONTENT_MAX)
    when = render_level_when(a.next_in, a.by, locale)
    return clamp(t("level.up", locale, level=a.level, blinds=blinds, when=when), CONTENT_MAX)
