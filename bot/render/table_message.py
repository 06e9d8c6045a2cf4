"""The table message's embed, drawn from a `TableSnapshot`: `render_table` (an `EmbedSpec`) and `table_embed` (the
same embed as Discord's JSON, drawn with what the same table's last drawing computed, `TableMemo`).

The table message is drawn again at every action of every table, and from one action to the next most of it is
the same: the header changes once a hand, the board once a street, one or two seat lines and one line of the last
actions per action. A `TableMemo` keeps each part of the last drawing with the inputs it was drawn from (the
language among them); a part whose inputs equal the last drawing's is taken as it was, any other is drawn again.
So the text is a function of the snapshot alone, whatever was drawn before (tests/render/test_table_goldens.py),
and a memo is only ever a shortcut. The snapshot service hands out the same objects for what did not change (seat
views, events), so most comparisons stop at identity.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from operator import attrgetter
from typing import Any

from bot.render.cards import cards_text
from bot.render.embeds import (
    COLOR_IDLE,
    COLOR_TABLE,
    DESCRIPTION_MAX,
    FIELD_VALUE_MAX,
    EmbedField,
    EmbedSpec,
    clamp,
    clamp_lines,
    discord_timestamp,
    embed_dict,
    escape_name,
    make_embed,
)
from bot.render.events import pot_amount, pot_amounts, pots_summary, render_event_lines
from bot.render.i18n import Locale, derived_cache, normalize_locale, t, t_uncached
from bot.render.recent import EventLineMemo
from bot.render.table import (
    RECENT_ACTIONS,
    WAITING_KEYS,
    SeatView,
    TableSnapshot,
    info_line,
    render_tournament_line,
    seat_line,
)

#: How many tables' memos `table_embed` keeps (the most recently drawn; about 10 KiB each mid-hand: the last
#: drawing's texts and the hand's seat lines, the rest shared with the snapshot).
MEMO_TABLES = 1024

_BY_SEAT = attrgetter("seat")


class TableMemo:
    """The parts of one table message's last drawing, each with the inputs it was drawn from (see the module
    docstring). Each slot is one tuple ((inputs...), part), replaced whole (only the seat lines' dict grows in
    place, each line under the fields it shows), so that a drawing reads a consistent part even if another drawing
    of the same table ran at the same time (it would at worst miss)."""

    __slots__ = ("actions", "board", "buttons", "events", "header", "pots", "seal", "seats", "title", "turn")

    def __init__(self) -> None:
        self.title: tuple[tuple[Any, ...], str] | None = None
        self.header: tuple[tuple[Any, ...], tuple[str, ...]] | None = None
        self.board: tuple[tuple[Any, ...], str] | None = None
        self.pots: tuple[tuple[Any, ...], str] | None = None
        self.seal: tuple[tuple[Any, ...], str] | None = None
        self.seats: tuple[str, bool, tuple[SeatView, ...], tuple[str, ...], dict[tuple[Any, ...], str]] | None = None
        self.turn: tuple[tuple[Any, ...], str | None] | None = None
        self.events = EventLineMemo()
        #: The Discord layer's part of the same message (bot/discord_ui/table_view.py: its rows of buttons).
        self.buttons: tuple[tuple[Any, ...], Any] | None = None
        #: ... and its rows of action buttons of the hand being played: (hand number, {(options, language): row}).
        self.actions: tuple[int, dict[tuple[Any, ...], Any]] | None = None


#: The memos of the tables drawn last, by channel id (`MEMO_TABLES` at most, the least recently drawn dropped).
_MEMOS: OrderedDict[int, TableMemo] = OrderedDict()


def table_memo(channel_id: int) -> TableMemo:
    """The memo of the table message of `channel_id` (a new one the first time, or once forgotten)."""
    memo = _MEMOS.get(channel_id)
    if memo is None:
        memo = _MEMOS[channel_id] = TableMemo()
        if len(_MEMOS) > MEMO_TABLES:
            _MEMOS.popitem(last=False)
    else:
        _MEMOS.move_to_end(channel_id)
    return memo


derived_cache(_MEMOS.clear)


def render_table(view: TableSnapshot, locale: Locale, table_name: str | None = None) -> EmbedSpec:
    """The table message: title with the hand number; blinds, kind and level; the board and pots; the sealed
    deck's fingerprint (`view.seal`, when there is one); one line per seat (▶ actor, Ⓓ button, SB / BB, stack,
    bet this street, folded / all-in / sitting out / waiting for the next hand: seated during it); whose turn it
    is with a relative Discord timestamp of the deadline and the amount to call (or who is still to answer "run it
    twice?", until when); the last actions, each with the pot it left. Between hands: when the next hand is dealt,
    or what the table waits for.

    table_name: shown in the title (plain text:
    embed titles do not render mentions); default "Poker table". Fits Discord's limits for 10 seats with
    32-character names.
    """
    title, description, fields, footer, color = _parts(view, normalize_locale(locale), table_name, TableMemo())
    return make_embed(title, description, [EmbedField(name, value) for name, value in fields], footer, color)


def table_embed(view: TableSnapshot, locale: Locale, table_name: str | None = None) -> dict[str, Any]:
    """`render_table(view, locale, table_name).to_dict()`, the same bytes, drawn with the memo of the table's
    channel (`table_memo(view.channel_id)`) and built as JSON directly (`embed_dict`). A fresh dict every time."""
    title, description, fields, footer, color = _parts(
        view, normalize_locale(locale), table_name, table_memo(view.channel_id)
    )
    return embed_dict(title, description, fields, footer, color)


def _parts(
    view: TableSnapshot, language: str, table_name: str | None, memo: TableMemo
) -> tuple[str, str, list[tuple[str, str]], str, int]:
    """The embed's title, description, fields ((name, value) pairs), footer and colour, before Discord's limits."""
    in_hand = view.in_hand
    number = view.hand_number if in_hand else 0
    key: tuple[Any, ...] = (table_name, language, number)
    last_title = memo.title
    if last_title is not None and last_title[0] == key:
        title = last_title[1]
    else:
        name = clamp(table_name or t("table.default_name", language), 100)
        if number:
            title = t("table.title", language, table=name, number=number)
        else:
            title = t("table.title_idle", language, table=name)
        memo.title = key, title

    key = (
        language,
        view.betting,
        view.small_blind,
        view.big_blind,
        view.ante,
        view.kind,
        view.level,
        view.next_level,
        view.next_level_in,
        view.level_by,
        view.players_left,
        view.average_stack,
        view.closed,
    )
    last_header = memo.header
    if last_header is not None and last_header[0] == key:
        header = last_header[1]
    else:
        tournament = render_tournament_line(view, language)
        header = (info_line(view, language), tournament) if tournament else (info_line(view, language),)
        memo.header = key, header
    lines = list(header)
    if view.closed:
        lines += ["", t("table.closed", language)]
        return title, clamp_lines(lines, DESCRIPTION_MAX, language), [], "", COLOR_IDLE

    seats = view.seats
    seat_lines, bets = _seat_lines(seats, language, in_hand, memo)
    if in_hand:
        lines.append(_board_line(view, language, memo))
        lines.append(_pots_line(view.pots, language, bets, memo))
        seal = view.seal
        if seal:  # the fingerprint of the hand's sealed deck (bot.poker.seal), shown from before the first action
            sealed = memo.seal
            if sealed is None or sealed[0] != (seal, language):
                sealed = memo.seal = (seal, language), t("table.sealed", language, fingerprint=seal)
            lines.append(sealed[1])
    lines.append("")
    lines += seat_lines
    if not seats:
        lines.append(t("table.no_seats", language))
    lines.append("")
    turn = _turn_line(view, language, memo) if in_hand else None
    if turn:
        lines.append(turn)
    elif not in_hand:
        waiting = view.waiting
        if waiting is None and view.next_hand_at is not None:
            lines.append(t("table.next_hand", language, when=discord_timestamp(view.next_hand_at)))
        elif waiting is None and view.running:
            lines.append(t("table.dealing", language))  # the game runs and nothing is missing: a hand is being dealt
        else:
            lines.append(t(WAITING_KEYS.get(waiting, "table.waiting") if waiting else "table.waiting", language))
    description = clamp_lines(lines, DESCRIPTION_MAX, language)

    fields = []
    if view.events:
        in_middle = sum(pot_amount(p) for p in view.pots) + bets
        recent = render_event_lines(
            view.events,
            view.names,
            language,
            last=RECENT_ACTIONS,
            pot_after=in_middle if in_hand else None,
            memo=memo.events,
        )
        if recent:
            fields.append((_fixed(language)[1], clamp_lines(recent, FIELD_VALUE_MAX, language, keep="last")))
    if in_hand:
        return title, description, fields, _fixed(language)[0], COLOR_TABLE
    return title, description, fields, "", COLOR_IDLE


#: The texts of the table message that depend only on the language, by language: the footer, the last actions'
#: field name.
_FIXED: dict[str, tuple[str, str]] = {}


def _fixed(language: str) -> tuple[str, str]:
    try:
        return _FIXED[language]
    except KeyError:
        fixed = _FIXED[language] = (t("table.footer", language), t("table.recent", language))
        return fixed


derived_cache(_FIXED.clear)


def _board_line(view: TableSnapshot, language: str, memo: TableMemo) -> str:
    key, last = (view.board, language), memo.board
    if last is not None and last[0] == key:
        return last[1]
    line = t("table.board", language, board=cards_text(view.board))
    memo.board = key, line
    return line


def _pots_line(pots: Sequence[Any], language: str, bets: int, memo: TableMemo) -> str:
    """**Pot**: 91, or **Pots**: Main pot: 79 · Side pot 1: 12 (`pot_amounts`: the street messages say the same)."""
    amounts = pot_amounts(pots, bets)
    key, last = (tuple(amounts), language), memo.pots
    if last is not None and last[0] == key:
        return last[1]
    if len(amounts) == 1:
        line = t("table.pot", language, amount=amounts[0])
    else:
        line = t("table.pots", language, pots=pots_summary(pots, language))
    memo.pots = key, line
    return line


#: How many seat lines a table's memo keeps (those of its current hand, mostly: each seat with each stack, bet and
#: mark it had); past that they are forgotten and the hand goes on with a new set.
SEAT_LINES_PER_TABLE = 64


def _seat_lines(seats: tuple[SeatView, ...], language: str, in_hand: bool, memo: TableMemo) -> tuple[list[str], int]:
    """The seat lines in seat order, and the chips bet on this street (all seats). A seat that is the same object
    as the last drawing's at its place (the snapshot service hands out unchanged seat views again) has the same
    line; the others are looked up by what their line shows (`seat_line` reads nothing else of a seat), among this
    table's lines, else drawn."""
    last = memo.seats
    if last is None or last[0] != language or last[1] != in_hand or len(last[4]) > SEAT_LINES_PER_TABLE:
        last = language, in_hand, (), (), {}
    _language, _in_hand, before, drawn, known = last
    kept = len(before)
    ordered = sorted(seats, key=_BY_SEAT)
    lines = []
    bets = 0
    for index, seat in enumerate(ordered):
        bets += seat.bet
        if index < kept and before[index] is seat:
            lines.append(drawn[index])
            continue
        key = (
            seat.seat,
            seat.name,
            seat.stack,
            seat.bet,
            seat.state,
            seat.is_button,
            seat.is_actor,
            seat.leaving,
            seat.blind,
            seat.cards,
        )
        line = known.get(key)
        if line is None:
            line = known[key] = seat_line(seat, language, in_hand)
        lines.append(line)
    memo.seats = language, in_hand, tuple(ordered), tuple(lines), known
    return lines, bets


def _turn_line(view: TableSnapshot, language: str, memo: TableMemo) -> str | None:
    if view.run_twice_pending:
        names = ", ".join(escape_name(s.name) for s in view.seats if s.user_id in view.run_twice_pending)
        when = discord_timestamp(view.deadline) if view.deadline is not None else ""
        return t("table.run_twice_question", language, names=names, when=when)
    actor = next((s for s in view.seats if s.is_actor), None)
    if actor is None:
        return None
    to_call = view.legal.call_amount if view.legal is not None else 0
    key = (actor.name, to_call, view.deadline, view.time_bank_running, language)
    last = memo.turn
    if last is not None and last[0] == key:
        return last[1]
    params: dict[str, object] = {"name": escape_name(actor.name), "amount": to_call}
    if view.deadline is not None:
        params["when"] = discord_timestamp(view.deadline)
        line = t_uncached("table.turn_to_call" if to_call else "table.turn", language, **params)
        if view.time_bank_running:  # the deadline is the time bank's (issue 16)
            line += " · " + t("table.time_bank", language)
    else:
        line = t_uncached("table.turn_to_call_no_timer" if to_call else "table.turn_no_timer", language, **params)
    memo.turn = key, line
    return line
