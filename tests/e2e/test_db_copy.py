"""An evening moved from SQLite to PostgreSQL in the middle of a hand, as the README says (stop the bot, `poker-bot
db copy`, point DATABASE_URL at the copy, start the bot): the hand resumes exactly where the players saw it, the
standings read the same, and the ledger audit holds (a real PostgreSQL the test starts itself, tests/postgres.py).
"""

from __future__ import annotations

import asyncio
import subprocess
import sys

from tests import postgres
from tests.discord_stub.process import REPO_ROOT

from .conftest import World
from .records import open_storage

BUY_INS = {"alice": 100, "bob": 80, "carol": 60}


def db_copy(source: str, target: str) -> subprocess.CompletedProcess[str]:
    """`poker-bot db copy --from source --to target` (the command a server's owner runs)."""
    command = [sys.executable, "-m", "bot", "db", "copy", "--from", source, "--to", target]
    return subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)


async def test_an_evening_copied_to_postgresql_mid_hand_resumes_there_exactly(world: World) -> None:
    game, stub, host = world.game, world.stub, world.host
    await game.open_table(host, BUY_INS)
    await game.call_down()
    view = await game.turn()
    view = await game.act(view.actor or "", "raise", "modal")
    await stub.wait_idle(0.1)
    before = game.spectator.table()
    stats = {u.name: await game.command(u, "stats") for u in world.players[:3]}
    board = await game.command(host, "leaderboard", by="net")

    assert await world.bot.stop() == 0
    url = await postgres.database_url()
    done = await asyncio.to_thread(db_copy, f"sqlite:///{world.db_path}", url)
    assert done.returncode == 0, done.stderr
    assert f"guild {world.guild.id}: audit ok, the same before and after" in done.stdout
    async with open_storage(url) as copied, open_storage(world.db_path) as source:
        assert await copied.audit(world.guild.id) == await source.audit(world.guild.id)

    del world.bot.extra_env["DATABASE_PATH"]
    world.bot.extra_env["DATABASE_URL"] = url
    mark = stub.mark()
    await world.bot.start()
    await stub.wait_connected()
    await stub.wait_for(lambda: game.table_message().latest.seq > mark, what="the table message after the move")
    await stub.wait_idle(0.1)
    after = game.spectator.table()
    assert after.message_id == before.message_id and after.timeless() == before.timeless()
    assert {u.name: await game.command(u, "stats") for u in world.players[:3]} == stats
    assert await game.command(host, "leaderboard", by="net") == board

    await game.call_down()  # the hand plays on, on PostgreSQL, and the next one is dealt
    assert (await game.turn()).hand_number == (before.hand_number or 0) + 1
    assert "Audit passed" in await game.command(host, "poker-admin", "audit")
    assert await game.command(host, "poker", "end") == "The table is closed."
    async with open_storage(url) as copied:
        report = await copied.audit(world.guild.id)
        assert report.ok and report.on_tables == 0, report.problems
        table = await copied.latest_table_for_channel(world.channel.id)
        assert table is not None and len(await copied.hands_for_table(table.id, 100)) == (before.hand_number or 0) + 1
