"""Storage faults at every write of a scripted game: what could not be stored is neither told nor kept in memory,
and once the fault clears the table carries on (issue 12, items 1-2).

`FailingStorage` wraps the real storage and fails its Nth write: it raises (as a read-only or full disk does), or
it hangs past the runner's write timeout and then lands late (a stalled disk). The write timeout is measured on the
service's clock: the test moves the manual clock past it while the write hangs, so no other write can time out,
however loaded the machine. The script (joins, a hand with a
timer expiry, a leave, a sit-out, a rebuy, a sit-in, a language change, a kick, the end) is played once for every
N and both kinds of fault. After each step the runner's memory is compared with a runner rebuilt from storage
alone; at the end the player notices told are exactly those stored, the table reached its end and the ledger
audit passes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.poker import ActionKind, PokerError
from bot.storage import Storage, StorageError
from bot.tables import ManualClock, PlayerAnnouncement, RecordingNotifier, TableOptions, TableService
from bot.tables.clock import settle
from bot.tables.errors import ServiceError
from bot.tables.operation import FAULT_RETRY_DELAYS_S
from bot.tables.runner import TableRunner

from .conftest import ALICE, BOB, CHANNEL, CHLOE, GUILD, HOST, NAMES, Decks

WRITES = {
    "append_action",
    "buy_in",
    "cash_out",
    "close_table",
    "finish_hand",
    "join_tournament",
    "record_place",
    "save_table_state",
    "start_hand",
    "update_table_settings",
}


class FailingStorage:
    """The real storage, except that its `fail_at`-th write (counting from 1) fails, once: `mode` "raise" raises
    StorageError; "hang" waits until `clear()` and then does the write (the caller has given up by then)."""

    def __init__(self, storage: Storage, fail_at: int, mode: str = "raise") -> None:
        self._storage = storage
        self.fail_at = fail_at
        self.mode = mode
        self.writes = 0
        self.gate = asyncio.Event()
        self.hung = asyncio.Event()  # the hung write has started
        self.late: asyncio.Future[Any] | None = None

    def hanging(self) -> bool:
        """A write hangs now (started, not cleared)."""
        return self.hung.is_set() and not self.gate.is_set()

    async def clear(self) -> None:
        """The fault is over: a hung write goes through now."""
        self.gate.set()
        if self.late is not None:
            with contextlib.suppress(Exception):
                await self.late

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._storage, name)
        if name not in WRITES:
            return attr

        async def write(*args: Any, **kwargs: Any) -> Any:
            self.writes += 1
            if self.writes == self.fail_at:
                if self.mode == "raise":
                    raise StorageError(f"injected fault at write {self.writes} ({name})")

                async def late() -> Any:
                    await self.gate.wait()
                    return await attr(*args, **kwargs)

                self.late = asyncio.ensure_future(late())
                self.hung.set()
                return await asyncio.shield(self.late)
            return await attr(*args, **kwargs)

        return write


#: Player notices told with a hand action (not outbox rows, see docs/outbox.md) or after a refused DM.
UNSTORED_NOTICES = {"timed_out", "auto_folded", "dm_refused"}


def stored_notices(path: Path) -> list[tuple[str, int]]:
    """(kind, user id) of every player notice ever stored in the outbox (delivered or not)."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        payloads = [json.loads(text) for (text,) in db.execute("SELECT payload FROM outbox")]
    return sorted(
        (p["announcement"]["fields"]["kind"], p["announcement"]["fields"]["user_id"])
        for p in payloads
        if p["type"] == "announce" and p["announcement"]["class"] == "player"
    )


def picture(runner: TableRunner) -> tuple[Any, ...]:
    """What a spectator and the rules see of a table (not the deadline, which a restore extends)."""
    snap = runner.snapshot()
    seats = tuple((s.seat, s.user_id, s.stack, s.bet, s.state, s.leaving) for s in snap.seats)
    away = sorted(runner.view().away)
    return (seats, snap.hand_number, snap.board, snap.actor_user_id, snap.running, snap.closed, away)


async def stored_picture(storage: Storage, service: TableService, runner: TableRunner) -> tuple[Any, ...] | None:
    """The picture of a runner of `service` rebuilt from storage alone (None once the table is closed)."""
    row = await storage.table(runner.ids.table_id)
    assert row is not None
    if row.status != "open":
        return None
    copy = TableRunner(
        storage=storage,
        notifier=RecordingNotifier(),
        clock=service.clock,
        rng_factory=service.rng_factory,
        table_id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        host_id=row.host_id,
        options=runner.view().options,
    )
    hand = await storage.open_hand(row.id)
    if hand is not None and not runner.view().in_hand:
        return ("unfinished hand in storage",)
    await copy.restore(row)
    try:
        return picture(copy)
    finally:
        await copy.shutdown()


