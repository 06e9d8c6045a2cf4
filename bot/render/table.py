"""The table message (one embed per hand, edited after every action) and the action buttons and raise modal.

`render_table` takes a `TableView` or any object with the same attributes — the table service's
`TableSnapshot` has them —, so the Discord layer can pass the service's snapshot as it is.
Nothing here shows a hole card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.render.announce import render_level_blinds, render_level_when
from bot.render.cards import cards_text
from bot.render.embeds import (
    BUTTON_LABEL_MAX,
    COLOR_IDLE,
    COLOR_TABLE,
    DESCRIPTION_MAX,
    FIELD_VALUE_MAX,
    MODAL_TITLE_MAX,
    TEXT_INPUT_LABEL_MAX,
    TEXT_INPUT_PLACEHOLDER_MAX,
    EmbedField,
    EmbedSpec,
    clamp,
    clamp_lines,
    discord_timestamp,
    escape_name,
    make_embed,
)
from bot.render.events import pot_amount, pot_amounts, pots_summary, render_event_lines
from bot.render.i18n import t

RECENT_ACTIONS = 6
BUTTON_MARK = "Ⓓ"
ACTOR_MARK = "▶"
#: Seat marks of the blinds (`SeatView.blind`), after the button's: heads-up the button is the small blind
#: (rule book 000 §04), "Ⓓ SB".
BLIND_KEYS = {"small_blind": "table.seat.sb", "big_blind": "table.seat.bb"}
#: What a table between hands waits for (`TableView.waiting`) -> catalogue key.
WAITING_KEYS = {
    "players": "table.waiting",
    "second_player": "table.waiting_second",
    "sitting_in": "table.waiting_sitting_in",
    "others_sitting_out": "table.waiting_others_sitting_out",
    "start": "table.waiting_start",
}

# Seat states (the table service's SeatView.state values, plus "out" for a busted player).
WAITING = "waiting"
ACTIVE = "active"
FOLDED = "folded"
ALL_IN = "all_in"
SITTING_OUT = "sitting_out"
OUT = "out"
_STATE_KEYS = {
    FOLDED: "table.seat.folded",
    ALL_IN: "table.seat.all_in",
    SITTING_OUT: "table.seat.sitting_out",
    OUT: "table.seat.out",
}


@dataclass(frozen=True)
class SeatView:
    """One occupied seat as the channel sees it. stack/bet in chips (bet = this street). state: "waiting",
    "active", "folded", "all_in", "sitting_out" or "out". leaving: leaves at the end of the hand. blind:
    "small_blind" or "big_blind" when the seat posted it this hand (marked SB / BB beside the name)."""

    seat: int
    name: str
    stack: int
    bet: int = 0
    state: str = ACTIVE
    is_button: bool = False
    is_actor: bool = False
    leaving: bool = False
    blind: str | None = None


@dataclass(frozen=True)
class TableView:
    """A public snapshot of a table (same attribute names as the service's `TableSnapshot`).

    hand_number: current or last hand (0 before the first); small_blind/big_blind/ante: chips; seats:
    occupied seats; board: `Card`s; pots: main first, as `Pot`s or ints; street: None between hands;
    deadline: Unix seconds of the actor's time limit; legal: the actor's `LegalActions` (its
    `call_amount` is shown); names + events: this hand's public events (rendered as the last actions,
    names by hand player index); kind: "cash" or "tournament"; level: blind level number, if any;
    next_hand_at: Unix seconds of the next deal, if scheduled; waiting: between hands, what the table waits
    for before it can deal (`WAITING_KEYS`: "players", "second_player", "sitting_in" — everyone sits out —,
    "others_sitting_out", "start" — the game is not started —; None: nothing); running: hands are dealt by
    themselves (with neither a next hand time nor anything to wait for, one is being dealt).
    """

    hand_number: int = 0
    small_blind: int = 1
    big_blind: int = 2
    ante: int = 0
    seats: tuple[SeatView, ...] = ()
    board: tuple[Any, ...] = ()
    pots: tuple[Any, ...] = ()
    street: int | None = None
    deadline: float | None = None
    legal: Any = None
    names: tuple[str, ...] = ()
    events: tuple[Any, ...] = ()
    kind: str = "cash"
    max_seats: int = 10
    level: int | None = None
    next_hand_at: float | None = None
    waiting: str | None = None
    running: bool = False


def _seat_line(seat: Any, locale: object, in_hand: bool) -> str:
    name = escape_name(seat.name)
    actor = in_hand and seat.is_actor
    if actor:
        name = f"**{name}**"
    parts = [t("table.seat.stack", locale, stack=seat.stack)]
    if seat.bet:
        parts.append(t("table.seat.bet", locale, amount=seat.bet))
    state_key = _STATE_KEYS.get(seat.state)
    if in_hand and seat.state == WAITING:  # seated (joined or back in) during a hand: not dealt in it
        state_key = "table.seat.waiting"
    if state_key:
        parts.append(t(state_key, locale))
    if getattr(seat, "leaving", False):
        parts.append(t("table.seat.leaving", locale))
    cards = getattr(seat, "cards", ())
    if cards:  # a learning table deals face up
        parts.insert(0, cards_text(cards))
    mark = ACTOR_MARK if actor else "\u2003"
    button = f" {BUTTON_MARK}" if seat.is_button else ""
    blind_key = BLIND_KEYS.get(getattr(seat, "blind", None) or "") if in_hand else None
    if blind_key:
        button += " " + t(blind_key, locale)
    return f"{mark} `{seat.seat:>2}` {name}{button} — " + " · ".join(parts)


def _info_line(view: Any, locale: object) -> str:
    if view.ante:
        line = t("table.blinds_ante", locale, sb=view.small_blind, bb=view.big_blind, ante=view.ante)
    else:
        line = t("table.blinds", locale, sb=view.small_blind, bb=view.big_blind)
    parts = [line, t(f"table.kind.{'tournament' if view.kind == 'tournament' else 'cash'}", locale)]
    level = getattr(view, "level", None)
    if level:
        parts.append(t("table.level", locale, level=level))
    return " · ".join(parts)


def render_tournament_line(view: Any, locale: object) -> str | None:
    """The line under a tournament table's header (issue 11 item 4): the next blind level and when it starts,
    the players left and the average stack — "Next level: 5/10, ante 1 in 2 hands · 3 players left · average
    stack 133". view: the service's snapshot (`next_level`, `next_level_in`, `level_by`, `players_left`,
    `average_stack`; absent or None parts are left out). None when there is nothing to say (a closed table
    shows no level to come)."""
    parts = []
    next_level = getattr(view, "next_level", None)
    next_in = getattr(view, "next_level_in", None)
    if next_level is not None and next_in is not None and not getattr(view, "closed", False):
        when = render_level_when(next_in, getattr(view, "level_by", "hands"), locale)
        parts.append(t("table.next_level", locale, blinds=render_level_blinds(next_level, locale), when=when))
    left = getattr(view, "players_left", None)
    if left and not getattr(view, "closed", False):
        parts.append(t("table.players_left", locale, count=left))
        average = getattr(view, "average_stack", None)
        if average:
            parts.append(t("table.average_stack", locale, amount=average))
    return " · ".join(parts) or None


def _pots_line(pots: Sequence[Any], locale: object, bets: int = 0) -> str:
    """**Pot**: 91, or **Pots**: Main pot: 79 · Side pot 1: 12 (`pot_amounts`: the street messages say the same)."""
    amounts = pot_amounts(pots, bets)
    if len(amounts) == 1:
        return t("table.pot", locale, amount=amounts[0])
    return t("table.pots", locale, pots=pots_summary(pots, locale))


def _turn_line(view: Any, locale: object) -> str | None:
    actor = next((s for s in view.seats if s.is_actor), None)
    if actor is None:
        return None
    name = escape_name(actor.name)
    legal = getattr(view, "legal", None)
    to_call = int(getattr(legal, "call_amount", 0) or 0) if legal is not None else 0
    deadline = getattr(view, "deadline", None)
    params: dict[str, object] = {"name": name, "amount": to_call}
    if deadline is not None:
        params["when"] = discord_timestamp(deadline)
        return t("table.turn_to_call" if to_call else "table.turn", locale, **params)
    return t("table.turn_to_call_no_timer" if to_call else "table.turn_no_timer", locale, **params)


def render_table(view: Any, locale: object, table_name: str | None = None) -> EmbedSpec:
    """The table message: title with the hand number; blinds, kind and level; the board and pots; the sealed
    deck's fingerprint (`view.seal`, when there is one); one line per seat (▶ actor, Ⓓ button, SB / BB, stack,
    bet this street, folded / all-in / sitting out / waiting for the next hand: seated during it); whose turn it
    is with a relative Discord timestamp of the deadline and the amount to call; the last actions, each with the
    pot it left. Between hands: when the next hand is dealt, or what the table waits for.

    view: a `TableView` or the service's `TableSnapshot`. table_name: shown in the title (plain text:
    embed titles do not render mentions); default "Poker table". Fits Discord's limits for 10 seats with
    32-character names.
    """
    name = clamp(table_name or t("table.default_name", locale), 100)
    in_hand = getattr(view, "street", None) is not None
    if view.hand_number and in_hand:
        title = t("table.title", locale, table=name, number=view.hand_number)
    else:
        title = t("table.title_idle", locale, table=name)

    lines = [_info_line(view, locale)]
    tournament = render_tournament_line(view, locale)
    if tournament:
        lines.append(tournament)
    if getattr(view, "closed", False):
        lines += ["", t("table.closed", locale)]
        return make_embed(title, clamp_lines(lines, DESCRIPTION_MAX, locale), [], color=COLOR_IDLE)
    if in_hand:
        lines.append(t("table.board", locale, board=cards_text(view.board)))
        lines.append(_pots_line(view.pots, locale, sum(s.bet for s in view.seats)))
        seal = getattr(view, "seal", None)
        if seal:  # the fingerprint of the hand's sealed deck (bot.poker.seal), shown from before the first action
            lines.append(t("table.sealed", locale, fingerprint=seal))
    lines.append("")
    seats = sorted(view.seats, key=lambda s: s.seat)
    lines.extend(_seat_line(seat, locale, in_hand) for seat in seats)
    if not seats:
        lines.append(t("table.no_seats", locale))
    lines.append("")
    turn = _turn_line(view, locale) if in_hand else None
    if turn:
        lines.append(turn)
    elif not in_hand:
        waiting = getattr(view, "waiting", None)
        next_hand_at = getattr(view, "next_hand_at", None)
        if waiting is None and next_hand_at is not None:
            lines.append(t("table.next_hand", locale, when=discord_timestamp(next_hand_at)))
        elif waiting is None and getattr(view, "running", False):
            lines.append(t("table.dealing", locale))  # the game runs and nothing is missing: a hand is being dealt
        else:
            lines.append(t(WAITING_KEYS.get(waiting or "", "table.waiting"), locale))
    description = clamp_lines(lines, DESCRIPTION_MAX, locale)

    fields = []
    events = getattr(view, "events", ())
    if events:
        in_middle = sum(pot_amount(p) for p in view.pots) + sum(s.bet for s in view.seats)
        recent = render_event_lines(
            events, getattr(view, "names", ()), locale, last=RECENT_ACTIONS, pot_after=in_middle if in_hand else None
        )
        if recent:
            fields.append(
                EmbedField(t("table.recent", locale), clamp_lines(recent, FIELD_VALUE_MAX, locale, keep="last"))
            )
    return make_embed(
        title,
        description,
        fields,
        footer=t("table.footer", locale) if in_hand else "",
        color=COLOR_TABLE if in_hand else COLOR_IDLE,
    )


@dataclass(frozen=True)
class ButtonSpec:
    """A button of the table message. action: "fold", "check", "call", "bet", "raise", "all_in" or "cards"
    (the Discord layer builds its custom_id from it); style: "danger", "secondary", "primary" or "success";
    label <= 80 characters."""

    action: str
    label: str
    style: str
    disabled: bool = False


def raise_is_only_all_in(legal: Any) -> bool:
    """Whether the only bet or raise left is the all-in ("Raise to (min 18, max 18)" beside "All-in 18"): the
    player's stack is shorter than a full raise, or exactly covers the minimum."""
    return bool(
        legal.can_all_in
        and legal.min_raise_to is not None
        and legal.min_raise_to == legal.max_raise_to == legal.all_in_to
    )


