"""PokerBot offline: setup_hook opens storage, plugs in the table service, loads extensions, syncs only on change."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest.mock import AsyncMock

import discord
import pytest
from discord import app_commands

from bot.app import (
    COMMAND_HASH_KEY,
    EXTENSIONS,
    PokerBot,
    bot_intents,
    command_tree_hash,
    default_table_service_factory,
)
from bot.config import Settings
from bot.runtime import run


def make_settings(tmp_path: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "discord_token": "test-token",
        "database_path": tmp_path / "db" / "poker.sqlite3",
        "dev_guild_id": None,
    }
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


class FakeTableService:
    """Records what the bot asked of it."""

    def __init__(self, bot: PokerBot) -> None:
        self.bot = bot
        self.calls: list[str] = []
        self.closed = asyncio.Event()

    async def restore(self) -> None:
        self.calls.append(f"restore:{len(await self.bot.storage.open_tables())}")

    async def close(self) -> None:
        self.calls.append("close")
        self.closed.set()


def add_command(bot: PokerBot, name: str) -> None:
    async def callback(interaction: discord.Interaction) -> None:
        pass

    bot.tree.add_command(app_commands.Command(name=name, description=f"{name} command", callback=callback))


def recommend_one_shard(bot: PokerBot) -> None:
    """Offline: Discord "recommends" one shard (GET /gateway/bot), as it does for a small bot."""
    bot.http.get_bot_gateway = AsyncMock(return_value=(1, "wss://gateway.invalid", {}))  # type: ignore[method-assign]


async def started(bot: PokerBot) -> AsyncMock:
    """Do what `async with bot: await bot.start(token)` does before the gateway, with sync mocked."""
    sync = AsyncMock(return_value=[])
    bot.tree.sync = sync  # type: ignore[method-assign]
    recommend_one_shard(bot)
    await bot.__aenter__()
    await bot.setup_hook()
    return sync


def test_intents_are_guilds_only_without_message_content() -> None:
    intents = bot_intents()
    assert intents.guilds
    assert not intents.message_content and not intents.members and not intents.guild_messages


def test_every_listed_extension_is_importable() -> None:
    import importlib

    for name in EXTENSIONS:
        assert hasattr(importlib.import_module(name), "setup"), name


async def test_setup_hook_opens_storage_builds_the_service_loads_extensions_and_restores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "fake_cog_for_app_test.py").write_text(
        textwrap.dedent(
            """
            async def setup(bot):
                bot.loaded_fake_cog = True
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    bot = PokerBot(
        make_settings(tmp_path), table_service_factory=FakeTableService, extensions=["fake_cog_for_app_test"]
    )
    with pytest.raises(RuntimeError):
        _ = bot.storage
    await started(bot)
    try:
        assert (tmp_path / "db" / "poker.sqlite3").exists()
        assert "fake_cog_for_app_test" in bot.extensions
        assert bot.loaded_fake_cog is True  # type: ignore[attr-defined]
        assert bot.tables.calls == ["restore:0"]
        assert await bot.storage.ensure_account(1, 2) == 1000  # the configured STARTING_GRANT
    finally:
        await bot.close()
    assert bot.tables.calls == ["restore:0", "close"]
    with pytest.raises(Exception, match="closed"):
        await bot.storage.balance(1, 2)


class FollowingPuzzles:
    """Records `Puzzles.follow_shards` calls (the table cog keeps the bot's puzzles as `bot.puzzles`)."""

    def __init__(self) -> None:
        self.calls: list[tuple[object, object, bool]] = []

    async def follow_shards(self, client: object, clock: object, owns: Callable[[int], bool]) -> int:
        self.calls.append((client, clock, owns(1)))
        return 0


async def test_a_change_of_shards_while_running_is_followed_by_the_tables_and_the_open_puzzles(
    tmp_path: Path,
) -> None:
    """The lease keeper's callback (`ShardOwnership.keep(bot._follow_shards)`): a shard taken over restores its
    tables and, found last session, its open puzzles too (tests/tables/test_puzzle_board.py: what they do)."""
    bot = PokerBot(make_settings(tmp_path), table_service_factory=FakeTableService, extensions=())
    await started(bot)
    try:
        bot.tables.clock = clock = object()  # type: ignore[union-attr]
        bot.puzzles = puzzles = FollowingPuzzles()  # type: ignore[attr-defined]
        await bot._follow_shards({0}, set())
        assert bot.tables.calls == ["restore:0", "restore:0"]  # type: ignore[union-attr]
        assert puzzles.calls == [(bot, clock, True)]
    finally:
        await bot.close()


