"""DiscordStub: a local stand-in for Discord's REST API v10 and gateway that a real discord.py bot connects to.

Start it, point discord.py at it, act as users, read back what every user saw::

    async with DiscordStub() as stub:
        guild = stub.add_guild(name="Casino", channels=["table-1"])
        alice = stub.add_member(1001, "alice")
        bot = BotProcess(stub); await bot.start(); await stub.wait_connected()
        inter = stub.invoke_slash(alice, guild.channel("table-1"), "poker", "join")
        await inter.wait_acked()
        stub.assert_no_violations()

It records every REST call, message version, interaction and broken Discord rule (``violations``);
tests fail on any violation (``assert_no_violations``). See actions.py for the user side, rest.py for
the routes, gateway.py for the websocket, faults.py for 429s and slow responses.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from aiohttp import web

from . import limits
from .actions import ChannelRef, StubUsageError, UserActions, UserRef
from .faults import Faults
from .gateway import (
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_MESSAGES,
    OP_INVALID_SESSION,
    OP_RECONNECT,
    Gateway,
)
from .model import (
    ADMINISTRATOR,
    CHANNEL_DM,
    DEFAULT_PERMISSIONS,
    EPHEMERAL,
    LOADING,
    Channel,
    Guild,
    Interaction,
    Member,
    Message,
    MessageVersion,
    RequestRecord,
    Role,
    SnowflakeFactory,
    User,
    Violation,
    iso_now,
)
from .rest import API, MESSAGE_FLAGS_ALLOWED, Rest, json_response

log = logging.getLogger(__name__)

T = TypeVar("T")

RESUMABLE_CLOSE = 4000  # "Unknown error": discord.py reconnects and RESUMEs


class GuildHandle:
    """What add_guild returns: the guild record plus channel lookup by name."""

    def __init__(self, stub: DiscordStub, guild: Guild) -> None:
        self.stub = stub
        self.guild = guild

    @property
    def id(self) -> int:
        """The guild id."""
        return self.guild.id

    def channel(self, name: str) -> Channel:
        """The guild's text channel with this name."""
        for channel in self.guild.channels.values():
            if channel.name == name:
                return channel
        raise StubUsageError(f"guild {self.guild.id} has no channel {name!r}")

    @property
    def channels(self) -> list[Channel]:
        """The guild's channels, in creation order."""
        return list(self.guild.channels.values())


