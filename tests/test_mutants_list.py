"""The mutation probe's list (scripts/mutants.py) stays honest: every mutant's snippet occurs exactly once in its
file, so that each mutant still applies. Found last session: two snippets no longer matched the code they mutate
(`min-raise-is-the-big-blind` after bot/poker/hand.py moved, `vpip-counts-a-free-check` after statistics.py did),
and nothing said so until the script was run by hand. When this fails, update the snippet (and run the mutant:
`python scripts/mutants.py -k NAME`)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "mutants.py"


def test_every_mutant_snippet_occurs_once_in_its_file() -> None:
    spec = importlib.util.spec_from_file_location("mutants", SCRIPT)
    assert spec is not None and spec.loader is not None
    mutants = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("mutants", mutants)  # its dataclasses look their module up
    spec.loader.exec_module(mutants)
    assert len(mutants.MUTANTS) > 40
    assert mutants.check_snippets(mutants.MUTANTS) == []