async def test_the_real_bot_starts_offline_with_every_listed_extension_and_the_real_table_service(
    tmp_path: Path,
) -> None:
    bot = PokerBot(make_settings(tmp_path), table_service_factory=default_table_service_factory())
    sync = await started(bot)
    try:
        assert set(bot.extensions) == set(EXTENSIONS)
        assert sync.await_count == 1
        assert await bot.storage.get_meta(COMMAND_HASH_KEY) == await command_tree_hash(bot.tree)
    finally:
        await bot.close()


async def test_an_async_factory_is_awaited(tmp_path: Path) -> None:
    async def factory(bot: PokerBot) -> FakeTableService:
        return FakeTableService(bot)

    bot = PokerBot(make_settings(tmp_path), table_service_factory=factory, extensions=())
    await started(bot)
    await bot.close()
    assert isinstance(bot.tables, FakeTableService)


async def test_global_commands_sync_only_when_the_command_set_changes(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)

    async def start_with(*names: str) -> AsyncMock:
        bot = PokerBot(settings, extensions=())
        for name in names:
            add_command(bot, name)
        try:
            return await started(bot)
        finally:
            await bot.close()

    first = await start_with("poker", "fold")
    assert first.await_count == 1 and first.await_args.kwargs == {}
    again = await start_with("fold", "poker")  # same set, registered in another order
    assert again.await_count == 0
    changed = await start_with("poker", "fold", "check")
    assert changed.await_count == 1


async def test_a_failed_sync_is_retried_at_the_next_start(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    bot = PokerBot(settings, extensions=())
    add_command(bot, "poker")
    response = type("Response", (), {"status": 500, "reason": "boom"})()
    bot.tree.sync = AsyncMock(side_effect=discord.HTTPException(response, "boom"))  # type: ignore[method-assign]
    recommend_one_shard(bot)
    await bot.__aenter__()
    await bot.setup_hook()
    assert await bot.storage.get_meta(COMMAND_HASH_KEY) is None
    await bot.close()

    bot = PokerBot(settings, extensions=())
    add_command(bot, "poker")
    sync = await started(bot)
    await bot.close()
    assert sync.await_count == 1


async def test_dev_guild_gets_the_commands_copied_and_synced_every_start(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, dev_guild_id=1234)
    for _ in range(2):
        bot = PokerBot(settings, extensions=())
        add_command(bot, "poker")
        sync = await started(bot)
        try:
            assert sync.await_count == 1
            assert sync.await_args.kwargs["guild"].id == 1234
            assert [c.name for c in bot.tree.get_commands(guild=discord.Object(id=1234))] == ["poker"]
            assert await bot.storage.get_meta(COMMAND_HASH_KEY) is None
        finally:
            await bot.close()


async def test_command_hash_depends_on_the_commands_not_their_order(tmp_path: Path) -> None:
    a, b, c = (PokerBot(make_settings(tmp_path), extensions=()) for _ in range(3))
    add_command(a, "x")
    add_command(a, "y")
    add_command(b, "y")
    add_command(b, "x")
    add_command(c, "x")
    assert await command_tree_hash(a.tree) == await command_tree_hash(b.tree) != await command_tree_hash(c.tree)


class OneWordTranslator(app_commands.Translator):
    def __init__(self, word: str) -> None:
        self.word = word

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContext
    ) -> str | None:
        return f"{self.word} {string.message}" if locale is discord.Locale.french else None


async def test_command_hash_changes_when_a_translation_changes(tmp_path: Path) -> None:
    bot = PokerBot(make_settings(tmp_path), extensions=())
    add_command(bot, "poker")
    plain = await command_tree_hash(bot.tree)
    await bot.tree.set_translator(OneWordTranslator("le"))
    first = await command_tree_hash(bot.tree)
    await bot.tree.set_translator(OneWordTranslator("la"))
    assert len({plain, first, await command_tree_hash(bot.tree)}) == 3


@pytest.mark.skipif(sys.platform == "win32", reason="asyncio signal handlers are POSIX only")
async def test_sigterm_stops_the_table_service_and_closes_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = PokerBot(make_settings(tmp_path), table_service_factory=FakeTableService, extensions=())
    bot.tree.sync = AsyncMock(return_value=[])  # type: ignore[method-assign]
    recommend_one_shard(bot)

    async def offline_start(token: str, *, reconnect: bool = True) -> None:
        # What Client.start does, minus the network: setup_hook, then stay connected until closed.
        await bot.setup_hook()
        asyncio.get_running_loop().call_later(0.05, os.kill, os.getpid(), signal.SIGTERM)
        await bot.tables.closed.wait()

    monkeypatch.setattr(bot, "start", offline_start)
    await asyncio.wait_for(run(bot, "test-token"), timeout=10)
    assert bot.is_closed()
    assert bot.tables.calls == ["restore:0", "close"]
    with pytest.raises(Exception, match="closed"):
        await bot.storage.balance(1, 2)
