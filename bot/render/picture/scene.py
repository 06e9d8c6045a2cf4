"""What the table picture shows: a `TableScene` built from the public snapshot of a table only.

`scene_from_snapshot(snapshot, result=None, odds=None)` reads the public snapshot of a table (the service's
`TableSnapshot`: seats, board, pots, this hand's public events) and, at the end of a hand, its `HandResult`. The
only cards it takes for a seat are those shown: a `HandShown` event (the showdown, or hands turned face up at an
all-in), `faces`, a `ShownHand` of the result, or a seat's `cards` (the snapshot carries them only at a learning
table, which deals face up). A `HoleCardsDealt` event, should one be among the events, is
ignored. A `TableScene` has no field for a card that is not public: a seat holds either its shown cards or none
(the picture draws card backs for a seat still in the hand).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from bot.poker.cards import Card
from bot.poker.events import HandShown
from bot.poker.players.base import is_computer_player
from bot.poker.result import HandResult
from bot.render.events import pot_amounts
from bot.render.hands import hand_name
from bot.render.picture.layout import ACTIVE, ALL_IN
from bot.render.picture.sprites import drawable
from bot.render.table import TableSnapshot

__all__ = ["COMPUTER_MARK", "OddsLike", "SceneSeat", "SeatOdds", "TableScene", "clean_name", "scene_from_snapshot"]

#: The mark that starts a computer player's name (the catalogues' `computer.name`, "🤖 Solid 3"): the font has
#: no such glyph, so the picture draws its own robot before the name instead (`SceneSeat.computer`).
COMPUTER_MARK = "🤖"


class OddsLike(Protocol):
    """A seat's chances at an all-in (the equity module's figures, e.g. `bot.poker.equity.PlayerOdds`): `win`
    and `tie` as fractions 0..1. An `exact` attribute, when there is one and it is False, marks a Monte Carlo
    estimate (drawn with "≈"); without it the figures are taken as exact."""

    @property
    def win(self) -> float: ...

    @property
    def tie(self) -> float: ...


@dataclass(frozen=True)
class SeatOdds:
    """A seat's chance to win and to tie (fractions 0..1); `exact` False for an estimate (drawn "≈ 42%")."""

    win: float
    tie: float = 0.0
    exact: bool = True


@dataclass(frozen=True)
class SceneSeat:
    """One occupied seat as drawn: name, stack and bet (chips, this street), state ("active", "folded",
    "all_in", "sitting_out", "waiting"), marks (button, actor, blind "small_blind"/"big_blind").

    name: as the font can draw it (`clean_name`); computer: a computer player (drawn with a robot before its
    name). dealt: holds cards in this hand (drawn face down unless `shown`); shown: the cards it showed
    (public); hand: the name of the shown hand, already in the table's language; won: chips won at the end of the
    hand (0: none); split: some of them are its share of a pot split between several winners; odds: its chances
    at an all-in. There is no field for a card that is not public."""

    seat: int
    name: str
    stack: int
    bet: int = 0
    state: str = ACTIVE
    is_button: bool = False
    is_actor: bool = False
    blind: str | None = None
    dealt: bool = False
    shown: tuple[Card, ...] = ()
    hand: str | None = None
    won: int = 0
    split: bool = False
    odds: OddsLike | None = None
    computer: bool = False


@dataclass(frozen=True)
class TableScene:
    """What the picture shows (public information only). language: "en"/"fr"; hand_number: 0 between the
    first hands; blinds and ante in chips; max_seats: the table's seats (picks the layout); seats: the occupied
    ones; board: community cards; pots: chips of each pot, main first (what the channel is told,
    `pot_amounts`); street: the street's catalogue name ("flop", ... "showdown"; "over" for a hand won
    without a showdown) or None between hands;
    four_colour: draw the four-colour deck."""

    language: str
    hand_number: int
    small_blind: int
    big_blind: int
    ante: int
    max_seats: int
    seats: tuple[SceneSeat, ...]
    board: tuple[Card, ...] = ()
    pots: tuple[int, ...] = ()
    street: str | None = None
    four_colour: bool = False


@lru_cache(maxsize=2048)
def clean_name(name: str) -> str:
    """A display name as the picture can draw it: a computer player's `COMPUTER_MARK` taken off (the picture
    draws a robot badge instead, for computer players' seats only: `is_computer_player`). Control and format
    characters (bidirectional overrides, zero-width joiners), every character the font has no glyph for (emoji,
    CJK...: they would be empty boxes) and right-to-left letters (Hebrew, Arabic: Pillow's basic layout would
    draw them backwards and unjoined) are left out; "" when nothing is left (the seat's number is drawn instead).
    The last 2,048 names are kept (a name is cleaned again at every picture of its table otherwise)."""
    stripped = name.strip().removeprefix(COMPUTER_MARK)
    kept = "".join(ch for ch in stripped if _keep(ch))
    return " ".join(kept.split())


