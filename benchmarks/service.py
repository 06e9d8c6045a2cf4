"""The table service's own work per action: CPU and table pictures (`TableSnapshot` builds) per action, against a
peer checkout of the repository (the code before a change) in the same run.

Run from the repository root:

    python benchmarks/service.py [--peer DIR] [--tables 30] [--seconds 5] [--warmup 2] [--repeat 3] [--profile]

`--tables` six-player tables of one `TableService` over a new SQLite file play hands in one event loop as
`benchmarks/load.py` plays them (each player acts when the table message says it is their turn, with the amount
the button names: checks or calls, folds one time in ten facing a bet; the next hand at once), through a
notifier that only keeps each table's last picture (no rendering, no Discord: what is left is the service's
action path — the turn checks, the write-ahead, the engine, the rollback copy, the pictures, the delivery queue).
Pictures (PNG) are off. Printed per side: CPU time of the process (`time.process_time`, the database thread
included) per action, pictures built per action (`Snapshots.built`), and the CPU of one picture in the same
pattern of builds, timed alone (`_build_cost`: the deal's, the streets', the result's during their changes, the
table edit's after each action), so the pictures' CPU per action; `--profile` adds cProfile call counts per
action of the functions of bot/tables/snapshot.py, state.py, core.py and hands.py (an async function counts once
per resumption). Each side runs in a process of its own, `--repeat` times, alternating; the best of each figure
is printed. `--peer DIR`: the root of another checkout (e.g. `git archive main | tar -x -C DIR`); the ratios
printed are the peer's CPU over ours.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import json
import os
import pstats
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GUILD = 1
PLAYERS = 6


class LastPicture:
    """A Notifier that remembers each channel's last table picture and wakes its players (nothing else)."""

    def __init__(self) -> None:
        self.last: dict[int, Any] = {}
        self.changed: dict[int, asyncio.Event] = {}
        self.message_id = 0

    def _seen(self, snapshot: Any) -> None:
        self.last[snapshot.channel_id] = snapshot
        self.changed.setdefault(snapshot.channel_id, asyncio.Event()).set()

    async def post_table(self, snapshot: Any) -> int:
        self.message_id += 1
        self._seen(snapshot)
        return self.message_id

    async def edit_table(self, snapshot: Any, carrier: Any = None) -> None:
        self._seen(snapshot)

    async def acknowledge(self, carrier: Any) -> None:
        return None

    async def retire_table(self, snapshot: Any, message_id: int, result: Any) -> None:
        return None

    async def announce(self, snapshot: Any, announcement: Any, nonce: Any = None, picture: Any = None) -> None:
        return None

    async def send_hole_cards(
        self, snapshot: Any, user_id: int, cards: Any, nonce: Any = None, proofs: Any = ()
    ) -> bool:
        return True

    async def reply(self, application_id: int, token: str, text: str) -> None:
        return None

    async def send_coach(self, snapshot: Any, user_id: int, facts: Any, nonce: Any = None) -> bool:
        return True


def _built(service: Any) -> int:
    """Pictures built so far by every table of `service` (the counter `Snapshots.built`)."""
    return sum(runner._core._snapshots.built for runner in service.runners.values())


