from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests import postgres
from tests.discord_stub import BotProcess, DiscordStub

from .conftest import NAMES, World, bot_env, show_log
from .driver import Game


@pytest.fixture(params=["sqlite", "postgresql"])
async def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'poker.sqlite3'}"
    return await postgres.database_url()


@pytest.fixture
async def w(db: str, tmp_path: Path):
    stub = await DiscordStub().start()
    guild = stub.add_guild(name="Casino", channels=["poker"])
    channel = guild.channel("poker")
    players = [stub.add_member(3001 + i, name, admin=(i == 0), locale=("fr" if name in ("dave", "erin") else "en-US")) for i, name in enumerate(NAMES)]
    bot = BotProcess(stub, entry="tests.e2e.bot_entry:main", env=bot_env(db, guild.id), log_path=tmp_path / "bot.log")
    await bot.start()
    await stub.wait_connected()
    world = World(stub, guild, channel, players, bot, db, Game(stub, channel, players))  # type: ignore[arg-type]
    try:
        yield world
    finally:
        show_log(bot)
        print("VIOLATIONS", stub.violations)
        await bot.stop()
        await stub.stop()


async def say(w: World, name: str, *path: str, **opts: object) -> str:
    inter = None
    try:
        inter = w.stub.invoke_slash(w.game.user(name), w.channel, *path, options=opts)
        await inter.wait_acked(10)
        ans = await w.stub.wait_for(lambda: w.game.reply(inter), 10, what="answer")
    except Exception as e:
        ans = f"!! {type(e).__name__}: {e}"
    print(f"[{name}] /{' '.join(path)} {opts} -> {'(eph)' if inter is not None and inter.ephemeral else '(PUBLIC)'} {ans!r}")
    return ans


async def test_scratch(w: World) -> None:
    g = w.game
    await say(w, "alice", "poker", "create")
    await say(w, "bob", "poker", "join", seat=1, buy_in=80)
    await say(w, "carol", "poker", "join", seat=2, buy_in=5000)
    await say(w, "carol", "poker", "join", seat=2, buy_in=10)
    await say(w, "dave", "poker", "join", seat=1, buy_in=50)
    await say(w, "dave", "poker", "join", seat=11, buy_in=50)
    await say(w, "dave", "poker", "join", seat=3, buy_in=50)
    await say(w, "dave", "poker", "join", seat=4, buy_in=50)
    await say(w, "erin", "poker", "join", buy_in=999999)
    await say(w, "erin", "poker", "rebuy", amount=10)
    await say(w, "erin", "poker", "join", buy_in=60)
    await say(w, "erin", "poker", "rebuy", amount=100)
    await say(w, "erin", "poker", "rebuy", amount=20)
    await say(w, "bob", "poker", "rebuy", amount=0)
    await say(w, "frank", "poker", "start")
    await say(w, "frank", "poker", "leave")
    await say(w, "dave", "fold")
    await say(w, "dave", "raise", amount=5)
    await say(w, "alice", "poker", "start")
    view = await g.turn()
    print("TABLE", view)
    actor = view.actor
    other = next(n for n in view.seats if n != actor)
    await say(w, other, "fold")
    await say(w, other, "check")
    await say(w, actor, "check")
    await say(w, actor, "raise", amount=3)
    await say(w, actor, "raise", amount=100000)
    await say(w, actor, "bet", amount=4)
    await say(w, "frank", "call")
    await say(w, "bob", "poker", "rebuy", amount=30)
    await say(w, "dave", "poker", "rebuy", amount=30)
    await say(w, "frank", "stats")
    await say(w, "frank", "history")
    await say(w, "frank", "history", hand=999)
    await say(w, "dave", "history", hand=999)
    await say(w, "frank", "leaderboard")
    await say(w, "dave", "leaderboard", by="net")
    await say(w, "frank", "poker", "kick", member=w.game.user("bob").id)
    await say(w, "dave", "poker", "end")
    await say(w, "frank", "poker-admin", "audit")
    await say(w, "dave", "poker", "verify", hand=1)
    await say(w, "erin", "poker", "schedule", levels="1/2, 2/4")
    await say(w, "alice", "poker", "schedule", levels="1/2, 2/4")
    await say(w, "alice", "poker", "create")
    await g.call_down()
    await say(w, "bob", "poker", "leave")
    await say(w, "bob", "poker", "leave")
    await say(w, "bob", "stats")
    await say(w, "dave", "stats")
    await say(w, "bob", "history")
    await say(w, "alice", "leaderboard", by="net")
    await say(w, "alice", "poker-admin", "audit")
    view = await g.turn()
    view = await g.act(view.actor, "raise", "modal")
    await say(w, "dave", "poker", "rebuy", amount=40)
    from .test_restart import crash_and_resume
    after = await crash_and_resume(w)
    print("AFTER", after)
    await say(w, "dave", "poker", "balance")
    await g.call_down()
    view = await g.turn()
    print("NEXT", view)
    await say(w, "alice", "poker-admin", "audit")
    await say(w, "alice", "poker", "end")
    await say(w, "alice", "poker-admin", "audit")
    await say(w, "dave", "leaderboard", by="net")
    await w.stub.wait_idle(0.3)
    import shutil
    if isinstance(w.db_path, str) and w.db_path.startswith("sqlite"):
        shutil.copy(w.db_path[len("sqlite:///"):], "/tmp/qa/played.sqlite3")
