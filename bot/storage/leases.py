"""Shard leases in the database: at most one process runs the tables of a shard's guilds.

A lease is a row of `shard_leases` (migration 0004): the shard, the shard count its holder runs with, the holder
(a name unique per process) and when it expires (Unix seconds, the holders' clocks: keep the time to live far
above the clock skew between machines). A process takes a free or expired lease, renews its own well before it
expires, and gives it back when it stops cleanly; it never takes a live lease held by another process, nor any
lease while a live lease of another shard count exists (the two counts would split the guilds differently), with
one exception: a live lease of a holder the caller names in `replaces`, a process known to be dead (a cluster's
child that its supervisor reaped: bot/cluster.py), is taken at once.
Plain SQL that SQLite and PostgreSQL both run (an upsert with a condition; PostgreSQL's writers are serialised
on the row by the upsert itself), one transaction per call through the storage's executor.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.storage.executor import Tx
from bot.storage.models import Row
from bot.storage.store import Storage


@dataclass(frozen=True)
class Lease:
    """A shard's lease as stored: who holds it, for which shard count, until when (Unix seconds)."""

    shard_id: int
    shard_count: int
    holder: str
    expires_at: float


@dataclass(frozen=True)
class LeaseAnswer:
    """The outcome of `ShardLeases.acquire`: `held` when the caller holds the lease now (until `lease.expires_at`);
    otherwise `lease` is the live lease that stopped it (another holder, or another shard count). `taken_from`:
    the dead holder (of `replaces`) whose live lease was just taken, if any."""

    held: bool
    lease: Lease | None
    taken_from: str | None = None


_COLUMNS = "shard_id, shard_count, holder, expires_at"


def _lease(row: Row) -> Lease:
    return Lease(int(row["shard_id"]), int(row["shard_count"]), str(row["holder"]), float(row["expires_at"]))


class ShardLeases:
    """Take, renew and give back shard leases in `storage`'s database (see the module docstring)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def acquire(
        self,
        shard_id: int,
        shard_count: int,
        holder: str,
        *,
        now: float,
        ttl_s: float,
        replaces: Sequence[str] = (),
    ) -> LeaseAnswer:
        """Take or renew the lease of `shard_id` for `holder` until `now + ttl_s`. Refused (nothing written) when
        another holder's lease of this shard is still live, or when a live lease of another holder names another
        shard count; a live lease of a holder named in `replaces` (a process known to be dead, and only such a
        one) counts as expired."""
        dead = tuple(name for name in replaces if name != holder)
        dead_marks = ", ".join("?" * len(dead))
        not_dead = f" AND holder NOT IN ({dead_marks})" if dead else ""
        or_dead = f" OR shard_leases.holder IN ({dead_marks})" if dead else ""

        async def body(tx: Tx) -> LeaseAnswer:
            other = await tx.one(
                f"SELECT {_COLUMNS} FROM shard_leases"
                f" WHERE shard_count <> ? AND holder <> ?{not_dead} AND expires_at > ? ORDER BY shard_id LIMIT 1",
                (shard_count, holder, *dead, now),
            )
            if other is not None:
                return LeaseAnswer(False, _lease(other))
            before = None
            if dead:
                before = await tx.one(f"SELECT {_COLUMNS} FROM shard_leases WHERE shard_id = ?", (shard_id,))
            await tx.execute(
                "INSERT INTO shard_leases (shard_id, shard_count, holder, acquired_at, expires_at)"
                " VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (shard_id) DO UPDATE SET shard_count = excluded.shard_count, holder = excluded.holder,"
                " acquired_at = CASE WHEN shard_leases.holder = excluded.holder"
                " THEN shard_leases.acquired_at ELSE excluded.acquired_at END,"
                " expires_at = excluded.expires_at"
                f" WHERE shard_leases.holder = excluded.holder OR shard_leases.expires_at <= ?{or_dead}",
                (shard_id, shard_count, holder, now, now + ttl_s, now, *dead),
            )
            row = await tx.one(f"SELECT {_COLUMNS} FROM shard_leases WHERE shard_id = ?", (shard_id,))
            assert row is not None  # inserted or kept just now
            lease = _lease(row)
            held = lease.holder == holder and lease.shard_count == shard_count
            was = _lease(before) if before is not None else None
            taken = was.holder if was is not None and held and was.holder in dead and was.expires_at > now else None
            return LeaseAnswer(held, lease, taken)

        return await self.storage.executor.write(body)

    async def release(self, shard_id: int, holder: str) -> bool:
        """Give back `holder`'s lease of `shard_id` (a clean stop: the next process need not wait for it to
        expire). Returns False when `holder` did not hold it."""

        async def body(tx: Tx) -> bool:
            return (
                await tx.execute("DELETE FROM shard_leases WHERE shard_id = ? AND holder = ?", (shard_id, holder)) == 1
            )

        return await self.storage.executor.write(body)

    async def leases(self) -> list[Lease]:
        """Every stored lease, live or expired, by shard."""

        async def body(tx: Tx) -> list[Lease]:
            return [_lease(row) for row in await tx.all(f"SELECT {_COLUMNS} FROM shard_leases ORDER BY shard_id")]

        return await self.storage.executor.read(body)
