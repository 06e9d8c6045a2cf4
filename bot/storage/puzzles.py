"""Decision puzzles' answers (issue 17): one per member and posted puzzle; marked when the puzzle is revealed."""

from __future__ import annotations

from collections.abc import Collection

from bot.storage.executor import Tx
from bot.storage.models import Clock, PuzzleRecord

__all__ = ["Puzzles"]


class Puzzles:
    """Bodies of the `Storage` puzzle methods."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock

    async def answer(self, tx: Tx, guild_id: int, user_id: int, puzzle_id: str, spot_key: str, answer: str) -> bool:
        """Body of `Storage.answer_puzzle`."""
        changed = await tx.execute(
            """
            INSERT INTO puzzle_answers (guild_id, user_id, puzzle_id, spot_key, answer, favoured, answered_at)
            VALUES (?, ?, ?, ?, ?, NULL, ?)
            ON CONFLICT (puzzle_id, user_id) DO UPDATE SET answer = excluded.answer, answered_at = excluded.answered_at
            WHERE puzzle_answers.favoured IS NULL
            """,
            (guild_id, user_id, puzzle_id, spot_key, answer, self._clock()),
        )
        return changed > 0

    @staticmethod
    async def reveal(tx: Tx, puzzle_id: str, favoured: Collection[str]) -> dict[str, int]:
        """Body of `Storage.reveal_puzzle`."""
        rows = await tx.all("SELECT user_id, answer FROM puzzle_answers WHERE puzzle_id = ?", (puzzle_id,))
        for row in rows:
            await tx.execute(
                "UPDATE puzzle_answers SET favoured = ? WHERE puzzle_id = ? AND user_id = ?",
                (int(row["answer"] in favoured), puzzle_id, row["user_id"]),
            )
        votes: dict[str, int] = {}
        for row in rows:
            votes[row["answer"]] = votes.get(row["answer"], 0) + 1
        return votes

    @staticmethod
    async def record(tx: Tx, guild_id: int, user_id: int) -> PuzzleRecord:
        """Body of `Storage.puzzle_record`."""
        row = await tx.one(
            """
            SELECT COUNT(*) AS answered, COALESCE(SUM(favoured), 0) AS favoured,
                   COALESCE(SUM(CASE WHEN favoured IS NOT NULL THEN 1 ELSE 0 END), 0) AS revealed
            FROM puzzle_answers WHERE guild_id = ? AND user_id = ?
            """,
            (guild_id, user_id),
        )
        assert row is not None
        return PuzzleRecord(guild_id, user_id, int(row["answered"]), int(row["revealed"]), int(row["favoured"]))
