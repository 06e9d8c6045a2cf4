"""The stand-in's gateway: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME with replay, closes.

One ``GatewaySession`` per IDENTIFY. IDENTIFY's ``shard`` ([id, count]) says which guilds a session carries
(Discord: ``(guild_id >> 22) % count``); DMs and their interactions go to shard 0 only. Two live connections
identified for the same shard (two bot processes started for one shard) both get its events, each in its own
session; a new IDENTIFY replaces only the shard's sessions whose connection is gone. Every dispatch gets the
session's next sequence number and is kept in a bounded buffer, so that a bot that RESUMEs after a dropped
connection receives exactly the events it missed (Discord gateway docs, "Resuming"). Events dispatched while
no connection is attached wait in that buffer. Frames are plain JSON text (discord.py accepts text frames even when
it asked for zlib-stream).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import secrets
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .server import DiscordStub

log = logging.getLogger(__name__)

OP_DISPATCH = 0
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_RESUME = 6
OP_RECONNECT = 7
OP_REQUEST_MEMBERS = 8
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11

CLOSE_AUTH_FAILED = 4004
REPLAY_BUFFER = 5000

INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12


class GatewayConnection:
    """One websocket; a writer task sends queued frames in order."""

    def __init__(self, ws: web.WebSocketResponse, path: str) -> None:
        self.ws = ws
        self.path = path
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.session: GatewaySession | None = None

    def send(self, op: int, data: Any) -> None:
        """Queue a non-dispatch frame."""
        self.queue.put_nowait(json.dumps({"op": op, "d": data, "s": None, "t": None}))

    async def write_loop(self) -> None:
        """Send queued frames until None is queued or the socket closes."""
        while True:
            text = await self.queue.get()
            if text is None or self.ws.closed:
                return
            try:
                await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return


class GatewaySession:
    """A gateway session: its sequence, its replay buffer, the connection attached to it (if any)."""

    def __init__(self, shard_id: int, shard_count: int, intents: int) -> None:
        self.session_id = secrets.token_hex(16)
        self.shard_id = shard_id
        self.shard_count = shard_count
        self.intents = intents
        self.seq = 0
        self.buffer: collections.deque[tuple[int, str]] = collections.deque(maxlen=REPLAY_BUFFER)
        self.conn: GatewayConnection | None = None
        self.resumes = 0

    def dispatch(self, event: str, data: Any) -> int:
        """Number, buffer and (if connected) send one event; returns its sequence number."""
        self.seq += 1
        text = json.dumps({"op": OP_DISPATCH, "t": event, "s": self.seq, "d": data})
        self.buffer.append((self.seq, text))
        if self.conn is not None:
            self.conn.queue.put_nowait(text)
        return self.seq

    def attach_for_resume(self, conn: GatewayConnection, after_seq: int) -> int:
        """Attach a new connection, queue the events after ``after_seq``; returns how many were replayed."""
        replay = [text for seq, text in self.buffer if seq > after_seq]
        for text in replay:
            conn.queue.put_nowait(text)
        self.conn = conn
        conn.session = self
        self.resumes += 1
        return len(replay)


class Gateway:
    """All gateway sessions of the stand-in, and the websocket handler."""

    def __init__(self, stub: DiscordStub) -> None:
        self.stub = stub
        self.sessions: dict[str, GatewaySession] = {}
        self.by_shard: dict[int, list[GatewaySession]] = {}
        self.connections: set[GatewayConnection] = set()
        self.identify_count = 0
        self.resume_count = 0
        self.replayed = 0
        self.heartbeats = 0
        self.paths: list[str] = []

    # -- routing -----------------------------------------------------------------------------------

    @property
    def shard_count(self) -> int:
        """The shard count the bot identified with (1 before any IDENTIFY)."""
        for sessions in self.by_shard.values():
            for session in sessions:
                return session.shard_count
        return 1

    def shard_for(self, guild_id: int | None) -> int:
        """The shard that carries a guild's events (Discord: (guild_id >> 22) % shard_count); DMs use 0."""
        if guild_id is None:
            return 0
        return (guild_id >> 22) % self.shard_count

    def sessions_for(self, guild_id: int | None) -> list[GatewaySession]:
        """The sessions of the shard that carries this guild (more than one when two processes run it)."""
        return self.by_shard.get(self.shard_for(guild_id), [])

    def session_for(self, guild_id: int | None) -> GatewaySession | None:
        """The newest session of the shard that carries this guild."""
        sessions = self.sessions_for(guild_id)
        return sessions[-1] if sessions else None

    def dispatch(self, guild_id: int | None, event: str, data: Any, *, intent: int = 0) -> bool:
        """Dispatch to every session of the guild's shard; returns False when none exists or its intents
        exclude the event."""
        sent = False
        for session in self.sessions_for(guild_id):
            if intent and not session.intents & intent:
                continue
            session.dispatch(event, data)
            sent = True
        return sent

    def is_connected(self, shards: int | None = None) -> bool:
        """Whether every known shard (or each of shards 0..``shards``-1) has sessions, all with a live connection
        that got its READY."""
        wanted = set(range(shards)) if shards is not None else set()
        return (
            bool(self.by_shard)
            and wanted <= set(self.by_shard)
            and all(s.conn is not None for sessions in self.by_shard.values() for s in sessions)
        )

    # -- faults ------------------------------------------------------------------------------------

    async def close_all(self, code: int) -> int:
        """Close every live connection with ``code`` (sessions are kept, so the bot can RESUME)."""
        conns = [c for c in self.connections if not c.ws.closed]
        for conn in conns:
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            conn.queue.put_nowait(None)
        await asyncio.gather(*(self._close(c, code) for c in conns))
        return len(conns)

    async def _close(self, conn: GatewayConnection, code: int) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(conn.ws.close(code=code, message=b"stub close"), 2.0)

    def send_op_all(self, op: int, data: Any) -> None:
        """Send a non-dispatch opcode (RECONNECT, INVALID_SESSION) to every live connection."""
        for conn in self.connections:
            if not conn.ws.closed:
                conn.send(op, data)

    def forget_sessions(self) -> None:
        """Drop every session, as Discord does when they expire (a RESUME then gets INVALID_SESSION)."""
        self.sessions.clear()

    # -- websocket handler -------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """The websocket endpoint (both the gateway URL and the resume URL)."""
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        conn = GatewayConnection(ws, request.path)
        self.paths.append(request.path)
        self.connections.add(conn)
        writer = asyncio.create_task(conn.write_loop())
        conn.send(OP_HELLO, {"heartbeat_interval": self.stub.heartbeat_interval_ms})
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                await self._on_frame(conn, json.loads(msg.data))
        except Exception:
            log.exception("gateway connection failed")
        finally:
            self.connections.discard(conn)
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            conn.queue.put_nowait(None)
            await writer
            self.stub.touch()
        return ws

    async def _on_frame(self, conn: GatewayConnection, frame: dict[str, Any]) -> None:
        op, data = frame.get("op"), frame.get("d")
        if op == OP_HEARTBEAT:
            self.heartbeats += 1
            conn.send(OP_HEARTBEAT_ACK, None)
        elif op == OP_IDENTIFY:
            await self._identify(conn, data)
        elif op == OP_RESUME:
            self._resume(conn, data)
        elif op == OP_REQUEST_MEMBERS:
            self._members_chunk(conn, data)
        else:
            log.debug("gateway op %s ignored", op)

    async def _identify(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        stub = self.stub
        if stub.token is not None and data.get("token") != stub.token:
            await conn.ws.close(code=CLOSE_AUTH_FAILED, message=b"Authentication failed.")
            return
        shard_id, shard_count = data.get("shard") or [0, 1]
        session = GatewaySession(shard_id, shard_count, int(data.get("intents") or 0))
        kept = []
        for old in self.by_shard.get(shard_id, []):
            if old.conn is None or old.conn is conn:
                self.sessions.pop(old.session_id, None)  # its process is gone (or identifies again here)
            else:
                kept.append(old)
        self.sessions[session.session_id] = session
        self.by_shard[shard_id] = [*kept, session]
        session.conn = conn
        conn.session = session
        self.identify_count += 1
        guilds = [g for g in stub.guilds.values() if (g.id >> 22) % shard_count == shard_id]
        session.dispatch(
            "READY",
            {
                "v": 10,
                "user": stub.bot_user.payload(),
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.session_id,
                "resume_gateway_url": stub.resume_gateway_url,
                "shard": [shard_id, shard_count],
                "application": {"id": str(stub.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
            },
        )
        for guild in guilds:
            session.dispatch("GUILD_CREATE", guild.payload(stub.users))
        stub.touch()

    def _resume(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        session = self.sessions.get(data.get("session_id") or "")
        if session is None or data.get("token") != (self.stub.token or data.get("token")):
            conn.send(OP_INVALID_SESSION, False)
            return
        if session.conn is not None and session.conn is not conn:
            session.conn.queue.put_nowait(None)
        replayed = session.attach_for_resume(conn, int(data.get("seq") or 0))
        self.resume_count += 1
        self.replayed += replayed
        log.debug("session %s resumed, %d events replayed", session.session_id, replayed)
        session.dispatch("RESUMED", {})
        self.stub.touch()

    def _members_chunk(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        if conn.session is None:
            return
        guild = self.stub.guilds.get(int(data.get("guild_id") or 0))
        members = [m.payload() for m in guild.members.values()] if guild else []
        conn.session.dispatch(
            "GUILD_MEMBERS_CHUNK",
            {
                "guild_id": str(data.get("guild_id")),
                "members": members,
                "chunk_index": 0,
                "chunk_count": 1,
                "nonce": data.get("nonce"),
                "not_found": [],
            },
        )
