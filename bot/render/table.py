"""The table message (one embed per hand, edited after every action), the action buttons and raise modal, and
the one picture of a table they are drawn from: `TableSnapshot` with its `SeatView`s.

The table service builds the snapshot (render sits below it, so the type lives here and the service imports
it); the Discord layer passes it as it is. Nothing here shows a hole card.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache

from bot.poker import Card, Event, LegalActions, LevelBy, Pot, Street, TableKind
from bot.render.announce import render_level_blinds, render_level_when
from bot.render.cards import cards_text
from bot.render.embeds import (
    BUTTON_LABEL_MAX,
    MODAL_TITLE_MAX,
    TEXT_INPUT_LABEL_MAX,
    TEXT_INPUT_PLACEHOLDER_MAX,
    clamp,
    escape_name,
)
from bot.render.i18n import Locale, derived_cache, normalize_locale, t, t_uncached

RECENT_ACTIONS = 6
BUTTON_MARK = "Ⓓ"
ACTOR_MARK = "▶"
#: Seat marks of the blinds (`SeatView.blind`), after the button's: heads-up the button is the small blind
#: (rule book 000 §04), "Ⓓ SB".
BLIND_KEYS = {"small_blind": "table.seat.sb", "big_blind": "table.seat.bb"}


class Waiting(StrEnum):
    """What a table between hands waits for before it can deal (`TableSnapshot.waiting`)."""

    PLAYERS = "players"  # nobody seated with chips
    SECOND_PLAYER = "second_player"  # one player with chips
    SITTING_IN = "sitting_in"  # everyone with chips sits out
    OTHERS_SITTING_OUT = "others_sitting_out"  # all but one sit out
    START = "start"  # the game was not started (`/poker start`)


#: `Waiting` -> catalogue key.
WAITING_KEYS = {
    Waiting.PLAYERS: "table.waiting",
    Waiting.SECOND_PLAYER: "table.waiting_second",
    Waiting.SITTING_IN: "table.waiting_sitting_in",
    Waiting.OTHERS_SITTING_OUT: "table.waiting_others_sitting_out",
    Waiting.START: "table.waiting_start",
}


class SeatState(StrEnum):
    """Where a seated player stands (`SeatView.state`)."""

    WAITING = "waiting"  # seated, not dealt in the hand being played
    ACTIVE = "active"
    FOLDED = "folded"
    ALL_IN = "all_in"
    SITTING_OUT = "sitting_out"
    OUT = "out"  # busted


_STATE_KEYS = {
    SeatState.FOLDED: "table.seat.folded",
    SeatState.ALL_IN: "table.seat.all_in",
    SeatState.SITTING_OUT: "table.seat.sitting_out",
    SeatState.OUT: "table.seat.out",
}


@dataclass(frozen=True)
class SeatView:
    """One occupied seat as the channel sees it.

    stack/bet in chips (bet: on the current street). state: a `SeatState` (waiting: seated, not dealt in this
    hand; active, folded, all-in, sitting out, out: busted). leaving: leaves at the end of the hand. blind:
    "small_blind" or "big_blind" when the seat posted it this hand (marked SB / BB beside the name). user_id: the
    member sitting there (0: a view drawn without the table service). player: the hand's player index, None when
    not dealt in.
    """

    seat: int
    name: str
    stack: int
    bet: int = 0
    state: SeatState = SeatState.ACTIVE
    is_button: bool = False
    is_actor: bool = False
    leaving: bool = False
    blind: str | None = None
    user_id: int = 0
    player: int | None = None
    cards: tuple[Card, ...] = ()  # face up at a learning table (`TableOptions.learning`), else never


@dataclass(frozen=True)
class TableSnapshot:
    """A public picture of a table, enough to draw its table message (built by the table service).

    kind: CASH or TOURNAMENT (`TableKind`); language: the table's language ("en"/"fr"). hand_number: the current
    (or last) hand, 0 before the first. small_blind/big_blind/ante: the current level (chips). seats: occupied
    seats by number. board: community cards so far. pots: main pot first (`Pot`s, or chip counts). street: None
    between hands. actor_user_id/deadline: whose turn and until when (Unix seconds). legal: the actor's options
    (to label the buttons; its `call_amount` is shown). names: display names by the hand's player index (to
    render `events`). events: this hand's public events so far (no HoleCardsDealt), shown as the last actions.
    running: hands are dealt automatically (with neither a next hand time nor anything to wait for, one is being
    dealt). next_hand_at: when the next hand will be dealt (Unix seconds), between hands of a running game.
    closed: the table was ended (`/poker end`, or the tournament is over); the message shows it, without seats.
    level: the blind level in force (1-based; the current hand's, else the next hand's, or the last played once
    closed), None without a schedule; next_level: the next level's (small blind, big blind, ante), None at the
    last; next_level_in: hands (counting the one being played) or minutes (`level_by`) until it starts.
    players_left / average_stack: a tournament's players with chips and their average stack (chips), else None.
    seal: the fingerprint of the hand's sealed deck (bot.poker.seal: committed before the first action), None
    between hands and for a hand dealt before decks were sealed.
    waiting: between hands of an open table, what it waits for before a hand can be dealt (then no next hand
    is scheduled): a `Waiting`; None otherwise.
    run_twice_pending: the user ids still to answer whether to run it twice (issue 15; the table message
    carries Yes / No buttons for them), with `deadline` the end of the question (no answer by then = no).
    """

    table_id: int = 0
    guild_id: int = 0
    channel_id: int = 0
    host_id: int = 0
    kind: TableKind = TableKind.CASH
    language: str = "en"
    hand_number: int = 0
    small_blind: int = 1
    big_blind: int = 2
    ante: int = 0
    seats: tuple[SeatView, ...] = ()
    board: tuple[Card, ...] = ()
    pots: tuple[Pot | int, ...] = ()
    street: Street | None = None
    actor_user_id: int | None = None
    deadline: float | None = None
    legal: LegalActions | None = None
    names: tuple[str, ...] = ()
    events: tuple[Event, ...] = ()
    running: bool = False
    max_seats: int = 10
    message_id: int | None = None
    next_hand_at: float | None = None
    closed: bool = False
    level: int | None = None
    next_level: tuple[int, int, int] | None = None
    next_level_in: int | None = None
    level_by: LevelBy = LevelBy.HANDS
    players_left: int | None = None
    average_stack: int | None = None
    waiting: Waiting | None = None
    run_twice_pending: tuple[int, ...] = ()
    seal: str | None = None
    betting: str = "no-limit"
    time_bank: float | None = None
    time_bank_running: bool = False

    @property
    def in_hand(self) -> bool:
        """True while a hand is being played."""
        return self.street is not None

    @property
    def has_buttons(self) -> bool:
        """The table message drawn from this snapshot carries buttons (action buttons and My cards): a hand is
        being played and is not over."""
        return self.street is not None and self.street != Street.COMPLETE


def seat_line(seat: SeatView, locale: str, in_hand: bool) -> str:
    """One seat's line of the table message: "▶ ` 3` **Alice** Ⓓ SB — 198 · bet 2" (▶ the actor while `in_hand`,
    Ⓓ the button, the blinds while `in_hand`, stack, bet this street, folded / all-in / sitting out / waiting /
    leaving, face-up cards at a learning table). locale: a catalogue language ("en"/"fr"). Not remembered here:
    the table message's memo keeps each table's seat lines (bot/render/table_message.py), by what they show."""
    name = escape_name(seat.name)
    actor = in_hand and seat.is_actor
    if actor:
        name = f"**{name}**"
    parts = [t("table.seat.stack", locale, stack=seat.stack)]
    if seat.bet:
        parts.append(t("table.seat.bet", locale, amount=seat.bet))
    state_key = _STATE_KEYS.get(seat.state)
    if in_hand and seat.state == SeatState.WAITING:  # seated (joined or back in) during a hand: not dealt in it
        state_key = "table.seat.waiting"
    if state_key:
        parts.append(t(state_key, locale))
    if seat.leaving:
        parts.append(t("table.seat.leaving", locale))
    cards = getattr(seat, "cards", ())
    if cards:  # a learning table deals face up
        parts.insert(0, cards_text(cards))
    mark = ACTOR_MARK if actor else "\u2003"
    button = f" {BUTTON_MARK}" if seat.is_button else ""
    blind_key = BLIND_KEYS.get(seat.blind or "") if in_hand else None
    if blind_key:
        button += " " + t(blind_key, locale)
    return f"{mark} `{seat.seat:>2}` {name}{button} — " + " · ".join(parts)


def info_line(view: TableSnapshot, locale: Locale) -> str:
    """Blinds (or the betting structure), ante, kind and level: "Blinds 1/2 · Cash game" (remembered)."""
    return _info_line_of(
        view.betting, view.small_blind, view.big_blind, view.ante, view.kind, view.level, normalize_locale(locale)
    )


@lru_cache(maxsize=256)
def _info_line_of(
    betting: str, small_blind: int, big_blind: int, ante: int, kind: TableKind, level: int | None, locale: str
) -> str:
    if betting in ("pot-limit", "fixed-limit"):  # "Pot-limit 1/2", "Fixed-limit 1/2 (bets 2/4)" (issue 16)
        blinds = {"sb": small_blind, "bb": big_blind, "big": 2 * big_blind}
        line = t(f"table.structure.{betting}", locale, **blinds)
        if ante:
            line += " · " + t("table.ante", locale, ante=ante)
    elif ante:
        line = t("table.blinds_ante", locale, sb=small_blind, bb=big_blind, ante=ante)
    else:
        line = t("table.blinds", locale, sb=small_blind, bb=big_blind)
    parts = [line, t(f"table.kind.{kind}", locale)]
    if level:
        parts.append(t("table.level", locale, level=level))
    return " · ".join(parts)


derived_cache(_info_line_of.cache_clear)


def render_tournament_line(view: TableSnapshot, locale: Locale) -> str | None:
    """The line under a tournament table's header (issue 11 item 4): the next blind level and when it starts,
    the players left and the average stack — "Next level: 5/10, ante 1 in 2 hands · 3 players left · average
    stack 133" (`next_level`, `next_level_in`, `level_by`, `players_left`, `average_stack`; None parts are left
    out). None when there is nothing to say (a closed table shows no level to come)."""
    parts = []
    next_level, next_in = view.next_level, view.next_level_in
    if next_level is not None and next_in is not None and not view.closed:
        when = render_level_when(next_in, view.level_by, locale)
        parts.append(t("table.next_level", locale, blinds=render_level_blinds(next_level, locale), when=when))
    if view.players_left and not view.closed:
        parts.append(t("table.players_left", locale, count=view.players_left))
        if view.average_stack:
            parts.append(t("table.average_stack", locale, amount=view.average_stack))
    return " · ".join(parts) or None


@dataclass(frozen=True)
class ButtonSpec:
    """A button of the table message. action: "fold", "check", "call", "bet", "raise", "all_in" or "cards"
    (the Discord layer builds its custom_id from it); style: "danger", "secondary", "primary" or "success";
    label <= 80 characters."""

    action: str
    label: str
    style: str
    disabled: bool = False


def raise_is_only_all_in(legal: LegalActions) -> bool:
    """Whether the only bet or raise left is the all-in ("Raise to (min 18, max 18)" beside "All-in 18"): the
    player's stack is shorter than a full raise, or exactly covers the minimum."""
    return bool(
        legal.can_all_in
        and legal.min_raise_to is not None
        and legal.min_raise_to == legal.max_raise_to == legal.all_in_to
    )


