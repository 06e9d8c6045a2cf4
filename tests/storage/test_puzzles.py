"""Decision puzzles' answers (issue 17): one per member and puzzle, marked at the reveal, each member's record."""

from __future__ import annotations

from bot.storage import OpenPuzzleRow, PuzzleRecord, Storage
from tests.storage.conftest import DEFAULTS, GUILD, FakeClock

CHANNEL = 555

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


async def test_an_open_puzzle_is_kept_one_per_channel_across_a_reopen_and_closed_by_its_reveal(
    database_url: str, clock: FakeClock
) -> None:
    """Issue 17: a puzzle open when the bot stops is read back by the next process, with its answers; the reveal
    closes it in the same transaction as the answers' marking."""
    store = await Storage.open(database_url, defaults=DEFAULTS, clock=clock)
    first = OpenPuzzleRow(CHANNEL, GUILD, "0a1b2c3d", "rulebook-001", "fr", 1_700_000_000.5)
    assert await store.open_puzzle(first)
    assert not await store.open_puzzle(OpenPuzzleRow(CHANNEL, GUILD, "ffffffff", "phh-x", "en", 1_700_000_001.0))
    assert await store.open_puzzle(OpenPuzzleRow(CHANNEL + 1, GUILD, "00000001", "phh-y", "en", 1_700_000_002.0))
    assert await store.answer_puzzle(GUILD, ALICE, first.puzzle_id, first.spot_key, "call")
    await store.close()

    store = await Storage.open(database_url, defaults=DEFAULTS, clock=clock)  # the next process
    try:
        assert [row.puzzle_id for row in await store.open_puzzles()] == ["0a1b2c3d", "00000001"]
        assert (await store.open_puzzles())[0] == first
        assert await store.reveal_puzzle(first.puzzle_id, {"call"}) == {"call": 1}
        assert [row.puzzle_id for row in await store.open_puzzles()] == ["00000001"]
        assert await store.puzzle_record(GUILD, ALICE) == PuzzleRecord(GUILD, ALICE, 1, 1, 1)
        assert await store.open_puzzle(OpenPuzzleRow(CHANNEL, GUILD, "0a1b2c3e", "phh-z", "en", 1_700_000_100.0))
    finally:
        await store.close()