class DiscordStub(UserActions):
    """The stand-in. All state lives in memory; one instance per test (or per test module).

    ``ack_deadline``: seconds to acknowledge an interaction (Discord: 3). ``shards``: what /gateway/bot
    tells an AutoShardedBot. ``message_events``: send MESSAGE_CREATE/UPDATE/DELETE for the bot's own
    public messages when its intents ask for them. ``token``: the bot token it accepts (None: any).
    """

    def __init__(
        self,
        *,
        token: str | None = "stub-token",
        bot_name: str = "Poker Bot",
        ack_deadline: float = 3.0,
        heartbeat_interval_ms: int = 41_250,
        shards: int = 1,
        message_events: bool = True,
        keep_requests: bool = True,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.snowflake = SnowflakeFactory()
        self.token = token
        self.application_id = self.snowflake()
        self.bot_user = User(self.application_id, bot_name, bot=True)
        self.owner = User(self.snowflake(), "app-owner")
        self.ack_deadline = ack_deadline
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.shards = shards
        self.message_events = message_events
        self.keep_requests = keep_requests
        self.host, self._port = host, port

        self.users: dict[int, User] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.interactions: dict[int, Interaction] = {}
        self.interactions_by_token: dict[str, Interaction] = {}
        self._commands: dict[int | None, list[dict[str, Any]]] = {}
        self.command_syncs: list[tuple[int | None, int, int]] = []
        self.requests: list[RequestRecord] = []
        self.request_counts: dict[str, int] = {}
        self.request_total = 0
        self.violations: list[Violation] = []
        self.refused_dms: list[tuple[int, int]] = []
        #: The bytes of every uploaded file, by attachment id (a message's `attachments` name them).
        self.uploads: dict[str, bytes] = {}
        #: Posts made with `enforce_nonce`, by (channel id, nonce): a post repeating one returns the first message.
        self.nonces: dict[tuple[int, str], Message] = {}
        self.ready_pings = 0
        self.seq = 0
        self.faults = Faults()
        self.gateway = Gateway(self)
        self._ephemeral_index: dict[int, list[Message]] = {}
        self._waiters: set[asyncio.Event] = set()
        self._timers: set[asyncio.TimerHandle] = set()
        self._last_activity = time.monotonic()
        self._runner: web.AppRunner | None = None
        self._site: web.TCPSite | None = None

    # -- lifecycle ---------------------------------------------------------------------------------

    async def start(self) -> DiscordStub:
        """Serve on 127.0.0.1 (a free port unless one was given)."""
        rest = Rest(self)
        app = web.Application(middlewares=[rest.middleware], client_max_size=64 * 1024 * 1024)
        for method, template, handler in rest.routes():
            app.router.add_route(method, API + template, handler)
        app.router.add_get("/gateway/", self.gateway.handle)
        app.router.add_get("/gateway/resume/", self.gateway.handle)
        app.router.add_post("/__stub__/ready", self._ready_ping)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        self._site = web.TCPSite(self._runner, self.host, self._port, reuse_address=True)
        await self._site.start()
        server = self._site._server
        assert server is not None
        self._port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        log.info("discord stub listening on %s", self.url)
        return self

    async def stop(self) -> None:
        """Close every gateway connection and the server."""
        for handle in self._timers:
            handle.cancel()
        self._timers.clear()
        with contextlib.suppress(Exception):
            await self.gateway.close_all(1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> DiscordStub:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def _ready_ping(self, request: web.Request) -> web.Response:
        self.ready_pings += 1
        self.touch()
        return json_response({})

    @property
    def port(self) -> int:
        """The TCP port (after start)."""
        return self._port

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT``: what the launcher reads from STUB_URL."""
        return f"http://{self.host}:{self._port}"

    @property
    def api_base(self) -> str:
        """The value for ``discord.http.Route.BASE``."""
        return f"{self.url}{API}"

    @property
    def gateway_url(self) -> str:
        """The value for ``DiscordWebSocket.DEFAULT_GATEWAY`` (also returned by /gateway/bot)."""
        return f"ws://{self.host}:{self._port}/gateway/"

    @property
    def resume_gateway_url(self) -> str:
        """READY's resume_gateway_url: a different path, to prove RESUMEs come back to the stand-in."""
        return f"ws://{self.host}:{self._port}/gateway/resume/"

    def env(self) -> dict[str, str]:
        """Environment for a bot process launched with ``python -m tests.discord_stub.run_bot``."""
        return {"STUB_URL": self.url, "DISCORD_TOKEN": self.token or "stub-token"}

    # -- world -------------------------------------------------------------------------------------

    def add_guild(
        self,
        guild_id: int | None = None,
        name: str = "Test guild",
        *,
        channels: Iterable[str] = ("poker",),
        locale: str = "en-US",
        owner_id: int | None = None,
    ) -> GuildHandle:
        """Create a guild with text channels; announced with GUILD_CREATE if the bot is already connected."""
        gid = guild_id or self.snowflake()
        guild = Guild(gid, name, owner_id or self.owner.id, locale=locale)
        guild.roles[gid] = Role(gid, "@everyone", DEFAULT_PERMISSIONS)
        admin_role = Role(self.snowflake(), "Admin", ADMINISTRATOR, position=1)
        guild.roles[admin_role.id] = admin_role
        self.guilds[gid] = guild
        guild.members[self.bot_user.id] = Member(self.bot_user, permissions=ADMINISTRATOR)
        for channel_name in channels:
            self._new_channel(guild, channel_name)
        self.gateway.dispatch(gid, "GUILD_CREATE", guild.payload(self.users))
        self.touch()
        return GuildHandle(self, guild)

    def _new_channel(self, guild: Guild, name: str) -> Channel:
        channel = Channel(self.snowflake(), name, guild_id=guild.id, position=len(guild.channels))
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        return channel

    def add_channel(self, guild: GuildHandle | Guild | int, name: str) -> Channel:
        """Add a text channel to a guild (CHANNEL_CREATE if the bot is connected)."""
        g = self._guild(guild)
        channel = self._new_channel(g, name)
        self.gateway.dispatch(g.id, "CHANNEL_CREATE", channel.payload())
        self.touch()
        return channel

    def _guild(self, guild: GuildHandle | Guild | int | None) -> Guild:
        if guild is None:
            if not self.guilds:
                raise StubUsageError("add a guild first")
            return next(iter(self.guilds.values()))
        gid = guild if isinstance(guild, int) else guild.id
        if gid not in self.guilds:
            raise StubUsageError(f"unknown guild {gid}")
        return self.guilds[gid]

    def add_member(
        self,
        user_id: int | None = None,
        name: str | None = None,
        dms_open: bool = True,
        *,
        guild: GuildHandle | Guild | int | None = None,
        admin: bool = False,
        permissions: int | None = None,
        locale: str = "en-US",
    ) -> User:
        """Add a user to a guild (default: the first guild). ``dms_open=False``: DMs to them fail with 50007.

        ``admin``: the member gets the guild's Administrator role; ``permissions``: the permission bits an
        interaction reports for them (default: a regular member's).
        """
        g = self._guild(guild)
        uid = user_id or self.snowflake()
        user = self.users.get(uid)
        if user is None:
            user = User(uid, name or f"user{uid}", dms_open=dms_open, locale=locale)
            self.users[uid] = user
        perms = ADMINISTRATOR if admin else (permissions if permissions is not None else DEFAULT_PERMISSIONS)
        roles = [r.id for r in g.roles.values() if r.name == "Admin"] if admin else []
        member = Member(user, permissions=perms, role_ids=roles)
        g.members[uid] = member
        data = dict(member.payload(), guild_id=str(g.id))
        self.gateway.dispatch(g.id, "GUILD_MEMBER_ADD", data, intent=INTENT_GUILD_MEMBERS)
        self.touch()
        return user

    def set_dms_open(self, user: UserRef, is_open: bool) -> None:
        """Open or close a user's DMs (closed: sending fails with 403 / 50007)."""
        self.user(user).dms_open = is_open

    def dm_channel(self, user: User) -> Channel:
        """The DM channel between the bot and ``user`` (created on first use)."""
        if user.dm_channel_id is None:
            channel = Channel(self.snowflake(), f"dm-{user.name}", type=CHANNEL_DM, recipient_id=user.id)
            self.channels[channel.id] = channel
            user.dm_channel_id = channel.id
        return self.channels[user.dm_channel_id]

    # -- recording ---------------------------------------------------------------------------------

    def next_seq(self) -> int:
        """Advance and return the global event number."""
        self.seq += 1
        return self.seq

    def mark(self) -> int:
        """The current event number: everything recorded later has a greater ``seq``."""
        return self.seq

    def touch(self) -> None:
        """Wake every waiter (something changed)."""
        self._last_activity = time.monotonic()
        for event in self._waiters:
            event.set()

    def violation(self, kind: str, detail: str, route: str = "") -> None:
        """Record a broken Discord rule."""
        v = Violation(kind, detail, route, self.next_seq())
        log.warning("discord rule broken: %s", v)
        self.violations.append(v)
        self.touch()

    def violations_from(self, problems: list[limits.Problem], request: web.Request) -> None:
        """Record limit problems found in a request."""
        resource = request.match_info.route.resource
        template = resource.canonical[len(API) :] if resource else request.path
        for kind, detail in problems:
            self.violation(kind, detail, f"{request.method} {template}")

    def record_request(self, method: str, template: str, path: str, status: int, start: float) -> None:
        """Record one REST call."""
        now = time.monotonic()
        route = f"{method} {template}"
        self.request_total += 1
        self.request_counts[route] = self.request_counts.get(route, 0) + 1
        if self.keep_requests:
            self.requests.append(RequestRecord(self.next_seq(), now, method, template, path, status, now - start))
        self.touch()

    def take_violations(self, *kinds: str) -> list[Violation]:
        """Remove and return the recorded violations (only those of ``kinds`` if given)."""
        taken = [v for v in self.violations if not kinds or v.kind in kinds]
        self.violations = [v for v in self.violations if v not in taken]
        return taken

    def assert_no_violations(self) -> None:
        """Fail (AssertionError listing them) if any Discord rule was broken."""
        if self.violations:
            listing = "\n  ".join(str(v) for v in self.violations)
            raise AssertionError(f"{len(self.violations)} Discord rule violation(s):\n  {listing}")

    def errors(self) -> list[RequestRecord]:
        """REST calls answered with a status >= 400 (429s included)."""
        return [r for r in self.requests if r.status >= 400]

    def rest_calls(self, route: str | None = None, *, since: int = 0, ok_only: bool = False) -> int:
        """How many REST calls (of one ``"METHOD /template"`` if given) after event ``since``."""
        return sum(
            1
            for r in self.requests
            if r.seq > since and (route is None or f"{r.method} {r.route}" == route) and (not ok_only or r.status < 400)
        )

    # -- messages ----------------------------------------------------------------------------------

    def attachment(
        self, filename: str, size: int, content_type: str | None, field: str, content: bytes = b""
    ) -> dict[str, Any]:
        """An attachment object for an uploaded file (its bytes kept in `uploads`)."""
        aid = self.snowflake()
        self.uploads[str(aid)] = content
        url = f"{self.url}/attachments/{aid}/{filename}"
        return {
            "id": str(aid),
            "filename": filename,
            "size": size,
            "url": url,
            "proxy_url": url,
            "content_type": content_type,
            "_field": field,
        }

    def _attachments(self, payload: dict[str, Any], files: list[dict[str, Any]], kept: Iterable[dict]) -> tuple:
        declared = payload.get("attachments")
        if declared is None:
            result = list(kept) + files
        else:
            keep_ids = {str(a.get("id")) for a in declared}
            result = [a for a in kept if a["id"] in keep_ids] + files
        return tuple({k: v for k, v in a.items() if k != "_field"} for a in result)

    def _version(self, payload: dict[str, Any], flags: int, attachments: tuple) -> MessageVersion:
        embeds = payload.get("embeds")
        if embeds is None and payload.get("embed"):
            embeds = [payload["embed"]]
        return MessageVersion(
            seq=self.next_seq(),
            at=time.monotonic(),
            content=payload.get("content") or "",
            embeds=tuple(embeds or ()),
            components=tuple(payload.get("components") or ()),
            flags=flags,
            attachments=attachments,
        )

    def create_message(
        self,
        channel: Channel,
        payload: dict[str, Any],
        *,
        files: list[dict[str, Any]] | None = None,
        ephemeral_to: int | None = None,
        interaction: Interaction | None = None,
        extra_flags: int = 0,
    ) -> Message:
        """Record a new message from the bot (announced with MESSAGE_CREATE unless ephemeral)."""
        flags = (int(payload.get("flags") or 0) & MESSAGE_FLAGS_ALLOWED) | extra_flags
        if ephemeral_to is None:
            flags &= ~EPHEMERAL
        version = self._version(payload, flags, self._attachments(payload, files or [], ()))
        message = Message(
            id=self.snowflake(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author_id=self.bot_user.id,
            versions=[version],
            ephemeral_to=ephemeral_to,
            interaction_id=interaction.id if interaction else None,
            webhook_id=self.application_id if interaction else None,
        )
        channel.messages.append(message)
        self.messages[message.id] = message
        if ephemeral_to is not None:
            self._ephemeral_index.setdefault(ephemeral_to, []).append(message)
        else:
            self._message_event("MESSAGE_CREATE", message)
        self.touch()
        return message

    def edit_message(
        self,
        message: Message,
        payload: dict[str, Any],
        *,
        files: list[dict[str, Any]] | None = None,
        flags: int | None = None,
    ) -> Message:
        """Record an edit: keys present in ``payload`` replace the current ones (None clears).

        The ephemeral and loading flags cannot be changed by an edit; ``flags`` overrides everything.
        """
        old = message.latest
        merged = {
            "content": payload["content"] if "content" in payload else old.content,
            "embeds": payload["embeds"] if "embeds" in payload else list(old.embeds),
            "components": payload["components"] if "components" in payload else list(old.components),
        }
        if "embed" in payload and "embeds" not in payload:
            merged["embeds"] = [payload["embed"]] if payload["embed"] else []
        new_flags = old.flags
        if "flags" in payload:
            sticky = EPHEMERAL | LOADING
            new_flags = (old.flags & sticky) | (int(payload["flags"] or 0) & MESSAGE_FLAGS_ALLOWED & ~sticky)
        if flags is not None:
            new_flags = flags
        attachments = self._attachments(payload, files or [], old.attachments)
        message.versions.append(self._version(merged, new_flags, attachments))
        message.edited_timestamp = iso_now()
        if not message.is_ephemeral:
            self._message_event("MESSAGE_UPDATE", message)
        self.touch()
        return message

    def delete_message(self, message: Message) -> None:
        """Record a deletion (MESSAGE_DELETE unless ephemeral)."""
        message.deleted_seq = self.next_seq()
        if not message.is_ephemeral:
            data: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id:
                data["guild_id"] = str(message.guild_id)
            intent = INTENT_GUILD_MESSAGES if message.guild_id else INTENT_DIRECT_MESSAGES
            if self.message_events:
                self.gateway.dispatch(message.guild_id, "MESSAGE_DELETE", data, intent=intent)
        self.touch()

    def _message_event(self, event: str, message: Message) -> None:
        if not self.message_events:
            return
        data = message.payload(self.users)
        intent = INTENT_GUILD_MESSAGES if message.guild_id else INTENT_DIRECT_MESSAGES
        if message.guild_id:
            data["member"] = {"roles": [], "joined_at": iso_now(), "deaf": False, "mute": False, "flags": 0}
        self.gateway.dispatch(message.guild_id, event, data, intent=intent)

    # -- interaction responses ---------------------------------------------------------------------

    def acknowledge(
        self, inter: Interaction, kind: int, data: dict[str, Any], files: list[dict[str, Any]], arrived: float
    ) -> None:
        """Apply an accepted interaction callback."""
        inter.ack_type = kind
        inter.acked_at = arrived
        inter.callbacks.append((kind, data))
        channel = self.channels[inter.channel_id]
        if kind == 4:
            inter.ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
            eph = inter.user_id if inter.ephemeral else None
            msg = self.create_message(channel, data, files=files, ephemeral_to=eph, interaction=inter)
            inter.original_message_id = msg.id
        elif kind == 5:
            inter.ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
            eph = inter.user_id if inter.ephemeral else None
            flags = EPHEMERAL if inter.ephemeral else 0
            msg = self.create_message(
                channel, {"content": "", "flags": flags}, ephemeral_to=eph, interaction=inter, extra_flags=LOADING
            )
            inter.original_message_id = msg.id
            inter.original_loading = True
        elif kind in (6, 7):
            inter.original_message_id = inter.message_id
            assert inter.message_id is not None
            target = self.messages[inter.message_id]
            inter.ephemeral = target.is_ephemeral
            if kind == 7:
                self.edit_message(target, data, files=files)
        elif kind == 8:
            inter.choices = list(data.get("choices") or [])
        elif kind == 9:
            inter.modal = data
        inter.acked_event.set()
        self.touch()

    def fill_deferred(
        self, inter: Interaction, message: Message, payload: dict[str, Any], files: list[dict[str, Any]]
    ) -> None:
        """The first edit or followup after a "thinking" deferral replaces the loading message; it stays
        ephemeral or public as the deferral said, whatever the followup's own flags."""
        inter.original_loading = False
        own = int(payload.get("flags") or 0) & MESSAGE_FLAGS_ALLOWED & ~EPHEMERAL
        self.edit_message(message, payload, files=files, flags=(message.flags & EPHEMERAL) | own)

    def followup(self, inter: Interaction, payload: dict[str, Any], files: list[dict[str, Any]]) -> Message:
        """A followup message; the first after a "thinking" deferral fills the deferred message instead."""
        if inter.original_loading and inter.original_message_id:
            message = self.messages[inter.original_message_id]
            self.fill_deferred(inter, message, payload, files)
            return message
        ephemeral = bool(int(payload.get("flags") or 0) & EPHEMERAL)
        channel = self.channels[inter.channel_id]
        message = self.create_message(
            channel, payload, files=files, ephemeral_to=inter.user_id if ephemeral else None, interaction=inter
        )
        inter.followup_ids.append(message.id)
        return message

    # -- commands ----------------------------------------------------------------------------------

    def store_commands(self, guild_id: int | None, payload: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Bulk overwrite: the new set replaces the old; a command keeps its id if name and type match."""
        old = {(c["name"], int(c.get("type", 1))): c for c in self._commands.get(guild_id, [])}
        stored = []
        for cmd in payload:
            kind = int(cmd.get("type", 1))
            previous = old.get((cmd["name"], kind))
            entry = dict(cmd)
            entry.update(
                id=previous["id"] if previous else str(self.snowflake()),
                application_id=str(self.application_id),
                version=str(self.snowflake()),
                type=kind,
                options=cmd.get("options") or [],
                default_member_permissions=cmd.get("default_member_permissions"),
            )
            if guild_id is not None:
                entry["guild_id"] = str(guild_id)
            stored.append(entry)
        self._commands[guild_id] = stored
        self.command_syncs.append((guild_id, len(stored), self.next_seq()))
        self.touch()
        return stored

    def commands(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        """The synced commands (global when ``guild_id`` is None)."""
        return list(self._commands.get(guild_id, []))

    # -- reading back ------------------------------------------------------------------------------

    def channel_messages(self, channel: ChannelRef, *, include_deleted: bool = False) -> list[Message]:
        """What anyone in the channel sees: its public messages, oldest first (each with all its versions)."""
        ch = self.channel(channel)
        return [m for m in ch.messages if m.ephemeral_to is None and (include_deleted or not m.deleted)]

    def last_message(self, channel: ChannelRef) -> Message | None:
        """The newest public message of a channel."""
        messages = self.channel_messages(channel)
        return messages[-1] if messages else None

    def dms(self, user: UserRef) -> list[Message]:
        """The bot's DMs to a user (delivered ones only; refused sends are in ``refused_dms``)."""
        u = self.user(user)
        return [] if u.dm_channel_id is None else [m for m in self.channels[u.dm_channel_id].messages if not m.deleted]

    def ephemerals(self, user: UserRef, channel: ChannelRef | None = None) -> list[Message]:
        """The ephemeral responses and followups only ``user`` sees (in one channel if given)."""
        u = self.user(user)
        found = self._ephemeral_index.get(u.id, [])
        if channel is not None:
            cid = self.channel(channel).id
            found = [m for m in found if m.channel_id == cid]
        return [m for m in found if not m.deleted]

    def visible_to(self, user: UserRef, channel: ChannelRef | None = None) -> list[Message]:
        """Everything ``user`` sees, oldest first: public messages of their guilds' channels (or ``channel``),
        their DMs and their ephemeral messages."""
        u = self.user(user)
        if channel is not None:
            public = self.channel_messages(channel)
        else:
            public = [
                m
                for g in self.guilds.values()
                if u.id in g.members
                for ch in g.channels.values()
                for m in self.channel_messages(ch)
            ]
        found = public + self.dms(u) + self.ephemerals(u, channel)
        return sorted(found, key=lambda m: m.created_seq)

    def original(self, inter: Interaction) -> Message | None:
        """The message an interaction's response created or updated."""
        return self.messages.get(inter.original_message_id) if inter.original_message_id else None

    def followups(self, inter: Interaction) -> list[Message]:
        """The followup messages of an interaction."""
        return [self.messages[i] for i in inter.followup_ids]

    def pending_deferrals(self) -> list[Interaction]:
        """Interactions deferred with "thinking" whose message was never filled."""
        return [i for i in self.interactions.values() if i.original_loading]

    # -- waiting -----------------------------------------------------------------------------------

    async def wait_for(self, predicate: Callable[[], T], timeout: float = 5.0, *, what: str = "") -> T:  # noqa: ASYNC109 - test helpers take a plain timeout
        """Wait until ``predicate()`` is truthy (re-checked on every change); returns its value.

        Raises TimeoutError naming ``what`` (or the predicate).
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout} s waiting for {what or predicate}")
            event = asyncio.Event()
            self._waiters.add(event)
            try:
                await asyncio.wait_for(event.wait(), min(remaining, 0.25))
            except TimeoutError:
                pass
            finally:
                self._waiters.discard(event)

    async def wait_idle(self, quiet: float = 0.3, timeout: float = 10.0) -> None:  # noqa: ASYNC109 - test helpers take a plain timeout
        """Wait until nothing happened (no request, message or event) for ``quiet`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while time.monotonic() - self._last_activity < quiet:
            if loop.time() > deadline:
                raise TimeoutError(f"the bot was still busy after {timeout} s")
            await asyncio.sleep(quiet - (time.monotonic() - self._last_activity) + 0.01)

    async def wait_connected(self, timeout: float = 15.0) -> None:  # noqa: ASYNC109 - test helpers take a plain timeout
        """Wait until every shard of the bot has a live gateway connection (after READY and GUILD_CREATEs)."""
        await self.wait_for(self.gateway.is_connected, timeout, what="the bot's gateway connection")

    async def wait_bot_ready(self, timeout: float = 20.0, *, after: int = 0) -> None:  # noqa: ASYNC109 - test helpers take a plain timeout
        """Wait for the launcher's signal that the bot dispatched on_ready (more than ``after`` signals)."""
        await self.wait_for(lambda: self.ready_pings > after, timeout, what="the bot's on_ready")

    # -- gateway faults ----------------------------------------------------------------------------

    async def close_gateway(self, code: int = RESUMABLE_CLOSE) -> int:
        """Close the bot's gateway connections with ``code`` (4000: it should RESUME); returns how many."""
        return await self.gateway.close_all(code)

    def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: the bot should reconnect and RESUME."""
        self.gateway.send_op_all(OP_RECONNECT, None)

    def invalidate_session(self, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION (not resumable: the bot must IDENTIFY again)."""
        if not resumable:
            self.gateway.forget_sessions()
        self.gateway.send_op_all(OP_INVALID_SESSION, resumable)