def raise_is_one_amount(legal: LegalActions) -> bool:
    """Whether exactly one bet or raise total is allowed and it is not the all-in (fixed-limit: "Raise to 4"):
    its button then acts at once, with no form (issue 16)."""
    return bool(
        (legal.can_bet or legal.can_raise)
        and legal.min_raise_to is not None
        and legal.min_raise_to == legal.max_raise_to
        and not raise_is_only_all_in(legal)
    )


def call_is_all_in(legal: LegalActions) -> bool:
    """Whether calling puts the whole stack in ("Call 8" beside "All-in 8"): the all-in is then the call itself
    (no bet or raise is possible beyond it)."""
    return bool(legal.can_call and legal.can_all_in and not (legal.can_bet or legal.can_raise))


def render_action_buttons(legal: LegalActions | None, locale: Locale) -> tuple[ButtonSpec, ...]:
    """The buttons under the table message for the player to act: Fold, Check or Call N, Bet…/Raise…, All-in N,
    then My cards. legal: the actor's `LegalActions`, or None between hands (only My cards then).
    Actions the actor may not take are left out, and one action has one button: a call that puts the stack in
    is "Call N (all-in)" without an All-in button; a bet or raise that can only be the all-in is the All-in
    button alone. Remembered (`BUTTONS_CACHE_SIZE` sets): the same options come back at every table."""
    return _action_buttons(legal, normalize_locale(locale))


