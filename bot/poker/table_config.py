"""A table's fixed settings (`TableConfig`: hand settings, seats, the dead-button and missed-blind rules) and the blind
schedule it agrees before play (rule book 000 §04: raising the blinds is an option agreed before playing): which
level is in force for the next hand, by hands played or minutes since the first deal.

Pure: no I/O; time is passed in (seconds since the first deal).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.poker.errors import TableError
from bot.poker.settings import MAX_PLAYERS, HandSettings

__all__ = ["BlindLevel", "BlindSchedule", "LevelBy", "TableConfig", "TableKind"]


class TableKind(StrEnum):
    """A cash table (its stacks are balance chips, bought in through the ledger) or a tournament (rule book 000 §07:
    the same stack for everyone, the last player with chips wins; its chips are not balance chips). Stored as its
    string."""

    CASH = "cash"
    TOURNAMENT = "tournament"


class LevelBy(StrEnum):
    """What a blind schedule counts: hands played, or minutes since the first deal. Stored as its string."""

    HANDS = "hands"
    MINUTES = "minutes"


@dataclass(frozen=True, slots=True)
class BlindLevel:
    """One level of a blind schedule (chips). `ante` is per player; `big_blind_ante` is posted by the BB alone."""

    small_blind: int
    big_blind: int
    ante: int = 0
    big_blind_ante: int = 0

    def to_json(self) -> list[int]:
        """[small_blind, big_blind, ante, big_blind_ante]."""
        return [self.small_blind, self.big_blind, self.ante, self.big_blind_ante]

    @classmethod
    def from_json(cls, data: Sequence[int]) -> BlindLevel:
        """Inverse of `to_json` (2 to 4 ints)."""
        return cls(*(int(x) for x in data))


@dataclass(frozen=True, slots=True)
class BlindSchedule:
    """Blind levels agreed at creation (rule book 000 §04: raising the blinds is an option to agree before playing).

    Attributes:
        levels: the levels in order; the last one stays once reached.
        by: HANDS (a new level every `length` hands) or MINUTES (every `length` minutes since the first
            deal); its string is read as the member.
        length: hands or minutes per level (>= 1).

    Raises:
        TableError: no levels, a bad unit or length.
    """

    levels: tuple[BlindLevel, ...]
    by: LevelBy
    length: int

    def __post_init__(self) -> None:
        if not isinstance(self.by, LevelBy) and self.by in tuple(LevelBy):
            object.__setattr__(self, "by", LevelBy(self.by))
        if not self.levels or not isinstance(self.by, LevelBy) or self.length < 1:
            raise TableError("table", detail="A blind schedule needs levels, 'hands' or 'minutes', and a length >= 1")
        for level in self.levels:
            amounts = (level.small_blind, level.big_blind, level.ante, level.big_blind_ante)
            if any(not isinstance(a, int) or a < 0 for a in amounts) or not 0 <= level.small_blind <= level.big_blind:
                raise TableError("table", detail=f"Bad blind level {level.to_json()}")
            if level.big_blind < 1 or (level.ante and level.big_blind_ante):
                raise TableError("table", detail=f"Bad blind level {level.to_json()}")

    def level_index(self, hands_played: int, now: float) -> int:
        """Index of the level in force for the next hand, given the hands already played and `now`
        (seconds since the first deal)."""
        if self.by is LevelBy.HANDS:
            index = hands_played // self.length
        else:
            index = int(max(now, 0.0) // (self.length * 60))
        return min(index, len(self.levels) - 1)

    def to_json(self) -> dict[str, Any]:
        """{"levels": [[sb, bb, ante, bb_ante], ...], "by": ..., "length": ...}."""
        return {"levels": [lv.to_json() for lv in self.levels], "by": self.by.value, "length": self.length}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BlindSchedule:
        """Inverse of `to_json`."""
        return cls(tuple(BlindLevel.from_json(lv) for lv in data["levels"]), LevelBy(data["by"]), int(data["length"]))


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A table's fixed settings.

    Attributes:
        settings: the hand settings (blinds, antes, straddle); with a schedule, its blinds and antes
            are replaced by the current level's.
        seat_count: seats numbered 1..seat_count (2..10).
        schedule: optional blind schedule.
        dead_button: the card room's dead-button rule (module docstring) instead of the simple
            rotation of rule book 000.
        missed_blinds: players who missed their big blind, and new players, post or wait for the big
            blind (module docstring).
    """

    settings: HandSettings = field(default_factory=HandSettings)
    seat_count: int = MAX_PLAYERS
    schedule: BlindSchedule | None = None
    dead_button: bool = False
    missed_blinds: bool = False

    def __post_init__(self) -> None:
        if not 2 <= self.seat_count <= MAX_PLAYERS:
            raise TableError("table", detail=f"A table has 2 to {MAX_PLAYERS} seats")

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {
            "settings": self.settings.to_json(),
            "seat_count": self.seat_count,
            "schedule": None if self.schedule is None else self.schedule.to_json(),
            **({"dead_button": True} if self.dead_button else {}),
            **({"missed_blinds": True} if self.missed_blinds else {}),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableConfig:
        """Inverse of `to_json`."""
        schedule = data.get("schedule")
        return cls(
            HandSettings.from_json(data["settings"]),
            int(data["seat_count"]),
            None if schedule is None else BlindSchedule.from_json(schedule),
            bool(data.get("dead_button", False)),
            bool(data.get("missed_blinds", False)),
        )
