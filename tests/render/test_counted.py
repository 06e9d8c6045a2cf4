"""Counts in the process's English messages (bot/render/counted.py): the noun agrees with the number."""

from bot.render.counted import counted


def test_one_is_singular_and_every_other_count_plural() -> None:
    assert counted(1, "shard") == "1 shard"
    assert [counted(n, "shard") for n in (0, 2, 8)] == ["0 shards", "2 shards", "8 shards"]
    assert counted(1, "process", "processes") == "1 process"
    assert counted(3, "process", "processes") == "3 processes"