def _keep(ch: str) -> bool:
    return (
        unicodedata.category(ch) not in ("Cc", "Cf")
        and unicodedata.bidirectional(ch) not in ("R", "AL")  # drawn left to right and unjoined without libraqm
        and drawable(ch)
    )


def scene_from_snapshot(
    snapshot: TableSnapshot,
    result: HandResult | None = None,
    odds: Mapping[int, OddsLike] | None = None,
    *,
    faces: Mapping[int, Sequence[Card]] | None = None,
    four_colour: bool = False,
) -> TableScene:
    """The scene of a table from its public snapshot.

    snapshot: the service's public `TableSnapshot` (bot/render/table.py). result: the hand's `HandResult` at its
    end (shown hands, pots won), or None. odds: chances by seat number at an all-in, or None. faces: hole cards
    turned face up by the rules at an all-in (everyone all-in: the hands are shown before the run-out), by seat.

    Cards come only from what was shown (`HandShown` events of the snapshot, `faces`, `result.shown`, the seats'
    `cards` at a learning table); hole cards that are not public have no way in (`HoleCardsDealt` is ignored)."""
    seats = snapshot.seats
    by_player = {s.player: s for s in seats if s.player is not None}
    shown: dict[int, tuple[Card, ...]] = {}
    values: dict[int, Any] = {}
    for event in snapshot.events:
        if isinstance(event, HandShown) and event.player in by_player:
            shown[by_player[event.player].seat] = tuple(event.cards)
            values[by_player[event.player].seat] = event.value
    for s in seats:
        if s.cards:  # a learning table deals face up (the snapshot carries them only there)
            shown[s.seat] = tuple(s.cards)
    for seat_number, cards in (faces or {}).items():
        if cards:
            shown[seat_number] = tuple(cards)
    won: dict[int, int] = {}
    split: set[int] = set()
    board = tuple(snapshot.board)
    street = None if snapshot.street is None else _street_key(snapshot.street)
    bets = sum(int(s.bet) for s in seats)
    pots = tuple(pot_amounts(snapshot.pots, bets)) if street is not None else ()
    if result is not None:
        by_user = {s.user_id: s for s in seats}
        for hand in result.shown:
            seat = by_user.get(hand.user_id)
            if seat is not None:
                shown[seat.seat] = tuple(hand.cards)
                values[seat.seat] = hand.value
        for pot in result.pots:
            for user_id, _name, chips in pot.winners:
                seat = by_user.get(user_id)
                if seat is not None:
                    won[seat.seat] = won.get(seat.seat, 0) + int(chips)
                    if len(pot.winners) > 1:
                        split.add(seat.seat)
        board = tuple(result.board) or board
        pots = tuple(int(p.amount) for p in result.pots if p.amount)
        # A hand won without a showdown is titled as its message is ("Hand #N is over"), never "Showdown".
        street = "showdown" if result.showdown else "over"
    against = list(values.values())
    language = snapshot.language
    scene_seats = []
    for s in sorted(seats, key=lambda s: s.seat):
        state = str(getattr(s.state, "value", s.state))
        dealt = s.player is not None and state in (ACTIVE, ALL_IN) and street is not None
        value = values.get(s.seat)
        name = clean_name(str(s.name))
        scene_seats.append(
            SceneSeat(
                seat=int(s.seat),
                name=name,
                stack=int(s.stack),
                bet=int(s.bet) if result is None else 0,
                state=state,
                is_button=bool(s.is_button),
                is_actor=bool(s.is_actor) and result is None,
                blind=_value(s.blind),
                dealt=dealt,
                shown=shown.get(s.seat, ()),
                hand=hand_name(value, language, against) if value is not None else None,
                won=won.get(s.seat, 0),
                split=s.seat in split,
                odds=odds.get(s.seat) if odds is not None else None,
                computer=is_computer_player(int(s.user_id)),
            )
        )
    return TableScene(
        language=language,
        hand_number=int(snapshot.hand_number),
        small_blind=int(snapshot.small_blind),
        big_blind=int(snapshot.big_blind),
        ante=int(snapshot.ante),
        max_seats=int(snapshot.max_seats),
        seats=tuple(scene_seats),
        board=board,
        pots=pots,
        street=street,
        four_colour=four_colour,
    )


def _value(mark: Any) -> str | None:
    """An enum's value or a plain string (the service's marks may be either)."""
    return None if mark is None else str(getattr(mark, "value", mark))


def _street_key(street: Any) -> str:
    return {0: "preflop", 1: "flop", 2: "turn", 3: "river"}.get(int(street), "showdown")
