"""Shard ownership (bot/tables/ownership.py): only the lease holder restores and runs a guild's tables; a second
process for the same shard refuses it with one log line, takes it over once the lease expires, and a process
that lost its lease stops its tables there."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.storage import Storage
from bot.storage.leases import ShardLeases
from bot.tables import ManualClock, RecordingNotifier, TableOptions, TableService
from bot.tables.clock import settle
from bot.tables.ownership import ShardOwnership
from bot.tables.shards import shard_of
from tests.tables.conftest import ALICE, BOB, DEFAULTS, HOST, NAMES, Decks

#: Two guilds on the two shards of a two-shard bot.
GUILD_0, GUILD_1 = 0 << 22, 1 << 22
CHANNEL_0, CHANNEL_1 = 500, 501
TTL = 30.0


class WallClock:
    """The leases' Unix time, moved by the test."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


async def open_tables(service: TableService) -> None:
    for guild, channel in ((GUILD_0, CHANNEL_0), (GUILD_1, CHANNEL_1)):
        await service.create_table(guild, channel, HOST, TableOptions.for_blinds(1, 2))
        for user in (ALICE, BOB):
            await service.get(channel).join(user, NAMES[user])
        await service.get(channel).start_game(ALICE)


def test_the_example_guilds_are_on_both_shards() -> None:
    assert (shard_of(GUILD_0, 2), shard_of(GUILD_1, 2)) == (0, 1)


async def test_a_second_process_for_a_held_shard_refuses_it_once_and_takes_it_over_when_the_lease_expires(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    clock, wall = ManualClock(), WallClock()
    first_db = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    second_db = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    first = ShardOwnership(ShardLeases(first_db), 2, (0, 1), holder="first", ttl_s=TTL, clock=wall)
    second = ShardOwnership(ShardLeases(second_db), 2, (1,), holder="second", ttl_s=TTL, clock=wall)
    assert await first.renew() == ({0, 1}, set())
    service = TableService(first_db, RecordingNotifier(), clock=clock, rng_factory=Decks(), owns=first.owns)
    await open_tables(service)

    caplog.set_level(logging.WARNING, logger="bot.tables.ownership")
    assert await second.renew() == (set(), set())
    assert await second.renew() == (set(), set())
    refusals = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert len(refusals) == 1 and refusals[0].startswith("shard 1 of 2 refused: process first holds its lease")
    restored = TableService(second_db, RecordingNotifier(), clock=clock, rng_factory=Decks(), owns=second.owns)
    assert await restored.restore() == 0

    # The first process renews: the second is still refused. Then the first stops renewing (it died).
    wall.now += TTL / 2
    assert await first.renew() == (set(), set())
    wall.now += TTL - 1
    assert await second.renew() == (set(), set())
    wall.now += 1
    assert await second.renew() == ({1}, set())
    assert await restored.restore() == 1
    assert set(restored.runners) == {CHANNEL_1}
    # The first process comes back: it lost shard 1 and stops that table, keeps shard 0's.
    assert await first.renew() == (set(), {1})
    assert await service.release(lambda guild_id: not first.owns(guild_id)) == 1
    assert set(service.runners) == {CHANNEL_0}
    await settle()
    await service.close()
    await restored.close()
    await first_db.close()
    await second_db.close()


async def test_a_clean_stop_gives_the_leases_back(db_path: Path) -> None:
    wall = WallClock()
    storage = await Storage.open(db_path, defaults=DEFAULTS)
    try:
        one = ShardOwnership(ShardLeases(storage), 1, (0,), holder="one", ttl_s=TTL, clock=wall)
        two = ShardOwnership(ShardLeases(storage), 1, (0,), holder="two", ttl_s=TTL, clock=wall)
        await one.renew()
        await one.release()
        assert not one.owns(GUILD_0)
        assert await two.renew() == ({0}, set())
        assert two.owns(GUILD_0)
    finally:
        await storage.close()


async def test_a_restarted_cluster_child_takes_its_dead_predecessors_leases_at_once_and_no_one_elses(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The cluster reaped the dead child (bot/cluster.py): its heir takes its leases without waiting for them to
    expire; a live lease of another process (a copy started by mistake) is still waited for, then refused."""
    wall = WallClock()
    storage = await Storage.open(db_path, defaults=DEFAULTS)
    try:
        dead = ShardOwnership(ShardLeases(storage), 3, (0, 1), holder="dead", ttl_s=TTL, clock=wall)
        other = ShardOwnership(ShardLeases(storage), 3, (2,), holder="other", ttl_s=TTL, clock=wall)
        await dead.renew()
        await other.renew()
        wall.now += 1
        heir = ShardOwnership(ShardLeases(storage), 3, (0, 1), holder="heir", replaces=("dead",), ttl_s=TTL, clock=wall)
        caplog.set_level(logging.INFO, logger="bot.tables.ownership")
        await asyncio.wait_for(heir.claim(), 1.0)  # no sleep: the virtual wall clock would never reach a deadline
        assert heir.held == {0: wall.now + TTL, 1: wall.now + TTL}
        taken = [r.getMessage() for r in caplog.records if "taken over" in r.getMessage()]
        assert taken == [
            f"shard {s} of 3: lease taken over at once from dead, a process that died (heir)" for s in (0, 1)
        ]
        assert {x.shard_id: x.holder for x in await ShardLeases(storage).leases()} == {0: "heir", 1: "heir", 2: "other"}

        # A process for shard 2 naming the same dead holder is refused the live lease of "other", with one line.
        caplog.clear()
        twin = ShardOwnership(ShardLeases(storage), 3, (2,), holder="twin", replaces=("dead",), ttl_s=TTL, clock=wall)
        assert await twin.renew() == (set(), set())
        assert await twin.renew() == (set(), set())
        refusals = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
        assert len(refusals) == 1 and refusals[0].startswith("shard 2 of 3 refused: process other holds its lease")
    finally:
        await storage.close()


async def test_an_heir_keeps_the_leases_it_took_while_its_dead_predecessors_other_leases_are_still_live(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The dead child's lease of another shard count (tests/storage/test_leases.py: it does not refuse the heir's
    claim) is live for up to one TTL more: the heir's renewals must not count it against the heir either, or the
    heir loses the shards it just took and stops their tables until that lease expires."""
    wall = WallClock()
    storage = await Storage.open(db_path, defaults=DEFAULTS)
    try:
        await ShardLeases(storage).acquire(1, 4, "dead", now=wall(), ttl_s=TTL)
        wall.now += 1
        heir = ShardOwnership(ShardLeases(storage), 2, (0,), holder="heir", replaces=("dead",), ttl_s=TTL, clock=wall)
        await asyncio.wait_for(heir.claim(), 1.0)
        assert set(heir.held) == {0}
        wall.now += heir.renew_interval_s  # the first renewal, the dead lease still live
        caplog.set_level(logging.INFO, logger="bot.tables.ownership")
        assert await heir.renew() == (set(), set())
        assert set(heir.held) == {0}, caplog.text
    finally:
        await storage.close()
