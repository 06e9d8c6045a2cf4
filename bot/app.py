"""PokerBot: the discord.py client that opens storage, plugs in the table service, loads cogs and syncs commands."""

from __future__ import annotations

import asyncio
import hashlib
import importlib
import inspect
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.discord_ui.errors import PokerTree
from bot.discord_ui.people import People
from bot.discord_ui.presses import Presses
from bot.discord_ui.translator import CatalogueTranslator
from bot.render.counted import counted
from bot.storage import GuildDefaults, Storage
from bot.storage.leases import ShardLeases
from bot.tables import TableService
from bot.tables.ownership import ShardOwnership
from bot.tables.pictures import prepare_pictures

log = logging.getLogger(__name__)

# The cogs loaded at start, in order: the one place to list them (cogs authors: add yours here).
EXTENSIONS: tuple[str, ...] = ("cogs.table", "cogs.admin", "cogs.actions", "cogs.standings")

COMMAND_HASH_KEY = "command_sync_hash"

# Builds the table service from the bot (storage, settings, ...); may return it or an awaitable of it.
TableServiceFactory = Callable[["PokerBot"], TableService | Awaitable[TableService]]


def bot_intents() -> discord.Intents:
    """Only the guilds intent: slash commands and buttons need no message content nor member lists."""
    intents = discord.Intents.none()
    intents.guilds = True
    return intents


def guild_defaults(settings: Settings) -> GuildDefaults:
    """The server settings a guild has until it changes them, from the bot's configuration."""
    return GuildDefaults(
        language="en",
        starting_grant=settings.starting_grant,
        refill_cooldown_s=settings.refill_cooldown,
        table_defaults=settings.table_defaults(),
    )


async def command_tree_hash(tree: app_commands.CommandTree[Any]) -> str:
    """SHA-256 of the global command set exactly as `tree.sync()` would send it (translations included, so a
    changed French text also triggers a sync), as stable JSON sorted by type and name."""
    translator = tree.translator
    if translator is not None:
        dicts = [await command.get_translated_payload(tree, translator) for command in tree.get_commands()]
    else:
        dicts = [command.to_dict(tree) for command in tree.get_commands()]
    payload = sorted(dicts, key=lambda d: (int(d.get("type", 1)), str(d["name"])))
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def default_table_service_factory() -> TableServiceFactory | None:
    """`bot.discord_ui.wiring.create_table_service`: `TableService(bot.storage, DiscordNotifier(bot))` (bot.tables
    never imports discord, so the Discord-side factory lives in bot.discord_ui)."""
    module = importlib.import_module("bot.discord_ui.wiring")
    factory = getattr(module, "create_table_service", None)
    return factory if callable(factory) else None


