"""Compare two snapshots of `benchmarks/memory_entry.py`: what grew between them, per table.

    python benchmarks/memory.py FOLDER [--pid PID] [--first 0] [--last -1] [--tables 100]
        [--by lineno|traceback|filename]

Prints, for the process `PID` (default: every process that wrote snapshots, one after the other): the RSS and the
traced memory at each snapshot, the largest growths of traced memory between `--first` and `--last` grouped by
`--by` (KiB per table: the growth divided by `--tables`), the object types whose count grew most, and the modules
imported between them (a module imported after the start counts in load.py's memory per table).
"""

from __future__ import annotations

import argparse
import json
import tracemalloc
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--pid", type=int, default=None)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--last", type=int, default=-1)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--by", default="lineno", choices=["lineno", "traceback", "filename"])
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args(argv)
    pids = sorted({int(p.name.split("-")[0]) for p in args.folder.glob("*.json")})
    for pid in [args.pid] if args.pid else pids:
        infos = sorted(
            (json.loads(p.read_text()) | {"n": int(p.stem.split("-")[1])} for p in args.folder.glob(f"{pid}-*.json")),
            key=lambda i: i["n"],
        )
        print(f"=== pid {pid}")
        for info in infos:
            traced = info.get("traced")
            print(
                f"  #{info['n']} at {info['seconds']:6.1f} s: RSS {info['rss'] / 2**20:7.1f} MiB"
                + (f", traced {traced / 2**20:7.1f} MiB" if traced is not None else "")
                + "".join(
                    f", {k} {v / 2**20:.1f}" if k != "blocks" else f", {k} {v}"
                    for k, v in info.get("heaps", {}).items()
                )
            )
        first, last = infos[args.first], infos[args.last]
        per = 1024 * args.tables
        print(
            f"  #{first['n']} -> #{last['n']}: RSS {(last['rss'] - first['rss']) / per:+.1f} KiB per table"
            + (
                f", traced {(last['traced'] - first['traced']) / per:+.1f}"
                if "traced" in first and "traced" in last
                else ""
            )
        )
        for key in last.get("heaps", {}):
            if key in first.get("heaps", {}):
                grew = last["heaps"][key] - first["heaps"][key]
                print(f"    {key}: {grew / per:+.1f} KiB per table" if key != "blocks" else f"    blocks: {grew:+d}")
        a, b = (args.folder / f"{pid}-{info['n']}.snap" for info in (first, last))
        if a.exists() and b.exists():
            stats = tracemalloc.Snapshot.load(str(b)).compare_to(tracemalloc.Snapshot.load(str(a)), args.by)
            for stat in stats[: args.top]:
                print(f"  {stat.size_diff / per:+8.2f} KiB/table {stat.count_diff:+8d} blocks  {stat.traceback}")
                if args.by == "traceback":
                    for line in stat.traceback.format()[-16:]:
                        print("        " + line)
        grown = {t: n - first["types"].get(t, 0) for t, n in last["types"].items()}
        print("  object types grown (count, per table):")
        for kind, n in sorted(grown.items(), key=lambda kv: -kv[1])[: args.top]:
            print(f"    {n:+8d} ({n / args.tables:+7.1f})  {kind}")
        new = sorted(set(last["modules"]) - set(first["modules"]))
        print(f"  modules imported between them: {len(new)}: {' '.join(new[:80])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
