"""Restart mid-hand: a new service over the same database resumes the hand exactly (docs/architecture.md, "The hand is
its history"), and a tournament is played to its end with places recorded."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.poker import ActionKind
from bot.storage import Storage
from bot.tables import (
    ManualClock,
    PlayerAnnouncement,
    RecordingNotifier,
    TableClosedAnnouncement,
    TableOptions,
    TableService,
)
from bot.tables.clock import settle
from tests.tables.conftest import (
    ALICE,
    BOB,
    CHANNEL,
    CHLOE,
    DAVID,
    DEFAULTS,
    GUILD,
    HOST,
    NAMES,
    Decks,
    actor,
    deck_for,
)


def picture(service: TableService) -> tuple:
    snap = service.get(CHANNEL).snapshot()
    return (
        snap.hand_number,
        tuple((s.seat, s.user_id, s.stack, s.bet, s.state, s.is_button) for s in snap.seats),
        snap.board,
        snap.pots,
        snap.actor_user_id,
        snap.legal,
    )


@pytest.mark.parametrize("actions_before_restart", [0, 1, 3, 5])
async def test_restart_mid_hand_resumes_the_same_hand(
    db_path: Path, clock: ManualClock, actions_before_restart: int
) -> None:
    storage = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    service = TableService(storage, RecordingNotifier(), clock=clock, rng_factory=Decks())
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    for user in (ALICE, BOB, CHLOE):
        await service.get(CHANNEL).join(user, NAMES[user])
    await service.get(CHANNEL).start_game(ALICE)
    script = [(ActionKind.RAISE, 6), (ActionKind.CALL, None), (ActionKind.CALL, None)]
    done = 0
    for kind, amount in script[:actions_before_restart]:
        await service.get(CHANNEL).act(actor(service), kind, amount)
        done += 1
    while done < actions_before_restart:  # on the flop: check around
        await service.get(CHANNEL).act(actor(service), ActionKind.CHECK)
        done += 1
    before = picture(service)
    hole_before = {u: service.get(CHANNEL).hole_cards(u) for u in (ALICE, BOB, CHLOE)}
    # the process dies: no clean shutdown of the service, the database file is all that is left
    await service.close()
    await storage.close()

    storage2 = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    notifier2 = RecordingNotifier()
    service2 = TableService(storage2, notifier2, clock=clock, rng_factory=Decks())
    assert await service2.restore() == 1
    assert picture(service2) == before
    assert {u: service2.get(CHANNEL).hole_cards(u) for u in (ALICE, BOB, CHLOE)} == hole_before
    await service2.get(CHANNEL).drain()
    assert notifier2.edits or notifier2.posted  # the table message is refreshed
    # the deadline is restored with a grace period, and the hand can be finished
    runner = service2.get(CHANNEL)
    assert runner.view().deadline is not None and runner.view().deadline >= clock.time() + 10
    for _ in range(30):
        snap = service2.get(CHANNEL).snapshot()
        if snap.actor_user_id is None:
            break
        kind = ActionKind.CHECK if snap.legal.can_check else ActionKind.CALL
        await service2.get(CHANNEL).act(snap.actor_user_id, kind)
    assert service2.get(CHANNEL).snapshot().street is None
    assert (await storage2.audit(GUILD)).ok
    table = await storage2.table_for_channel(CHANNEL)
    assert sum(s.stack for s in table.seats) == 300
    await settle()
    await service2.close()
    await storage2.close()


async def test_a_tournament_is_played_to_the_end_with_places(
    service: TableService, storage: Storage, notifier: RecordingNotifier, clock: ManualClock
) -> None:
    options = TableOptions.for_blinds(1, 2, kind="tournament", starting_stack=100)
    await service.create_table(GUILD, CHANNEL, HOST, options)
    for user in (ALICE, BOB, CHLOE, DAVID):
        await service.get(CHANNEL).join(user, NAMES[user])
    assert await storage.balance(GUILD, ALICE) == 1000  # tournament chips are not balance chips
    await service.get(CHANNEL).start_game(HOST)
    with pytest.raises(Exception) as info:
        await service.get(CHANNEL).join(HOST, "Host")
    assert getattr(info.value, "code", None) == "tournament_started"
    last = service.get(CHANNEL)
    for _ in range(400):
        runner = service.runners.get(CHANNEL)
        if runner is None:
            break
        last = runner
        snap = runner.snapshot()
        if snap.actor_user_id is None:
            await clock.advance(runner.view().options.next_hand_delay + 0.1)
            continue
        await service.get(CHANNEL).act(snap.actor_user_id, ActionKind.ALL_IN)
    assert CHANNEL not in service.runners, "the tournament should have ended"
    await last.drain()  # the closed table's outbox delivers what was queued (settle() does not wait for it)
    closed = [a for a in notifier.announcements if isinstance(a, TableClosedAnnouncement)]
    assert len(closed) == 1 and closed[0].tournament_over
    places = await storage.places((await storage.table(1)).id)
    # Each bust's place by the card-room rule, from the stored hands: players left with chips + 1 + those who
    # busted in the same hand with a bigger starting stack (equal starting stacks share the place).
    expected: dict[int, int] = {}
    for stored in sorted(await storage.hands_for_table(1, limit=400), key=lambda h: h.number):
        out = [p for p in stored.players if p.final_stack == 0]
        left = 4 - len(expected) - len(out)
        for p in out:
            expected[p.user_id] = left + 1 + sum(1 for q in out if q.starting_stack > p.starting_stack)
    assert len(expected) == 3
    assert {u: p for u, p in places.items() if p != 1} == expected
    eliminated = [a for a in notifier.announcements if isinstance(a, PlayerAnnouncement) and a.kind == "eliminated"]
    assert sorted((a.user_id, a.place) for a in eliminated) == sorted(expected.items())
    winner = next(u for u, p in places.items() if p == 1)
    assert closed[0].placings[0][:2] == (1, winner)
    assert closed[0].placings[0][3] == 400
    assert (await storage.audit(GUILD)).ok


async def test_leaving_a_started_tournament_takes_the_worst_place_and_the_last_player_wins(
    service: TableService, storage: Storage, notifier: RecordingNotifier
) -> None:
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2, kind="tournament"))
    for user in (ALICE, BOB, CHLOE):
        await service.get(CHANNEL).join(user, NAMES[user])
    await service.get(CHANNEL).start_game(HOST)
    runner = service.get(CHANNEL)
    await service.get(CHANNEL).act(actor(service), ActionKind.FOLD)
    await service.get(CHANNEL).act(actor(service), ActionKind.FOLD)  # hand 1 over, the next one not dealt yet
    leaver = ALICE
    assert await service.get(CHANNEL).leave(leaver) is True
    assert (await storage.places(1)) == {leaver: 3}
    runner = service.get(CHANNEL)
    assert await service.get(CHANNEL).kick(HOST, BOB, is_admin=False) is True
    assert CHANNEL not in service.runners  # one player left: the tournament is over
    assert (await storage.places(1)) == {ALICE: 3, BOB: 2, CHLOE: 1}
    await runner.drain()
    closed = [a for a in notifier.announcements if isinstance(a, TableClosedAnnouncement)]
    assert len(closed) == 1 and closed[0].tournament_over


class StopsAtCashOut:
    """The real storage, except that a `cash_out` never returns: the process "dies" right after a hand's end was
    stored and before the busted player's seat is freed (`reached` is set when it gets there)."""

    def __init__(self, storage: Storage) -> None:
        self._storage = storage
        self.reached = asyncio.Event()

    def __getattr__(self, name: str) -> object:
        return getattr(self._storage, name)

    async def cash_out(self, *args: object, **kwargs: object) -> None:
        self.reached.set()
        await asyncio.Event().wait()