async def script(
    service: TableService, clock: ManualClock, check: Callable[[], Any], storage: FailingStorage | None = None
) -> None:
    """Joins, a hand with a timer expiry and a leave, a sit-out, a rebuy between hands, a sit-in, a language, a
    kick, the end. Each step may
    fail (the injected fault, or a refusal because an earlier step failed); `check` runs after each. While a
    write of `storage` hangs, the clock moves past the service's write timeout (the disk stalls that long)."""

    async def stall(work: asyncio.Future[Any]) -> None:
        if storage is None or storage.hung.is_set():
            return  # no hang in this run, or it has come and gone
        hung = asyncio.ensure_future(storage.hung.wait())
        await asyncio.wait({work, hung}, return_when=asyncio.FIRST_COMPLETED)
        hung.cancel()
        await settle()
        if storage.hanging():
            await clock.advance(service.write_timeout_s)

    async def step(work: Callable[[], Any]) -> None:
        task = asyncio.ensure_future(work())
        await stall(task)
        try:
            await task
        except (StorageError, PokerError, TimeoutError):
            pass
        await settle()
        await check()

    runner_of = lambda: service.runners.get(CHANNEL)  # noqa: E731
    for user in (ALICE, BOB, CHLOE):
        await step(lambda user=user: service.get(CHANNEL).join(user, NAMES[user], buy_in=100))
    await step(lambda: service.get(CHANNEL).start_game(ALICE))
    runner = runner_of()
    assert runner is not None
    await step(lambda: service.get(CHANNEL).act(runner.snapshot().actor_user_id or 0, ActionKind.CALL))
    await step(lambda: clock.advance(runner.view().options.turn_timeout + 0.1))  # the timer expires
    await step(lambda: service.get(CHANNEL).leave(runner.snapshot().actor_user_id or 0))
    await step(lambda: service.get(CHANNEL).sit_out(BOB))
    for _ in range(12):  # play out the hand (folds and checks), through faults and resumes
        actor = runner.snapshot().actor_user_id
        if actor is None:
            break
        legal = runner.legal_actions_for(actor)
        kind = ActionKind.CHECK if legal is not None and legal.can_check else ActionKind.FOLD
        await step(lambda actor=actor, kind=kind: service.get(CHANNEL).act(actor, kind))
    await step(lambda: clock.advance(max(FAULT_RETRY_DELAYS_S) + 1))  # any resume after a fault runs
    await step(lambda: service.get(CHANNEL).rebuy(CHLOE, 10) if not runner.view().in_hand else settle())
    await step(lambda: service.get(CHANNEL).sit_in(BOB))
    await step(lambda: runner.set_language("fr"))
    await step(lambda: service.get(CHANNEL).kick(HOST, CHLOE, is_admin=True))
    for _ in range(2):  # the end itself may be the write that fails: the host tries again
        if not runner.closed:
            await step(lambda: service.get(CHANNEL).end(HOST, is_admin=True))


async def count_writes(storage: Storage, clock: ManualClock) -> int:
    failing = FailingStorage(storage, fail_at=0)
    service = TableService(failing, RecordingNotifier(), clock=clock, rng_factory=Decks())  # type: ignore[arg-type]
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))

    async def nothing() -> None:
        return None

    await script(service, clock, nothing)
    await service.close()
    return failing.writes


#: The writes of the script after the table's creation (counted by the test below): each one is faulted.
SCRIPT_WRITES = 24


async def test_the_faulted_runs_cover_every_write_of_the_script(storage: Storage, clock: ManualClock) -> None:
    assert 12 <= await count_writes(storage, clock) <= SCRIPT_WRITES


async def test_a_hung_write_times_out_when_the_service_clock_passes_the_write_timeout(
    storage: Storage, clock: ManualClock
) -> None:
    failing = FailingStorage(storage, fail_at=2, mode="hang")  # the first write is the table's creation state
    service = TableService(failing, RecordingNotifier(), clock=clock, rng_factory=Decks(), write_timeout_s=60)  # type: ignore[arg-type]
    try:
        await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
        join = asyncio.ensure_future(service.get(CHANNEL).join(ALICE, NAMES[ALICE], buy_in=100))
        await failing.hung.wait()
        await clock.advance(59)
        assert not join.done(), "the write has not taken 60 s of the service's time yet"
        await clock.advance(2)
        # Refused as the table catching up (the write may still land), not a bug: its cause is the timeout.
        refused = join.exception()
        assert join.done() and isinstance(refused, ServiceError) and refused.code == "table_recovering"
        assert isinstance(refused.__cause__, TimeoutError)
        assert service.get(CHANNEL).snapshot().seats == ()  # the join is not kept while its write may still land
    finally:
        await failing.clear()
        await service.close()