async def _run(tables: int, seconds: float, warmup: float, profile: bool) -> dict[str, Any]:
    from bot.poker import ActionKind, PokerError
    from bot.storage import GuildDefaults, Storage
    from bot.tables import TableService
    from bot.tables.options import TableOptions

    folder = tempfile.mkdtemp()
    defaults = GuildDefaults(language="en", starting_grant=10**9, refill_cooldown_s=3600)
    storage = await Storage.open(Path(folder) / "bench.sqlite3", defaults=defaults)
    notifier = LastPicture()
    service = TableService(storage, notifier, next_hand_delay_s=0.0)
    counts = {"actions": 0}
    measuring = asyncio.Event()
    stop = asyncio.Event()

    async def table(n: int) -> None:
        channel, rng = 10_000 + n, random.Random(n)
        users = [1_000_000 + PLAYERS * n + i for i in range(PLAYERS)]
        await service.create_table(GUILD, channel, users[0], TableOptions.for_blinds(1, 2, pictures=False))
        runner = service.get(channel)
        for user in users:
            await runner.join(user, f"player{user % 1000}", buy_in=100)
        await runner.start_game(users[0])
        changed = notifier.changed.setdefault(channel, asyncio.Event())
        acted_on = None
        while not stop.is_set():
            changed.clear()
            snap = notifier.last.get(channel)
            if snap is None or snap is acted_on or snap.actor_user_id is None or snap.legal is None:
                await changed.wait()
                continue
            legal, user = snap.legal, snap.actor_user_id
            if legal.can_check:
                kind, expected = ActionKind.CHECK, None
            elif rng.random() < 0.1:
                kind, expected = ActionKind.FOLD, None
            else:
                kind, expected = ActionKind.CALL, legal.call_amount
            acted_on = snap
            try:
                await runner.act(user, kind, hand_number=snap.hand_number, expected=expected)
            except PokerError:  # the picture was already old: wait for the next one
                await changed.wait()
                continue
            if measuring.is_set():
                counts["actions"] += 1
            if len(snap.seats) < PLAYERS:  # a player who lost every chip sits down again (for the next hand)
                seated = {seat.user_id for seat in snap.seats}
                for again in users:
                    if again not in seated:
                        with contextlib.suppress(PokerError):
                            await runner.join(again, f"player{again % 1000}", buy_in=100)
            await changed.wait()

    tasks = [asyncio.create_task(table(n)) for n in range(tables)]
    await asyncio.sleep(warmup)
    gc.freeze()  # what is alive now out of the collector's sight, as the bot does once ready (bot/runtime.py)
    for task in tasks:
        if task.done():
            task.result()  # a table that failed: raise its error
    profiler = cProfile.Profile() if profile else None
    built, cpu = _built(service), time.process_time()
    measuring.set()
    if profiler is not None:
        profiler.enable()
    await asyncio.sleep(seconds)
    if profiler is not None:
        profiler.disable()
    cpu, built = time.process_time() - cpu, _built(service) - built
    actions = counts["actions"]
    measuring.clear()
    stop.set()
    for n in range(tables):
        notifier.changed.setdefault(10_000 + n, asyncio.Event()).set()
    for failed in await asyncio.gather(*tasks, return_exceptions=True):
        if failed is not None:
            raise failed  # a table that failed: the figures would not be the workload's
    await service.close()
    await storage.close()
    result: dict[str, Any] = {"actions": actions, "us": cpu / actions * 1e6, "built": built / actions}
    result["build_us"] = min(_build_cost(300) for _ in range(3))
    if profiler is not None:
        stats = pstats.Stats(profiler)
        calls: dict[str, float] = {}
        for (path, _line, name), (_cc, ncalls, *_rest) in stats.stats.items():  # type: ignore[attr-defined]
            if "bot/tables/" in path and Path(path).name in ("snapshot.py", "state.py", "core.py", "hands.py"):
                calls[f"{Path(path).name}:{name}"] = ncalls / actions
        result["calls"] = dict(sorted(calls.items(), key=lambda kv: -kv[1])[:14])
    return result


