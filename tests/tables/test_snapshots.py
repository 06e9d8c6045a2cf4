"""The table's public picture (bot/tables/snapshot.py): one picture per version of the state, handed to every reader
of that version, and never a picture of an older version after a change (docs/architecture.md, "Table
orchestration", the snapshots' contract)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.poker import ActionKind, LevelBy, TableKind
from bot.poker.players import Level
from bot.render.table import SeatView, TableSnapshot
from bot.storage import Storage
from bot.tables import ManualClock, RecordingNotifier, TableOptions, TableService
from bot.tables.clock import settle
from bot.tables.computer_names import computer_id
from bot.tables.snapshot import Snapshots, new_seat_view, new_snapshot, snapshot
from bot.tables.state import TableIds, TableState

from .conftest import ALICE, BOB, CHANNEL, CHLOE, GUILD, HOST, NAMES, Decks, actor

NOW = 1_800_000_000.0


def seated_state(options: TableOptions | None = None) -> TableState:
    """A table of Alice, Bob and Chloé (100 chips each), between hands."""
    state = TableState(TableIds(1, GUILD, CHANNEL, HOST), options or TableOptions.for_blinds(1, 2))
    with state.changing():
        for seat, user in enumerate((ALICE, BOB, CHLOE), start=1):
            state.table.sit(seat, user, 100)
            state.names[user] = NAMES[user]
    return state


def deal(state: TableState) -> None:
    """Deal a hand, as `Hands.start_hand` does (inside a change)."""
    hand = state.table.start_hand()
    seats = tuple(state.table.hand_seats)
    state.hand, state.hand_number = hand, state.hand_number + 1
    state.hand_seats, state.hand_users = seats, tuple(state.table.seats[s].player_id for s in seats)


def act(state: TableState) -> None:
    """The player to act calls or checks (the engine's hand changes in place)."""
    hand = state.hand
    assert hand is not None
    hand.act(ActionKind.CHECK if hand.can_check() else ActionKind.CALL)


def test_a_built_picture_is_the_constructors_picture() -> None:
    # `new_snapshot` sets the fields of a frozen dataclass without its __init__: valid only for this shape of class.
    assert dataclasses.is_dataclass(TableSnapshot) and TableSnapshot.__dataclass_params__.frozen  # type: ignore[attr-defined]
    assert not hasattr(TableSnapshot, "__slots__") and not hasattr(TableSnapshot, "__post_init__")
    for f in dataclasses.fields(TableSnapshot):
        assert f.default is not dataclasses.MISSING and f.default_factory is dataclasses.MISSING, f.name
    state = seated_state()
    with state.changing():
        deal(state)
        act(state)
    for picture in (snapshot(state, NOW), snapshot(seated_state(), NOW)):
        fields = {f.name: getattr(picture, f.name) for f in dataclasses.fields(TableSnapshot)}
        assert picture == TableSnapshot(**fields)
        assert new_snapshot(fields) == TableSnapshot(**fields)
        with pytest.raises(dataclasses.FrozenInstanceError):
            picture.hand_number = 9  # type: ignore[misc]
    assert new_snapshot({}) == TableSnapshot()
    with pytest.raises(AssertionError):
        new_snapshot({"no_such_field": 1})
    assert snapshot(state, NOW).__dict__.keys() == {f.name for f in dataclasses.fields(TableSnapshot)}


def test_a_built_seat_view_is_the_constructors_seat_view() -> None:
    # `new_seat_view` sets the fields of a frozen dataclass without its __init__, as `new_snapshot` does.
    assert dataclasses.is_dataclass(SeatView) and SeatView.__dataclass_params__.frozen  # type: ignore[attr-defined]
    assert not hasattr(SeatView, "__slots__") and not hasattr(SeatView, "__post_init__")
    state = seated_state()
    with state.changing():
        deal(state)
    for view in snapshot(state, NOW).seats:
        fields = {f.name: getattr(view, f.name) for f in dataclasses.fields(SeatView)}
        assert view.__dict__ == fields and new_seat_view(dict(fields)) == SeatView(**fields) == view
        with pytest.raises(dataclasses.FrozenInstanceError):
            view.stack = 9  # type: ignore[misc]


def changes() -> list[tuple[str, Callable[[TableState], None], bool]]:
    """(what, the change, made inside a change block) — every way the state changes."""

    def in_place_with_touch(state: TableState) -> None:
        state.names[ALICE] = "Alice B."
        state.touch()

    def stand(state: TableState) -> None:
        state.table.stand(3)

    return [
        ("the delivery worker stores the message id", lambda s: setattr(s, "message_id", 555), False),
        ("the language", lambda s: setattr(s, "language", "fr"), False),
        ("a set changed in place, said by touch", lambda s: (s.away.add(BOB), s.touch()) and None, False),
        ("a dict changed in place, said by touch", in_place_with_touch, False),
        ("a seat left (the engine's table in place)", stand, True),
        ("a player sat out (a set in place)", lambda s: s.away.add(ALICE), True),
        ("a hand dealt", deal, True),
        ("an action (the engine's hand in place)", act, True),
        ("another action", act, True),
        ("the turn's deadline", lambda s: setattr(s, "deadline", NOW + 30), False),
        ("a leaver", lambda s: s.leaving.add(BOB), True),
    ]


def test_every_reader_of_a_version_gets_one_picture_and_none_after_a_change() -> None:
    state = seated_state()
    pictures = Snapshots(state)
    last = pictures.current(NOW)
    assert pictures.current(NOW) is last and pictures.built == 1  # one build for every reader of the version
    for what, change, inside in changes():
        if inside:
            with state.changing():
                change(state)
        else:
            change(state)
        served = pictures.current(NOW)
        assert served is not last, what
        assert served == snapshot(state, NOW), what  # what a fresh build shows: never an older version
        assert pictures.current(NOW) is served, what
        last = served
    assert pictures.built == 1 + len(changes())


def test_a_picture_taken_while_a_change_is_made_is_remembered_by_nobody() -> None:
    state = seated_state()
    pictures = Snapshots(state)
    before = pictures.current(NOW)
    with state.changing():
        deal(state)
        during = pictures.current(NOW)
        assert during.hand_number == 1 and pictures.current(NOW) is not during
        act(state)
    after = pictures.current(NOW)
    assert after is not during and after is not before
    assert after == snapshot(state, NOW) and after.events != during.events


def test_a_picture_of_a_schedule_by_minutes_moves_with_the_clock() -> None:
    options = TableOptions.for_blinds(
        1, 2, kind=TableKind.TOURNAMENT, blind_levels=((1, 2, 0), (2, 4, 0)), level_by=LevelBy.MINUTES, level_length=5
    )
    state = seated_state(options)
    state.started_at = NOW
    pictures = Snapshots(state)
    first = pictures.current(NOW)
    assert pictures.current(NOW) is first and first.next_level_in == 5
    later = pictures.current(NOW + 121)
    assert later.next_level_in == 3 and later == snapshot(state, NOW + 121)
    assert pictures.current(NOW + 301).big_blind == 4


async def test_the_table_edit_and_every_read_after_an_action_share_its_picture(
    service: TableService, notifier: RecordingNotifier
) -> None:
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    runner = service.get(CHANNEL)
    for user in (ALICE, BOB, CHLOE):
        await runner.join(user, NAMES[user], buy_in=100)
    await runner.start_game(ALICE)
    await runner.drain()
    before = runner.snapshot()
    assert before.message_id == notifier.live_message_id  # stored by the delivery worker, outside any change
    first = actor(service)
    assert first is not None
    await runner.act(first, ActionKind.CALL)
    await runner.drain()
    served = runner.snapshot()
    assert served is notifier.edits[-1]  # the action's table edit and the reads after it: one picture
    assert runner.snapshot() is served and served is not before
    assert served.actor_user_id != first and before.actor_user_id == first


class GatedStorage:
    """The real storage, except that `append_action` (a hand action's write-ahead) waits for `gate`."""

    def __init__(self, storage: Storage) -> None:
        self._storage = storage
        self.gate = asyncio.Event()
        self.waiting = asyncio.Event()

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._storage, name)
        if name != "append_action":
            return attr

        async def append_action(*args: Any, **kwargs: Any) -> Any:
            self.waiting.set()
            await self.gate.wait()
            return await attr(*args, **kwargs)

        return append_action


