"""Decision puzzles' answers (issue 17): one per member and puzzle, marked at the reveal, each member's record."""

from __future__ import annotations

from bot.storage import PuzzleRecord, Storage
from tests.storage.conftest import GUILD

ALICE, BOB = 101, 102


async def test_answers_are_kept_marked_at_the_reveal_and_counted_per_member(store: Storage) -> None:
    assert await store.answer_puzzle(GUILD, ALICE, "p1", "rulebook-001", "fold")
    assert await store.answer_puzzle(GUILD, ALICE, "p1", "rulebook-001", "call")  # changed her mind
    assert await store.answer_puzzle(GUILD, BOB, "p1", "rulebook-001", "raise")
    assert await store.reveal_puzzle("p1", {"call"}) == {"call": 1, "raise": 1}
    assert not await store.answer_puzzle(GUILD, BOB, "p1", "rulebook-001", "call")  # too late: revealed
    assert await store.answer_puzzle(GUILD, ALICE, "p2", "phh-x", "fold")
    assert await store.puzzle_record(GUILD, ALICE) == PuzzleRecord(GUILD, ALICE, 2, 1, 1)
    assert await store.puzzle_record(GUILD, BOB) == PuzzleRecord(GUILD, BOB, 1, 1, 0)
