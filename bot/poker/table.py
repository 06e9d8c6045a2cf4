"""The table: seats 1..N, the button, the blind schedule, who is dealt in, eliminations. Its fixed settings and blind
schedule are bot/poker/table_config.py; where the button and the blinds go at a deal (the rules below) is computed
in bot/poker/button.py.

Rule book 000 §07: the button moves one seat clockwise after each hand; a player without chips is
eliminated and their seat leaves the rotation ("rotation simple entre les joueurs restants": the
button goes to the next player still dealt in, clockwise); the last player with chips wins, or the
game stops at an agreed time and stacks are compared. Rule book 000 §04: the first button is drawn at
random. Going from three players to two (or any change of the players dealt in) never makes a player
post the big blind twice in a row: the button then moves on one more player (TDA's heads-up button
adjustment). Players sitting out are not dealt in and skipped by the button.

Option `TableConfig.dead_button` (the card room's dead-button rule, rule book 002 "les procédures pour
blinds manqués, dead button ... varient selon les lieux"): the big blind moves to the next player dealt in
after the last big blind, so nobody posts it twice in a row and nobody skips it; the small blind is the
seat of the last big blind, and is dead (not posted) when that player left, busted or sits out; the button
is the seat of the last small blind, even when it is empty (a dead button). A player who sits down
between the button and the big blind waits for the big blind to pass them (they are not dealt in until
then). Heads-up, the big blind still moves on one player and the other is the button and posts the small
blind.

Option `TableConfig.missed_blinds` (rule book 002: "Si un joueur s'absente et revient, il doit généralement
« poster » les blinds/antes manqués pour réintégrer la main immédiatement, ou attendre le retour de la grosse
blinde"; off by default, as in rule book 000): a player sitting out whose big blind passed them owes it.
Coming back (`sit_in`) they choose: post (a live big blind and a dead small blind, `HandSettings.extra_blinds`)
and play the next hand, or wait until the big blind reaches them. A player who sits down at a table that has
dealt a hand makes the same choice, posting a big blind only.

Pure: no I/O; time is passed in (`now`, seconds since the first deal).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.poker.button import dead_button_deal, next_button, order_from_button
from bot.poker.cards import Card
from bot.poker.errors import TableError
from bot.poker.hand import Hand
from bot.poker.settings import HandSettings
from bot.poker.table_config import BlindLevel, TableConfig

__all__ = ["Seat", "Table"]


@dataclass(frozen=True, slots=True)
class Seat:
    """An occupied seat: the player's user id, their chips on the table, whether they sit out."""

    player_id: int
    stack: int
    sitting_out: bool = False


