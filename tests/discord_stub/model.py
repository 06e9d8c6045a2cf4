"""Records kept by the Discord stand-in: users, guilds, channels, messages with every edit, interactions.

Everything here is plain data. The stand-in (server.py) mutates it; tests read it back. Times are
``time.monotonic()`` seconds; ``seq`` is the stand-in's global event counter, so that any two records
can be ordered (a message version with a smaller ``seq`` existed before one with a larger ``seq``).
"""

from __future__ import annotations

import asyncio
import datetime
import time
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000
EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15

CHANNEL_TEXT = 0
CHANNEL_DM = 1

ADMINISTRATOR = 1 << 3
ALL_PERMISSIONS = (1 << 53) - 1  # what Discord reports for an administrator: every permission bit
# view channel, send messages, embed links, attach files, read history, add reactions, use application commands
DEFAULT_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 6) | (1 << 31)


class SnowflakeFactory:
    """Makes increasing Discord snowflakes (ms timestamp << 22 | counter), as Discord does."""

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> int:
        now_ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        candidate = now_ms << 22
        self._last = max(candidate, self._last + 1)
        return self._last


def iso_now() -> str:
    """Discord's ISO 8601 timestamp for now (UTC)."""
    return datetime.datetime.now(datetime.UTC).isoformat()


@dataclass
class User:
    """A Discord user. ``dms_open=False`` makes every message to their DM channel fail with 50007."""

    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    locale: str = "en-US"
    dm_channel_id: int | None = None

    def payload(self) -> dict[str, Any]:
        """The user object as Discord sends it."""
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass
class Role:
    """A guild role; the @everyone role has the guild's id."""

    id: int
    name: str
    permissions: int = 0
    position: int = 0

    def payload(self) -> dict[str, Any]:
        """The role object as Discord sends it."""
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass
class Member:
    """A user's membership of a guild."""

    user: User
    permissions: int = DEFAULT_PERMISSIONS
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso_now)

    def payload(self, *, permissions: int | None = None) -> dict[str, Any]:
        """The guild member object; ``permissions`` is added as in interaction payloads."""
        data: dict[str, Any] = {
            "user": self.user.payload(),
            "nick": self.nick,
            "roles": [str(r) for r in self.role_ids],
            "joined_at": self.joined_at,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "avatar": None,
        }
        if permissions is not None:
            data["permissions"] = str(ALL_PERMISSIONS if permissions & ADMINISTRATOR else permissions)
        return data


@dataclass
class Channel:
    """A guild text channel or a DM channel (``recipient_id`` set)."""

    id: int
    name: str
    type: int = CHANNEL_TEXT
    guild_id: int | None = None
    recipient_id: int | None = None
    position: int = 0
    messages: list[Message] = field(default_factory=list)

    def payload(self, users: dict[int, User] | None = None) -> dict[str, Any]:
        """The channel object as Discord sends it."""
        last = self.messages[-1].id if self.messages else None
        if self.type == CHANNEL_DM:
            recipients = [users[self.recipient_id].payload()] if users and self.recipient_id in users else []
            return {
                "id": str(self.id),
                "type": CHANNEL_DM,
                "last_message_id": str(last) if last else None,
                "recipients": recipients,
                "flags": 0,
            }
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": str(last) if last else None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        return data


