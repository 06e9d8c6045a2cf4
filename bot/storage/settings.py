"""Bot-wide values by name (`meta`) and each server's settings over the bot's defaults: transaction bodies."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.storage.executor import Tx
from bot.storage.models import Clock, GuildDefaults, GuildSettings, dumps, loads

LANGUAGES = ("en", "fr")
#: The largest grant or cooldown a server may store (Discord's largest integer).
WHOLE_MAX = 2**53 - 1


def _whole(value: Any, default: int) -> int:
    """A stored whole number of 0 to WHOLE_MAX, else `default` (NULL, or a REAL such as 1e+20 stored before every
    option was checked at the command's door: issue 12)."""
    return value if type(value) is int and 0 <= value <= WHOLE_MAX else default


class Settings:
    """The `meta` and `guild_settings` tables. `defaults`: the settings of servers that chose none."""

    def __init__(self, defaults: GuildDefaults, clock: Clock) -> None:
        self.defaults = defaults
        self._clock = clock

    async def get_meta(self, tx: Tx, key: str) -> str | None:
        """Body of `Storage.get_meta`."""
        row = await tx.one("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row["value"])

    async def set_meta(self, tx: Tx, key: str, value: str) -> None:
        """Body of `Storage.set_meta`."""
        await tx.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    async def guild_settings(self, tx: Tx, guild_id: int) -> GuildSettings:
        """Body of `Storage.guild_settings`."""
        row = await tx.one("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
        d = self.defaults
        table_defaults = dict(d.table_defaults)
        if row is None:
            return GuildSettings(guild_id, d.language, d.starting_grant, d.refill_cooldown_s, table_defaults, None)
        table_defaults.update(loads(row["table_defaults"]) or {})
        return GuildSettings(
            guild_id=guild_id,
            language=row["language"] if row["language"] is not None else d.language,
            starting_grant=_whole(row["starting_grant"], d.starting_grant),
            refill_cooldown_s=_whole(row["refill_cooldown_s"], d.refill_cooldown_s),
            table_defaults=table_defaults,
            chosen_language=row["language"],
        )

    async def update_guild_settings(
        self,
        tx: Tx,
        guild_id: int,
        language: str | None,
        starting_grant: int | None,
        refill_cooldown_s: int | None,
        table_defaults: Mapping[str, Any] | None,
    ) -> GuildSettings:
        """Body of `Storage.update_guild_settings`."""
        if language is not None and language not in LANGUAGES:
            raise ValueError(f"language must be one of {LANGUAGES}")
        if starting_grant is not None and (type(starting_grant) is not int or not 0 <= starting_grant <= WHOLE_MAX):
            raise ValueError("starting_grant must be a whole number of chips, not negative")
        if refill_cooldown_s is not None and (
            type(refill_cooldown_s) is not int or not 0 <= refill_cooldown_s <= WHOLE_MAX
        ):
            raise ValueError("refill_cooldown_s must be a whole number of seconds, not negative")
        # The row exists before it is read, locked, so that two writers merge their table defaults one after the
        # other (PostgreSQL; SQLite's writers never overlap).
        await tx.execute(
            "INSERT INTO guild_settings (guild_id, updated_at) VALUES (?, ?) ON CONFLICT (guild_id) DO NOTHING",
            (guild_id, self._clock()),
        )
        row = await tx.one(
            f"SELECT table_defaults FROM guild_settings WHERE guild_id = ?{tx.dialect.for_update}", (guild_id,)
        )
        own: dict[str, Any] = loads(row["table_defaults"]) if row is not None else {}
        for key, value in (table_defaults or {}).items():
            if value is None:
                own.pop(key, None)
            else:
                own[key] = value
        await tx.execute(
            """
            UPDATE guild_settings SET
                language = COALESCE(?, language),
                starting_grant = COALESCE(?, starting_grant),
                refill_cooldown_s = COALESCE(?, refill_cooldown_s),
                table_defaults = ?,
                updated_at = ?
            WHERE guild_id = ?
            """,
            (language, starting_grant, refill_cooldown_s, dumps(own), self._clock(), guild_id),
        )
        return await self.guild_settings(tx, guild_id)
