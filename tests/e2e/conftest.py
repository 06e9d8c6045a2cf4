"""Fixtures of the end-to-end tests: a Discord stand-in, a guild with a poker channel and six members, and the
real bot process (`bot.__main__:main` through tests/e2e/bot_entry.py) over a database in the test's tmp dir.

Every test ends by checking that the bot broke no Discord rule (the stand-in's violations); a failing
test shows the end of the bot's log.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from tests.discord_stub import BotProcess, DiscordStub, GuildHandle, User
from tests.discord_stub.model import Channel

from .driver import Game

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")
#: Seconds between a hand's end and the next deal in the tests (the bot's own default is 5 s).
NEXT_HAND_DELAY = "0.2"
#: Seconds a shard lease lives in the tests (the bot's own default is 30 s).
SHARD_LEASE_TTL = "2"


def show_log(bot: BotProcess) -> None:
    """Print the end of the bot's log (pytest shows it with the failure)."""
    print(f"--- bot log ({bot.log_path}) ---\n{bot.log_tail(150)}")


@dataclass
class World:
    """One guild with a poker channel, its members (alice is an administrator and hosts), the bot process."""

    stub: DiscordStub
    guild: GuildHandle
    channel: Channel
    players: list[User]
    bot: BotProcess
    db_path: Path
    game: Game

    @property
    def host(self) -> User:
        """alice: opens the table; an administrator (Manage Server for /poker-admin audit)."""
        return self.players[0]


def bot_env(database: Path | str, guild_id: int, **extra: str) -> dict[str, str]:
    """The environment of the bot process over `database` (a SQLite file's path, or a database URL: sqlite:///...
    or postgresql://...), seeded shuffle (a failure can be replayed with the same seed)."""
    env = {
        **({"DATABASE_PATH": str(database)} if isinstance(database, Path) else {"DATABASE_URL": database}),
        "DEV_GUILD_ID": str(guild_id),
        "LOG_LEVEL": "INFO",
        "E2E_NEXT_HAND_DELAY": NEXT_HAND_DELAY,
        "E2E_SHUFFLE_SEED": os.environ.get("E2E_SHUFFLE_SEED", "20240611"),
        # A process restarted by hand after a SIGKILL waits for its own old shard lease to expire
        # (bot/tables/ownership.py); a cluster's child started again does not.
        "SHARD_LEASE_TTL": SHARD_LEASE_TTL,
    }
    env.update(extra)
    return env


def pytest_configure(config: pytest.Config) -> None:
    """Register the marker that adds to the bot process's environment."""
    config.addinivalue_line("markers", "bot_env(**variables): more environment for the bot process of `world`")


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Keep each phase's report on the test item, so that fixtures can tell whether the test failed."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest_asyncio.fixture
async def world(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[World]:
    """The stand-in with one guild, channel #poker, six members, and the real bot connected to it."""
    stub = await DiscordStub().start()
    guild = stub.add_guild(name="Casino", channels=["poker"])
    channel = guild.channel("poker")
    players = [stub.add_member(3001 + i, name, admin=(i == 0)) for i, name in enumerate(NAMES)]
    db_path = tmp_path / "poker.sqlite3"
    marker = request.node.get_closest_marker("bot_env")
    env = bot_env(db_path, guild.id, **(marker.kwargs if marker else {}))
    bot = BotProcess(stub, entry="tests.e2e.bot_entry:main", env=env, log_path=tmp_path / "bot.log")
    try:
        await bot.start()
        await stub.wait_connected()
        yield World(stub, guild, channel, players, bot, db_path, Game(stub, channel, players))
        stub.assert_no_violations()
        assert not stub.pending_deferrals(), "an interaction was deferred and never answered"
    except BaseException:
        show_log(bot)
        raise
    else:
        report = getattr(request.node, "report_call", None)
        if report is not None and report.failed:
            show_log(bot)
    finally:
        await bot.stop()
        await stub.stop()