@dataclass
class Guild:
    """A guild with its channels, members and roles."""

    id: int
    name: str
    owner_id: int
    locale: str = "en-US"
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    roles: dict[int, Role] = field(default_factory=dict)

    def payload(self, users: dict[int, User]) -> dict[str, Any]:
        """The GUILD_CREATE payload: the guild with channels, members and roles."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "owner_id": str(self.owner_id),
            "preferred_locale": self.locale,
            "features": [],
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "channels": [c.payload(users) for c in self.channels.values()],
            "threads": [],
            "members": [m.payload() for m in self.members.values()],
            "member_count": len(self.members),
            "large": False,
            "unavailable": False,
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "system_channel_flags": 0,
            "joined_at": iso_now(),
        }


@dataclass(frozen=True)
class MessageVersion:
    """One state of a message: the one it was created with, then one per edit."""

    seq: int
    at: float
    content: str
    embeds: tuple[dict[str, Any], ...]
    components: tuple[dict[str, Any], ...]
    flags: int
    attachments: tuple[dict[str, Any], ...]

    def text(self) -> str:
        """Every piece of text a reader can see: content, embed texts, component labels and text displays."""
        parts = [self.content]
        for embed in self.embeds:
            parts.extend(_embed_texts(embed))
        for component in self.components:
            parts.extend(_component_texts(component))
        parts.extend(a.get("filename", "") for a in self.attachments)
        return "\n".join(p for p in parts if p)


def _embed_texts(embed: dict[str, Any]) -> list[str]:
    texts = [embed.get("title") or "", embed.get("description") or ""]
    for f in embed.get("fields") or []:
        texts.extend([f.get("name") or "", f.get("value") or ""])
    texts.append((embed.get("footer") or {}).get("text") or "")
    texts.append((embed.get("author") or {}).get("name") or "")
    return texts


def _component_texts(component: dict[str, Any]) -> list[str]:
    texts = [str(component.get(key) or "") for key in ("label", "placeholder", "content", "title")]
    emoji = component.get("emoji")
    if isinstance(emoji, dict) and emoji.get("name"):
        texts.append(emoji["name"])
    for option in component.get("options") or []:
        texts.extend([option.get("label") or "", option.get("description") or ""])
    for child in component.get("components") or []:
        texts.extend(_component_texts(child))
    for key in ("component", "accessory"):
        if isinstance(component.get(key), dict):
            texts.extend(_component_texts(component[key]))
    return texts


def iter_components(components: list[dict[str, Any]] | tuple[dict[str, Any], ...]) -> list[dict[str, Any]]:
    """Every component in a tree, depth first (rows, containers, sections, labels included)."""
    out: list[dict[str, Any]] = []
    for component in components:
        out.append(component)
        out.extend(iter_components(component.get("components") or []))
        for key in ("component", "accessory"):
            if isinstance(component.get(key), dict):
                out.extend(iter_components([component[key]]))
    return out


@dataclass
class Message:
    """A message with its whole history of versions.

    ``ephemeral_to`` is the only user who can see an ephemeral message; ``interaction_id`` the
    interaction whose response or followup it is.
    """

    id: int
    channel_id: int
    guild_id: int | None
    author_id: int
    versions: list[MessageVersion]
    ephemeral_to: int | None = None
    interaction_id: int | None = None
    webhook_id: int | None = None
    deleted_seq: int | None = None
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None

    @property
    def latest(self) -> MessageVersion:
        """The current version."""
        return self.versions[-1]

    @property
    def content(self) -> str:
        """The current content."""
        return self.latest.content

    @property
    def embeds(self) -> list[dict[str, Any]]:
        """The current embeds (Discord embed dicts)."""
        return list(self.latest.embeds)

    @property
    def components(self) -> list[dict[str, Any]]:
        """The current top-level components (action rows, or v2 layout components)."""
        return list(self.latest.components)

    @property
    def flags(self) -> int:
        """The current message flags."""
        return self.latest.flags

    @property
    def created_seq(self) -> int:
        """The stand-in's event number when the message was created."""
        return self.versions[0].seq

    @property
    def edit_count(self) -> int:
        """How many times the message was edited."""
        return len(self.versions) - 1

    @property
    def deleted(self) -> bool:
        """Whether the message was deleted."""
        return self.deleted_seq is not None

    @property
    def is_ephemeral(self) -> bool:
        """Whether only one user can see it."""
        return self.ephemeral_to is not None

    def text(self) -> str:
        """All visible text of the current version (content, embeds, component labels)."""
        return self.latest.text()

    def buttons(self) -> list[dict[str, Any]]:
        """The current buttons (type 2 components) in display order."""
        return [c for c in iter_components(self.latest.components) if c.get("type") == 2]

    def find_component(self, custom_id: str | None = None, *, label: str | None = None) -> dict[str, Any] | None:
        """The current interactive component with this custom_id or label, or None."""
        for c in iter_components(self.latest.components):
            if c.get("type") in (1, 17, 9, 10, 18, 12, 13, 14):
                continue
            if custom_id is not None and c.get("custom_id") == custom_id:
                return c
            if label is not None and c.get("label") == label:
                return c
        return None

    def payload(self, users: dict[int, User]) -> dict[str, Any]:
        """The message object as Discord sends it (current version)."""
        v = self.latest
        author = users[self.author_id].payload() if self.author_id in users else {"id": str(self.author_id)}
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": author,
            "content": v.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": list(v.attachments),
            "embeds": list(v.embeds),
            "components": list(v.components),
            "pinned": False,
            "type": 20 if self.interaction_id else 0,
            "flags": v.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        return data

    def __repr__(self) -> str:
        return (
            f"<Message id={self.id} channel={self.channel_id} edits={self.edit_count} "
            f"ephemeral_to={self.ephemeral_to} content={self.content[:60]!r}>"
        )


@dataclass(frozen=True)
class Violation:
    """A broken Discord rule. ``kind`` is one of the names listed in limits.VIOLATION_KINDS."""

    kind: str
    detail: str
    route: str = ""
    seq: int = 0

    def __str__(self) -> str:
        where = f" [{self.route}]" if self.route else ""
        return f"{self.kind}: {self.detail}{where}"


@dataclass(frozen=True)
class RequestRecord:
    """One REST call the bot made: route template (``POST /channels/{channel_id}/messages``), status, timing."""

    seq: int
    at: float
    method: str
    route: str
    path: str
    status: int
    duration: float


@dataclass
class Interaction:
    """An interaction the stand-in sent, and what the bot did with it.

    ``type``: 2 slash command, 3 component, 4 autocomplete, 5 modal submit. ``ack_type`` is the first
    callback type received (4 message, 5 deferred, 6 deferred update, 7 update, 8 autocomplete, 9 modal).
    """

    id: int
    token: str
    type: int
    user_id: int
    guild_id: int | None
    channel_id: int
    data: dict[str, Any]
    created_at: float
    created_seq: int
    message_id: int | None = None
    acked_at: float | None = None
    ack_type: int | None = None
    callbacks: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    original_message_id: int | None = None
    original_loading: bool = False
    ephemeral: bool = False
    followup_ids: list[int] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    modal_submitted: bool = False
    timed_out: bool = False
    acked_event: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    @property
    def acked(self) -> bool:
        """Whether a callback was accepted."""
        return self.ack_type is not None

    @property
    def ack_latency(self) -> float | None:
        """Seconds from dispatch to the accepted callback, or None if not acknowledged."""
        return None if self.acked_at is None else self.acked_at - self.created_at

    async def wait_acked(self, timeout: float = 5.0) -> int:  # noqa: ASYNC109 - test helpers take a plain timeout
        """Wait for the acknowledgement; returns the callback type. Raises TimeoutError."""
        await asyncio.wait_for(self.acked_event.wait(), timeout)
        assert self.ack_type is not None
        return self.ack_type
