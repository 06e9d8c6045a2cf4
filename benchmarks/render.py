"""Table picture speed: draw + encode time per picture (p50/p99) and bytes per PNG, for a 10-seat showdown.

Run from the repository root:

    python benchmarks/render.py [--pictures 300] [--warmup 20] [--tables 100] [--hands 3]

Draws the 10-seat showdown of `bot.render.picture.samples` (four hands shown, a side pot, the ante) again and
again: `scene_from_snapshot` + `draw_table` (draw + encode), as the Discord layer does for each street and
showdown message. The pre-drawn pieces (felt, plates, card faces and backs, texts, marks) are drawn during the
warm-up. Wall time and CPU time (`time.process_time`) are both reported: on a loaded machine the wall time
includes waiting for a core. A second series draws the same showdown with new stacks at every picture (chip
counts not yet drawn), as between a table's streets and across many tables. A third series is what a busy
process's picture thread draws (`samples.table_series`): --tables tables of six players, the flop, turn, river
and result of each in turn, each table with its own names and hand numbers (new titles, pots, stacks and badges
at every picture, as in real play): the mean CPU per picture of the first hand (every name new too) and of the
--hands next ones (the names drawn already), which is what the picture thread costs per picture under
`load.py`; a fourth series plays the tables as `load.py`'s players do (everyone calls the big blind, then
checks: the seats look the same from flop to river). For an A/B, run the same script of a peer checkout (`git
worktree add /tmp/base main`) beside this one: each draws with its own code (`python
/tmp/base/benchmarks/render.py`). The named peer is Pillow's own PNG
writer (`Image.save(format="PNG", compress_level=1)`, zlib) on the same palette image, against our
`encode_scanlines` (ISA-L's deflate, no row filter). Goals: p99 < 10 ms (both series), < 200 KB per picture.
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import io
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.render.picture import draw_image, draw_scanlines, draw_table, encode_scanlines, scene_from_snapshot
from bot.render.picture.samples import showdown, table_series

P99_GOAL_MS = 10.0
BYTES_GOAL = 200_000


def _times(job: Callable[[], object], count: int) -> tuple[list[float], list[float]]:
    wall, cpu = [], []
    for _ in range(count):
        w0, c0 = time.perf_counter(), time.process_time()
        job()
        wall.append((time.perf_counter() - w0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    return sorted(wall), sorted(cpu)


def _p(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    """Measure and print the figures and whether the goals are met."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pictures", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--tables", type=int, default=100, help="busy tables of the third series")
    parser.add_argument("--hands", type=int, default=3, help="hands per table after the first, third series")
    args = parser.parse_args()

    snapshot, result = showdown()

    def picture() -> bytes:
        return draw_table(scene_from_snapshot(snapshot, result))

    for _ in range(args.warmup):
        picture()
    size = len(picture())
    wall, cpu = _times(picture, args.pictures)

    # The same showdown with every stack new at each picture, as between a table's streets (a chip count not yet
    # drawn is put together from its characters) and across many tables.
    rng = random.Random(15)
    fresh = [
        dataclasses.replace(
            snapshot, seats=tuple(dataclasses.replace(s, stack=rng.randrange(10**6)) for s in snapshot.seats)
        )
        for _ in range(args.pictures)
    ]
    queue = iter(fresh)
    new_wall, new_cpu = _times(lambda: draw_table(scene_from_snapshot(next(queue), result)), args.pictures)

    scene = scene_from_snapshot(snapshot, result)
    draw_wall, _ = _times(lambda: draw_scanlines(scene), args.pictures // 3)
    scanlines = draw_scanlines(scene)
    ours, ours_cpu = _times(lambda: encode_scanlines(scanlines), args.pictures // 3)
    image = draw_image(scene)

    def pillow() -> bytes:
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", compress_level=1)
        return buffer.getvalue()

    theirs, theirs_cpu = _times(pillow, args.pictures // 3)
    pillow_size = len(pillow())

    # Busy tables: every table's streets and results in turn; first hand (every name new), then the next ones.
    def busy(pictures: Iterator[tuple[Any, Any]]) -> Callable[[], bytes]:
        return lambda: draw_table(scene_from_snapshot(*next(pictures)))

    busy_first = _times(busy(iter(table_series(args.tables, 1, seed=1))), args.tables * 4)[1]
    after = iter(table_series(args.tables, args.hands, seed=2, first_hand=2))
    busy_wall, busy_cpu = _times(busy(after), args.tables * 4 * args.hands)
    checks_cpu: list[float] = []
    if "checks" in inspect.signature(table_series).parameters:  # load.py's play: everyone checks after the flop
        played = iter(table_series(args.tables, args.hands, seed=3, first_hand=2 + args.hands, checks=True))
        checks_cpu = _times(busy(played), args.tables * 4 * args.hands)[1]

    print(f"10-seat showdown picture, {args.pictures} pictures after {args.warmup} to warm up")
    print(f"  draw + encode, wall: p50 {_p(wall, 0.5):.2f} ms, p99 {_p(wall, 0.99):.2f} ms")
    print(f"  draw + encode, CPU:  p50 {_p(cpu, 0.5):.2f} ms, p99 {_p(cpu, 0.99):.2f} ms")
    print(f"  new stacks each picture, wall: p50 {_p(new_wall, 0.5):.2f} ms, p99 {_p(new_wall, 0.99):.2f} ms")
    print(f"  new stacks each picture, CPU:  p50 {_p(new_cpu, 0.5):.2f} ms, p99 {_p(new_cpu, 0.99):.2f} ms")
    print(f"  of which draw (scene built), wall: p50 {_p(draw_wall, 0.5):.2f} ms")
    print(f"  bytes per PNG: {size:,} (Pillow's writer: {pillow_size:,})")
    print(
        f"  encode: ours p50 {_p(ours, 0.5):.2f} ms (CPU {_p(ours_cpu, 0.5):.2f}), Pillow's PNG writer p50 "
        f"{_p(theirs, 0.5):.2f} ms (CPU {_p(theirs_cpu, 0.5):.2f}): ratio {_p(theirs, 0.5) / _p(ours, 0.5):.1f}x"
    )
    print(
        f"  busy tables ({args.tables} x 6 players, streets and results in turn), CPU per picture: mean "
        f"{sum(busy_cpu) / len(busy_cpu):.2f} ms (p50 {_p(busy_cpu, 0.5):.2f}, p99 {_p(busy_cpu, 0.99):.2f}); "
        f"their first hand, every name new: mean {sum(busy_first) / len(busy_first):.2f} ms"
    )
    if checks_cpu:
        print(
            f"  busy tables played as load.py plays (calls, then checks), CPU per picture: mean "
            f"{sum(checks_cpu) / len(checks_cpu):.2f} ms (p50 {_p(checks_cpu, 0.5):.2f}, "
            f"p99 {_p(checks_cpu, 0.99):.2f})"
        )
    p99 = max(_p(wall, 0.99), _p(new_wall, 0.99), _p(busy_wall, 0.99))
    print(f"  goal p99 < {P99_GOAL_MS:g} ms: {'met' if p99 < P99_GOAL_MS else 'NOT met'} ({p99:.2f} ms wall, worst)")
    print(f"  goal < {BYTES_GOAL // 1000} KB: {'met' if size < BYTES_GOAL else 'NOT met'}")


if __name__ == "__main__":
    main()
