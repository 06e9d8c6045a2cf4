"""Counts in the English of the bot's process messages (log lines, the command line's output): "1 shard", "2 shards".

What Discord members read counts through the catalogues' plural forms (bot/render/i18n.py); these messages are for
whoever runs the bot, in English only, and every one of them that prints a count before a noun goes through
`counted`.
"""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """`count` then `noun`, in the plural unless the count is one: `counted(1, "shard")` -> "1 shard",
    `counted(0, "shard")` -> "0 shards", `counted(2, "process", "processes")` -> "2 processes" (the plural is
    `noun` + "s" unless given)."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"
