"""Decision puzzles in a channel (issue 17; docs/practice.md): post a spot, take members' private answers, reveal.

One open puzzle per channel. It is kept in storage as well as in memory (`Storage.open_puzzle`), and so are the
answers, so that a restart loses nothing: the next process reads the open puzzles back (`restore`) and reveals each
on time, or at once when its minute passed while the bot was down (the Discord layer arms the timers). A process
that takes a shard over while running reads that shard's puzzles back the same way, and one that lost a shard's
lease lets its puzzles go (`release`): only the lease holder reveals them (docs/architecture.md, "Scaling out").
The reveal closes the puzzle in storage in the same transaction as it marks every answer favoured by the numbers
or not (`bot.poker.puzzles.assess`), and returns the channel's vote.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.poker.puzzles import Answer, Assessment, Spot, assess
from bot.storage import OpenPuzzleRow, Storage
from bot.tables.errors import ServiceError
from bot.tables.puzzles import load_spots, pick_spot

log = logging.getLogger(__name__)

__all__ = ["REVEAL_AFTER_S", "OpenPuzzle", "PuzzleBoard", "Revealed"]

#: Seconds a puzzle stays open before its answer is shown.
REVEAL_AFTER_S = 60.0


@dataclass
class OpenPuzzle:
    """A puzzle posted in a channel and not yet revealed: `posted_at` in the clock's seconds, `language` the
    language of its public texts (the post and the reveal)."""

    puzzle_id: str
    guild_id: int
    channel_id: int
    spot: Spot
    posted_at: float
    language: str = "en"

    @property
    def reveal_at(self) -> float:
        """When the answer is shown: a minute after the post (`REVEAL_AFTER_S`)."""
        return self.posted_at + REVEAL_AFTER_S


@dataclass(frozen=True)
class Revealed:
    """A revealed puzzle: its spot, what the numbers say, and the votes by answer."""

    spot: Spot
    assessment: Assessment
    votes: dict[Answer, int]


@dataclass
class PuzzleBoard:
    """The open puzzles of every channel, and the spots already asked in each (to vary them)."""

    storage: Storage
    rng: random.Random = field(default_factory=random.Random)
    open: dict[int, OpenPuzzle] = field(default_factory=dict)
    asked: dict[int, set[str]] = field(default_factory=dict)

    async def post(self, guild_id: int, channel_id: int, now: float, language: str = "en") -> OpenPuzzle:
        """Open a new puzzle in the channel, kept in storage until its reveal. Raises ServiceError("puzzle_open")
        while one is open there (also one that storage holds for the channel)."""
        if channel_id in self.open:
            raise ServiceError("puzzle_open")
        asked = self.asked.setdefault(channel_id, set())
        spot = pick_spot(self.rng, frozenset(asked))
        puzzle = OpenPuzzle(secrets.token_hex(4), guild_id, channel_id, spot, now, language)
        row = OpenPuzzleRow(channel_id, guild_id, puzzle.puzzle_id, spot.key, language, now)
        if not await self.storage.open_puzzle(row):
            raise ServiceError("puzzle_open")
        asked.add(spot.key)
        self.open[channel_id] = puzzle
        return puzzle

    async def restore(self, owns: Callable[[int], bool] = lambda _guild_id: True) -> list[OpenPuzzle]:
        """Read back the puzzles that storage holds open (after a restart) for the guilds this process `owns`,
        and return those not already in memory, oldest first. A puzzle whose spot no longer ships is closed
        without marking its answers (logged)."""
        spots = {spot.key: spot for spot in load_spots()}
        restored: list[OpenPuzzle] = []
        for row in await self.storage.open_puzzles():
            if not owns(row.guild_id) or row.channel_id in self.open:
                continue
            spot = spots.get(row.spot_key)
            if spot is None:
                log.warning("puzzle %s: spot %s no longer ships; closed unrevealed", row.puzzle_id, row.spot_key)
                await self.storage.close_puzzle(row.puzzle_id)
                continue
            puzzle = OpenPuzzle(row.puzzle_id, row.guild_id, row.channel_id, spot, row.posted_at, row.language)
            self.open[row.channel_id] = puzzle
            self.asked.setdefault(row.channel_id, set()).add(spot.key)
            restored.append(puzzle)
        return restored

    def release(self, guild_ids: Callable[[int], bool]) -> list[int]:
        """Forget the open puzzles of the guilds `guild_ids` selects (this process lost their shard's lease: they
        stay open in storage for the process that runs them now); returns their channel ids."""
        released = [channel for channel, puzzle in self.open.items() if guild_ids(puzzle.guild_id)]
        for channel in released:
            del self.open[channel]
        return released

    async def answer(self, channel_id: int, user_id: int, puzzle_id: str, answer: Answer) -> None:
        """Keep a member's answer (a new one replaces it until the reveal). Raises ServiceError("puzzle_over")
        when that puzzle is no longer open."""
        puzzle = self.open.get(channel_id)
        if puzzle is None or puzzle.puzzle_id != puzzle_id:
            raise ServiceError("puzzle_over")
        if not await self.storage.answer_puzzle(puzzle.guild_id, user_id, puzzle_id, puzzle.spot.key, answer.value):
            raise ServiceError("puzzle_over")

    async def reveal(self, channel_id: int, puzzle_id: str | None = None) -> Revealed:
        """Close the channel's open puzzle (only `puzzle_id` when given) and say what the numbers favour.
        Raises ServiceError("no_puzzle") when there is none (or it was another one)."""
        puzzle = self.open.get(channel_id)
        if puzzle is None or (puzzle_id is not None and puzzle.puzzle_id != puzzle_id):
            raise ServiceError("no_puzzle")
        del self.open[channel_id]
        assessment = assess(puzzle.spot)
        votes = await self.storage.reveal_puzzle(puzzle.puzzle_id, [a.value for a in assessment.favoured])
        return Revealed(puzzle.spot, assessment, {Answer(k): v for k, v in votes.items()})
