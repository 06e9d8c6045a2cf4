"""Shard leases (bot/storage/leases.py): one holder per shard until its lease expires; one shard count."""

from __future__ import annotations

from pathlib import Path

from bot.storage import Storage
from bot.storage.leases import ShardLeases

from .conftest import DEFAULTS

NOW = 1_700_000_000.0


async def test_a_free_lease_is_taken_and_another_holder_is_refused_until_it_expires(store: Storage) -> None:
    leases = ShardLeases(store)
    first = await leases.acquire(0, 2, "a", now=NOW, ttl_s=30)
    assert first.held and first.lease is not None and first.lease.expires_at == NOW + 30
    refused = await leases.acquire(0, 2, "b", now=NOW + 29, ttl_s=30)
    assert not refused.held and refused.lease is not None and refused.lease.holder == "a"
    # Another shard is free.
    assert (await leases.acquire(1, 2, "b", now=NOW + 29, ttl_s=30)).held
    # Once the lease expired unrenewed, another holder takes it.
    taken = await leases.acquire(0, 2, "b", now=NOW + 30, ttl_s=30)
    assert taken.held and taken.lease is not None and taken.lease.holder == "b"
    assert not (await leases.acquire(0, 2, "a", now=NOW + 31, ttl_s=30)).held


async def test_the_holder_renews_its_lease(store: Storage) -> None:
    leases = ShardLeases(store)
    await leases.acquire(0, 1, "a", now=NOW, ttl_s=30)
    renewed = await leases.acquire(0, 1, "a", now=NOW + 20, ttl_s=30)
    assert renewed.held and renewed.lease is not None and renewed.lease.expires_at == NOW + 50
    assert not (await leases.acquire(0, 1, "b", now=NOW + 40, ttl_s=30)).held


async def test_a_live_lease_of_another_shard_count_refuses_every_shard(store: Storage) -> None:
    leases = ShardLeases(store)
    await leases.acquire(3, 4, "a", now=NOW, ttl_s=30)
    refused = await leases.acquire(0, 2, "b", now=NOW + 1, ttl_s=30)
    assert not refused.held and refused.lease is not None and refused.lease.shard_count == 4
    assert (await leases.acquire(0, 2, "b", now=NOW + 31, ttl_s=30)).held


async def test_release_frees_the_lease_at_once_only_for_its_holder(store: Storage) -> None:
    leases = ShardLeases(store)
    await leases.acquire(0, 1, "a", now=NOW, ttl_s=30)
    assert not await leases.release(0, "b")
    assert await leases.release(0, "a")
    assert (await leases.acquire(0, 1, "b", now=NOW + 1, ttl_s=30)).held


async def test_two_connections_to_one_file_never_both_hold_a_shard(db_path: Path) -> None:
    one = await Storage.open(db_path, defaults=DEFAULTS)
    two = await Storage.open(db_path, defaults=DEFAULTS)
    try:
        answers = [
            await ShardLeases(store).acquire(0, 1, name, now=NOW, ttl_s=30) for store, name in ((one, "a"), (two, "b"))
        ]
        assert [a.held for a in answers] == [True, False]
        assert [(x.holder, x.shard_id) for x in await ShardLeases(two).leases()] == [("a", 0)]
    finally:
        await one.close()
        await two.close()


async def test_a_dead_holders_live_lease_is_taken_at_once_by_who_names_it_and_by_nobody_else(store: Storage) -> None:
    leases = ShardLeases(store)
    await leases.acquire(0, 2, "dead", now=NOW, ttl_s=30)
    await leases.acquire(1, 2, "alive", now=NOW, ttl_s=30)
    # Naming the dead holder takes its live lease at once, and says from whom.
    taken = await leases.acquire(0, 2, "heir", now=NOW + 1, ttl_s=30, replaces=("dead",))
    assert taken.held and taken.lease is not None and taken.lease.holder == "heir"
    assert taken.lease.expires_at == NOW + 31 and taken.taken_from == "dead"
    # Another holder's live lease is refused all the same, whoever is named.
    refused = await leases.acquire(1, 2, "heir", now=NOW + 1, ttl_s=30, replaces=("dead",))
    assert not refused.held and refused.lease is not None and refused.lease.holder == "alive"
    # The heir's own lease is not taken by a third process naming the dead one either.
    assert not (await leases.acquire(0, 2, "third", now=NOW + 2, ttl_s=30, replaces=("dead",))).held
    # A renewal names nobody taken over.
    renewed = await leases.acquire(0, 2, "heir", now=NOW + 2, ttl_s=30, replaces=("dead",))
    assert renewed.held and renewed.taken_from is None
    assert [(x.shard_id, x.holder) for x in await leases.leases()] == [(0, "heir"), (1, "alive")]


async def test_a_dead_holders_lease_of_another_shard_count_does_not_refuse_its_heir(store: Storage) -> None:
    leases = ShardLeases(store)
    await leases.acquire(1, 4, "dead", now=NOW, ttl_s=30)
    assert not (await leases.acquire(0, 2, "heir", now=NOW + 1, ttl_s=30)).held
    assert (await leases.acquire(0, 2, "heir", now=NOW + 1, ttl_s=30, replaces=("dead",))).held
