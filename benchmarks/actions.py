"""The hand-action log: how fast `Storage.append_action` commits actions of many busy tables, against its floor.

Run from the repository root:

    python benchmarks/actions.py [--tables 100] [--seconds 5] [--database-url sqlite:///...|postgresql://...]

Each of `--tables` tables plays one long hand in one event loop, as the table service does: append the action
(write-ahead), then store the table's state with the message it owes (one transaction through the executor),
then pause 1 ms. Printed: actions per second, the append's latency (p50/p99, ms), the process's CPU per action
(microseconds, all threads), and the floor's: the same rows inserted and committed one batch per loop turn on a
plain `sqlite3` connection in the loop, nothing else (the least a write-ahead can cost). The ratio is ours/floor
of the append's CPU alone (the states are stored by the floor too, through the same executor). With a PostgreSQL
URL the floor is not run (there is no in-process floor for a server).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.storage import Storage

GUILD = 1


async def _tables(store: Storage, count: int) -> list[tuple[int, int]]:
    made = []
    for n in range(count):
        users = (1000 + 2 * n, 1001 + 2 * n)
        table = await store.create_table(GUILD, 10_000 + n, users[0], "cash", {})
        for seat, user in enumerate(users, start=1):
            await store.buy_in(table, GUILD, user, seat, 100)
        seats = [{"seat": seat, "user_id": user, "stack": 100} for seat, user in enumerate(users, start=1)]
        made.append((table, await store.start_hand(table, 1, {"deck": []}, seats)))
    return made


class _Floor:
    """The least a write-ahead costs: rows queued during a loop turn, inserted and committed together in the loop."""

    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA synchronous = NORMAL")
        self.db.execute("PRAGMA busy_timeout = 5000")
        self.pending: list[tuple[int, int, str, float, asyncio.Future[int]]] = []
        self.seq: dict[int, int] = {}

    async def append(self, hand: int, action: dict[str, object]) -> int:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[int] = loop.create_future()
        seq = self.seq.get(hand, 10**6)
        self.seq[hand] = seq + 1
        self.pending.append((hand, seq, json.dumps(action), time.time(), future))
        if len(self.pending) == 1:
            loop.call_soon(self.flush)
        return await future

    def flush(self) -> None:
        batch, self.pending = self.pending, []
        self.db.execute("BEGIN IMMEDIATE")
        self.db.executemany(
            "INSERT INTO hand_actions (hand_id, seq, action, created_at) VALUES (?, ?, ?, ?)", [b[:4] for b in batch]
        )
        self.db.execute("COMMIT")
        for *_, future in batch:
            future.set_result(0)


async def run(url: str, tables: int, seconds: float, floor: bool) -> tuple[int, list[float], float]:
    path = url.removeprefix("sqlite:///")  # a file path is also what Storage.open takes
    store = await Storage.open(path)
    floor_db = _Floor(path) if floor else None
    try:
        made = await _tables(store, tables)
        latencies: list[float] = []
        stop = time.perf_counter() + seconds

        async def table(table_id: int, hand: int) -> None:
            n = 0
            while time.perf_counter() < stop:
                started = time.perf_counter()
                action = {"player": n % 2, "action": "call", "n": n}
                if floor_db is not None:
                    await floor_db.append(hand, action)
                else:
                    await store.append_action(hand, action)
                latencies.append(time.perf_counter() - started)
                await store.save_table_state(table_id, {"n": n}, outbox=[{"key": f"{hand}-{n}", "payload": {}}])
                n += 1
                await asyncio.sleep(0.001)

        cpu = time.process_time()
        await asyncio.gather(*(table(t, h) for t, h in made))
        cpu = time.process_time() - cpu
    finally:
        if floor_db is not None:
            floor_db.db.close()
        await store.close()
    return len(latencies), latencies, cpu


def _report(name: str, count: int, latencies: list[float], cpu: float, seconds: float) -> float:
    q = statistics.quantiles(latencies, n=100)
    per_action = cpu / count * 1e6
    print(
        f"{name:>6}: {count / seconds:8.0f} actions/s, append p50 {q[49] * 1e3:6.2f} ms p99 {q[98] * 1e3:6.2f} ms, "
        f"CPU {per_action:6.0f} us per action (append + state)"
    )
    return per_action


def main() -> None:
    """Parse the options, run ours then the floor (SQLite only), print both and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--database-url", default=None, help="default: a new SQLite file in a temporary folder")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        sqlite = options.database_url is None or options.database_url.startswith("sqlite")
        results = {}
        for name, floor in (("ours", False), ("floor", True)) if sqlite else (("ours", False),):
            url = options.database_url or f"sqlite:///{folder}/{name}.sqlite3"
            count, latencies, cpu = asyncio.run(run(url, options.tables, options.seconds, floor))
            results[name] = _report(name, count, latencies, cpu, options.seconds)
        if "floor" in results:
            print(f" ratio: ours / floor = {results['ours'] / results['floor']:.2f} (CPU per action)")


if __name__ == "__main__":
    main()
