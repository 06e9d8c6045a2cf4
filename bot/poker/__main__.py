"""Command line of the engine: `python -m bot.poker replay FILE...` replays PHH hand histories.

For every hand of every `.phh`/`.phhs` file it prints one JSON object per line:
`{"source": "<file>#<section>", "finishing_stacks": [...], "error": null}` with the stacks in the
file's own units as exact JSON numbers (never through binary floats), or `finishing_stacks: null` and
an `error` saying why and at which action. Exit status 0 when every hand replayed, 1 otherwise
(2 for a usage error).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence

from bot.poker.phh import PhhError, format_amount, load_file, replay


def _line(source: str, stacks: list[str] | None, error: str | None) -> str:
    numbers = "null" if stacks is None else "[" + ", ".join(stacks) + "]"
    return f'{{"source": {json.dumps(source)}, "finishing_stacks": {numbers}, "error": {json.dumps(error)}}}'


def replay_files(paths: Sequence[str]) -> Iterator[tuple[str, bool]]:
    """Replay every hand of `paths`, yielding (output line, replayed without error) per hand.

    A file that can't be read, or holds no hand, yields one failed line with the file as its source.
    """
    for path in paths:
        try:
            hands = load_file(path)
        except PhhError as exc:
            yield _line(path, None, str(exc)), False
            continue
        if not hands:
            yield _line(path, None, "no hand in this file"), False
            continue
        for phh in hands:
            try:
                hand = replay(phh)
            except PhhError as exc:
                yield _line(phh.source, None, str(exc)), False
                continue
            stacks = hand.finishing_stacks
            assert stacks is not None
            yield _line(phh.source, [format_amount(phh.to_units(s)) for s in stacks], None), True


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m bot.poker", description="Poker engine tools.")
    commands = parser.add_subparsers(dest="command", required=True)
    replay_parser = commands.add_parser("replay", help="replay PHH hand histories and print finishing stacks")
    replay_parser.add_argument("files", nargs="+", metavar="FILE", help=".phh or .phhs file")
    args = parser.parse_args(argv)
    ok = True
    try:
        for line, replayed in replay_files(args.files):
            ok = ok and replayed
            sys.stdout.write(line + "\n")
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into `head`: stop quietly
        sys.stderr.close()
        return 1
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
