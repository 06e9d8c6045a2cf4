"""What `fixes` merged, attacked on a real PostgreSQL (breaker): the call that ends a cash hand is stored, then the
server drops every connection of the bot (`pg_terminate_backend`: AdminShutdownError, a real `StorageUnavailable`)
as the hand's end is written. The member is told that the call counts (`action_stands`), once; the table reads
itself again from storage and ends the hand, the chips exact (`audit`), the result told once. On the old code the
connection lost inside the transaction surfaced as asyncpg's InterfaceError ("cannot call Transaction.__aexit__():
the underlying connection is closed"), not an outage: the member got the "unexpected error" answer."""

from __future__ import annotations

from collections.abc import AsyncIterator

import asyncpg
import pytest

from bot.poker import ActionKind, HandResult
from bot.storage import Storage
from bot.tables import ManualClock, RecordingNotifier, TableOptions, TableService
from bot.tables.clock import settle
from bot.tables.errors import ServiceError
from bot.tables.operation import FAULT_RETRY_DELAYS_S
from tests import postgres

from .conftest import ALICE, BOB, CHANNEL, DEFAULTS, GUILD, HOST, NAMES, Decks


@pytest.fixture
async def pg_url() -> str:
    return await postgres.database_url()


@pytest.fixture
async def pg_storage(pg_url: str, clock: ManualClock) -> AsyncIterator[Storage]:
    store = await Storage.open(pg_url, defaults=DEFAULTS, clock=clock.time)
    yield store
    await store.close()


async def admin(url: str, sql: str) -> None:
    connection = await asyncpg.connect(url)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


#: The server ends the session that writes a hand's end, in the middle of its transaction (as at a restart of
#: PostgreSQL: AdminShutdownError, then the connection lost).
KILL_AT_THE_HANDS_END = """
CREATE FUNCTION breaker_kill() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); PERFORM pg_sleep(1); RETURN NEW; END $$;
CREATE TRIGGER breaker_kill BEFORE UPDATE OF ended_at ON hands FOR EACH ROW EXECUTE FUNCTION breaker_kill();
"""


async def test_a_call_stored_before_postgresql_drops_the_bots_connections_stands_and_the_hand_ends(
    pg_url: str, pg_storage: Storage, clock: ManualClock
) -> None:
    storage, notifier = pg_storage, RecordingNotifier()
    service = TableService(storage, notifier, clock=clock, rng_factory=Decks())
    try:
        await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
        runner = service.get(CHANNEL)
        for user in (ALICE, BOB):
            await runner.join(user, NAMES[user], buy_in=100)
        await runner.start_game(ALICE)
        await settle()
        issued = (await storage.audit(GUILD)).issued
        first = runner.snapshot().actor_user_id
        assert first is not None
        await runner.act(first, ActionKind.ALL_IN)
        await admin(pg_url, KILL_AT_THE_HANDS_END)
        told: list[object] = []
        with pytest.raises(ServiceError) as refused:
            await runner.act(next(u for u in (ALICE, BOB) if u != first), ActionKind.CALL, stored=told.append)
        await admin(pg_url, "DROP TRIGGER breaker_kill ON hands; DROP FUNCTION breaker_kill()")
        assert refused.value.code == "action_stands"
        assert len(told) == 1  # the slash command's answer, before the hand's end: the refusal is not a second one
        hand = (await storage.hands_for_table(runner.ids.table_id, limit=1))[0]
        assert hand.ended_at is None and hand.actions[-1]["kind"] == "call"  # stored; the end is not
        for _ in range(3):
            await clock.advance(max(FAULT_RETRY_DELAYS_S) + 0.1)  # the table reads itself again from storage
            await settle()
        await runner.drain()
        assert runner.settled()
        hands = await storage.hands_for_table(runner.ids.table_id, limit=5)
        first_hand = next(h for h in hands if h.number == 1)
        assert first_hand.ended_at is not None
        assert [a.hand_number for a in notifier.announcements if isinstance(a, HandResult)].count(1) == 1
        audit = await storage.audit(GUILD)
        assert audit.ok and audit.issued == issued, audit.problems
        assert sum(s.stack for s in runner.snapshot().seats) == 200  # the two buy-ins, the pot paid out
    finally:
        await settle()
        await service.close()
