"""The public picture of a table (`TableSnapshot`), built from its state: what the table message shows.

Pure: reads a `TableState` and the time, changes nothing, holds no hole card (docs/architecture.md, "Table
orchestration", which also says which version of the state a snapshot is of and who may hold it). `Snapshots`
keeps one table's last picture for every reader of the same version, and what one build can hand the next
(the hand's public events read so far, the seat views that did not change).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from bot.poker import BlindPosted, Card, Event, Hand, HoleCardsDealt, LevelBy, Street, TableKind
from bot.render.table import SeatState, Waiting
from bot.tables.notifier import SeatView, TableSnapshot
from bot.tables.state import TableState

#: Public events kept in the snapshot for "last actions".
RECENT_EVENTS = 40
#: The blinds marked beside a seat's name (`SeatView.blind`).
_MARKED_BLINDS = ("small_blind", "big_blind")


def snapshot(state: TableState, now: float) -> TableSnapshot:
    """A public picture of the table at clock time `now` (no hole cards), built afresh."""
    return Snapshots(state).build(now)


def depends_on_time(state: TableState) -> bool:
    """The picture changes with the clock alone: a blind schedule by minutes (the level in force between hands,
    the minutes to the next level). Every other field changes only with the state."""
    schedule = state.table.config.schedule
    return schedule is not None and schedule.by is LevelBy.MINUTES


@dataclass
class _HandPart:
    """What the pictures of one hand show of the hand itself, read from the engine once per count of its events
    and shared by every build until the next event (the hand is append-only: every change of a hand in play
    appends an event, `Hand.events_since`). `seen`: events read; `public`: the public ones read (no
    HoleCardsDealt; the last `RECENT_EVENTS` are shown); `blinds`: the blind each player posted. For the count
    `count`: `values` (the snapshot's fields that come from the hand alone), each player's `stacks`, `bets` and
    seat `states` (by hand player index) and `actor` (the player to act)."""

    hand: Hand
    users: tuple[int, ...]
    seen: int = 0
    public: list[Event] = field(default_factory=list)
    blinds: dict[int, str] = field(default_factory=dict)
    count: int = -1
    values: dict[str, Any] = field(default_factory=dict)
    stacks: tuple[int, ...] = ()
    bets: tuple[int, ...] = ()
    states: tuple[SeatState, ...] = ()
    flags: tuple[tuple[bool, ...], tuple[bool, ...]] = ((), ())  # (folded, all-in) that `states` shows
    actor: int | None = None
    hole: tuple[tuple[Card, ...], ...] | None = None

    def read(self) -> None:
        """Bring the part up to the hand's events (nothing to do when none was added since the last call)."""
        hand = self.hand
        count = hand.event_count
        if count == self.count:
            return
        for event in hand.events_since(self.seen):
            if isinstance(event, HoleCardsDealt):
                continue
            self.public.append(event)
            if isinstance(event, BlindPosted) and event.kind in _MARKED_BLINDS:
                self.blinds[event.player] = event.kind
        self.seen = self.count = count
        if len(self.public) > 2 * RECENT_EVENTS:
            del self.public[:-RECENT_EVENTS]
        actor = hand.actor
        self.hole = None  # read again when asked (hole cards are dealt once; explicit dealing deals them later)
        self.stacks, self.bets = hand.stacks, hand.bets
        flags = (hand.folded, hand.all_in)
        if flags != self.flags:  # a fold or an all-in (most actions change neither)
            self.flags = flags
            self.states = tuple(
                SeatState.FOLDED if folded else SeatState.ALL_IN if all_in else SeatState.ACTIVE
                for folded, all_in in zip(*flags, strict=True)
            )
        self.actor = actor
        settings, users = hand.settings, self.users
        self.values = {
            "small_blind": settings.small_blind,
            "big_blind": settings.big_blind,
            "ante": settings.ante,
            "board": hand.board,
            "pots": hand.pots(),
            "street": hand.street if not hand.is_complete else Street.COMPLETE,
            "events": tuple(self.public[-RECENT_EVENTS:]),
            "actor_user_id": users[actor] if actor is not None else None,
            "legal": hand.legal_actions() if actor is not None else None,
            "run_twice_pending": tuple(users[p] for p in hand.run_twice_pending),
        }

    def hole_cards(self) -> tuple[tuple[Card, ...], ...]:
        """Every player's hole cards (a learning table shows them face up), read once per count of events."""
        if self.hole is None:
            self.hole = tuple(tuple(cards) for cards in self.hand.hole_cards)
        return self.hole


class Snapshots:
    """The public pictures of one table (see the module docstring), owned by its `TableCore`.

    `current(now)` hands out the picture of the state's `version`: built once, then the same immutable object to
    every reader until the version moves on (a table whose picture depends on the clock, `depends_on_time`, is
    also keyed by `now`). While a change is being computed (the state is not `settled`) it always builds and
    remembers nothing: a picture of a half-made change is the caller's alone (an announcement the change owes).
    `built` counts the pictures built (tests and benchmarks).

    A build reuses what did not change since the last one, each part checked against what it is made of, never
    against the version: the hand's part (`_HandPart`, by the hand's event count), the names of its players (by
    the names stored for them and the language), the seat views and their tuple (by every value they show),
    the table's fixed fields (by its ids, options and language)."""

    def __init__(self, state: TableState) -> None:
        self._state = state
        self._key: tuple[int, float | None] | None = None
        self._last: TableSnapshot | None = None
        self._hand: _HandPart | None = None
        self._names: tuple[tuple[Any, ...], tuple[str, ...]] = ((), ())
        self._fixed: tuple[tuple[Any, ...], dict[str, Any]] = ((), {})
        self._seats: dict[tuple[Any, ...], SeatView] = {}  # the seat views of the last build, by their fields
        # The last build's seat views, with what they were built from and each one's hand player index.
        self._seats_of: tuple[tuple[Any, ...], tuple[SeatView, ...], tuple[int | None, ...]] = ((), (), ())
        self.built = 0

    def current(self, now: float) -> TableSnapshot:
        """The picture of the state at clock time `now` (see the class docstring)."""
        state = self._state
        key = (state.version, now if depends_on_time(state) else None)
        if key == self._key and self._last is not None and state.settled:
            return self._last
        picture = self.build(now)
        if state.settled:
            self._key, self._last = key, picture
        return picture

    def build(self, now: float) -> TableSnapshot:
        """A picture of the table at clock time `now`, built from the state (only what changed since the last
        build is new: see the class docstring)."""
        self.built += 1
        state = self._state
        hand = state.hand
        values = dict(self._fixed_values(state))
        part = None
        if hand is not None:
            part = self._hand
            if part is None or part.hand is not hand or part.users != state.hand_users:
                part = self._hand = _HandPart(hand, state.hand_users)
            part.read()
            values.update(part.values)
            actor_user, pending = values["actor_user_id"], values["run_twice_pending"]
            names = self._player_names(state)
            values["names"] = names
            values["seal"] = state.seal.fingerprint() if state.seal is not None else None
            values["deadline"] = state.deadline if actor_user is not None or pending else None
        else:
            self._hand = None
            actor_user, names = None, ()
            if not state.closed:
                values["next_hand_at"] = state.next_hand_at
                values["waiting"] = _waiting_for(state)
            # Between hands: the blinds the next hand will use (once closed: the last hand's).
            schedule = state.table.config.schedule
            if state.closed and schedule is not None and state.hand_level is not None:
                level = schedule.levels[state.hand_level]
            else:
                level = state.table.current_level(state.level_clock(now))
            values["small_blind"], values["big_blind"], values["ante"] = level.small_blind, level.big_blind, level.ante
        values["seats"] = self._seat_views(state, part, actor_user, names)
        values["hand_number"] = state.hand_number
        values["running"] = state.running
        values["message_id"] = state.message_id
        values["closed"] = state.closed
        if state.table.config.schedule is not None:
            values.update(level_view(state, now))
        if state.options.kind is TableKind.TOURNAMENT:
            values.update(_tournament_view(state))
        if actor_user is not None and state.time_banks.size > 0:
            values.update(_time_bank_view(state, actor_user))
        return new_snapshot(values, checked=False)

    def _fixed_values(self, state: TableState) -> dict[str, Any]:
        """Every field at its default, and those that come from the table's ids, options and language."""
        ids, options, language = key = (state.ids, state.options, state.language)
        last_key, fixed = self._fixed
        # By identity, written out (no generator: this runs at every build).
        if not last_key or ids is not last_key[0] or options is not last_key[1] or language is not last_key[2]:
            fixed = dict(_SNAPSHOT_DEFAULTS)
            fixed.update(
                table_id=ids.table_id,
                guild_id=ids.guild_id,
                channel_id=ids.channel_id,
                host_id=ids.host_id,
                kind=options.kind,
                language=language,
                max_seats=options.seats,
                betting=options.betting,
            )
            self._fixed = (key, fixed)
        return fixed

    def _player_names(self, state: TableState) -> tuple[str, ...]:
        """The display names of the hand's players by hand player index (`TableState.name`), remembered by the
        names stored for them and the table's language (a computer player's name is the language's)."""
        users = state.hand_users
        key = (state.language, users, tuple(map(state.names.get, users)))
        last_key, names = self._names
        if key != last_key:
            names = tuple(state.name(u) for u in users)
            self._names = (key, names)
        return names

    def _seat_views(
        self, state: TableState, part: _HandPart | None, actor_user: int | None, names: tuple[str, ...]
    ) -> tuple[SeatView, ...]:
        """The seat views in seat order. While the seats, their players and what is shown of them beside the hand
        (names, button, sitting out, leaving) stay as in the last build, only the views of the hand's players
        whose stack, bet, state, blind or turn changed are new (`_hand_seat_views`); otherwise every seat is
        looked at again, and a view whose fields are the last build's is that build's object."""
        occupants = tuple(state.table.seats.items())
        away, leaving, kicked, names_get = state.away, state.leaving, state.kicked, state.names.get
        key = (
            occupants,
            part.hand if part is not None else None,
            state.hand_users,
            names,
            state.table.button,
            frozenset(away) if away else None,
            frozenset(leaving | kicked) if leaving or kicked else None,
            state.options.learning,
            state.language,
            tuple([names_get(occupant.player_id) for _, occupant in occupants]),
        )
        last_key, views, players = self._seats_of
        if key == last_key:
            if part is None:
                return views
            return self._hand_seat_views(part, actor_user, views, players)
        button, users = state.table.button, state.hand_users
        first: dict[int, int] = {}
        for index, user in enumerate(users):
            first.setdefault(user, index)  # as `TableState.player_of`: the first index
        hole = part.hole_cards() if part is not None and state.options.learning else None
        previous, seats, indexes = self._seats, {}, []
        for seat, occupant in occupants:
            user = occupant.player_id
            player = first.get(user)
            if part is not None and player is not None:
                stack, bet, seat_state = part.stacks[player], part.bets[player], part.states[player]
                name, blind = names[player], part.blinds.get(player)
                cards = hole[player] if hole is not None else ()
            else:
                stack, bet, name, blind, cards = occupant.stack, 0, state.name(user), None, ()
                sitting_out = user in away or occupant.sitting_out
                seat_state = SeatState.SITTING_OUT if sitting_out else SeatState.WAITING
            fields = (
                seat,
                user,
                name,
                stack,
                bet,
                seat_state,
                seat == button,
                user == actor_user,
                user in leaving or user in kicked,
                player,
                blind,
                cards,
            )
            view = previous.get(fields)
            if view is None:
                view = new_seat_view(dict(zip(_SEAT_FIELDS, fields, strict=True)))
            seats[fields] = view
            indexes.append(player if part is not None else None)
        self._seats = seats
        views = tuple(seats.values())
        self._seats_of = (key, views, tuple(indexes))
        return views

    def _hand_seat_views(
        self, part: _HandPart, actor_user: int | None, views: tuple[SeatView, ...], players: tuple[int | None, ...]
    ) -> tuple[SeatView, ...]:
        """The last build's views with the hand's new stacks, bets, states, blinds and turn (see `_seat_views`)."""
        stacks, bets, states, blinds = part.stacks, part.bets, part.states, part.blinds
        fresh: list[SeatView] = []
        changed = False
        for view, player in zip(views, players, strict=True):
            if player is not None:
                stack, bet, seat_state, blind = stacks[player], bets[player], states[player], blinds.get(player)
                is_actor = view.user_id == actor_user
                if (
                    view.stack != stack
                    or view.bet != bet
                    or view.state is not seat_state
                    or view.blind != blind
                    or view.is_actor is not is_actor
                ):
                    fields = dict(view.__dict__)
                    fields.update(stack=stack, bet=bet, state=seat_state, blind=blind, is_actor=is_actor)
                    view = new_seat_view(fields)
                    changed = True
            fresh.append(view)
        if not changed:
            return views
        result = tuple(fresh)
        self._seats_of = (self._seats_of[0], result, players)
        self._seats = {}  # the views by fields are the slow path's: it looks at every seat again
        return result


#: Every field of `TableSnapshot` at its default (each has one), for `new_snapshot`.
_SNAPSHOT_DEFAULTS: dict[str, Any] = {f.name: f.default for f in dataclasses.fields(TableSnapshot)}


#: The fields of `SeatView`, in the order `Snapshots._seat_views` lists them.
_SEAT_FIELDS: tuple[str, ...] = ("seat", "user_id", "name", "stack", "bet", "state", "is_button", "is_actor")
_SEAT_FIELDS += ("leaving", "player", "blind", "cards")


def new_seat_view(fields: dict[str, Any]) -> SeatView:
    """`SeatView(**fields)` for a dict of every one of its fields, as `new_snapshot` makes a snapshot (the dict
    becomes the object's `__dict__`; tests/tables/test_snapshots.py pins the class's shape)."""
    view = object.__new__(SeatView)
    object.__setattr__(view, "__dict__", fields)
    return view


def new_snapshot(values: dict[str, Any], *, checked: bool = True) -> TableSnapshot:
    """`TableSnapshot(**values)`, the same immutable object, without the frozen dataclass's generated `__init__`
    (one `object.__setattr__` per field: most of a build's time): the fields are set in the new object's
    `__dict__`. Valid while `TableSnapshot` is a frozen dataclass without slots, `__post_init__` or default
    factories (tests/tables/test_snapshots.py checks it, and that a built snapshot equals the constructor's).
    `checked=False`: `values` is a new dict holding every field already (a build's), which becomes the object's
    `__dict__` as it is (the caller keeps no reference to it)."""
    picture = object.__new__(TableSnapshot)
    if checked:
        assert values.keys() <= _SNAPSHOT_DEFAULTS.keys(), sorted(values.keys() - _SNAPSHOT_DEFAULTS.keys())
        values = {**_SNAPSHOT_DEFAULTS, **values}
    object.__setattr__(picture, "__dict__", values)
    return picture


def _time_bank_view(state: TableState, actor_user: int | None) -> dict[str, Any]:
    """The actor's time bank (issue 16): what is left while it can be started, or that it runs."""
    banks = state.time_banks
    if actor_user is None or banks.size <= 0:
        return {}
    if banks.running is not None:
        return {"time_bank_running": banks.running.user_id == actor_user}
    left = banks.left(actor_user)
    return {"time_bank": left} if left > 0 else {}


def _level_index(state: TableState, now: float) -> int | None:
    """The schedule index of the level in force: the hand being played's (or, closed, the last played's),
    else the next hand's; None without a schedule."""
    schedule = state.table.config.schedule
    if schedule is None:
        return None
    if state.hand is not None or state.closed:
        return state.hand_level
    return schedule.level_index(state.table.hands_played, state.level_clock(now))


def level_view(state: TableState, now: float) -> dict[str, Any]:
    """The snapshot's level fields (issue 11 item 4): level number, the next level and when it starts."""
    schedule = state.table.config.schedule
    index = _level_index(state, now)
    if schedule is None or index is None:
        return {}
    view: dict[str, Any] = {"level": index + 1, "level_by": schedule.by}
    if index + 1 < len(schedule.levels) and not state.closed:
        nxt = schedule.levels[index + 1]
        view["next_level"] = (nxt.small_blind, nxt.big_blind, nxt.ante)
        view["next_level_in"] = _next_level_in(state, index, now)
    return view


def _next_level_in(state: TableState, index: int, now: float) -> int:
    """Hands to be dealt before level `index + 1` starts (the one being played counts), or whole minutes."""
    schedule = state.table.config.schedule
    assert schedule is not None
    if schedule.by is LevelBy.HANDS:
        played = state.table.hands_played - (1 if state.hand is not None else 0)
        return max((index + 1) * schedule.length - played, 1)
    seconds = (index + 1) * schedule.length * 60 - state.level_clock(now)
    return max(int(-(-seconds // 60)), 1)


def _tournament_view(state: TableState) -> dict[str, Any]:
    """A tournament's players left (with chips) and their average stack. During a hand the seats keep their
    stacks from its start (the chips in play are the same: a hand moves chips only between its players)."""
    if state.options.kind is not TableKind.TOURNAMENT:
        return {}
    alive = [occupant.stack for occupant in state.table.seats.values() if occupant.stack > 0]
    if not alive:
        return {"players_left": 0}
    return {"players_left": len(alive), "average_stack": sum(alive) // len(alive)}


def _waiting_for(state: TableState) -> Waiting | None:
    """Between hands: what the table waits for before it can deal (see `TableSnapshot.waiting`)."""
    with_chips = [occupant for occupant in state.table.seats.values() if occupant.stack > 0]
    if len(with_chips) < 2:
        return Waiting.SECOND_PLAYER if with_chips else Waiting.PLAYERS
    active = len(state.table.active_seats())  # not can_start_hand(): False too while a hand is being dealt
    if active < 2:
        return Waiting.OTHERS_SITTING_OUT if active else Waiting.SITTING_IN
    return None if state.running else Waiting.START
