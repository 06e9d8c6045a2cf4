"""The table message, byte for byte: about 3,200 varied tables (`table_cases`) drawn as the Discord layer sends
them (`table_payload`: embed and buttons) must give exactly the payloads recorded in
`goldens/table_payloads.json` (a digest of each payload's canonical JSON, by case).

The goldens were recorded from the renderer as it was before the table message was made cheaper (issue 14), so
that every later speed-up keeps each character. When the table message changes on purpose, record them again and
say so in the commit message:

    python -m tests.render.test_table_goldens --write
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from bot.discord_ui.table_view import table_payload
from bot.render import i18n
from tests.render.table_cases import cases

GOLDENS = Path(__file__).resolve().parent / "goldens" / "table_payloads.json"


def digest(payload: dict[str, Any]) -> str:
    """The first 16 hex digits of the SHA-256 of a payload's canonical JSON (sorted keys, no ASCII escapes)."""
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def digests() -> dict[str, str]:
    """Each case's payload digest, by case name."""
    return {case.name: digest(table_payload(case.snapshot, case.table_name)) for case in cases()}


def test_the_cases_are_many_and_varied() -> None:
    names = [case.name for case in cases()]
    assert len(names) == len(set(names)) > 1500
    snapshots = [case.snapshot for case in cases()]
    assert any(s.run_twice_pending for s in snapshots)
    assert any(len([p for p in s.pots if getattr(p, "amount", 0)]) > 1 for s in snapshots)  # side pots
    assert any(s.time_bank for s in snapshots) and any(s.time_bank_running for s in snapshots)
    assert any(s.closed for s in snapshots) and any(s.waiting for s in snapshots)
    assert any(seat.cards for s in snapshots for seat in s.seats)


def test_table_payloads_match_the_goldens() -> None:
    expected = json.loads(GOLDENS.read_text(encoding="utf-8"))
    for case in cases():
        got = digest(table_payload(case.snapshot, case.table_name))
        assert got == expected.get(case.name), (case.name, table_payload(case.snapshot, case.table_name))
    assert len(expected) == len(cases())


def test_table_payloads_match_with_a_cold_cache_and_twice() -> None:
    """The same bytes whatever was drawn before: caches cleared, then every case drawn twice in a row."""
    expected = json.loads(GOLDENS.read_text(encoding="utf-8"))
    i18n.clear_render_cache()
    for case in cases()[::7]:
        first = table_payload(case.snapshot, case.table_name)
        assert digest(first) == digest(table_payload(case.snapshot, case.table_name)) == expected[case.name]


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        GOLDENS.write_text(json.dumps(digests(), indent=0, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {GOLDENS}")
    else:
        print(__doc__)