def call_is_all_in(legal: Any) -> bool:
    """Whether calling puts the whole stack in ("Call 8" beside "All-in 8"): the all-in is then the call itself
    (no bet or raise is possible beyond it)."""
    return bool(legal.can_call and legal.can_all_in and not (legal.can_bet or legal.can_raise))


def render_action_buttons(legal: Any, locale: object) -> tuple[ButtonSpec, ...]:
    """The buttons under the table message for the player to act: Fold, Check or Call N, Bet…/Raise…, All-in N,
    then My cards. legal: the actor's `LegalActions`, or None between hands (only My cards then).
    Actions the actor may not take are left out, and one action has one button: a call that puts the stack in
    is "Call N (all-in)" without an All-in button; a bet or raise that can only be the all-in is the All-in
    button alone."""
    buttons: list[ButtonSpec] = []
    if legal is not None:
        merged_call = call_is_all_in(legal)
        if legal.can_fold:
            buttons.append(ButtonSpec("fold", t("button.fold", locale), "danger"))
        if legal.can_check:
            buttons.append(ButtonSpec("check", t("button.check", locale), "secondary"))
        elif legal.can_call:
            key = "button.call_all_in" if merged_call else "button.call"
            buttons.append(ButtonSpec("call", t(key, locale, amount=legal.call_amount), "primary"))
        if not raise_is_only_all_in(legal):
            if legal.can_bet:
                buttons.append(ButtonSpec("bet", t("button.bet", locale), "success"))
            elif legal.can_raise:
                buttons.append(ButtonSpec("raise", t("button.raise", locale), "success"))
        if legal.can_all_in and not merged_call:
            buttons.append(ButtonSpec("all_in", t("button.all_in", locale, amount=legal.all_in_to), "danger"))
    buttons.append(ButtonSpec("cards", t("button.my_cards", locale), "secondary"))
    return tuple(ButtonSpec(b.action, clamp(b.label, BUTTON_LABEL_MAX), b.style, b.disabled) for b in buttons)


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


def render_raise_modal(legal: Any, locale: object) -> ModalSpec:
    """The modal of the Bet…/Raise… button: "Raise to (min 22, max 100)" prefilled with 22 (bet when no bet
    is facing the player); "Raise to 18 (all-in)" when the minimum is the maximum. The label falls back to
    "Raise to" with the range in the placeholder when the numbers make it longer than Discord's 45 characters."""
    kind = "bet" if legal.can_bet else "raise"
    # min/max are None when neither a bet nor a raise is allowed: only all-in is left then.
    low = int(legal.min_raise_to if legal.min_raise_to is not None else legal.all_in_to)
    high = int(legal.max_raise_to if legal.max_raise_to is not None else legal.all_in_to)
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
