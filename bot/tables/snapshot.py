"""The public picture of a table (`TableSnapshot`), built from its state: what the table message shows.

Pure: reads a `TableState` and the time, changes nothing, holds no hole card (docs/architecture.md, "Table
orchestration").
"""

from __future__ import annotations

from typing import Any

from bot.poker import BlindPosted, HoleCardsDealt, LevelBy, Street, TableKind
from bot.render.table import SeatState, Waiting
from bot.tables.notifier import SeatView, TableSnapshot
from bot.tables.state import TableState

#: Public events kept in the snapshot for "last actions".
RECENT_EVENTS = 40


def snapshot(state: TableState, now: float) -> TableSnapshot:
    """A public picture of the table at clock time `now` (no hole cards)."""
    hand = state.hand
    seats: list[SeatView] = []
    actor_user = None
    legal = None
    if hand is not None and hand.actor is not None:
        actor_user = state.hand_users[hand.actor]
        legal = hand.legal_actions()
    blinds = {
        e.player: e.kind
        for e in (hand.events if hand is not None else ())
        if isinstance(e, BlindPosted) and e.kind in ("small_blind", "big_blind")
    }
    for seat, occupant in sorted(state.table.seats.items()):
        user = occupant.player_id
        player = state.player_of(user)
        bet = 0
        stack = occupant.stack
        if hand is not None and player is not None:
            stack = hand.stacks[player]
            bet = hand.bets[player]
            if hand.folded[player]:
                seat_state = SeatState.FOLDED
            elif hand.all_in[player]:
                seat_state = SeatState.ALL_IN
            else:
                seat_state = SeatState.ACTIVE
        elif user in state.away or occupant.sitting_out:
            seat_state = SeatState.SITTING_OUT
        else:
            seat_state = SeatState.WAITING
        seats.append(
            SeatView(
                seat=seat,
                user_id=user,
                name=state.name(user),
                stack=stack,
                bet=bet,
                state=seat_state,
                is_button=seat == state.table.button,
                is_actor=user == actor_user,
                leaving=user in state.leaving or user in state.kicked,
                player=player,
                blind=blinds.get(player) if player is not None else None,
                cards=tuple(hand.hole_cards[player]) if state.options.learning and hand and player is not None else (),
            )
        )
    if hand is not None:
        settings = hand.settings
        small, big, ante = settings.small_blind, settings.big_blind, settings.ante
        events = tuple(e for e in hand.events if not isinstance(e, HoleCardsDealt))[-RECENT_EVENTS:]
        names = tuple(state.name(u) for u in state.hand_users)
        street = hand.street if not hand.is_complete else Street.COMPLETE
        pots = hand.pots()
        board = hand.board
    else:  # between hands: the blinds the next hand will use (once closed: the last hand's)
        schedule = state.table.config.schedule
        if state.closed and schedule is not None and state.hand_level is not None:
            level = schedule.levels[state.hand_level]
        else:
            level = state.table.current_level(state.level_clock(now))
        small, big, ante = level.small_blind, level.big_blind, level.ante
        events, names, street, pots, board = (), (), None, (), ()
    pending = tuple(state.hand_users[p] for p in hand.run_twice_pending) if hand is not None else ()
    ids = state.ids
    return TableSnapshot(
        table_id=ids.table_id,
        guild_id=ids.guild_id,
        channel_id=ids.channel_id,
        host_id=ids.host_id,
        kind=state.options.kind,
        language=state.language,
        hand_number=state.hand_number,
        small_blind=small,
        big_blind=big,
        ante=ante,
        seats=tuple(seats),
        board=tuple(board),
        pots=tuple(pots),
        street=street,
        actor_user_id=actor_user,
        deadline=state.deadline if actor_user is not None or pending else None,
        legal=legal,
        names=names,
        events=events,
        running=state.running,
        max_seats=state.options.seats,
        message_id=state.message_id,
        next_hand_at=state.next_hand_at if hand is None and not state.closed else None,
        closed=state.closed,
        **level_view(state, now),
        **_tournament_view(state),
        waiting=_waiting_for(state) if hand is None and not state.closed else None,
        run_twice_pending=pending,
        betting=state.options.betting,
        **_time_bank_view(state, actor_user),
        seal=state.seal.fingerprint() if hand is not None and state.seal is not None else None,
    )


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
