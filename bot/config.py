"""Bot configuration: settings read once from the environment and `.env`, validated, passed in.

Nothing here runs at import time: `__main__` calls `load_settings()` once and hands the result to
`PokerBot`. The token is a `SecretStr` and never appears in logs or error messages.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.tables.options import (
    DEFAULT_BIG_BLIND,
    DEFAULT_SMALL_BLIND,
    DEFAULT_TURN_TIMEOUT,
    MAX_BUY_IN_BB,
    MAX_TURN_TIMEOUT,
    MIN_BUY_IN_BB,
    MIN_TURN_TIMEOUT,
    STACK_BB,
)

log = logging.getLogger(__name__)

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]

_DURATION = re.compile(r"^\s*(\d+)\s*([smhd]?)\s*$", re.IGNORECASE)
_DURATION_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}
_DATABASE_SCHEMES = ("sqlite:///", "postgresql://", "postgres://")


class ConfigError(Exception):
    """A setting is missing or malformed; `str()` is one line naming every bad key."""


def parse_duration(value: object) -> int:
    """Turn `3600`, `"3600"`, `"90m"`, `"24h"` or `"1d"` into whole seconds; raises ValueError otherwise."""
    if isinstance(value, bool):
        raise ValueError("expected a duration such as 3600, 90m, 24h or 1d")
    if isinstance(value, int):
        seconds = value
    else:
        match = _DURATION.match(str(value))
        if not match:
            raise ValueError("expected a duration such as 3600, 90m, 24h or 1d")
        seconds = int(match.group(1)) * _DURATION_UNITS[match.group(2).lower()]
    if seconds < 0:
        raise ValueError("must not be negative")
    return seconds


class Settings(BaseSettings):
    """Every setting of the bot; environment variable names are the upper-case field names.

    Chip amounts are ints; durations are whole seconds (REFILL_COOLDOWN also accepts `24h`, `30m`, `1d`).
    Defaults for new tables follow the rule book (000 §01: blinds 1/2, 100 chips each).
    """

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        env_ignore_empty=True,
        extra="ignore",
        case_sensitive=False,
        validate_default=True,
    )

    discord_token: SecretStr
    #: sqlite:///path/to/file.sqlite3 or postgresql://user:pass@host:5432/db (a secret: it may hold a password).
    database_url: SecretStr | None = None
    #: The SQLite file when DATABASE_URL is not set (shorthand for sqlite:///DATABASE_PATH).
    database_path: Path = Path("data/poker.sqlite3")
    dev_guild_id: int | None = Field(default=None, gt=0)
    log_level: LogLevel = "INFO"

    small_blind: int = Field(default=DEFAULT_SMALL_BLIND, ge=1)
    big_blind: int = Field(default=DEFAULT_BIG_BLIND, ge=1)
    starting_stack: int = Field(default=STACK_BB * DEFAULT_BIG_BLIND, ge=1)
    turn_timeout: int = Field(default=DEFAULT_TURN_TIMEOUT, ge=MIN_TURN_TIMEOUT, le=MAX_TURN_TIMEOUT)
    min_buy_in: int = Field(default=MIN_BUY_IN_BB * DEFAULT_BIG_BLIND, ge=1)
    max_buy_in: int = Field(default=MAX_BUY_IN_BB * DEFAULT_BIG_BLIND, ge=1)

    #: Seconds a shard's lease lives unless renewed (bot/tables/ownership.py): a process that dies keeps its
    #: shards' tables this long before another process (or itself, restarted) may run them.
    shard_lease_ttl: float = Field(default=30.0, ge=1.0, le=3600.0)

    starting_grant: int = Field(default=1000, ge=0)
    refill_cooldown: int = Field(default=24 * 3600, ge=0)

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_level(cls, value: Any) -> Any:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("refill_cooldown", mode="before")
    @classmethod
    def _duration(cls, value: Any) -> int:
        return parse_duration(value)

    @field_validator("database_url")
    @classmethod
    def _database_scheme(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not value.get_secret_value().startswith(_DATABASE_SCHEMES):
            raise ValueError("expected sqlite:///path or postgresql://user:password@host:5432/database")
        if value is not None and not value.get_secret_value().startswith("sqlite:"):
            try:
                urlsplit(value.get_secret_value()).port  # noqa: B018 - reading the port checks it
            except ValueError:
                raise ValueError(
                    "a malformed URL: expected postgresql://user:password@host:5432/database"
                    " (a password with @ : / must be percent-encoded)"
                ) from None
        return value

    @field_validator("discord_token")
    @classmethod
    def _token_not_blank(cls, value: SecretStr) -> SecretStr:
        token = value.get_secret_value().strip()
        if not token:
            raise ValueError("must not be blank")
        if any(c.isspace() or not c.isprintable() for c in token):  # a "Bot " prefix, two lines pasted...
            raise ValueError("must be the token alone, without a space or line break (nor a 'Bot ' prefix)")
        return SecretStr(token)

    @model_validator(mode="after")
    def _consistent(self) -> Settings:
        if self.small_blind > self.big_blind:
            raise ValueError("SMALL_BLIND must not exceed BIG_BLIND")
        if self.min_buy_in > self.max_buy_in:
            raise ValueError("MIN_BUY_IN must not exceed MAX_BUY_IN")
        if self.min_buy_in < self.big_blind:
            raise ValueError("MIN_BUY_IN must be at least BIG_BLIND")
        return self

    @property
    def database(self) -> str:
        """The database URL the bot opens: DATABASE_URL, else sqlite:///DATABASE_PATH."""
        if self.database_url is not None:
            return self.database_url.get_secret_value()
        return f"sqlite:///{self.database_path}"

    @property
    def log_level_number(self) -> int:
        """The `logging` module's number for LOG_LEVEL."""
        return int(logging.getLevelName(self.log_level))

    def table_defaults(self) -> dict[str, int]:
        """Settings a new table starts with when its server has not chosen others (chips, seconds)."""
        return {
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "starting_stack": self.starting_stack,
            "turn_timeout": self.turn_timeout,
            "min_buy_in": self.min_buy_in,
            "max_buy_in": self.max_buy_in,
        }


def _describe(error: Any) -> str:
    loc = error.get("loc") or ()
    key = str(loc[0]).upper() if loc else ""
    kind = error.get("type", "")
    message = str(error.get("msg", "invalid"))
    if kind == "missing":
        return f"{key} is required (set it in the environment or in .env)"
    if message.startswith("Value error, "):
        message = message[len("Value error, ") :]
    if not key:
        return message
    text = f"{key}: {message}"
    if key not in ("DISCORD_TOKEN", "DATABASE_URL") and "input" in error and not isinstance(error["input"], dict):
        shown = str(error["input"])
        text += f" (got {shown[:40]!r})"
    return text


def load_settings(**overrides: Any) -> Settings:
    """Read the settings from the environment and `.env` (in the working directory).

    Raises ConfigError whose message is a single line naming each missing or malformed key; the
    token's value is never included.
    """
    try:
        return Settings(**overrides)
    except ValidationError as exc:
        raise ConfigError("; ".join(_describe(e) for e in exc.errors())) from None