async def test_a_crash_between_a_hands_end_and_freeing_the_busted_seat_is_finished_at_the_restart(
    db_path: Path, clock: ManualClock
) -> None:
    """Issue 12 (nothing stored that is never told): the busted cash player is unseated with their notice (and its
    Buy in again button) after the restart, not left seated with no chips until some later hand ends."""
    storage = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    decks = Decks()
    # Player 0 (small blind) has aces, player 1 (big blind) loses everything to them; the button folds.
    decks.queue.append(deck_for(["AsAh", "7c2d", "8c3d"], "KsKdQh5s6h"))
    stopping = StopsAtCashOut(storage)
    service = TableService(stopping, RecordingNotifier(), clock=clock, rng_factory=decks)  # type: ignore[arg-type]
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    for user in (ALICE, BOB, CHLOE):
        await service.get(CHANNEL).join(user, NAMES[user])
    await service.get(CHANNEL).start_game(ALICE)
    runner = service.get(CHANNEL)
    small, big, button = runner.view().hand_users
    await service.get(CHANNEL).act(button, ActionKind.FOLD)
    await service.get(CHANNEL).act(small, ActionKind.ALL_IN)
    last = asyncio.create_task(service.get(CHANNEL).act(big, ActionKind.CALL))
    await asyncio.wait_for(stopping.reached.wait(), 5)
    ended = (await storage.hands_for_table(runner.ids.table_id, limit=1))[0]
    assert ended.ended_at is not None  # the hand's end is stored; the busted seat is not freed yet
    assert {s.user_id: s.stack for s in (await storage.table(runner.ids.table_id)).seats}[big] == 0

    storage2 = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    notifier2 = RecordingNotifier()
    service2 = TableService(storage2, notifier2, clock=clock, rng_factory=Decks())
    try:
        assert await service2.restore() == 1
        await service2.get(CHANNEL).drain()
        assert big not in {s.user_id for s in service2.get(CHANNEL).snapshot().seats}
        assert big not in {s.user_id for s in (await storage2.table(runner.ids.table_id)).seats}
        busted = [a for a in notifier2.announcements if isinstance(a, PlayerAnnouncement) and a.kind == "busted"]
        assert [a.user_id for a in busted] == [big]
        assert (await storage2.audit(GUILD)).ok
    finally:
        last.cancel()
        await service2.close()
        await storage2.close()
        await storage.close()