@pytest.mark.parametrize("mode", ["raise", "hang"])
@pytest.mark.parametrize("fail_at", range(1, SCRIPT_WRITES + 1))
async def test_a_failed_write_is_neither_kept_nor_told_and_the_table_carries_on(
    tmp_path: Any, fail_at: int, mode: str
) -> None:
    clock = ManualClock()
    storage = await Storage.open(tmp_path / "poker.sqlite3", clock=clock.time)
    try:
        notifier = RecordingNotifier()
        # The first write is the table's creation state.
        failing = FailingStorage(storage, fail_at=fail_at + 1, mode=mode)
        service = TableService(
            failing,  # type: ignore[arg-type]
            notifier,
            clock=clock,
            rng_factory=Decks(),
            write_timeout_s=0.25,  # on the manual clock: the stall moves it past, no real write can reach it
        )
        await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
        runner = service.runners[CHANNEL]

        async def check() -> None:
            await failing.clear()  # a fault lasts one step
            if not runner.settled():
                return  # a resume is pending: memory is what was committed, the rest comes back with it
            await runner.drain()
            stored = await stored_picture(storage, service, runner)
            if stored is None:
                assert runner.closed
            elif stored != ("unfinished hand in storage",):
                assert picture(runner) == stored

        await script(service, clock, check, failing)
        await runner.drain()
        assert failing.hung.is_set() == (mode == "hang" and failing.writes >= failing.fail_at)
        # The notices stored with their change (joined, left, sat out...) are exactly those told, once each; the
        # notices of an action (timed out, auto-folded) and "press My cards" are told only after their action.
        told = sorted(
            (a.kind, a.user_id)
            for a in notifier.announcements
            if isinstance(a, PlayerAnnouncement) and a.kind not in UNSTORED_NOTICES
        )
        assert told == stored_notices(tmp_path / "poker.sqlite3")
        assert any(kind == "joined" for kind, _ in told)
        assert not await storage.pending_outbox(), "everything stored was delivered"
        # The table reached its end: closed in storage, whatever write failed.
        row = await storage.latest_table_for_channel(CHANNEL)
        assert row is not None and row.status == "closed"
        report = await storage.audit(GUILD)
        assert report.ok, report.problems
        await service.close()
    finally:
        await storage.close()


async def test_an_action_that_ends_the_hand_is_told_once_stored_though_storing_the_hand_end_fails(
    storage: Storage, notifier: RecordingNotifier, clock: ManualClock, decks: Decks
) -> None:
    """`TableRunner.act(stored=)` tells the action once it is stored, before the hand's end is stored, and only
    when that is left to wait for: a fold that does not end the hand is not told early (its caller answers when
    `act` returns); the fold that ends it is, and it stands when storing the result fails after it (the table
    resumes from storage with the hand over)."""
    failing = FailingStorage(storage, fail_at=0)
    service = TableService(failing, notifier, clock=clock, rng_factory=decks)  # type: ignore[arg-type]
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    for user in (ALICE, BOB, CHLOE):
        await service.get(CHANNEL).join(user, NAMES[user])
    await service.get(CHANNEL).start_game(ALICE)
    runner = service.get(CHANNEL)
    told: list[Any] = []
    first = runner.snapshot().actor_user_id
    assert first is not None
    acted = await runner.act(first, ActionKind.FOLD, stored=told.append)
    assert told == [] and acted.action is ActionKind.FOLD
    second = runner.snapshot().actor_user_id
    assert second is not None
    failing.fail_at = failing.writes + 2  # the fold is stored (append_action), the hand's end is not (finish_hand)
    with pytest.raises(StorageError):
        await runner.act(second, ActionKind.FOLD, stored=told.append)
    assert (
        len(told) == 1
        and told[0].action is ActionKind.FOLD
        and told[0].player == runner.view().hand_users.index(second)
    )
    row = await storage.open_hand(runner.ids.table_id)
    assert row is not None and [a["kind"] for a in row.actions][-2:] == ["fold", "fold"]  # both folds are stored
    await clock.advance(FAULT_RETRY_DELAYS_S[0])
    await settle()
    assert await storage.open_hand(runner.ids.table_id) is None  # resumed: the hand ended as stored
    await service.close()