#: How many sets of buttons `render_action_buttons` remembers.
BUTTONS_CACHE_SIZE = 1024


@lru_cache(maxsize=BUTTONS_CACHE_SIZE)
def _action_buttons(legal: LegalActions | None, locale: str) -> tuple[ButtonSpec, ...]:
    # (action, label, style); the labels with an amount rendered without t's memory (this cache keeps them).
    buttons: list[tuple[str, str, str]] = []
    if legal is not None:
        merged_call = call_is_all_in(legal)
        if legal.can_fold:
            buttons.append(("fold", t("button.fold", locale), "danger"))
        if legal.can_check:
            buttons.append(("check", t("button.check", locale), "secondary"))
        elif legal.can_call:
            key = "button.call_all_in" if merged_call else "button.call"
            buttons.append(("call", t_uncached(key, locale, amount=legal.call_amount), "primary"))
        if raise_is_one_amount(legal):  # fixed-limit: "Bet 2" / "Raise to 4", played at once
            kind = "bet" if legal.can_bet else "raise"
            buttons.append((kind, t_uncached(f"button.{kind}_amount", locale, amount=legal.min_raise_to), "success"))
        elif not raise_is_only_all_in(legal):
            if legal.can_bet:
                buttons.append(("bet", t("button.bet", locale), "success"))
            elif legal.can_raise:
                buttons.append(("raise", t("button.raise", locale), "success"))
        if legal.can_all_in and not merged_call:
            buttons.append(("all_in", t_uncached("button.all_in", locale, amount=legal.all_in_to), "danger"))
    buttons.append(("cards", t("button.my_cards", locale), "secondary"))
    return tuple(ButtonSpec(action, clamp(label, BUTTON_LABEL_MAX), style) for action, label, style in buttons)


