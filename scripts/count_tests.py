"""Count the test suite by behaviour: one test function is one behaviour, however many parametrised rows
it has (tests/render/test_i18n.py alone has hundreds of rows, one per catalogue key).

    python scripts/count_tests.py            # totals and a line per test folder
    python scripts/count_tests.py --rows     # also the most parametrised tests

Collects with pytest (nothing runs) and prints rows collected, behaviours, and per folder both.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PARAMETERS = re.compile(r"\[.*\]$")


def collected(extra: list[str]) -> list[str]:
    """The node ids pytest collects (e.g. "tests/poker/test_pots.py::test_x[3-4]")."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-o", "addopts=", "--collect-only", "-q", "-p", "no:cacheprovider", *extra],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    ids = [line.strip() for line in done.stdout.splitlines() if "::" in line]
    if done.returncode not in (0, 5) or not ids:
        sys.exit(f"collection failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return ids


def behaviour(node_id: str) -> str:
    """The test function of a node id: its parameters dropped."""
    return PARAMETERS.sub("", node_id)


def folder(node_id: str) -> str:
    return str(Path(node_id.split("::", 1)[0]).parent)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", action="store_true", help="list the tests with the most parametrised rows")
    parser.add_argument("pytest_args", nargs="*", help="passed to pytest (e.g. a folder)")
    args = parser.parse_args(argv)
    ids = collected(args.pytest_args)
    rows = Counter(behaviour(i) for i in ids)
    by_folder_rows = Counter(folder(i) for i in ids)
    by_folder = Counter(folder(b) for b in rows)
    print(f"{len(ids)} test rows collected = {len(rows)} behaviours (test functions, parameters collapsed)")
    parametrised = [b for b, n in rows.items() if n > 1]
    print(f"{len(parametrised)} behaviours are parametrised, with {sum(rows[b] for b in parametrised)} rows\n")
    print(f"{'folder':24} {'behaviours':>10} {'rows':>6}")
    for name in sorted(by_folder):
        print(f"{name:24} {by_folder[name]:>10} {by_folder_rows[name]:>6}")
    if args.rows:
        print("\nmost parametrised:")
        for name, count in rows.most_common(10):
            if count > 1:
                print(f"{count:6}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