async def test_a_picture_read_while_an_action_is_stored_is_not_served_after_it(
    storage: Storage, clock: ManualClock
) -> None:
    gated = GatedStorage(storage)
    service = TableService(gated, RecordingNotifier(), clock=clock, rng_factory=Decks())  # type: ignore[arg-type]
    try:
        await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
        runner = service.get(CHANNEL)
        for user in (ALICE, BOB, CHLOE):
            await runner.join(user, NAMES[user], buy_in=100)
        await runner.start_game(ALICE)
        first = actor(service)
        assert first is not None
        acting = asyncio.create_task(runner.act(first, ActionKind.CALL))
        await gated.waiting.wait()
        during = runner.snapshot()  # lock-free, while the action's write is in flight
        assert during.actor_user_id == first and runner.snapshot() is not during
        gated.gate.set()
        await acting
        after = runner.snapshot()
        assert after is not during and after.actor_user_id != first
        await settle()
    finally:
        gated.gate.set()
        await service.close()


#: What `test_pictures_reused_from_build_to_build_are_always_a_fresh_builds` does to the table, at random.
_STEPS = ("act", "act", "act", "act", "fold", "all_in", "away", "back", "leave", "rename", "message", "language")


def _step(state: TableState, step: str, turn: int) -> None:
    """One change of `step`'s kind (inside a change block): the engine's hand and table, the sets and the names
    changed in place, as the service's collaborators change them."""
    hand = state.hand
    users = [o.player_id for o in state.table.seats.values()]
    user = users[turn % len(users)]
    if step in ("act", "fold", "all_in") and (hand is None or hand.is_complete):
        if hand is not None:
            state.table.end_hand(hand)
            state.clear_hand()
        elif state.table.can_start_hand():
            deal(state)
    elif step in ("fold", "all_in") and hand is not None and hand.actor is not None:
        if step == "fold" and hand.can_fold():
            hand.act(ActionKind.FOLD)
        elif hand.can_all_in():
            hand.act(ActionKind.ALL_IN)
        else:  # an all-in that raises with no one left to raise it is refused (no_one_to_raise): act as usual
            act(state)
    elif step == "act" and hand is not None and hand.actor is not None:
        act(state)
    elif step == "away":
        state.away.add(user)
    elif step == "back":
        state.away.discard(user)
    elif step == "leave":
        state.leaving.add(user)
    elif step == "rename":
        state.names[user] = f"{state.names.get(user, user)}'"
    elif step == "message":
        state.message_id = turn
    elif step == "language":
        state.language = "fr" if state.language == "en" else "en"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    steps=st.lists(st.sampled_from(_STEPS), min_size=1, max_size=80),
    learning=st.booleans(),
    mid_change=st.lists(st.booleans(), min_size=80, max_size=80),
)
def test_pictures_reused_from_build_to_build_are_always_a_fresh_builds(
    steps: list[str], learning: bool, mid_change: list[bool]
) -> None:
    # A build reuses the last build's parts (the hand's, the names, the seat views): whatever the table went
    # through, the picture is the one a build from nothing makes, mid-change or settled.
    kind = TableKind.TOURNAMENT if learning else TableKind.CASH
    state = seated_state(TableOptions.for_blinds(1, 2, kind=kind, learning=learning))
    with state.changing():
        state.table.sit(4, computer_id(Level.SOLID, 4), 100)  # its name is the table language's
    pictures = Snapshots(state)
    for turn, step in enumerate(steps):
        with state.changing():
            _step(state, step, turn)
            if mid_change[turn]:
                assert pictures.current(NOW) == snapshot(state, NOW), (turn, step)
        served = pictures.current(NOW)
        assert served == snapshot(state, NOW), (turn, step)
        assert served.seats == snapshot(state, NOW).seats and pictures.current(NOW) is served


def test_a_change_block_is_unsettled_inside_and_settled_after_even_when_it_raises_with_a_new_version_at_each_end() -> (
    None
):
    state = seated_state()
    pictures = Snapshots(state)
    before = pictures.current(NOW)
    versions = [state.version]
    with pytest.raises(ValueError), state.changing():
        versions.append(state.version)
        with state.changing():  # nested: still unsettled once the inner block is left
            pass
        assert not state.settled and pictures.current(NOW) is not before
        raise ValueError
    versions.append(state.version)
    assert state.settled and versions == sorted(set(versions)) and len(versions) == 3
    assert pictures.current(NOW) is not before  # a picture of the version after the block
