"""Decision puzzles in a channel (issue 17; docs/practice.md): post a spot, take members' private answers, reveal.

One open puzzle per channel, in memory (an open puzzle does not survive a restart; the answers already given are
in storage, with each member's record). The reveal marks every answer favoured by the numbers or not
(`bot.poker.puzzles.assess`) and returns the channel's vote.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field

from bot.poker.puzzles import Answer, Assessment, Spot, assess
from bot.storage import Storage
from bot.tables.errors import ServiceError
from bot.tables.puzzles import pick_spot

__all__ = ["OpenPuzzle", "PuzzleBoard", "Revealed"]

#: Seconds a puzzle stays open before its answer is shown.
REVEAL_AFTER_S = 60.0


@dataclass
class OpenPuzzle:
    """A puzzle posted in a channel and not yet revealed."""

    puzzle_id: str
    guild_id: int
    channel_id: int
    spot: Spot
    posted_at: float


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

    def post(self, guild_id: int, channel_id: int, now: float) -> OpenPuzzle:
        """Open a new puzzle in the channel. Raises ServiceError("puzzle_open") while one is open there."""
        if channel_id in self.open:
            raise ServiceError("puzzle_open")
        asked = self.asked.setdefault(channel_id, set())
        spot = pick_spot(self.rng, frozenset(asked))
        asked.add(spot.key)
        puzzle = OpenPuzzle(secrets.token_hex(4), guild_id, channel_id, spot, now)
        self.open[channel_id] = puzzle
        return puzzle

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
