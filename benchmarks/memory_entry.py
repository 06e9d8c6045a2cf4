"""The bot with its memory attributed, for `benchmarks/load.py --bot-entry benchmarks.memory_entry:main`.

`tracemalloc` traces every Python allocation from the process's start (`MEM_FRAMES` frames a traceback, 1 by
default: grouping by file and line; 10 or more to group by traceback), and a thread takes a snapshot shortly after
discord.py's ``ready`` (what `load.py` counts as the bot's start: its baseline RSS is taken 1 s after it) and then
every `MEM_EVERY` seconds (20 by default): each is written to `MEM_OUT` (a folder, `bot.memory` by default) as
``<pid>-<n>.snap`` (`tracemalloc.Snapshot.dump`) with ``<pid>-<n>.json``: the seconds since ready, the RSS, the
traced total, the live objects by type (`gc.get_objects`) and the modules imported. `benchmarks/memory.py` compares
two of them. With `MEM_TRACE=0`, no tracing (the object counts and modules only: tracemalloc slows the bot about
twofold, which changes what a loaded run keeps in flight).

    MEM_OUT=/tmp/mem python benchmarks/load.py --bot-entry benchmarks.memory_entry:main
    python benchmarks/memory.py /tmp/mem --tables 100

Under `--processes P` (`load.py` then runs `poker-bot cluster`), `MEM_CHILDREN=1` makes the supervisor start its
children through this entry too (each writes its own files, by pid).
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import json
import os
import re
import sys
import tempfile
import threading
import time
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import Any

OUT_ENV = "MEM_OUT"


def _rss() -> int:
    with open(f"/proc/{os.getpid()}/statm", encoding="ascii") as file:
        return int(file.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class _Mallinfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        )
    ]


def _heaps() -> dict[str, int]:
    """glibc's malloc (mallinfo2: bytes in use, bytes held) and pymalloc's arenas (sys._debugmallocstats)."""
    figures: dict[str, int] = {}
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL("libc.so.6")
        libc.mallinfo2.restype = _Mallinfo2
        info = libc.mallinfo2()
        figures |= {"malloc_used": info.uordblks + info.hblkhd, "malloc_held": info.arena + info.hblkhd}
    with tempfile.TemporaryFile() as file:
        saved = os.dup(2)
        try:
            os.dup2(file.fileno(), 2)
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        file.seek(0)
        text = file.read().decode("ascii", "replace")
    for key, pattern in (
        ("pymalloc_arenas", r"# arenas allocated current\s*=\s*([\d,]+)"),
        ("pymalloc_used", r"# bytes in allocated blocks\s*=\s*([\d,]+)"),
    ):
        if found := re.search(pattern, text):
            figures[key] = int(found.group(1).replace(",", ""))
    figures["blocks"] = sys.getallocatedblocks()
    return figures


_I18N: list[tuple[str, int, int]] = []


def _record_renderings() -> None:
    """`MEM_I18N=1`: every call of `t`'s cache (`i18n._render_cached`) recorded as (key, hash of the rest, size of
    the text), to replay against other cache sizes (`memory.py --i18n`)."""
    from bot.render import i18n

    cached = i18n._render_cached

    def recorded(key: str, language: str, params: Any, types: Any) -> str:
        text = cached(key, language, params, types)
        _I18N.append((key, hash((language, params, types)), len(text)))
        return text

    recorded.cache_info = cached.cache_info  # type: ignore[attr-defined]
    recorded.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
    i18n._render_cached = recorded  # type: ignore[assignment]


def _snapshot(out: Path, n: int, since: float) -> None:
    counts = Counter(type(o).__qualname__ + " (" + type(o).__module__ + ")" for o in gc.get_objects())
    info: dict[str, Any] = {
        "pid": os.getpid(),
        "seconds": time.monotonic() - since,
        "rss": _rss(),
        "heaps": _heaps(),
        "types": dict(counts.most_common(400)),
        "modules": sorted(sys.modules),
    }
    if tracemalloc.is_tracing():
        tracemalloc.take_snapshot().dump(str(out / f"{os.getpid()}-{n}.snap"))
        info["traced"] = tracemalloc.get_traced_memory()[0]
    (out / f"{os.getpid()}-{n}.json").write_text(json.dumps(info), encoding="utf-8")
    if _I18N:
        import pickle

        (out / f"{os.getpid()}-i18n.pickle").write_bytes(pickle.dumps(list(_I18N)))


def _watch(ready: threading.Event, out: Path, every: float) -> None:
    ready.wait()
    since = time.monotonic()
    time.sleep(0.5)
    for n in range(1000):
        _snapshot(out, n, since)
        time.sleep(every)


def main() -> None:
    """Run `tests.e2e.bot_entry:main` with its memory snapshotted (see the module docstring)."""
    if os.environ.get("MEM_TRACE", "1") != "0":
        tracemalloc.start(int(os.environ.get("MEM_FRAMES", "1")))
    out = Path(os.environ.get(OUT_ENV, "bot.memory"))
    out.mkdir(parents=True, exist_ok=True)
    ready = threading.Event()
    import discord

    original = discord.Client.dispatch

    def dispatch(self: discord.Client, event: str, /, *args: Any, **kwargs: Any) -> None:
        if event == "ready":
            ready.set()
        original(self, event, *args, **kwargs)

    discord.Client.dispatch = dispatch  # type: ignore[method-assign]
    if os.environ.get("MEM_I18N") == "1":
        _record_renderings()
    every = float(os.environ.get("MEM_EVERY", "20"))
    threading.Thread(target=_watch, args=(ready, out, every), daemon=True, name="memory").start()
    if sys.argv[1:2] == ["cluster"] and os.environ.get("MEM_CHILDREN") == "1":
        import bot.cli

        ready.set()  # the supervisor has no gateway: its snapshots count from its start

        bot.cli.main(
            child_command=[sys.executable, "-m", "tests.discord_stub.run_bot", "run"],
            child_env={"STUB_BOT_ENTRY": "benchmarks.memory_entry:main"},
        )
        return
    from tests.e2e import bot_entry

    bot_entry.main()
