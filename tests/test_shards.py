"""Shard arithmetic (bot/tables/shards.py): Discord's guild -> shard formula, shard lists, even splits."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.tables.shards import format_shards, parse_shards, shard_of, split_evenly


def test_shard_of_is_discords_formula() -> None:
    # Discord docs, "Sharding": shard_id = (guild_id >> 22) % num_shards.
    guild_id = 197038439483310086
    assert shard_of(guild_id, 1) == 0
    assert shard_of(guild_id, 2) == (guild_id >> 22) % 2
    assert shard_of(5 << 22, 4) == 1


@pytest.mark.parametrize(
    ("text", "ids"),
    [("0-3", (0, 1, 2, 3)), ("5", (5,)), ("0-1,4,6-7", (0, 1, 4, 6, 7)), (" 2 - 3 , 1 ", (1, 2, 3)), ("1,1", (1,))],
)
def test_parse_shards(text: str, ids: tuple[int, ...]) -> None:
    assert parse_shards(text, 8) == ids


@pytest.mark.parametrize(("text", "message"), [("3-1", "empty"), ("0-8", "does not exist"), ("a", "not a shard")])
def test_parse_shards_refuses(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_shards(text, 8)


@given(st.sets(st.integers(0, 40), min_size=1))
def test_format_shards_reads_back(ids: set[int]) -> None:
    assert parse_shards(format_shards(sorted(ids)), 41) == tuple(sorted(ids))


def test_format_shards_is_short() -> None:
    assert format_shards((0, 1, 2, 5, 7, 8)) == "0-2,5,7-8"


@given(st.integers(1, 64), st.integers(1, 64))
def test_split_evenly_covers_every_shard_once_in_near_equal_ranges(count: int, processes: int) -> None:
    if processes > count:
        with pytest.raises(ValueError, match="at most one process per shard"):
            split_evenly(count, processes)
        return
    groups = split_evenly(count, processes)
    assert len(groups) == processes
    assert [s for g in groups for s in g] == list(range(count))
    assert max(map(len, groups)) - min(map(len, groups)) <= 1


def test_split_evenly_example() -> None:
    assert split_evenly(5, 2) == [(0, 1, 2), (3, 4)]
