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

from bot.poker import BlindPosted, Event, Hand, HoleCardsDealt, LevelBy, Street, TableKind
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
class _HandEvents:
    """What the snapshots of one hand have read of its events (append-only, `Hand.events_since`): how many, the
    public ones (no HoleCardsDealt; the last `RECENT_EVENTS` are shown) and the blind each player posted."""

    hand: Hand
    seen: int = 0
    public: list[Event] = field(default_factory=list)
    blinds: dict[int, str] = field(default_factory=dict)

    def read(self) -> None:
        """Read the events added since the last call."""
        hand = self.hand
        for event in hand.events_since(self.seen):
            if isinstance(event, HoleCardsDealt):
                continue
            self.public.append(event)
            if isinstance(event, BlindPosted) and event.kind in _MARKED_BLINDS:
                self.blinds[event.player] = event.kind
        self.seen = hand.event_count
        if len(self.public) > 2 * RECENT_EVENTS:
            del self.public[:-RECENT_EVENTS]


class Snapshots:
    """The public pictures of one table (see the module docstring), owned by its `TableCore`.

    `current(now)` hands out the picture of the state's `version`: built once, then the same immutable object to
    every reader until the version moves on (a table whose picture depends on the clock, `depends_on_time`, is
    also keyed by `now`). While a change is being computed (the state is not `settled`) it always builds and
    remembers nothing: a picture of a half-made change is the caller's alone (an announcement the change owes).
    `built` counts the pictures built (tests and benchmarks)."""

    def __init__(self, state: TableState) -> None:
        self._state = state
        self._key: tuple[int, float | None] | None = None
        self._last: TableSnapshot | None = None
        self._events: _HandEvents | None = None
        self._seats: dict[tuple[Any, ...], SeatView] = {}  # the seat views of the last build, by their fields
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
        """A picture of the table at clock time `now`, built from the state (only the seat views that changed
        since the last build are new objects)."""
        self.built += 1
        state = self._state
        hand = state.hand
        users = state.hand_users
        actor_user = None
        legal = None
        blinds: dict[int, str] = {}
        public: list[Event] = []
        if hand is not None:
            events = self._events
            if events is None or events.hand is not hand:
                events = self._events = _HandEvents(hand)
            events.read()
            blinds, public = events.blinds, events.public
            if hand.actor is not None:
                actor_user = users[hand.actor]
                legal = hand.legal_actions()
            names = tuple(state.name(u) for u in users)
            players: dict[int, int] = {}
            for index, user in enumerate(users):
                players.setdefault(user, index)  # as `TableState.player_of`: the first index
            stacks, bets, folded, all_in = hand.stacks, hand.bets, hand.folded, hand.all_in
            hole = hand.hole_cards if state.options.learning else None
        else:
            self._events = None
            names, players = (), {}
        button = state.table.button
        away, leaving, kicked = state.away, state.leaving, state.kicked
        previous, seats = self._seats, {}
        for seat, occupant in state.table.seats.items():
            user = occupant.player_id
            player = players.get(user)
            if hand is not None and player is not None:
                stack, bet, name = stacks[player], bets[player], names[player]
                if folded[player]:
                    seat_state = SeatState.FOLDED
                elif all_in[player]:
                    seat_state = SeatState.ALL_IN
                else:
                    seat_state = SeatState.ACTIVE
                blind = blinds.get(player)
                cards = tuple(hole[player]) if hole is not None else ()
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
                view = SeatView(
                    seat=seat,
                    user_id=user,
                    name=name,
                    stack=stack,
                    bet=bet,
                    state=seat_state,
                    is_button=fields[6],
                    is_actor=fields[7],
                    leaving=fields[8],
                    player=player,
                    blind=blind,
                    cards=cards,
                )
            seats[fields] = view
        self._seats = seats
        if hand is not None:
            settings = hand.settings
            small, big, ante = settings.small_blind, settings.big_blind, settings.ante
            recent = tuple(public[-RECENT_EVENTS:])
            street = hand.street if not hand.is_complete else Street.COMPLETE
            pots = hand.pots()
            board = hand.board
            pending = tuple(users[p] for p in hand.run_twice_pending)
        else:  # between hands: the blinds the next hand will use (once closed: the last hand's)
            schedule = state.table.config.schedule
            if state.closed and schedule is not None and state.hand_level is not None:
                level = schedule.levels[state.hand_level]
            else:
                level = state.table.current_level(state.level_clock(now))
            small, big, ante = level.small_blind, level.big_blind, level.ante
            recent, street, pots, board, pending = (), None, (), (), ()
        ids = state.ids
        values: dict[str, Any] = {
            "table_id": ids.table_id,
            "guild_id": ids.guild_id,
            "channel_id": ids.channel_id,
            "host_id": ids.host_id,
            "kind": state.options.kind,
            "language": state.language,
            "hand_number": state.hand_number,
            "small_blind": small,
            "big_blind": big,
            "ante": ante,
            "seats": tuple(seats.values()),
            "board": board,
            "pots": pots,
            "street": street,
            "actor_user_id": actor_user,
            "deadline": state.deadline if actor_user is not None or pending else None,
            "legal": legal,
            "names": names,
            "events": recent,
            "running": state.running,
            "max_seats": state.options.seats,
            "message_id": state.message_id,
            "next_hand_at": state.next_hand_at if hand is None and not state.closed else None,
            "closed": state.closed,
            "waiting": _waiting_for(state) if hand is None and not state.closed else None,
            "run_twice_pending": pending,
            "betting": state.options.betting,
            "seal": state.seal.fingerprint() if hand is not None and state.seal is not None else None,
        }
        values.update(level_view(state, now))
        values.update(_tournament_view(state))
        values.update(_time_bank_view(state, actor_user))
        return new_snapshot(values)


#: Every field of `TableSnapshot` at its default (each has one), for `new_snapshot`.
_SNAPSHOT_DEFAULTS: dict[str, Any] = {f.name: f.default for f in dataclasses.fields(TableSnapshot)}


def new_snapshot(values: dict[str, Any]) -> TableSnapshot:
    """`TableSnapshot(**values)`, the same immutable object, without the frozen dataclass's generated `__init__`
    (one `object.__setattr__` per field: most of a build's time): the fields are set in the new object's
    `__dict__`. Valid while `TableSnapshot` is a frozen dataclass without slots, `__post_init__` or default
    factories (tests/tables/test_snapshots.py checks it, and that a built snapshot equals the constructor's)."""
    assert values.keys() <= _SNAPSHOT_DEFAULTS.keys(), sorted(values.keys() - _SNAPSHOT_DEFAULTS.keys())
    picture = object.__new__(TableSnapshot)
    fields = picture.__dict__
    fields.update(_SNAPSHOT_DEFAULTS)
    fields.update(values)
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
