"""Which guilds' tables this process runs: those of the shards whose lease it holds (bot/storage/leases.py).

A process is started for some shards of a shard count (all of them by default). It takes each one's lease in the
database before restoring or running any table of that shard's guilds; a shard whose lease another live process
holds is waited for at start up to one time to live (it may be this process's own, from before a crash), then
refused with one log line, and taken over if that lease ever expires (the other process died). A cluster's child
started again after a death is told the dead child's holder name (`replaces`, bot/cluster.py): its supervisor
reaped that process, so its leases are taken at once, without the wait; nobody else's are. Every
`renew_interval_s` (a third of the time to live) the held leases are renewed; a lease that could not be renewed
before it expired, or that another process holds now, is lost: the tables of its guilds stop here at once (they
stay open in storage for the new holder). docs/architecture.md, "Shards and processes".
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime

from bot.render.counted import counted
from bot.storage import StorageError
from bot.storage.leases import Lease, ShardLeases
from bot.tables.shards import shard_of

log = logging.getLogger(__name__)

#: Default time to live of a lease (seconds): a process that dies holds its shards this long at most.
LEASE_TTL_S = 30.0

#: Called with (shards gained, shards lost) after a renewal round that changed what this process holds.
OnChange = Callable[[set[int], set[int]], Awaitable[None]]


def process_holder() -> str:
    """A holder name unique to this process: host, pid and a random part (a restarted process is a new holder)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def _when(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%H:%M:%S UTC")


class ShardOwnership:
    """The shards (of `shard_count`) this process was started for (`shard_ids`) and those whose lease it holds.

    `clock` gives Unix seconds (tests inject one); `ttl_s` is each lease's time to live. `owns(guild_id)` is what
    the table service asks before restoring or running a guild's table. `replaces`: holder names of processes known
    to be dead (a cluster's child reaped by its supervisor), whose live leases `claim` and every renewal take at
    once."""

    def __init__(
        self,
        leases: ShardLeases,
        shard_count: int,
        shard_ids: tuple[int, ...],
        *,
        holder: str | None = None,
        replaces: Sequence[str] = (),
        ttl_s: float = LEASE_TTL_S,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if not shard_ids:
            raise ValueError("a process needs at least one shard")
        self.leases = leases
        self.shard_count = shard_count
        self.shard_ids = tuple(sorted(shard_ids))
        self.holder = holder or process_holder()
        # Named at every renewal, not only while claiming: a dead holder's lease of another shard count stays live
        # for up to one TTL after the claim, and must not make the heir lose what it took (those names stay dead).
        self.replaces = tuple(replaces)
        self.ttl_s = ttl_s
        self.clock = clock
        self.held: dict[int, float] = {}  # shard id -> when its lease expires
        self._refused: dict[int, str] = {}  # shard id -> the holder named in the refusal already logged

    @property
    def renew_interval_s(self) -> float:
        """How often the leases are renewed: a third of their time to live."""
        return self.ttl_s / 3

    def owns(self, guild_id: int) -> bool:
        """Whether this process runs `guild_id`'s tables (it holds the lease of the guild's shard)."""
        return shard_of(guild_id, self.shard_count) in self.held

    def owns_shard(self, shard_id: int) -> bool:
        """Whether this process holds the lease of `shard_id`."""
        return shard_id in self.held

    async def claim(self) -> None:
        """Take this process's shards at start. A shard whose lease a holder of `replaces` has (a dead process) is
        taken at once. A shard whose lease another process holds is waited for, up to one time to live (a process
        restarted by hand after a crash finds its own old lease, which then expires); still held after that, it is
        refused (one log line) and left to its holder."""
        deadline = self.clock() + self.ttl_s + self.renew_interval_s
        await self.renew(log_refusals=False)
        while len(self.held) < len(self.shard_ids) and self.clock() < deadline:
            waiting = [shard for shard in self.shard_ids if shard not in self.held]
            log.info(
                "shards %s: held by another process (or by this bot before a crash), waiting up to %.0f s for their"
                " leases",
                waiting,
                self.ttl_s,
            )
            await asyncio.sleep(min(self.renew_interval_s, max(0.0, deadline - self.clock())))
            await self.renew(log_refusals=False)
        if len(self.held) < len(self.shard_ids):
            await self.renew()

    async def renew(self, *, log_refusals: bool = True) -> tuple[set[int], set[int]]:
        """Take or renew the lease of every shard this process was started for; returns (gained, lost). A storage
        error keeps a held lease until it expires (then it is lost: another process may take it). A refused
        shard is logged once per holder (unless `log_refusals` is False)."""
        gained: set[int] = set()
        lost: set[int] = set()
        for shard in self.shard_ids:
            now = self.clock()
            try:
                answer = await self.leases.acquire(
                    shard, self.shard_count, self.holder, now=now, ttl_s=self.ttl_s, replaces=self.replaces
                )
            except StorageError as exc:
                if shard in self.held and self.held[shard] <= self.clock():
                    log.error("could not renew the lease of shard %d (%s) before it expired", shard, exc)
                    del self.held[shard]
                    lost.add(shard)
                elif shard in self.held:
                    log.warning("could not renew the lease of shard %d, trying again: %s", shard, exc)
                continue
            if answer.held and answer.lease is not None:
                if shard not in self.held:
                    gained.add(shard)
                    if answer.taken_from is not None:
                        log.info(
                            "shard %d of %d: lease taken over at once from %s, a process that died (%s)",
                            shard,
                            self.shard_count,
                            answer.taken_from,
                            self.holder,
                        )
                    else:
                        log.info("shard %d of %d: lease taken (%s)", shard, self.shard_count, self.holder)
                self.held[shard] = answer.lease.expires_at
                self._refused.pop(shard, None)
            else:
                if shard in self.held:
                    del self.held[shard]
                    lost.add(shard)
                    log.error(
                        "shard %d of %d: lost the lease to %s; the tables of its guilds stop here",
                        shard,
                        self.shard_count,
                        answer.lease.holder if answer.lease else "another process",
                    )
                if log_refusals:
                    self._log_refusal(shard, answer.lease)
        return gained, lost

    def _log_refusal(self, shard: int, lease: Lease | None) -> None:
        """One log line per shard and holder: who runs the shard instead, and until when at least."""
        other = lease.holder if lease is not None else "?"
        if self._refused.get(shard) == other:
            return
        self._refused[shard] = other
        if lease is not None and lease.shard_count != self.shard_count:
            log.warning(
                "shard %d of %d refused: process %s runs with %s (lease until %s); this process runs no "
                "table of these guilds (start every process with the same --shard-count)",
                shard,
                self.shard_count,
                other,
                counted(lease.shard_count, "shard"),
                _when(lease.expires_at),
            )
            return
        log.warning(
            "shard %d of %d refused: process %s holds its lease (until %s, renewed while it runs); this process "
            "runs no table of its guilds, and takes the shard over if that lease expires",
            shard,
            self.shard_count,
            other,
            _when(lease.expires_at) if lease is not None else "?",
        )

    async def keep(self, on_change: OnChange) -> None:
        """Renew the leases every `renew_interval_s` until cancelled, calling `on_change(gained, lost)` when what
        this process holds changed (a refused shard taken over, a lease lost)."""
        while True:
            await asyncio.sleep(self.renew_interval_s)
            gained, lost = await self.renew()
            if gained or lost:
                try:
                    await on_change(gained, lost)
                except Exception:
                    log.exception("could not follow the change of shards (gained %s, lost %s)", gained, lost)

    async def release(self) -> None:
        """Give back every held lease (a clean stop: the next process for these shards need not wait)."""
        for shard in sorted(self.held):
            try:
                await self.leases.release(shard, self.holder)
            except StorageError as exc:
                log.warning("could not give back the lease of shard %d: %s", shard, exc)
        self.held.clear()
