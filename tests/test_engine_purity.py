"""The engine imports no discord, asyncio, database or network module (docs/architecture.md, "Layers")."""

from __future__ import annotations

import subprocess
import sys
import textwrap

FORBIDDEN = ("discord", "asyncio", "aiosqlite", "sqlite3", "aiohttp", "socket")


def test_importing_every_engine_module_pulls_in_no_io_or_discord() -> None:
    script = textwrap.dedent(
        f"""
        import importlib, pkgutil, sys
        import bot.poker
        names = ["bot.poker"]
        for info in pkgutil.walk_packages(bot.poker.__path__, "bot.poker."):
            if info.name.rsplit(".", 1)[-1] != "__main__":
                importlib.import_module(info.name)
                names.append(info.name)
        loaded = sorted({{m.split(".")[0] for m in sys.modules}} & set({FORBIDDEN!r}))
        print(len(names), ",".join(loaded))
        """
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    count, loaded = result.stdout.split(" ", 1)
    assert int(count) >= 1
    assert loaded.strip() == "", f"bot.poker imported {loaded.strip()}"
