"""The hand-action log's batch on PostgreSQL goes out on the loop's next turn (`ActionLog.append`): every turn of a
busy event loop waits for everything else the loop has to do (a median 4-10 ms at 100 busy tables, `lag_entry.py`),
and every action's announcement waits for its batch. The appends of one turn still make one batch."""

from __future__ import annotations

import asyncio

from bot.storage.executor import Body, Dialect, Executor, Params, T
from bot.storage.hands import ActionLog
from bot.storage.models import Row


class Recorded(Executor):
    """A PostgreSQL-like executor that answers each actions' batch at once, noting its hands."""

    dialect = Dialect.POSTGRESQL

    def __init__(self) -> None:
        self.batches: list[list[int]] = []

    async def write_ahead_statement(self, sql: str, params: Params = ()) -> list[Row]:
        hands = [int(hand) for hand in params[0]]  # type: ignore[index]
        self.batches.append(hands)
        return [{"hand_id": hand, "seq": 0} for hand in hands]

    async def write(self, body: Body[T]) -> T:
        raise AssertionError("the actions go by write_ahead_statement")

    async def read(self, body: Body[T]) -> T:
        raise AssertionError("no reads here")

    async def _close(self) -> None:
        pass

    @property
    def description(self) -> str:
        return "recorded"


async def test_a_batch_goes_out_on_the_next_turn_with_every_append_of_this_one() -> None:
    executor = Recorded()
    log = ActionLog(executor, clock=lambda: 0.0)
    first = asyncio.ensure_future(log.append(1, {"kind": "call"}))
    second = asyncio.ensure_future(log.append(2, {"kind": "check"}))
    await asyncio.sleep(0)  # the appends run (this turn)
    assert executor.batches == []
    await asyncio.sleep(0)  # the next turn: the batch is sent (it took two more turns: fails on the old code)
    assert executor.batches == [[1, 2]]
    assert await first == 0 and await second == 0
    third = asyncio.ensure_future(log.append(3, {"kind": "fold"}))  # no writer running: a new one, as fast
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert executor.batches == [[1, 2], [3]]
    assert await third == 0
    await log.close()
