"""Command line of the engine: `python -m bot.poker replay FILE...` replays PHH hand histories;
`python -m bot.poker verify FILE [--proof TOKEN]...` checks a sealed hand's revealed cards (bot.poker.seal).

For every hand of every `.phh`/`.phhs` file it prints one JSON object per line:
`{"source": "<file>#<section>", "finishing_stacks": [...], "error": null}` with the stacks in the
file's own units as exact JSON numbers (never through binary floats), or `finishing_stacks: null` and
an `error` saying why and at which action. Exit status 0 when every hand replayed, 1 otherwise
(2 for a usage error).

`verify` reads PHH exports that carry a seal (`/history hand:N` writes `_seal_root` and `_seal_proofs`) and
prints, per hand, `{"source": ..., "fingerprint": "<32 hex>", "checked": N, "ok": true, "problems": []}`:
whether every revealed card (the board, the hands shown, your own hole cards in your export) is proven at its
place in the deck committed before the first action. `--proof` adds tokens from your hole-card DM. Exit status
0 when every hand verifies, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence

from bot.poker.phh import PhhError, format_amount, load_file, replay
from bot.poker.seal import FINGERPRINT_HEX, PHH_ROOT_FIELD, SealError, verify_phh


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


def verify_files(paths: Sequence[str], proofs: Sequence[str] = ()) -> Iterator[tuple[str, bool]]:
    """Verify the seal of every hand of `paths` (with the extra proof tokens `proofs`), yielding (output line,
    verified) per hand; an unreadable file or an unsealed hand is one failed line."""
    for path in paths:
        try:
            hands = load_file(path)
        except PhhError as exc:
            yield json.dumps({"source": path, "ok": False, "problems": [str(exc)]}), False
            continue
        for phh in hands:
            root = str(phh.fields.get(PHH_ROOT_FIELD, ""))
            line: dict[str, object] = {"source": phh.source, "fingerprint": root[:FINGERPRINT_HEX] or None}
            try:
                result = verify_phh(phh.fields, phh.actions, len(phh.starting_stacks), proofs)
            except (SealError, ValueError) as exc:
                line.update(checked=0, ok=False, problems=[str(exc)])
                yield json.dumps(line, ensure_ascii=False), False
                continue
            line.update(checked=result.checked, ok=result.ok, problems=list(result.problems))
            yield json.dumps(line, ensure_ascii=False), result.ok


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m bot.poker", description="Poker engine tools.")
    commands = parser.add_subparsers(dest="command", required=True)
    replay_parser = commands.add_parser("replay", help="replay PHH hand histories and print finishing stacks")
    replay_parser.add_argument("files", nargs="+", metavar="FILE", help=".phh or .phhs file")
    verify_parser = commands.add_parser("verify", help="check a sealed hand's revealed cards against its commitment")
    verify_parser.add_argument("files", nargs="+", metavar="FILE", help="PHH export of /history hand:N")
    verify_parser.add_argument("--proof", action="append", default=[], metavar="TOKEN", help="a proof from your DM")
    args = parser.parse_args(argv)
    ok = True
    lines = replay_files(args.files) if args.command == "replay" else verify_files(args.files, args.proof)
    try:
        for line, replayed in lines:
            ok = ok and replayed
            sys.stdout.write(line + "\n")
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into `head`: stop quietly
        sys.stderr.close()
        return 1
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
