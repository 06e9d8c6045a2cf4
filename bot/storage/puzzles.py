"""Decision puzzles (issue 17): the puzzle open in each channel (restored after a restart), and the answers, one
per member and posted puzzle, marked when the puzzle is revealed (which closes it, in the same transaction)."""

from __future__ import annotations

from collections.abc import Collection

from bot.storage.executor import Tx
from bot.storage.models import Clock, OpenPuzzleRow, PuzzleRecord

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
    async def open(tx: Tx, row: OpenPuzzleRow) -> bool:
        """Body of `Storage.open_puzzle`."""
        changed = await tx.execute(
            """
            INSERT INTO open_puzzles (channel_id, guild_id, puzzle_id, spot_key, language, posted_at)
            VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (channel_id) DO NOTHING
            """,
            (row.channel_id, row.guild_id, row.puzzle_id, row.spot_key, row.language, row.posted_at),
        )
        return changed > 0

    @staticmethod
    async def open_ones(tx: Tx) -> list[OpenPuzzleRow]:
        """Body of `Storage.open_puzzles`."""
        rows = await tx.all(
            "SELECT channel_id, guild_id, puzzle_id, spot_key, language, posted_at FROM open_puzzles ORDER BY posted_at"
        )
        return [
            OpenPuzzleRow(
                int(r["channel_id"]),
                int(r["guild_id"]),
                str(r["puzzle_id"]),
                str(r["spot_key"]),
                str(r["language"]),
                float(r["posted_at"]),
            )
            for r in rows
        ]

    @staticmethod
    async def close(tx: Tx, puzzle_id: str) -> None:
        """Body of `Storage.close_puzzle`."""
        await tx.execute("DELETE FROM open_puzzles WHERE puzzle_id = ?", (puzzle_id,))

    @staticmethod
    async def reveal(tx: Tx, puzzle_id: str, favoured: Collection[str]) -> dict[str, int]:
        """Body of `Storage.reveal_puzzle`."""
        await tx.execute("DELETE FROM open_puzzles WHERE puzzle_id = ?", (puzzle_id,))
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
