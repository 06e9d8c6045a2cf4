"""One table's state: what the runner holds in memory and stores with the table (docs/architecture.md, "Table
orchestration").

`TableState` is owned by the `TableRunner` and changed only under its lock, by the runner and its collaborators
(seating, hands, closing, restore), inside one change (`changing`); its `version` moves on with every change,
which is what a remembered picture of it is keyed by (bot/tables/snapshot.py). `Committed` is the part
that storage holds, as last stored: what a failed write puts back (`TableCore.roll_back`).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from bot.poker import Betting, BlindLevel, BlindSchedule, Hand, HandSettings, Table, TableConfig, TableKind
from bot.poker.seal import DeckSeal
from bot.tables.computer_names import computer_display_name
from bot.tables.errors import ServiceError
from bot.tables.options import TableOptions
from bot.tables.preactions import PreChoice
from bot.tables.timebank import TimeBanks


@dataclass(frozen=True)
class TableIds:
    """Who a table is: its storage id, its server and channel (Discord ids), and its host (a user id)."""

    table_id: int
    guild_id: int
    channel_id: int
    host_id: int


def table_config(options: TableOptions) -> TableConfig:
    """The engine's table configuration for `options` (blinds, betting structure, seats, blind schedule, the
    dead-button and missed-blind rules)."""
    settings = HandSettings(
        small_blind=options.small_blind,
        big_blind=options.big_blind,
        ante=options.ante,
        big_blind_ante=options.big_blind_ante,
        straddle=options.straddle,
        run_it_twice=options.run_it_twice,
        betting=Betting(options.betting),
    )
    schedule = None
    if options.blind_levels:
        schedule = BlindSchedule(
            levels=tuple(BlindLevel(*level) for level in options.blind_levels),
            by=options.level_by,
            length=options.level_length,
        )
    return TableConfig(
        settings=settings,
        seat_count=options.seats,
        schedule=schedule,
        dead_button=options.dead_button,
        missed_blinds=options.missed_blinds and options.kind is TableKind.CASH,
    )


@dataclass(frozen=True)
class TableView:
    """What a table holds, as it was when read (`TableRunner.view`): immutable, safe to read without the lock.
    The public picture of the table is `TableSnapshot`; this adds what the service and tests need beyond it.

    in_hand: a hand is being played. hand_users: its players' user ids by player index (empty between hands).
    leaving / kicked: users who leave when the hand ends. away: users sitting out. expiries: turn timeouts in a
    row by user. rebuys: rebuys asked during the hand (user -> chips). Times are clock seconds.
    """

    ids: TableIds
    options: TableOptions
    language: str
    closed: bool
    running: bool
    in_hand: bool
    hand_number: int
    hand_id: int | None
    hand_users: tuple[int, ...]
    message_id: int | None
    deadline: float | None
    next_hand_at: float | None
    leaving: frozenset[int]
    kicked: frozenset[int]
    away: frozenset[int]
    expiries: Mapping[int, int]
    rebuys: Mapping[int, int]


@dataclass
class Committed:
    """The table's state as last committed: what a failed write puts back (`TableCore.roll_back`). Copies that
    nothing changes (the engine's hand is shared: it changes only once its action is stored, write-ahead)."""

    table: Table
    names: dict[int, str]
    hand: Hand | None
    seal: DeckSeal | None
    hand_id: int | None
    hand_number: int
    hand_seats: tuple[int, ...]
    hand_users: tuple[int, ...]
    expiries: dict[int, int]
    leaving: set[int]
    kicked: set[int]
    away: set[int]
    coached: set[int]
    rebuys: dict[int, int]
    hand_level: int | None
    running: bool
    started_at: float | None
    language: str
    options: TableOptions
    closed: bool
    time_banks: TimeBanks
    coach_dm: set[int]


#: Versions of every table's state: never the same number twice, so a version once seen never comes back.
_VERSIONS = itertools.count(1)


class _Changing:
    """`TableState.changing`'s block (a class, not a generator: the runner enters one at every operation)."""

    __slots__ = ("_state",)

    def __init__(self, state: TableState) -> None:
        self._state = state

    def __enter__(self) -> None:
        self._state._changes += 1

    def __exit__(self, *_exc: object) -> None:
        self._state._changes -= 1


@dataclass
class TableState:
    """The live state of one table. Users are Discord user ids; chips are ints.

    table: the engine's seats, stacks, button and blind schedule. hand: the hand being played (None between
    hands), hand_id its storage id, hand_seats / hand_users its players' seats and users by player index.
    expiries: turn timeouts in a row by user. leaving / kicked: users who leave when the hand ends. away: users
    sitting out. coached: users who turned the coach on (`/poker coach`); coach_dm: those of them who also want
    it by DM on their turn (`/poker coach mode:dm`, bot/tables/coaching.py). rebuys: rebuys asked during a hand,
    made when it ends (user -> chips). hand_level: the blind
    level (0-based schedule index) of the last hand dealt. running: hands are dealt by themselves. started_at:
    the first deal (clock seconds). message_id: the live table message. deadline: the turn's end (clock
    seconds). next_hand_at: when the next hand is dealt. seal: the hand's sealed deck (bot.poker.seal), stored
    with the hand's record.

    version: a number that moves on whenever the state may have changed: at every assignment of a field (such as
    the delivery worker's `message_id`, outside any change) and at both ends of every change (`changing`), inside
    which alone the engine's hand and table, the sets and the dicts are changed in place (`touch` says so where
    that is not enough). Equal versions and `settled`: the same state.
    """

    ids: TableIds
    options: TableOptions
    language: str = "en"
    table: Table = field(init=False)
    names: dict[int, str] = field(default_factory=dict)
    hand: Hand | None = None
    seal: DeckSeal | None = None
    hand_id: int | None = None
    hand_number: int = 0
    hand_seats: tuple[int, ...] = ()
    hand_users: tuple[int, ...] = ()
    expiries: dict[int, int] = field(default_factory=dict)
    leaving: set[int] = field(default_factory=set)
    kicked: set[int] = field(default_factory=set)
    away: set[int] = field(default_factory=set)
    coached: set[int] = field(default_factory=set)
    coach_dm: set[int] = field(default_factory=set)
    rebuys: dict[int, int] = field(default_factory=dict)
    hand_level: int | None = None
    running: bool = False
    started_at: float | None = None
    closed: bool = False
    message_id: int | None = None
    deadline: float | None = None
    next_hand_at: float | None = None
    #: Each player's time bank (issue 16), stored with the table.
    time_banks: TimeBanks = field(init=False)
    #: Choices made in advance (user -> choice), private to each player, kept in memory only.
    pre_actions: dict[int, PreChoice] = field(default_factory=dict)
    version: int = field(default=0, init=False, compare=False, repr=False)
    _changes: int = field(default=0, init=False, compare=False, repr=False)  # `changing` blocks entered, not left

    def __post_init__(self) -> None:
        self.table = Table(table_config(self.options))
        self.time_banks = TimeBanks(self.options.time_bank, self.options.time_bank_refill)

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        object.__setattr__(self, "version", next(_VERSIONS))  # any field assigned: a new version (see `version`)

    def touch(self) -> None:
        """The state may have changed in place (the engine's hand or table, a set, a dict): a new `version`."""
        object.__setattr__(self, "version", next(_VERSIONS))

    def changing(self) -> _Changing:
        """A block in which the state may change (an operation of the runner, a restore): not `settled` inside,
        and a new `version` at both ends, so that no picture taken before or inside is taken for one after."""
        return _Changing(self)

    @property
    def settled(self) -> bool:
        """No change is being computed (outside every `changing` block): the state is what storage holds."""
        return self._changes == 0

    # ------------------------------------------------------------------ stored with the table

    def to_json(self) -> dict[str, Any]:
        """The state beyond seats and stacks (which storage keeps in table_seats), as stored with the table."""
        return {
            "table": self.table.to_json(),
            "names": {str(k): v for k, v in self.names.items()},
            "hand_number": self.hand_number,
            "expiries": {str(k): v for k, v in self.expiries.items()},
            "leaving": sorted(self.leaving),
            "kicked": sorted(self.kicked),
            "away": sorted(self.away),
            "coached": sorted(self.coached),
            "coach_dm": sorted(self.coach_dm),
            "rebuys": {str(k): v for k, v in sorted(self.rebuys.items())},
            "hand_level": self.hand_level,
            "running": self.running,
            "started_at": self.started_at,
            "language": self.language,
            "time_banks": self.time_banks.to_json(),
        }

    def load_flags(self, state: dict[str, Any]) -> None:
        """Names and flags from a stored `to_json()` (not the table nor the hand number)."""
        self.names = {int(k): v for k, v in state.get("names", {}).items()}
        self.expiries = {int(k): v for k, v in state.get("expiries", {}).items()}
        self.leaving = set(state.get("leaving", []))
        self.kicked = set(state.get("kicked", []))
        self.away = set(state.get("away", []))
        self.coached = set(state.get("coached", []))
        self.coach_dm = set(state.get("coach_dm", []))
        self.rebuys = {int(k): int(v) for k, v in state.get("rebuys", {}).items()}
        self.hand_level = state.get("hand_level")
        self.running = bool(state.get("running", False))
        self.started_at = state.get("started_at")
        self.time_banks = TimeBanks(self.options.time_bank, self.options.time_bank_refill)
        self.time_banks.restore(state.get("time_banks"))

    # ------------------------------------------------------------------ committed state

    def committed(self) -> Committed:
        """A copy of what storage holds once the change being computed is stored (once per action, when it starts: cheap
        copies of the containers, no text)."""
        return Committed(
            table=self.table.copy(),
            names=dict(self.names),
            hand=self.hand,
            seal=self.seal,
            hand_id=self.hand_id,
            hand_number=self.hand_number,
            hand_seats=self.hand_seats,
            hand_users=self.hand_users,
            expiries=dict(self.expiries),
            leaving=set(self.leaving),
            kicked=set(self.kicked),
            away=set(self.away),
            coached=set(self.coached),
            rebuys=dict(self.rebuys),
            hand_level=self.hand_level,
            running=self.running,
            started_at=self.started_at,
            language=self.language,
            options=self.options,
            closed=self.closed,
            time_banks=self.time_banks.copy(),
            coach_dm=set(self.coach_dm),
        )

    def roll_back(self, m: Committed) -> None:
        """Put the state back as it was when `m` was taken (`m` stays as it is: it may be put back again)."""
        self.table = m.table.copy()
        if m.hand is not None:
            self.table.resume_hand(m.hand, m.hand_seats)
        self.names, self.expiries = dict(m.names), dict(m.expiries)
        self.hand, self.hand_id, self.hand_number = m.hand, m.hand_id, m.hand_number
        self.seal = m.seal
        self.hand_seats, self.hand_users = m.hand_seats, m.hand_users
        self.leaving, self.kicked, self.away = set(m.leaving), set(m.kicked), set(m.away)
        self.coached, self.coach_dm = set(m.coached), set(m.coach_dm)
        self.rebuys, self.hand_level = dict(m.rebuys), m.hand_level
        self.running, self.started_at, self.language = m.running, m.started_at, m.language
        self.options, self.closed = m.options, m.closed
        self.time_banks = m.time_banks.copy()

    def view(self) -> TableView:
        """An immutable copy of the state now (see `TableView`)."""
        return TableView(
            ids=self.ids,
            options=self.options,
            language=self.language,
            closed=self.closed,
            running=self.running,
            in_hand=self.hand is not None,
            hand_number=self.hand_number,
            hand_id=self.hand_id,
            hand_users=self.hand_users,
            message_id=self.message_id,
            deadline=self.deadline,
            next_hand_at=self.next_hand_at,
            leaving=frozenset(self.leaving),
            kicked=frozenset(self.kicked),
            away=frozenset(self.away),
            expiries=MappingProxyType(dict(self.expiries)),
            rebuys=MappingProxyType(dict(self.rebuys)),
        )

    def clear_hand(self) -> None:
        """No hand is being played any more."""
        self.hand, self.hand_id, self.hand_seats, self.hand_users = None, None, (), ()
        self.seal = None

    # ------------------------------------------------------------------ lookups

    def seat_of(self, user_id: int) -> int | None:
        """The user's seat, or None."""
        for seat, occupant in self.table.seats.items():
            if occupant.player_id == user_id:
                return seat
        return None

    def require_seat(self, user_id: int) -> int:
        """The user's seat. Raises ServiceError("not_seated")."""
        seat = self.seat_of(user_id)
        if seat is None:
            raise ServiceError("not_seated")
        return seat

    def seat_holds(self, seat: int, user: int, *, stack: int | None = None) -> bool:
        """Seat `seat` is held by `user` (with exactly `stack` chips, when given)."""
        occupant = self.table.seats.get(seat)
        return occupant is not None and occupant.player_id == user and (stack is None or occupant.stack == stack)

    def player_of(self, user_id: int) -> int | None:
        """The user's player index in the hand being played, or None (no hand, or not dealt in)."""
        if self.hand is None:
            return None
        try:
            return self.hand_users.index(user_id)
        except ValueError:
            return None

    def name(self, user_id: int) -> str:
        """The user's display name at this table (their id when unknown); a computer player's from its id, in the
        table's language (never the text stored when it sat down: bot/tables/computer_names.py)."""
        if user_id < 0:
            computer = computer_display_name(user_id, self.language)
            if computer is not None:
                return computer
        return self.names.get(user_id, str(user_id))

    def free_seats(self) -> list[int]:
        """Seat numbers nobody holds, in order."""
        return [s for s in range(1, self.options.seats + 1) if s not in self.table.seats]

    def check_open(self) -> None:
        """Raises ServiceError("table_closed") once the table is closed."""
        if self.closed:
            raise ServiceError("table_closed")

    def check_host(self, user_id: int, is_admin: bool) -> None:
        """The one host rule (start a tournament, schedule, kick, end): the host or a member with Manage Server
        (`is_admin`); the refusal `not_host` says exactly that."""
        if user_id != self.ids.host_id and not is_admin:
            raise ServiceError("not_host", host=self.ids.host_id)

    def level_clock(self, now: float) -> float:
        """Minutes-based blind levels count from the first deal: seconds since then at clock time `now`."""
        return now - (self.started_at or now)
