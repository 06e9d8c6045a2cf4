"""Shards: which gateway shard carries a guild, shard lists as written on the command line, even splits.

Discord sends a guild's events on shard `(guild_id >> 22) % shard_count` (Discord docs, "Gateway: Sharding");
direct messages and their interactions arrive on shard 0 only. Pure functions, no I/O.
"""

from __future__ import annotations

import re

from bot.render.counted import counted

_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that carries `guild_id`'s events among `shard_count` shards (Discord's formula)."""
    if shard_count < 1:
        raise ValueError("shard_count must be at least 1")
    return (guild_id >> 22) % shard_count


def parse_shards(text: str, shard_count: int) -> tuple[int, ...]:
    """Shard ids written as `0-3`, `5` or `0-1,4,6-7`, sorted, without duplicates. Raises ValueError for a
    malformed list, an empty range (`3-1`) or an id outside 0..shard_count-1."""
    ids: set[int] = set()
    for part in text.split(","):
        match = _RANGE.match(part)
        if match is None:
            raise ValueError(f"{text!r} is not a shard list such as 0-3 or 0,2,5-7")
        low = int(match.group(1))
        high = int(match.group(2)) if match.group(2) is not None else low
        if high < low:
            raise ValueError(f"the shard range {part.strip()!r} is empty")
        if high >= shard_count:
            raise ValueError(f"shard {high} does not exist: ids run from 0 to {shard_count - 1}")
        ids.update(range(low, high + 1))
    return tuple(sorted(ids))


def format_shards(ids: tuple[int, ...] | list[int] | range) -> str:
    """The shortest shard list `parse_shards` reads back: `(0, 1, 2, 5)` -> `0-2,5`."""
    ordered = sorted(set(ids))
    parts: list[str] = []
    start = previous = None
    for shard in [*ordered, None]:
        if start is not None and (shard is None or shard != (previous or 0) + 1):
            parts.append(str(start) if start == previous else f"{start}-{previous}")
            start = None
        if shard is not None and start is None:
            start = shard
        previous = shard
    return ",".join(parts)


def split_evenly(shard_count: int, processes: int) -> list[tuple[int, ...]]:
    """`shard_count` shards split among `processes` processes as contiguous ranges whose sizes differ by at most
    one (the first processes take the extra shards): `split_evenly(5, 2)` -> `[(0, 1, 2), (3, 4)]`. Raises
    ValueError when there are more processes than shards (a process with no shard would do nothing)."""
    if processes < 1:
        raise ValueError("at least one process is needed")
    if processes > shard_count:
        raise ValueError(
            f"{counted(processes, 'process', 'processes')} for {counted(shard_count, 'shard')}: at most one process"
            " per shard"
        )
    size, extra = divmod(shard_count, processes)
    groups: list[tuple[int, ...]] = []
    start = 0
    for index in range(processes):
        end = start + size + (1 if index < extra else 0)
        groups.append(tuple(range(start, end)))
        start = end
    return groups
