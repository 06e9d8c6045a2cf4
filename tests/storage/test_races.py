"""Two connections at once on the hand path's one-statement writes (PostgreSQL runs them at once; SQLite one after
the other): an append racing the end of its hand, a table's state racing its close, marks and message ids written
again, the action batch racing finish_hand on several tables (no deadlock)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

import pytest

from bot.storage import HandNotFound, Storage, StorageError, TableNotFound
from tests.storage.conftest import GUILD, FakeClock, select
from tests.storage.test_tables_hands import RECORD, SEATS, two_player_table
from tests.storage.test_write_behind import delivered_at

T = TypeVar("T")


async def after(delay_s: float, call: Awaitable[T]) -> T:
    """`call` started `delay_s` seconds from now (each round of a race gives one side or the other a head start)."""
    await asyncio.sleep(delay_s)
    return await call


def head_start(round_: int) -> tuple[float, float]:
    """The delays of a race's two sides in round `round_`: 0 to 3 ms, one side's then the other's."""
    delay = (round_ % 4) * 0.001
    return (delay, 0.0) if round_ % 2 else (0.0, delay)


async def test_an_append_racing_its_hand_s_end_from_another_connection_is_stored_before_it_or_refused(
    store: Storage, database_url: str
) -> None:
    """Each round: one connection appends to a hand while another ends it. The append either got its number and its
    row is in the finished hand, or got HandNotFound and stored nothing; finish_hand never fails."""
    table = await two_player_table(store)
    other = await Storage.open(database_url)
    try:
        for number in range(1, 25):
            hand = await store.start_hand(table, number, RECORD, [{**s, "stack": 100} for s in SEATS])
            assert await store.append_action(hand, {"n": 0}) == 0
            first, second = head_start(number)
            appended, finished = await asyncio.gather(
                after(first, store.append_action(hand, {"n": 1})),
                after(second, other.finish_hand(hand, {"n": number}, {1: 100, 4: 100})),
                return_exceptions=True,
            )
            assert finished is None
            stored = [a["n"] for a in (await store.hand(hand)).actions]  # type: ignore[union-attr]
            if isinstance(appended, HandNotFound):
                assert stored == [0]
            else:
                assert appended == 1 and stored == [0, 1]
            with pytest.raises(HandNotFound):
                await store.append_action(hand, {"n": 2})
    finally:
        await other.close()
    assert (await store.audit(GUILD)).ok


async def test_the_action_batch_and_finish_hand_of_several_tables_at_once_never_deadlock(
    store: Storage, database_url: str
) -> None:
    """One batch appends to three hands (their rows locked in id order) while another connection ends them in the
    opposite order (each: its table's row, then its hand's): every finish commits, every append is stored or
    refused, within a few seconds (a deadlock would raise StorageError or hang)."""
    tables = [await two_player_table(store, channel=700 + n) for n in range(3)]
    other = await Storage.open(database_url)
    try:
        for number in range(1, 8):
            hands = [await store.start_hand(t, number, RECORD, [{**s, "stack": 100} for s in SEATS]) for t in tables]

            async def finish_all(hands: list[int]) -> None:
                for hand in reversed(hands):
                    await other.finish_hand(hand, {}, {1: 100, 4: 100})

            outcomes = await asyncio.wait_for(
                asyncio.gather(
                    finish_all(hands), *(store.append_action(h, {"n": 0}) for h in hands), return_exceptions=True
                ),
                timeout=20,
            )
            assert outcomes[0] is None
            for hand, appended in zip(hands, outcomes[1:], strict=True):
                stored = [a["n"] for a in (await store.hand(hand)).actions]  # type: ignore[union-attr]
                assert (stored == [] and isinstance(appended, HandNotFound)) or (stored == [0] and appended == 0)
    finally:
        await other.close()


async def test_a_table_s_state_racing_its_close_is_saved_before_it_or_refused_with_nothing_written(
    store: Storage, database_url: str
) -> None:
    other = await Storage.open(database_url)
    try:
        for channel in range(700, 724):
            table = await two_player_table(store, channel)
            await store.save_table_state(table, {"v": 0})
            first, second = head_start(channel)
            owed = [{"key": f"{table}-a", "payload": {}}, {"key": f"{table}-b", "payload": {}}]
            saved, closed = await asyncio.gather(
                after(first, store.save_table_state(table, {"v": 1}, 77, outbox=owed)),
                after(second, other.close_table(table)),
                return_exceptions=True,
            )
            assert isinstance(closed, dict)
            row = await store.table(table)
            keys = [k for (k,) in await select(store, "SELECT key FROM outbox WHERE table_id = ?", (table,))]
            assert row is not None
            if isinstance(saved, TableNotFound):
                assert (row.state, row.message_id, keys) == ({"v": 0}, None, [])
            else:
                assert saved is None and (row.state, row.message_id) == ({"v": 1}, 77)
                assert sorted(keys) == [f"{table}-a", f"{table}-b"]
    finally:
        await other.close()


async def test_a_table_s_state_with_a_used_key_among_new_ones_writes_nothing(store: Storage) -> None:
    table = await two_player_table(store)
    await store.save_table_state(table, {"v": 0}, 5, outbox=[{"key": "used", "payload": {"n": 0}}])
    owed = [{"key": "new", "payload": {}}, {"key": "used", "payload": {"n": 1}}, {"key": "newer", "payload": {}}]
    with pytest.raises(StorageError):
        await store.save_table_state(table, {"v": 1}, 6, outbox=owed)
    row = await store.table(table)
    assert row is not None and (row.state, row.message_id) == ({"v": 0}, 5)
    assert [(r.key, r.payload) for r in await store.pending_outbox(table)] == [("used", {"n": 0})]
    await store.close_table(table)
    with pytest.raises(TableNotFound):  # closed: nothing written, not even the rows
        await store.save_table_state(table, {"v": 2}, 7, outbox=[{"key": "late", "payload": {}}])
    with pytest.raises(TableNotFound):
        await store.save_table_state(table, {"v": 2}, 7)
    row = await store.table(table)
    assert row is not None and (row.state, row.message_id) == ({"v": 0}, 5)
    assert [k for (k,) in await select(store, "SELECT key FROM outbox")] == ["used"]


async def test_marks_and_message_ids_written_again_keep_the_first_time_and_a_closed_table_s_id(
    store: Storage, database_url: str, clock: FakeClock
) -> None:
    """Two connections mark the same rows delivered (one of them again, later): the first time stays. One write of
    message ids for an open and a closed table changes only the open one."""
    table = await two_player_table(store)
    closed = await two_player_table(store, 701)
    await store.save_table_state(table, {}, outbox=[{"key": k, "payload": {}} for k in "abc"])
    await store.set_table_message(closed, 40)
    await store.close_table(closed)
    first = clock.now
    other = await Storage.open(database_url, clock=lambda: first + 100)
    try:
        await asyncio.gather(store.mark_delivered(["a", "b"]), other.mark_delivered(["b", "c"]))
        times = await delivered_at(store)
        assert times["a"] == first and times["b"] in (first, first + 100) and times["c"] == first + 100
        clock.advance(50)
        await store.mark_delivered(["a", "b", "c"])
        assert await delivered_at(store) == times
        store.remember_table_message(table, 41)
        store.remember_table_message(closed, 42)
        await store.flush_behind()
        reread = await Storage.open(database_url)
        try:
            assert (await reread.table(table)).message_id == 41  # type: ignore[union-attr]
            assert (await reread.table(closed)).message_id == 40  # type: ignore[union-attr]
        finally:
            await reread.close()
    finally:
        await other.close()
