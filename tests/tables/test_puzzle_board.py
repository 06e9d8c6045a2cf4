"""Decision puzzles at the service level (issue 17): an open puzzle and its answers survive a restart (a new
storage connection and a new board over the same database), only the guilds this process owns are taken back, and
the reveal closes the puzzle for good."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.poker.puzzles import Answer
from bot.storage import OpenPuzzleRow, Storage
from bot.tables import ServiceError
from bot.tables.puzzle_board import REVEAL_AFTER_S, PuzzleBoard
from tests.tables.conftest import DEFAULTS

GUILD, OTHER_GUILD = 1, 2
CHANNEL, OTHER_CHANNEL = 10, 20
ALICE, BOB = 101, 102


async def test_an_open_puzzle_and_its_answers_survive_a_restart(db_path: Path) -> None:
    storage = await Storage.open(db_path, defaults=DEFAULTS)
    board = PuzzleBoard(storage, random.Random(5))
    posted = await board.post(GUILD, CHANNEL, 1_000.0, "fr")
    await board.post(OTHER_GUILD, OTHER_CHANNEL, 1_010.0)
    await board.answer(CHANNEL, ALICE, posted.puzzle_id, Answer.FOLD)
    await board.answer(CHANNEL, BOB, posted.puzzle_id, Answer.CALL)
    await storage.close()  # the process stops

    storage = await Storage.open(db_path, defaults=DEFAULTS)
    try:
        board = PuzzleBoard(storage, random.Random(6))
        restored = await board.restore(owns=lambda guild_id: guild_id == GUILD)  # the other guild: another shard
        assert [(p.puzzle_id, p.spot, p.posted_at, p.language) for p in restored] == [
            (posted.puzzle_id, posted.spot, 1_000.0, "fr")
        ]
        assert restored[0].reveal_at == 1_000.0 + REVEAL_AFTER_S
        assert await board.restore() != []  # the other guild's, when this process takes its shard over
        assert await board.restore() == []  # nothing twice
        with pytest.raises(ServiceError) as refused:
            await board.post(GUILD, CHANNEL, 1_020.0)
        assert refused.value.code == "puzzle_open"
        await board.answer(CHANNEL, BOB, posted.puzzle_id, Answer.RAISE)  # changes his mind after the restart
        revealed = await board.reveal(CHANNEL)
        assert revealed.spot == posted.spot
        assert revealed.votes == {Answer.FOLD: 1, Answer.RAISE: 1}
        with pytest.raises(ServiceError) as over:
            await board.answer(CHANNEL, ALICE, posted.puzzle_id, Answer.CALL)
        assert over.value.code == "puzzle_over"
        assert [row.channel_id for row in await storage.open_puzzles()] == [OTHER_CHANNEL]
        record = await storage.puzzle_record(GUILD, BOB)
        assert (record.answered, record.revealed) == (1, 1)
    finally:
        await storage.close()


async def test_a_stored_puzzle_whose_spot_no_longer_ships_is_closed_not_restored(storage: Storage) -> None:
    await storage.open_puzzle(OpenPuzzleRow(CHANNEL, GUILD, "deadbeef", "no-such-spot", "en", 1_000.0))
    board = PuzzleBoard(storage)
    assert await board.restore() == []
    assert await storage.open_puzzles() == []
    assert (await board.post(GUILD, CHANNEL, 1_100.0)).channel_id == CHANNEL  # the channel is free