derived_cache(_action_buttons.cache_clear)


@dataclass(frozen=True)
class ModalSpec:
    """The bet/raise modal: title (<= 45), the amount input's label (<= 45) and placeholder (<= 100), and its
    prefilled value (the minimum, plain digits)."""

    title: str
    label: str
    placeholder: str
    default: str
    min_value: int
    max_value: int
    field: str = field(default="amount")


def render_raise_modal(legal: LegalActions, locale: Locale) -> ModalSpec:
    """The modal of the Bet…/Raise… button: "Raise to (min 22, max 100)" prefilled with 22 (bet when no bet
    is facing the player); "Raise to 18 (all-in)" when the minimum is the maximum. The label falls back to
    "Raise to" with the range in the placeholder when the numbers make it longer than Discord's 45 characters."""
    kind = "bet" if legal.can_bet else "raise"
    # min/max are None when neither a bet nor a raise is allowed: only all-in is left then.
    low = legal.min_raise_to if legal.min_raise_to is not None else legal.all_in_to
    high = legal.max_raise_to if legal.max_raise_to is not None else legal.all_in_to
    if low == high:  # one amount left, the all-in: "Raise to 18 (all-in)", not "(min 18, max 18)"
        label = t(f"modal.{kind}.label_all_in", locale, amount=low)
    else:
        label = t(f"modal.{kind}.label", locale, min=low, max=high)
    if len(label) > TEXT_INPUT_LABEL_MAX:
        label = clamp(t(f"modal.{kind}.label_short", locale), TEXT_INPUT_LABEL_MAX)
    return ModalSpec(
        title=clamp(t(f"modal.{kind}.title", locale), MODAL_TITLE_MAX),
        label=label,
        placeholder=clamp(t("modal.range", locale, min=low, max=high), TEXT_INPUT_PLACEHOLDER_MAX),
        default=str(low),
        min_value=low,
        max_value=high,
    )
