"""Decision puzzles at the service level (issue 17): an open puzzle and its answers survive a restart (a new
storage connection and a new board over the same database), only the guilds this process owns are taken back, and
the reveal closes the puzzle for good."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.discord_ui.puzzles import Puzzles
from bot.poker.puzzles import Answer
from bot.storage import OpenPuzzleRow, Storage
from bot.storage.leases import ShardLeases
from bot.tables import ManualClock, ServiceError
from bot.tables.ownership import ShardOwnership
from bot.tables.puzzle_board import REVEAL_AFTER_S, PuzzleBoard
from tests.tables.conftest import DEFAULTS
from tests.tables.test_ownership import CHANNEL_1, GUILD_1, TTL, WallClock

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


class Channel:
    """The channel a reveal is posted in (what `Puzzles` uses of discord.py's PartialMessageable)."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send(self, content: str, **_kwargs: object) -> None:
        self.sent.append(content)


class Client:
    """What `Puzzles.restore` uses of the discord.py client: a channel to post the reveal in."""

    def __init__(self) -> None:
        self.channels: dict[int, Channel] = {}

    def get_partial_messageable(self, channel_id: int, *, guild_id: int | None = None) -> Channel:
        return self.channels.setdefault(channel_id, Channel())


async def test_a_shard_taken_over_while_running_gets_its_open_puzzles_back_and_the_loser_lets_them_go(
    db_path: Path,
) -> None:
    """Found last session: a process that took a shard over while running (the lease keeper, bot/app.py
    `_follow_shards`) restored its tables but not its open puzzles, which came back only at its next start; and
    the process that lost the lease kept revealing them. Two processes over one database, with the leases'
    seams of tests/tables/test_ownership.py."""
    clock, wall = ManualClock(), WallClock()
    first_db = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    second_db = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    first = ShardOwnership(ShardLeases(first_db), 2, (0, 1), holder="first", ttl_s=TTL, clock=wall)
    second = ShardOwnership(ShardLeases(second_db), 2, (1,), holder="second", ttl_s=TTL, clock=wall)
    first_puzzles, second_puzzles = Puzzles(PuzzleBoard(first_db)), Puzzles(PuzzleBoard(second_db))
    first_client, second_client = Client(), Client()
    try:
        assert await first.renew() == ({0, 1}, set())
        posted = await PuzzleBoard(first_db).post(GUILD_1, CHANNEL_1, clock.time())  # before its last start
        assert await first_puzzles.restore(first_client, clock, first.owns) == 1  # at start: armed
        await first_puzzles.board.answer(CHANNEL_1, ALICE, posted.puzzle_id, Answer.FOLD)
        assert await second.renew() == (set(), set())  # refused: the first process holds shard 1
        assert await second_puzzles.restore(second_client, clock, second.owns) == 0

        await clock.advance(20)  # the first process dies; its lease expires
        wall.now += TTL
        assert await second.renew() == ({1}, set())
        assert await second_puzzles.follow_shards(second_client, clock, second.owns) == 1  # was: 0 until a restart
        await second_puzzles.board.answer(CHANNEL_1, BOB, posted.puzzle_id, Answer.CALL)
        # The first process comes back: it lost shard 1, lets its puzzle go, and never reveals it.
        assert await first.renew() == (set(), {1})
        assert await first_puzzles.follow_shards(first_client, clock, first.owns) == 0
        assert first_puzzles.board.open == {} and first_puzzles.timers == {}
        await clock.advance(REVEAL_AFTER_S)
        assert first_client.channels[CHANNEL_1].sent == []
        (reveal,) = second_client.channels[CHANNEL_1].sent  # revealed once, at its minute, with both answers
        assert reveal.startswith("**Answer** — the channel voted: fold 1, call 1, raise 0.")
    finally:
        first_puzzles.stop()
        second_puzzles.stop()
        await first_db.close()
        await second_db.close()