class Table:
    """Seats, button and blinds of one table; deals `Hand`s and applies their results.

    Seats are numbered 1..seat_count clockwise. Between hands players sit, stand, sit out and add
    chips; `start_hand` deals in every seated player with chips who is not sitting out (2 to 10).
    """

    def __init__(self, config: TableConfig | None = None) -> None:
        self.config = config if config is not None else TableConfig()
        # In seat order, always (`sit`, `sync_seats` and `from_json` keep it so): `seats` and `copy` copy it as it is.
        self._seats: dict[int, Seat] = {}
        self._button: int | None = None
        self._last_big_blind: int | None = None
        self._small_blind_position: int | None = None
        #: Missed blinds: seat -> dead chips owed with a live big blind (the small blind; 0 for a new player).
        self._owed: dict[int, int] = {}
        self._posting: set[int] = set()  # seats who chose to post and play the next hand
        self._waiting: set[int] = set()  # seats waiting for the big blind
        self._hands_played = 0
        self._hand_seats: tuple[int, ...] = ()
        self._in_hand = False

    # ------------------------------------------------------------------ state

    @property
    def seats(self) -> Mapping[int, Seat]:
        """Occupied seats by seat number, in seat order (a copy; `Seat` is frozen)."""
        return dict(self._seats)

    @property
    def button(self) -> int | None:
        """Seat of the button of the current or last hand; None before the first hand. Under the dead-button
        rule it may be a seat whose player is not in the hand, or an empty seat."""
        return self._button

    @property
    def hand_seats(self) -> tuple[int, ...]:
        """Seat of each player of the current (or last) hand, by hand player index (last = the button)."""
        return self._hand_seats

    @property
    def hand_in_progress(self) -> bool:
        """True between `start_hand` (or `resume_hand`) and `end_hand`."""
        return self._in_hand

    @property
    def hands_played(self) -> int:
        """Hands started at this table (drives a schedule by hands)."""
        return self._hands_played

    def seat_of(self, player_id: int) -> int | None:
        """The seat of a player, or None."""
        for number, seat in self._seats.items():
            if seat.player_id == player_id:
                return number
        return None

    def current_level(self, now: float = 0.0) -> BlindLevel:
        """The blinds and antes the next hand would use (`now` = seconds since the first deal)."""
        schedule = self.config.schedule
        if schedule is None:
            s = self.config.settings
            return BlindLevel(s.small_blind, s.big_blind, s.ante, s.big_blind_ante)
        return schedule.levels[schedule.level_index(self._hands_played, now)]

    def hand_settings(self, now: float = 0.0) -> HandSettings:
        """The `HandSettings` for the next hand (the configured ones with the current level's blinds)."""
        if self.config.schedule is None:
            return self.config.settings
        level = self.current_level(now)
        return replace(
            self.config.settings,
            small_blind=level.small_blind,
            big_blind=level.big_blind,
            ante=level.ante,
            big_blind_ante=level.big_blind_ante,
        )

    def active_seats(self) -> list[int]:
        """Seats that would be dealt in now: seated, not sitting out, with chips (ascending); with missed blinds,
        seats that owe and have not chosen yet are not (seats waiting for the big blind are, until the deal
        leaves them out)."""
        return [
            n
            for n, s in sorted(self._seats.items())
            if s.stack > 0 and not s.sitting_out and (n not in self._owed or n in self._posting or n in self._waiting)
        ]

    def blinds_owed(self, seat: int) -> int | None:
        """Missed blinds: the dead chips `seat` would post with a live big blind to play the next hand (the
        small blind they missed; 0 for a new player), or None when they owe nothing."""
        return self._owed.get(seat)

    def waiting_for_big_blind(self, seat: int) -> bool:
        """Whether `seat` chose to wait for the big blind (not dealt in until it reaches them)."""
        return seat in self._waiting

    def choose_return(self, seat: int, post: bool) -> None:
        """A seat that owes blinds chooses: post them and play the next hand, or wait for the big blind; it is
        no longer sitting out either way.

        Raises:
            TableError: the seat is empty or owes nothing.
        """
        occupant = self._occupied(seat)
        if seat not in self._owed:
            raise TableError("table", detail="This player owes no blinds")
        self._seats[seat] = replace(occupant, sitting_out=False)
        if post:
            self._posting.add(seat)
            self._waiting.discard(seat)
        else:
            self._waiting.add(seat)
            self._posting.discard(seat)

    def players_with_chips(self) -> list[int]:
        """Seats holding chips, sitting out or not."""
        return [n for n, s in sorted(self._seats.items()) if s.stack > 0]

    def winner(self) -> int | None:
        """The seat holding every chip on the table (tournament over, rule book 000 §03), else None."""
        holders = self.players_with_chips()
        return holders[0] if len(holders) == 1 else None

    def standings(self) -> list[tuple[int, int, int]]:
        """(seat, player_id, stack) by stack, largest first (ties by seat): the ranking when the game stops at
        an agreed time (rule book 000 §07)."""
        return sorted(((n, s.player_id, s.stack) for n, s in self._seats.items()), key=lambda r: (-r[2], r[0]))

    # ------------------------------------------------------------------ seats

    def _check_seat_number(self, seat: int) -> None:
        if not 1 <= seat <= self.config.seat_count:
            raise TableError("table", detail=f"Seat {seat} doesn't exist (1 to {self.config.seat_count})")

    def _occupied(self, seat: int) -> Seat:
        self._check_seat_number(seat)
        occupant = self._seats.get(seat)
        if occupant is None:
            raise TableError("table", detail=f"Seat {seat} is empty")
        return occupant

    def _in_current_hand(self, seat: int) -> bool:
        return self._in_hand and seat in self._hand_seats

    def sit(self, seat: int, player_id: int, stack: int) -> None:
        """Seat a player with `stack` chips (>= 0); they are dealt in from the next hand.

        Raises:
            TableError: no such seat, seat taken, player already seated, negative stack.
        """
        self._check_seat_number(seat)
        if seat in self._seats:
            raise TableError("table", detail=f"Seat {seat} is taken")
        if self.seat_of(player_id) is not None:
            raise TableError("table", detail="This player is already seated")
        if not isinstance(stack, int) or stack < 0:
            raise TableError("table", detail="A stack is a whole number of chips >= 0")
        self._seats[seat] = Seat(player_id, stack)
        if next(reversed(self._seats)) != max(self._seats):  # sat below a taken seat: back to seat order
            self._seats = dict(sorted(self._seats.items()))
        if self.config.missed_blinds and self._hands_played > 0:
            self._owed[seat] = 0  # a new player at a running table: a big blind, or wait for it

    def stand(self, seat: int) -> int:
        """Remove the player from `seat`; returns their stack (chips to cash out).

        Raises:
            TableError: the seat is empty, or its player is in the hand being played.
        """
        occupant = self._occupied(seat)
        if self._in_current_hand(seat):
            raise TableError("table", detail="A player in the current hand can't leave before it ends")
        del self._seats[seat]
        self._forget_blinds(seat)
        return occupant.stack

    def _forget_blinds(self, seat: int) -> None:
        self._owed.pop(seat, None)
        self._posting.discard(seat)
        self._waiting.discard(seat)

    def set_sitting_out(self, seat: int, sitting_out: bool) -> None:
        """Sit out (not dealt in, skipped by the button) or come back, from the next hand on."""
        self._seats[seat] = replace(self._occupied(seat), sitting_out=sitting_out)

    def add_chips(self, seat: int, amount: int) -> None:
        """Add chips to a stack between hands (rebuy, rule book 002 "entre les mains").

        Raises:
            TableError: empty seat, amount < 1, or the seat is in the hand being played.
        """
        occupant = self._occupied(seat)
        if not isinstance(amount, int) or amount < 1:
            raise TableError("table", detail="Add a whole number of chips above zero")
        if self._in_current_hand(seat):
            raise TableError("table", detail="Chips can't be added during a hand")
        self._seats[seat] = replace(occupant, stack=occupant.stack + amount)

    def sync_seats(self, occupants: Mapping[int, tuple[int, int]]) -> None:
        """Make the seats exactly `{seat: (player_id, stack)}` (storage is authoritative); sitting-out
        flags are kept for players who stay in the same seat."""
        seats: dict[int, Seat] = {}
        for number, (player_id, stack) in occupants.items():
            self._check_seat_number(number)
            previous = self._seats.get(number)
            sitting_out = previous.sitting_out if previous and previous.player_id == player_id else False
            seats[number] = Seat(int(player_id), int(stack), sitting_out)
            if previous is None or previous.player_id != player_id:
                self._forget_blinds(number)
        for number in set(self._seats) - set(seats):
            self._forget_blinds(number)
        self._seats = dict(sorted(seats.items()))

    # ------------------------------------------------------------------ hands

    def can_start_hand(self) -> bool:
        """True when no hand is in progress and at least two players can be dealt in."""
        return not self._in_hand and len(self.active_seats()) >= 2

    def _dead_button_deal(self, active: list[int]) -> tuple[int, tuple[int, ...], bool]:
        """The dead-button rule (module docstring): (button seat, hand seats in hand order, small blind dead)."""
        if self._last_big_blind is None or self._button is None:
            raise TableError("table", detail="The dead-button rule starts from a first hand")  # pragma: no cover
        seats, last_bb, button = self.config.seat_count, self._last_big_blind, self._button
        return dead_button_deal(active, seats, button, last_bb, self._small_blind_position)

    def start_hand(
        self,
        now: float = 0.0,
        deck: Sequence[Card] | None = None,
        rng: random.Random | None = None,
    ) -> Hand:
        """Move the button, deal in the active players and return the new `Hand`.

        Args:
            now: seconds since the first deal (for a schedule by minutes).
            deck: the deck order to use (default: shuffled with `rng`).
            rng: randomness for the first button draw and the shuffle (default `secrets.SystemRandom`).

        Returns:
            The hand; `hand_seats[i]` is the seat of hand player i (the last is the button).

        Raises:
            TableError: a hand is in progress or fewer than two players can be dealt in.
        """
        if self._in_hand:
            raise TableError("table", detail="A hand is already in progress")
        active = self.active_seats()
        if len(active) < 2:
            raise TableError("table", detail="At least two players with chips are needed")
        if self._waiting:
            # Waiting for the big blind: dealt in only when the big blind reaches them.
            button, order, _dead = self._deal_positions(active, rng)
            big_blind = order[0] if len(order) == 2 else order[1]
            others = [s for s in active if s not in self._waiting or s == big_blind]
            if len(others) >= 2:
                active = others
        settings = self.hand_settings(now)
        dead: tuple[int, tuple[int, ...], bool] | None = None
        if self.config.dead_button and self._button is not None and self._last_big_blind is not None:
            dead = self._dead_button_deal(active)
            if len(dead[1]) < 2:  # everyone else waits for the big blind: deal by the simple rotation
                dead = None
        if dead is not None:
            button, order, dead_small = dead
            if dead_small:
                settings = replace(settings, dead_small_blind=True)
        else:
            button = next_button(active, self._button, self._last_big_blind, rng)
            order = order_from_button(active, button)
        # The seat of the small blind (heads-up the button's), dead or not: the next button under the dead-button rule.
        small_blind_position = button if len(order) == 2 else (self._last_big_blind if dead else order[0])
        settings = self._missed_blind_posts(settings, order)
        hand = Hand(settings, [self._seats[s].stack for s in order], deck=deck, rng=rng)
        if self.config.missed_blinds:
            self._note_missed_blinds(order, settings)
        self._button = button
        self._small_blind_position = small_blind_position
        self._hand_seats = order
        self._last_big_blind = order[0] if len(order) == 2 or settings.dead_small_blind else order[1]
        self._hands_played += 1
        self._in_hand = True
        return hand

    def _deal_positions(self, active: list[int], rng: random.Random | None) -> tuple[int, tuple[int, ...], bool]:
        """(button, hand seats, small blind dead) of a deal among `active`, without changing anything."""
        if self.config.dead_button and self._button is not None and self._last_big_blind is not None:
            dead = self._dead_button_deal(active)
            if len(dead[1]) >= 2:
                return dead
        if self._button is None:  # the first button is drawn by the deal itself
            return active[-1], order_from_button(active, active[-1]), False
        button = next_button(active, self._button, self._last_big_blind, rng)
        return button, order_from_button(active, button), False

    def _missed_blind_posts(self, settings: HandSettings, order: tuple[int, ...]) -> HandSettings:
        """Add the posts of the seats that chose to post their missed blinds (not when they are the blinds)."""
        if not self._posting:
            return settings
        regular = {order[0], order[1]} if len(order) > 2 else set(order)
        if settings.dead_small_blind:
            regular = {order[0]}
        posts = tuple(
            (index, self._owed.get(seat, 0))
            for index, seat in enumerate(order)
            if seat in self._posting and seat not in regular
        )
        return replace(settings, extra_blinds=posts) if posts else settings

    def _note_missed_blinds(self, order: tuple[int, ...], settings: HandSettings) -> None:
        """After a deal: posted and big-blind seats owe nothing more; sitting-out seats the big blind passed owe
        a big blind and a dead small blind."""
        big_blind = order[0] if len(order) == 2 or settings.dead_small_blind else order[1]
        for seat in order:
            if seat in self._posting or seat == big_blind or seat in self._waiting:
                self._forget_blinds(seat)
        previous = self._last_big_blind
        if previous is None:
            return
        seats = self.config.seat_count
        seat = previous % seats + 1
        while seat != big_blind and seat != previous:
            occupant = self._seats.get(seat)
            if occupant is not None and occupant.sitting_out and occupant.stack > 0:
                self._owed[seat] = settings.small_blind
            seat = seat % seats + 1

    def resume_hand(self, hand: Hand, hand_seats: Sequence[int]) -> None:
        """After a restart: adopt an in-progress hand dealt at these seats (button = the last seat)."""
        seats = tuple(hand_seats)
        if len(seats) != hand.player_count:
            raise TableError("table", detail="hand_seats doesn't match the hand's players")
        self._hand_seats = seats
        if not (self.config.dead_button and self._button is not None):  # a dead button is kept from to_json
            self._button = seats[-1]
        self._last_big_blind = seats[0] if len(seats) == 2 or hand.settings.dead_small_blind else seats[1]
        # In hand until `end_hand`, even when the hand is already complete (the process stopped between its last
        # action and its result): `end_hand` must still apply it.
        self._in_hand = True

    def end_hand(self, hand: Hand) -> tuple[int, ...]:
        """Apply a completed hand's finishing stacks to the seats.

        Returns:
            The seats whose player now has no chips (eliminated; they stay seated until `stand`).

        Raises:
            TableError: no hand in progress, the hand isn't complete or isn't this table's.
        """
        finishing = hand.finishing_stacks
        if not self._in_hand or finishing is None or len(finishing) != len(self._hand_seats):
            raise TableError("table", detail="No completed hand of this table to end")
        busted = []
        for seat, stack in zip(self._hand_seats, finishing, strict=True):
            occupant = self._seats.get(seat)
            if occupant is not None:
                self._seats[seat] = replace(occupant, stack=stack)
                if stack == 0:
                    busted.append(seat)
        self._in_hand = False
        return tuple(busted)

    # ------------------------------------------------------------------ persistence

    def copy(self) -> Table:
        """An independent copy of the table as it is now, between or during hands (the hand itself is not part of
        it): what `from_json(to_json())` gives, without the text. Seats and the config are immutable, so only
        the containers are copied."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin._seats = dict(self._seats)
        twin._owed = dict(self._owed)
        twin._posting = set(self._posting)
        twin._waiting = set(self._waiting)
        return twin

    def to_json(self) -> dict[str, Any]:
        """Everything needed to restore the table between or during hands (the hand itself is stored apart)."""
        return {
            "version": 1,
            "config": self.config.to_json(),
            "seats": {
                str(n): {"player_id": s.player_id, "stack": s.stack, "sitting_out": s.sitting_out}
                for n, s in sorted(self._seats.items())
            },
            "button": self._button,
            "last_big_blind": self._last_big_blind,
            "small_blind_position": self._small_blind_position,
            "blinds_owed": {str(seat): chips for seat, chips in sorted(self._owed.items())},
            "posting": sorted(self._posting),
            "waiting_for_big_blind": sorted(self._waiting),
            "hands_played": self._hands_played,
            "hand_seats": list(self._hand_seats),
            "in_hand": self._in_hand,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Table:
        """Inverse of `to_json`.

        Raises:
            TableError: unknown version or malformed data.
        """
        try:
            if data.get("version") != 1:
                raise TableError("table", detail=f"Unknown table state version {data.get('version')!r}")
            table = cls(TableConfig.from_json(data["config"]))
            for number, seat in data["seats"].items():
                table._seats[int(number)] = Seat(int(seat["player_id"]), int(seat["stack"]), bool(seat["sitting_out"]))
            table._seats = dict(sorted(table._seats.items()))
            table._button = data["button"]
            table._last_big_blind = data.get("last_big_blind")
            table._small_blind_position = data.get("small_blind_position")
            table._owed = {int(seat): int(chips) for seat, chips in (data.get("blinds_owed") or {}).items()}
            table._posting = {int(seat) for seat in data.get("posting") or ()}
            table._waiting = {int(seat) for seat in data.get("waiting_for_big_blind") or ()}
            table._hands_played = int(data["hands_played"])
            table._hand_seats = tuple(int(s) for s in data["hand_seats"])
            table._in_hand = bool(data["in_hand"])
            return table
        except (KeyError, TypeError, ValueError) as exc:
            raise TableError("table", detail=f"Bad table state: {exc}") from exc