def _build_cost(hands: int) -> float:
    """Microseconds of CPU per picture when `hands` six-player hands (checks and calls) are played on a
    `TableState` and pictured as the service pictures them: the deal's (the hole-card DMs' during the change,
    then the new table message's), one announcement's per street dealt and the result's (during the change),
    and the table message's edit after each action (a new version each time). The pictures alone are timed."""
    from bot.poker import ActionKind, StreetDealt
    from bot.tables.options import TableOptions
    from bot.tables.snapshot import Snapshots
    from bot.tables.state import TableIds, TableState

    spent, built = 0.0, 0

    def picture(pictures: Any) -> None:
        nonlocal spent
        start = time.process_time()
        pictures.current(0.0)
        spent += time.process_time() - start

    for n in range(hands):
        state = TableState(TableIds(1, GUILD, 10_000, 1), TableOptions.for_blinds(1, 2, pictures=False))
        pictures = Snapshots(state)
        with state.changing():
            for seat in range(1, PLAYERS + 1):
                state.table.sit(seat, 1000 + seat, 100)
                state.names[1000 + seat] = f"player{seat}"
        with state.changing():
            hand = state.table.start_hand(rng=random.Random(n))
            seats = tuple(state.table.hand_seats)
            state.hand, state.hand_number = hand, n + 1
            state.hand_seats, state.hand_users = seats, tuple(state.table.seats[s].player_id for s in seats)
            picture(pictures)  # the hole-card DMs
        picture(pictures)  # the new table message
        while not hand.is_complete:
            with state.changing():
                before = hand.event_count
                hand.act(ActionKind.CHECK if hand.can_check() else ActionKind.CALL)
                for event in hand.events_since(before):
                    if isinstance(event, StreetDealt):
                        picture(pictures)  # the street's announcement
                if hand.is_complete:
                    state.table.end_hand(hand)
                    picture(pictures)  # the result's announcement
                    state.hand, state.hand_seats, state.hand_users = None, (), ()
                state.deadline = float(hand.event_count)
            picture(pictures)  # the table message's edit
        built += pictures.built
    return spent / built * 1e6


def _side(root: Path, args: argparse.Namespace) -> dict[str, Any]:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=str(root))
    command = [sys.executable, __file__, "--child", "--tables", str(args.tables), "--seconds", str(args.seconds)]
    command += ["--warmup", str(args.warmup)] + (["--profile"] if args.profile else [])
    out = subprocess.run(command, env=env, cwd=root, check=True, capture_output=True, text=True).stdout
    return dict(json.loads(out.splitlines()[-1]))


def main() -> None:
    """Measure and print ours (and the peer's, with the ratio)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", type=Path, help="root of the checkout to compare with")
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="cProfile call counts per action (slower)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(asyncio.run(_run(args.tables, args.seconds, args.warmup, args.profile))))
        return
    sides = {"ours": ROOT} if args.peer is None else {"ours": ROOT, "peer": args.peer.resolve()}
    best: dict[str, dict[str, Any]] = {}
    for _ in range(args.repeat):  # the sides alternate: a busy moment of the machine falls on both
        for side, root in sides.items():
            got = _side(root, args)
            print(
                f"  {side}: {got['us']:.0f} us CPU, {got['built']:.3f} pictures per action ({got['actions']} actions),"
                f" {got['build_us']:.1f} us per picture"
            )
            if side not in best or got["us"] < best[side]["us"]:
                best[side] = {**got, "build_us": min(got["build_us"], best.get(side, got)["build_us"])}
            else:  # each figure's best is its own (the pictures' microbenchmark is timed apart)
                best[side]["build_us"] = min(got["build_us"], best[side]["build_us"])
    print(f"{args.tables} tables x {PLAYERS}, {args.seconds:g} s measured; best of {args.repeat} processes per side:")
    for side, root in sides.items():
        got = best[side]
        print(f"  {side} ({root}): {got['us']:.0f} us CPU per action, {got['built']:.3f} pictures built per action,")
        print(
            f"      {got['build_us']:.1f} us CPU per picture, so {got['build_us'] * got['built']:.1f} us of pictures"
            " per action"
        )
        for name, per_action in got.get("calls", {}).items():
            print(f"      {per_action:6.3f} calls per action  {name}")
    if args.peer is not None:
        print(f"  ratio peer / ours: {best['peer']['us'] / best['ours']['us']:.2f}x (CPU per action)")
        peer, ours = best["peer"], best["ours"]
        print(f"  ratio peer / ours: {peer['build_us'] / ours['build_us']:.2f}x (CPU per picture)")
        per_action = (peer["build_us"] * peer["built"]) / (ours["build_us"] * ours["built"])
        print(f"  ratio peer / ours: {per_action:.2f}x (CPU of the pictures per action)")


if __name__ == "__main__":
    main()
