"""Table message speed: CPU per `table_payload` (the embed and buttons the bot sends at every action), against a
peer checkout of the repository (the code before a change) in the same run.

Run from the repository root:

    python benchmarks/table_message.py [--peer DIR] [--tables 100] [--rounds 3] [--repeat 3] [--hands load|varied]
        [--shared-seats]

The workload is what a busy server asks: `--tables` hands played at the same time, one table message per action,
the tables' actions interleaved (so that the renderer's caches are shared by all of them, as in the bot). The
seeded hands of `tests/render/table_cases.py`: `load` (the default) as `benchmarks/load.py` plays them (six
players who check or call, fold one time in ten facing a bet, and show down), or `varied` (2 to 10 players,
all-ins, side pots, run twice, time banks, odd names, a fifth of the tables in French). In a process of its own
for each side (ours, the peer's, in turn, `--repeat` times): a round of hands to warm up, then `--rounds` rounds
of new hands (as at a running bot, every action's message is new); CPU time (`time.process_time`) per message, the
best process of each side. Each snapshot's seat views are new objects, unless `--shared-seats`: then a seat that
did not change since the hand's previous message is the same object, as the bot's snapshot service hands it out.
`--peer DIR`: the root of another checkout (e.g. `git worktree add /tmp/main main`, or `git archive main | tar -x
-C DIR`); the ratio printed is the peer's time over ours. Without it, ours alone.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import os
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "tests" / "render" / "table_cases.py"


def _workload(tables: int, first: int, kind: str = "load", shared: bool = False) -> list[tuple[Any, str | None]]:
    """(snapshot, table name) of every action of `tables` hands (seeds `first`, `first + 1`, ...), interleaved:
    each hand's first message, then each hand's second, and so on. kind: "load" (`load_like_hands`) or "varied"
    (`played_hands`, a fifth of the tables in French). shared: a seat view equal to the one of the hand's previous
    message is that same object, as bot/tables/snapshot.py hands them out (else every snapshot's are new)."""
    spec = importlib.util.spec_from_file_location("table_cases", CASES)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["table_cases"] = module
    spec.loader.exec_module(module)
    hands: dict[str, list[tuple[Any, str | None]]] = {}
    played = module.load_like_hands if kind == "load" else module.played_hands
    for case in played(tables, first):
        hand = case.name.split("-")[0]
        language = "fr" if kind == "varied" and int(hand.removeprefix("play")) % 5 == 0 else "en"
        snapshot = replace(case.snapshot, language=language)
        steps = hands.setdefault(hand, [])
        if shared and steps:
            before = {seat.seat: seat for seat in steps[-1][0].seats}
            seats = tuple(before[s.seat] if before.get(s.seat) == s else s for s in snapshot.seats)
            snapshot = replace(snapshot, seats=seats)
        steps.append((snapshot, case.table_name))
    longest = max(len(steps) for steps in hands.values())
    return [steps[i] for i in range(longest) for steps in hands.values() if i < len(steps)]


def _measure(tables: int, rounds: int, kind: str, shared: bool = False) -> dict[str, float]:
    """In this process (whose `bot` is the side measured): CPU ms per message over `rounds` rounds of new hands,
    after one round to warm up (what a running bot has drawn already)."""
    from bot.discord_ui.table_view import table_payload

    works = [_workload(tables, tables * r, kind, shared) for r in range(rounds + 1)]
    gc.freeze()  # the workload out of the collector's sight, as the bot's start-up state is (bot/runtime.py)
    for snapshot, name in works[0]:
        table_payload(snapshot, name)
    spent, messages = 0.0, 0
    for work in works[1:]:
        start = time.process_time()
        for snapshot, name in work:
            table_payload(snapshot, name)
        spent += time.process_time() - start
        messages += len(work)
    return {"ms": spent * 1000 / messages, "messages": messages}


def _side(root: Path, tables: int, rounds: int, kind: str, shared: bool) -> dict[str, float]:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=str(root))
    command = [sys.executable, __file__, "--child", "--tables", str(tables), "--rounds", str(rounds), "--hands", kind]
    command += ["--shared-seats"] if shared else []
    out = subprocess.run(command, env=env, cwd=root, check=True, capture_output=True, text=True).stdout
    return dict(json.loads(out.splitlines()[-1]))


def main() -> None:
    """Measure and print ours (and the peer's, with the ratio)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", type=Path, help="root of the checkout to compare with")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--hands", choices=("load", "varied"), default="load")
    parser.add_argument(
        "--shared-seats", action="store_true", help="unchanged seat views are the same objects, as the bot's are"
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_measure(args.tables, args.rounds, args.hands, args.shared_seats)))
        return
    sides = {"ours": ROOT} if args.peer is None else {"ours": ROOT, "peer": args.peer.resolve()}
    best: dict[str, dict[str, float]] = {}
    for _ in range(args.repeat):  # the sides alternate: a busy moment of the machine falls on both
        for side, root in sides.items():
            got = _side(root, args.tables, args.rounds, args.hands, args.shared_seats)
            if side not in best or got["ms"] < best[side]["ms"]:
                best[side] = got
    messages = best["ours"]["messages"]
    hands = f"{args.rounds} rounds of {args.tables} new {args.hands} hands"
    hands += ", unchanged seat views shared" if args.shared_seats else ""
    print(f"{messages:.0f} table messages ({hands}), CPU per message,")
    print(f"best of {args.repeat} processes per side:")
    for side, root in sides.items():
        print(f"  {side} ({root}): {best[side]['ms']:.3f} ms")
    if args.peer is not None:
        print(f"  ratio peer / ours: {best['peer']['ms'] / best['ours']['ms']:.2f}x")


if __name__ == "__main__":
    main()