class PokerBot(commands.AutoShardedBot):
    """The bot. Its parts, which cogs reach through `bot.discord_ui.parts.parts` (the `BotParts` protocol):
    `storage` (Storage, once set up), `tables` (the table service or None), `people` (display names and locales
    seen in interactions), `ownership` (the shards whose lease this process holds, once set up); also `settings`
    (Settings).

    `shard_count` / `shard_ids`: the shards this process connects (every shard of Discord's recommended count,
    GET /gateway/bot, by default); `renew_leases=False` takes the leases once and never renews them (tests on a
    virtual clock, where the renewal's timer would fire without end). `lease_holder` / `replaces`: this process's
    holder name and those of dead processes whose leases it takes at once (a cluster's child started again:
    bot/cluster.py); by default a name of its own and no one's. `setup_hook` order: open storage and
    migrate -> take the shards' leases -> build the table service -> load EXTENSIONS -> `tables.restore()` (the
    guilds of the held shards) -> sync commands; the leases are then renewed in the background. `close()` stops
    the table service (after the table buttons' presses being run, `Presses.close`), disconnects, gives the leases
    back, closes storage.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        table_service_factory: TableServiceFactory | None = None,
        extensions: Sequence[str] = EXTENSIONS,
        shard_count: int | None = None,
        shard_ids: Sequence[int] | None = None,
        renew_leases: bool = True,
        lease_holder: str | None = None,
        replaces: Sequence[str] = (),
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=bot_intents(),
            help_command=None,
            tree_cls=PokerTree,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False),
            shard_count=shard_count,
            shard_ids=list(shard_ids) if shard_ids is not None else None,  # type: ignore[arg-type]  # Optional in fact
        )
        self.ownership: ShardOwnership | None = None
        self._lease_keeper: asyncio.Task[None] | None = None
        self._renew_leases = renew_leases
        self._lease_holder = lease_holder
        self._replaces = tuple(replaces)
        self.presses = Presses()
        self._ignore_unowned_interactions()
        self.settings = settings
        self.tables: TableService | None = None
        self.people = People()
        self._storage: Storage | None = None
        self._table_service_factory = table_service_factory
        self._extension_names = tuple(extensions)
        self._shutting_down = False

    @property
    def storage(self) -> Storage:
        """The open database; raises RuntimeError before `setup_hook` opened it."""
        if self._storage is None:
            raise RuntimeError("storage is not open yet (setup_hook has not run)")
        return self._storage

    def _ignore_unowned_interactions(self) -> None:
        """Drop, unanswered, an interaction from a guild whose shard another process holds (two processes started
        for one shard both receive its events: the lease holder alone answers); take a press of the table
        message's buttons straight from the payload (`Presses.take`, bot/discord_ui/presses.py: no discord.py
        Interaction, Message nor View is built for it); hand anything else to discord.py. Wraps discord.py's parser
        of INTERACTION_CREATE (`ConnectionState.parsers`, the table its gateway reads each event's handler from)."""
        parsers = self._connection.parsers
        parse = parsers["INTERACTION_CREATE"]

        def parse_if_owned(data: Any) -> None:
            guild_id = data.get("guild_id")
            if guild_id is not None and self.ownership is not None and not self.ownership.owns(int(guild_id)):
                log.debug("interaction %s of guild %s left to the shard's lease holder", data.get("id"), guild_id)
                return
            if self.presses.take(self, data):
                return
            parse(data)

        parsers["INTERACTION_CREATE"] = parse_if_owned

    async def _take_shards(self) -> ShardOwnership:
        """Resolve the shard count (Discord's recommendation when none was given) and take the leases of this
        process's shards (waiting up to one lease's time to live for a shard held by another process, then
        refusing it with one log line: ShardOwnership.claim)."""
        if self.shard_count is None:
            self.shard_count, _url, _limits = await self.http.get_bot_gateway()
            log.info("Discord recommends %s", counted(self.shard_count, "shard"))
        count = int(self.shard_count)
        ids = tuple(self.shard_ids) if self.shard_ids is not None else tuple(range(count))
        ownership = ShardOwnership(
            ShardLeases(self.storage),
            count,
            ids,
            holder=self._lease_holder,
            replaces=self._replaces,
            ttl_s=self.settings.shard_lease_ttl,
        )
        await ownership.claim()
        return ownership

    async def _follow_shards(self, gained: set[int], lost: set[int]) -> None:
        """A lease lost: stop the tables of its guilds here; a refused shard taken over: restore its tables. The
        open puzzles follow the same way (`Puzzles.follow_shards`, when the table cog keeps them)."""
        ownership = self.ownership
        if ownership is None or self.tables is None:
            return
        release = getattr(self.tables, "release", None)
        if lost and release is not None:
            await release(lambda guild_id: not ownership.owns(guild_id))
        restore = getattr(self.tables, "restore", None)
        if gained and restore is not None:
            await restore()
        puzzles = getattr(self, "puzzles", None)
        if puzzles is not None:
            await puzzles.follow_shards(self, self.tables.clock, ownership.owns)

    async def setup_hook(self) -> None:
        """Runs once, after login and before the gateway connects (discord.py calls it from `start`)."""
        pictures = asyncio.create_task(prepare_pictures(), name="poker-bot-pictures")  # in its thread meanwhile
        self._storage = await Storage.open(self.settings.database, defaults=guild_defaults(self.settings))
        self.ownership = await self._take_shards()
        if self._table_service_factory is not None:
            service = self._table_service_factory(self)
            self.tables = await service if inspect.isawaitable(service) else service
        for name in self._extension_names:
            await self.load_extension(name)
            log.info("loaded extension %s", name)
        if self.tables is not None:
            await self.tables.restore()
        await self.tree.set_translator(CatalogueTranslator())
        await self.sync_commands()
        await pictures
        if self._renew_leases:
            keep = self.ownership.keep(self._follow_shards)
            self._lease_keeper = asyncio.create_task(keep, name="poker-bot-leases")

    async def sync_commands(self) -> str:
        """Register the slash commands with Discord; returns what it did: "guild", "global" or "unchanged".

        With DEV_GUILD_ID: copy the global commands to that guild and sync it (instant, every start).
        Otherwise sync globally only when the command set's hash differs from the last one synced,
        which is kept in the database. A failed sync is logged and retried at the next start.
        """
        dev_guild_id = self.settings.dev_guild_id
        try:
            if dev_guild_id is not None:
                guild = discord.Object(id=dev_guild_id)
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
                log.info("synced %s to the dev guild %d", counted(len(synced), "command"), dev_guild_id)
                return "guild"
            digest = await command_tree_hash(self.tree)
            if await self.storage.get_meta(COMMAND_HASH_KEY) == digest:
                log.info("slash commands unchanged since the last sync; not syncing")
                return "unchanged"
            synced = await self.tree.sync()
        except discord.HTTPException:
            log.exception("syncing slash commands failed; they will be synced at the next start")
            return "failed"
        await self.storage.set_meta(COMMAND_HASH_KEY, digest)
        log.info("synced %s", counted(len(synced), "global command"))
        return "global"

    async def close(self) -> None:
        """Shut down cleanly: stop the table service (timers), disconnect, then commit and close storage."""
        if self._shutting_down:
            return
        self._shutting_down = True
        log.info("shutting down")
        if self._lease_keeper is not None:
            self._lease_keeper.cancel()
        try:
            await self.presses.close()
            if self.tables is not None:
                await self.tables.close()
        except Exception:
            log.exception("the table service failed to stop cleanly")
        finally:
            try:
                await super().close()
            finally:
                if self._storage is not None:
                    if self.ownership is not None:
                        await self.ownership.release()
                    await self._storage.close()
