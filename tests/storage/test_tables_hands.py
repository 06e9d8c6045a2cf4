"""Tables and hands in storage: one open table per channel, write-ahead actions, finishing and aborting hands."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import (
    ChipsNotConserved,
    Conflict,
    HandInProgress,
    HandNotFound,
    LedgerKind,
    NotSeated,
    PlayerOutcome,
    SeatTaken,
    Storage,
    StorageError,
    TableExists,
    TableNotFound,
    WrongTableKind,
)
from tests.storage.conftest import GUILD, execute
from tests.storage.test_ledger import snapshot

ALICE, BOB, CHLOE = 101, 102, 103
RECORD = {"settings": {"small_blind": 1, "big_blind": 2}, "starting_stacks": [100, 100], "deck": ["Ah", "Kd"]}


async def two_player_table(store: Storage, channel: int = 700) -> int:
    table = await store.create_table(GUILD, channel, ALICE, "cash", {"big_blind": 2})
    await store.buy_in(table, GUILD, ALICE, 1, 100)
    await store.buy_in(table, GUILD, BOB, 4, 100)
    return table


SEATS = [{"seat": 4, "user_id": BOB, "stack": 100}, {"seat": 1, "user_id": ALICE, "stack": 100}]


async def test_one_open_table_per_channel_and_a_new_one_after_closing(store: Storage) -> None:
    first = await store.create_table(GUILD, 700, ALICE, "cash", {"big_blind": 2})
    with pytest.raises(TableExists) as caught:
        await store.create_table(GUILD, 700, BOB, "tournament", {})
    assert caught.value.table_id == first
    await store.close_table(first)
    assert await store.table_for_channel(700) is None
    second = await store.create_table(GUILD, 700, BOB, "tournament", {})
    assert second != first
    row = await store.table_for_channel(700)
    assert row is not None and (row.id, row.kind, row.host_id, row.status) == (second, "tournament", BOB, "open")
    closed = await store.table(first)
    assert closed is not None and closed.status == "closed" and closed.closed_at is not None


async def test_open_tables_come_back_with_settings_state_message_and_seats(store: Storage) -> None:
    table = await two_player_table(store)
    await store.save_table_state(table, {"button": 4, "hand_number": 3}, message_id=999)
    await store.save_table_state(table, {"button": 1, "hand_number": 4})  # keeps the message id
    other = await store.create_table(GUILD + 1, 701, CHLOE, "cash", {})
    rows = await store.open_tables()
    assert [r.id for r in rows] == [table, other]
    assert [r.id for r in await store.open_tables(GUILD)] == [table]
    row = rows[0]
    assert row.settings == {"big_blind": 2}
    assert row.state == {"button": 1, "hand_number": 4}
    assert row.message_id == 999
    assert [(s.seat, s.user_id, s.stack) for s in row.seats] == [(1, ALICE, 100), (4, BOB, 100)]


async def test_a_hand_is_recorded_action_by_action_and_finished_in_one_go(store: Storage) -> None:
    table = await two_player_table(store)
    hand = await store.start_hand(table, 1, RECORD, SEATS)
    assert await store.append_action(hand, {"player": 0, "action": "raise", "amount": 6}) == 0
    assert await store.append_action(hand, {"player": 1, "action": "call"}) == 1
    open_hand = await store.open_hand(table)
    assert open_hand is not None and open_hand.id == hand and open_hand.ended_at is None
    assert open_hand.record == RECORD
    assert open_hand.actions == ({"player": 0, "action": "raise", "amount": 6}, {"player": 1, "action": "call"})
    assert [(p.user_id, p.seat, p.player_index, p.starting_stack) for p in open_hand.players] == [
        (BOB, 4, 0, 100),
        (ALICE, 1, 1, 100),
    ]

    await store.finish_hand(hand, {"winners": [1]}, {1: 112, 4: 88}, {ALICE: PlayerOutcome(won=24, vpip=True)})
    assert await store.open_hand(table) is None
    [done] = await store.hands_for_table(table)
    assert done.result == {"winners": [1]} and done.ended_at is not None
    alice = next(p for p in done.players if p.user_id == ALICE)
    assert (alice.final_stack, alice.net, alice.won, alice.vpip) == (112, 12, 24, True)
    seats = (await store.table(table)).seats  # type: ignore[union-attr]
    assert [(s.seat, s.stack) for s in seats] == [(1, 112), (4, 88)]
    assert (await store.audit(GUILD)).ok


async def test_finish_hand_that_creates_or_destroys_chips_is_refused_and_changes_nothing(store: Storage) -> None:
    table = await two_player_table(store)
    hand = await store.start_hand(table, 1, RECORD, SEATS)
    before = await snapshot(store)
    with pytest.raises(ChipsNotConserved):
        await store.finish_hand(hand, {}, {1: 150, 4: 100})
    with pytest.raises(ChipsNotConserved):  # nor one that destroys chips
        await store.finish_hand(hand, {}, {1: 100, 4: 50})
    with pytest.raises(NotSeated):
        await store.finish_hand(hand, {}, {1: 100, 9: 100})
    assert await snapshot(store) == before
    assert await store.open_hand(table) is not None


async def test_only_one_unfinished_hand_per_table_and_numbers_are_unique(store: Storage) -> None:
    table = await two_player_table(store)
    hand = await store.start_hand(table, 1, RECORD, SEATS)
    with pytest.raises(HandInProgress):
        await store.start_hand(table, 2, RECORD, SEATS)
    await store.finish_hand(hand, {}, {1: 100, 4: 100})
    with pytest.raises(StorageError):
        await store.start_hand(table, 1, RECORD, SEATS)
    assert await store.start_hand(table, 2, RECORD, SEATS) > hand


async def test_actions_cannot_be_added_to_a_finished_hand(store: Storage) -> None:
    table = await two_player_table(store)
    hand = await store.start_hand(table, 1, RECORD, SEATS)
    await store.finish_hand(hand, {}, {1: 100, 4: 100})
    with pytest.raises(HandNotFound):
        await store.append_action(hand, {"player": 0, "action": "fold"})
    with pytest.raises(HandNotFound):
        await store.finish_hand(hand, {}, {1: 100, 4: 100})


async def test_hands_are_listed_newest_first_and_found_by_number(store: Storage) -> None:
    table = await two_player_table(store)
    for number in (1, 2, 3):
        hand = await store.start_hand(table, number, {**RECORD, "n": number}, SEATS)
        await store.finish_hand(hand, {"n": number}, {1: 100, 4: 100})
    assert [h.number for h in await store.hands_for_table(table, limit=2)] == [3, 2]
    found = await store.hand_by_number(table, 2)
    assert found is not None and found.record["n"] == 2
    assert await store.hand(found.id) == found
    assert await store.hand_by_number(table, 7) is None


async def test_closing_mid_hand_aborts_it_and_returns_the_stacks_from_its_start(store: Storage) -> None:
    table = await two_player_table(store)
    hand = await store.start_hand(table, 1, RECORD, SEATS)
    await store.append_action(hand, {"player": 0, "action": "all_in"})
    assert await store.close_table(table) == {ALICE: 100, BOB: 100}
    aborted = await store.hand(hand)
    assert aborted is not None and aborted.result == {"aborted": True}
    with pytest.raises(TableNotFound):
        await store.start_hand(table, 2, RECORD, SEATS)
    with pytest.raises(TableNotFound):
        await store.close_table(table)
    report = await store.audit(GUILD)
    assert report.ok and report.on_tables == 0 and report.balances == 2000


async def test_a_closed_table_s_state_message_and_settings_cannot_change(store: Storage) -> None:
    table = await two_player_table(store)
    await store.save_table_state(table, {"button": 1}, 42)
    await store.close_table(table)
    refused = (
        store.save_table_state(table, {"button": 2}, 43, outbox=[{"key": "late", "payload": {}}]),
        store.set_table_message(table, 44),
        store.update_table_settings(table, {"big_blind": 4}, outbox=[{"key": "late too", "payload": {}}]),
        store.save_table_state(999, {"button": 2}),
    )
    for write in refused:
        with pytest.raises(TableNotFound):
            await write
    row = await store.table(table)
    assert row is not None and (row.state, row.message_id, row.settings) == ({"button": 1}, 42, {"big_blind": 2})
    assert await store.pending_outbox() == []


async def test_delivered_messages_are_marked_by_key_once_and_unknown_keys_change_nothing(store: Storage) -> None:
    table = await two_player_table(store)
    owed = [{"key": key, "payload": {"n": n}} for n, key in enumerate(("a", "b", "c", "d"))]
    await store.save_table_state(table, {"button": 1}, outbox=owed)
    await store.mark_delivered(["b", "unknown", "d"])
    assert [row.key for row in await store.pending_outbox(table)] == ["a", "c"]
    await store.mark_delivered(["b"])  # already delivered: ignored
    await store.mark_delivered([])
    await store.mark_delivered(["c"])
    assert [row.key for row in await store.pending_outbox()] == ["a"]


async def test_a_statement_written_alone_is_committed_and_a_conflict_changes_nothing(store: Storage) -> None:
    table = await two_player_table(store)
    changed = await store.executor.write_statement("UPDATE table_seats SET stack = stack WHERE table_id = ?", (table,))
    assert changed == 2
    await store.save_table_state(table, {}, outbox=[{"key": "once", "payload": {}}])
    with pytest.raises(Conflict):
        await store.executor.write_statement(
            "INSERT INTO outbox (table_id, key, payload, created_at) VALUES (?, ?, ?, ?), (?, ?, ?, ?)",
            (table, "new", "{}", 0.0, table, "once", "{}", 0.0),
        )
    assert [row.key for row in await store.pending_outbox(table)] == ["once"]


async def test_tournament_seats_hold_tournament_chips_not_balance_chips(store: Storage) -> None:
    table = await store.create_table(GUILD, 702, ALICE, "tournament", {"starting_stack": 100})
    await store.join_tournament(table, ALICE, 1, 100)
    await store.join_tournament(table, BOB, 2, 100)
    with pytest.raises(SeatTaken):
        await store.join_tournament(table, BOB, 3, 100)
    cash = await two_player_table(store, channel=703)
    with pytest.raises(WrongTableKind):
        await store.join_tournament(cash, CHLOE, 2, 100)
    report = await store.audit(GUILD)
    assert report.ok and report.on_tables == 200  # only the cash table's chips
    assert await store.balance(GUILD, ALICE) == 900  # the cash buy-in only
    assert await store.cash_out(table, GUILD, ALICE, 1) == 900  # leaving a tournament pays nothing


async def test_rebuy_and_cash_out_wait_for_the_end_of_the_hand(store: Storage) -> None:
    table = await two_player_table(store)
    await store.buy_in(table, GUILD, CHLOE, 2, 100)  # sits down during the hand: fine, plays the next one
    hand = await store.start_hand(table, 1, RECORD, SEATS)
    before = await snapshot(store)
    with pytest.raises(HandInProgress):
        await store.buy_in(table, GUILD, ALICE, 1, 50, LedgerKind.REBUY)
    with pytest.raises(HandInProgress):
        await store.cash_out(table, GUILD, BOB, 4)
    assert await snapshot(store) == before
    assert await store.buy_in(table, GUILD, CHLOE, 2, 50, LedgerKind.REBUY) == 850  # not in this hand
    await store.finish_hand(hand, {}, {1: 150, 4: 50})
    assert await store.buy_in(table, GUILD, BOB, 4, 50, LedgerKind.REBUY) == 850
    assert await store.cash_out(table, GUILD, ALICE, 1) == 1050
    assert (await store.audit(GUILD)).ok


async def test_seats_left_out_of_the_finishing_stacks_keep_theirs(store: Storage) -> None:
    table = await two_player_table(store)
    await store.buy_in(table, GUILD, CHLOE, 2, 100)
    seats = [*SEATS, {"seat": 2, "user_id": CHLOE, "stack": 100}]
    hand = await store.start_hand(table, 1, RECORD, seats)
    await store.finish_hand(hand, {}, {1: 110, 4: 90})
    done = await store.hand(hand)
    assert done is not None
    assert {p.user_id: p.net for p in done.players} == {ALICE: 10, BOB: -10, CHLOE: 0}
    with pytest.raises(ValueError):
        await store.start_hand(table, 2, RECORD, seats[:1])


async def test_concurrent_appends_of_several_tables_commit_together_in_order(store: Storage) -> None:
    """Group commit: actions arriving at the same moment share a transaction, each keeps its own sequence
    number, and a row for a finished hand refuses only its own caller."""
    first = await two_player_table(store)
    second = await store.create_table(GUILD, 701, ALICE, "cash", {})
    await store.buy_in(second, GUILD, ALICE, 1, 100)
    await store.buy_in(second, GUILD, BOB, 4, 100)
    hand_a = await store.start_hand(first, 1, RECORD, SEATS)
    hand_b = await store.start_hand(second, 1, RECORD, SEATS)
    third = await store.create_table(GUILD, 702, ALICE, "tournament", {})
    await store.join_tournament(third, ALICE, 1, 100)
    await store.join_tournament(third, BOB, 4, 100)
    done = await store.start_hand(third, 1, RECORD, SEATS)
    await store.finish_hand(done, {}, {1: 100, 4: 100})
    results = await asyncio.gather(
        *(store.append_action(hand_a, {"n": i}) for i in range(5)),
        *(store.append_action(hand_b, {"n": i}) for i in range(3)),
        store.append_action(done, {"n": 0}),
        return_exceptions=True,
    )
    assert results[:8] == [0, 1, 2, 3, 4, 0, 1, 2]
    assert isinstance(results[8], HandNotFound)
    a = await store.open_hand(first)
    b = await store.open_hand(second)
    assert [x["n"] for x in a.actions] == [0, 1, 2, 3, 4]  # type: ignore[union-attr]
    assert [x["n"] for x in b.actions] == [0, 1, 2]  # type: ignore[union-attr]
    assert await store.append_action(hand_a, {"n": 5}) == 5


async def test_interleaved_appends_of_two_hands_in_one_batch_are_numbered_in_their_callers_order(
    store: Storage,
) -> None:
    """One batch mixing two hands' rows (as two tables acting in the same loop turn): each hand's rows are
    numbered on from its last stored number, in the order their callers appended them."""
    first = await two_player_table(store)
    second = await two_player_table(store, channel=701)
    hand_a = await store.start_hand(first, 1, RECORD, SEATS)
    hand_b = await store.start_hand(second, 1, RECORD, SEATS)
    assert await store.append_action(hand_b, {"n": "b0"}) == 0
    order = [hand_a, hand_b, hand_a, hand_a, hand_b, hand_a]
    results = await asyncio.gather(*(store.append_action(h, {"n": i}) for i, h in enumerate(order)))
    assert results == [0, 1, 1, 2, 2, 3]
    a = await store.hand(hand_a)
    b = await store.hand(hand_b)
    assert a is not None and [x["n"] for x in a.actions] == [0, 2, 3, 5]
    assert b is not None and [x["n"] for x in b.actions] == ["b0", 1, 4]


async def test_the_latest_table_of_a_channel_is_the_open_one_else_the_last_closed(store: Storage) -> None:
    assert await store.latest_table_for_channel(700) is None
    first = await two_player_table(store)
    await store.close_table(first)
    assert (await store.latest_table_for_channel(700)).id == first  # type: ignore[union-attr]
    second = await store.create_table(GUILD, 700, ALICE, "cash", {})
    assert (await store.latest_table_for_channel(700)).id == second  # type: ignore[union-attr]


async def test_an_append_racing_the_end_of_its_hand_is_refused_and_stores_nothing(store: Storage) -> None:
    """A hand ended behind the action log's back (by another connection, after appends had numbered it) refuses
    the next append, which stores nothing; the other hand's append in the same batch goes in."""
    first = await two_player_table(store)
    second = await two_player_table(store, channel=701)
    hand_a = await store.start_hand(first, 1, RECORD, SEATS)
    hand_b = await store.start_hand(second, 1, RECORD, SEATS)
    assert await store.append_action(hand_a, {"n": 0}) == 0  # caches hand_a's next number
    await execute(store, "UPDATE hands SET ended_at = 1 WHERE id = ?", (hand_a,))  # ended behind the log's back
    results = await asyncio.gather(
        store.append_action(hand_a, {"n": 1}), store.append_action(hand_b, {"n": 0}), return_exceptions=True
    )
    assert isinstance(results[0], HandNotFound) and results[1] == 0
    row = await store.hand(hand_a)
    assert row is not None and [a["n"] for a in row.actions] == [0]


async def test_a_hand_finished_twice_at_once_from_two_connections_is_finished_once(
    store: Storage, database_url: str
) -> None:
    """As two processes would (PostgreSQL runs them at once): the second waits for the table's lock, then finds the
    hand finished. Its stacks never apply over the first's."""
    table = await two_player_table(store)
    other = await Storage.open(database_url)
    try:
        for number in range(1, 6):
            hand = await store.start_hand(table, number, RECORD, [{**s, "stack": 100} for s in SEATS])
            results = await asyncio.gather(
                store.finish_hand(hand, {"by": "first"}, {1: 150, 4: 50}),
                other.finish_hand(hand, {"by": "second"}, {1: 50, 4: 150}),
                return_exceptions=True,
            )
            assert sorted(type(r).__name__ for r in results) == ["HandNotFound", "NoneType"]
            done = await store.hand(hand)
            assert done is not None and done.result is not None
            winner = {1: 150, 4: 50} if done.result["by"] == "first" else {1: 50, 4: 150}
            assert {s.seat: s.stack for s in (await store.table(table)).seats} == winner  # type: ignore[union-attr]
            await store.set_seat_stacks(table, {1: 100, 4: 100})
    finally:
        await other.close()
    assert (await store.audit(GUILD)).ok
