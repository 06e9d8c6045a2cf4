"""What a test can do as a Discord user: slash commands, autocomplete, buttons, selects, modal submits.

Each action builds the INTERACTION_CREATE payload Discord would send, from what the bot registered
(the synced command definitions) or sent (the message's current components, the modal it opened),
and refuses what the Discord client would not let a user do (an unknown option, a value outside the
option's range or choices, a missing required option, a disabled button, a command the member lacks
permissions for) with ``StubUsageError``: that is a mistake in the test, not in the bot.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .model import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    CHANNEL_DM,
    Channel,
    Guild,
    Interaction,
    Message,
    User,
    iter_components,
)

if TYPE_CHECKING:
    from .gateway import Gateway

OPTION_SUBCOMMAND = 1
OPTION_GROUP = 2
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


class StubUsageError(Exception):
    """A test asked for something a Discord user cannot do (the Discord client would not send it)."""


UserRef = User | int
ChannelRef = Channel | int
MessageRef = Message | int


class UserActions:
    """Mixin of DiscordStub: acting as users. Relies on the stand-in's records (declared below)."""

    if TYPE_CHECKING:
        users: dict[int, User]
        guilds: dict[int, Guild]
        channels: dict[int, Channel]
        messages: dict[int, Message]
        interactions: dict[int, Interaction]
        interactions_by_token: dict[str, Interaction]
        gateway: Gateway
        application_id: int
        ack_deadline: float
        _commands: dict[int | None, list[dict[str, Any]]]
        _timers: set[asyncio.TimerHandle]

        def snowflake(self) -> int: ...
        def next_seq(self) -> int: ...
        def touch(self) -> None: ...
        def violation(self, kind: str, detail: str, route: str = "") -> None: ...

    # -- lookups -----------------------------------------------------------------------------------

    def user(self, ref: UserRef) -> User:
        """The user with this id (or the User itself)."""
        user = self.users.get(ref if isinstance(ref, int) else ref.id)
        if user is None:
            raise StubUsageError(f"unknown user {ref!r}")
        return user

    def channel(self, ref: ChannelRef) -> Channel:
        """The channel with this id (or the Channel itself)."""
        channel = self.channels.get(ref if isinstance(ref, int) else ref.id)
        if channel is None:
            raise StubUsageError(f"unknown channel {ref!r}")
        return channel

    def message(self, ref: MessageRef) -> Message:
        """The message with this id (or the Message itself)."""
        message = self.messages.get(ref if isinstance(ref, int) else ref.id)
        if message is None:
            raise StubUsageError(f"unknown message {ref!r}")
        return message

    def find_command(self, name: str, guild_id: int | None = None) -> dict[str, Any]:
        """The synced slash command definition a user in this guild would see (guild commands first)."""
        for scope in (guild_id, None) if guild_id is not None else (None,):
            for cmd in self._commands.get(scope, []):
                if cmd["name"] == name and int(cmd.get("type", 1)) == 1:
                    return cmd
        raise StubUsageError(f"no slash command /{name} synced for guild {guild_id} (synced: {self._synced_names()})")

    def _synced_names(self) -> list[str]:
        return sorted({c["name"] for cmds in self._commands.values() for c in cmds})

    # -- interactions ------------------------------------------------------------------------------

    def _dispatch_interaction(
        self,
        kind: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        *,
        message: Message | None = None,
        locale: str | None = None,
        guild_locale: str | None = None,
    ) -> Interaction:
        guild = self.guilds.get(channel.guild_id) if channel.guild_id else None
        iid = self.snowflake()
        token = f"stub-{iid}-{secrets.token_urlsafe(24)}"
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "channel_id": str(channel.id),
            "token": token,
            "version": 1,
            "locale": locale or user.locale,
            "entitlements": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "app_permissions": str(ALL_PERMISSIONS),
        }
        if guild is not None:
            member = guild.members.get(user.id)
            if member is None:
                raise StubUsageError(f"user {user.id} is not a member of guild {guild.id}")
            channel_payload = channel.payload()
            channel_payload["permissions"] = member.payload(permissions=member.permissions)["permissions"]
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                guild_locale=guild_locale or guild.locale,
                channel=channel_payload,
                member=member.payload(permissions=member.permissions),
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        else:
            payload.update(
                channel=channel.payload(self.users),
                user=user.payload(),
                authorizing_integration_owners={"0": str(user.id)},
                context=1,
            )
        if message is not None:
            payload["message"] = message.payload(self.users)
        inter = Interaction(
            id=iid,
            token=token,
            type=kind,
            user_id=user.id,
            guild_id=guild.id if guild else None,
            channel_id=channel.id,
            data=data,
            created_at=time.monotonic(),
            created_seq=self.next_seq(),
            message_id=message.id if message else None,
        )
        if not self.gateway.session_for(inter.guild_id):
            raise StubUsageError("the bot has no gateway session (start it and await stub.wait_connected())")
        self.interactions[iid] = inter
        self.interactions_by_token[token] = inter
        self.gateway.dispatch(inter.guild_id, "INTERACTION_CREATE", payload)
        handle = asyncio.get_running_loop().call_later(self.ack_deadline, self._ack_deadline_passed, inter)
        self._timers.add(handle)
        self.touch()
        return inter

    def _ack_deadline_passed(self, inter: Interaction) -> None:
        self._timers = {t for t in self._timers if not t.cancelled() and t.when() > asyncio.get_running_loop().time()}
        if not inter.acked and not inter.timed_out:
            inter.timed_out = True
            data = inter.data
            what = data.get("name") or data.get("custom_id") or ""
            detail = f"interaction {inter.id} ({what!r}) not acknowledged within {self.ack_deadline} s"
            self.violation("ack_timeout", detail)

    def _command_data(
        self,
        guild: Guild | None,
        user: User,
        command: str,
        subcommands: tuple[str, ...],
        options: Mapping[str, Any],
        *,
        partial: bool = False,
    ) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
        """The ``data`` of an application command interaction; returns (data, leaf option list, leaf definitions).

        ``partial``: the user is still typing (autocomplete), so required options may be missing.
        """
        path = command.split() + list(subcommands)
        cmd = self.find_command(path[0], guild.id if guild else None)
        if guild is not None:
            _check_permissions(cmd, guild, user)
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        node_defs: list[dict[str, Any]] = cmd.get("options") or []
        container = data
        for name in path[1:]:
            sub = next((o for o in node_defs if o["name"] == name and o["type"] in (1, 2)), None)
            if sub is None:
                raise StubUsageError(f"/{' '.join(path)}: no subcommand {name!r} (have {_names(node_defs)})")
            entry: dict[str, Any] = {"name": name, "type": sub["type"], "options": []}
            container["options"] = [entry]
            container = entry
            node_defs = sub.get("options") or []
        if any(o["type"] in (OPTION_SUBCOMMAND, OPTION_GROUP) for o in node_defs):
            raise StubUsageError(f"/{' '.join(path)} needs a subcommand: {_names(node_defs)}")
        leaf: list[dict[str, Any]] = []
        container["options"] = leaf
        definitions = {o["name"]: o for o in node_defs}
        resolved: dict[str, Any] = {}
        for name, value in options.items():
            if name not in definitions:
                raise StubUsageError(f"/{' '.join(path)} has no option {name!r} (have {sorted(definitions)})")
            leaf.append(self._option(definitions[name], value, guild, resolved))
        for name, definition in definitions.items():
            if definition.get("required") and name not in options and not partial:
                raise StubUsageError(f"/{' '.join(path)}: required option {name!r} missing")
        if resolved:
            data["resolved"] = resolved
        return data, leaf, definitions

    def _option(self, definition: dict[str, Any], value: Any, guild: Guild | None, resolved: dict[str, Any]) -> dict:
        kind, name = definition["type"], definition["name"]
        out: dict[str, Any] = {"name": name, "type": kind}
        if kind == 3:
            value = str(value)
            if not definition.get("min_length", 0) <= len(value) <= definition.get("max_length", 6000):
                raise StubUsageError(f"option {name}: length {len(value)} outside the allowed range")
        elif kind == 4:
            if isinstance(value, bool) or not isinstance(value, int):
                raise StubUsageError(f"option {name} wants an integer, got {value!r}")
        elif kind == 10:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise StubUsageError(f"option {name} wants a number, got {value!r}")
        elif kind == 5:
            if not isinstance(value, bool):
                raise StubUsageError(f"option {name} wants a boolean, got {value!r}")
        elif kind in (6, 7, 8, 9):
            value = str(self._resolve(kind, value, guild, resolved))
        else:
            raise StubUsageError(f"option {name}: type {kind} not supported by the stand-in")
        if kind in (4, 10):
            low, high = definition.get("min_value"), definition.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise StubUsageError(f"option {name}: {value} outside {low}..{high}")
        choices = definition.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise StubUsageError(f"option {name}: {value!r} is not one of {[c['value'] for c in choices]}")
        out["value"] = value
        return out

    def _resolve(self, kind: int, value: Any, guild: Guild | None, resolved: dict[str, Any]) -> int:
        ident = value.id if isinstance(value, User | Channel) else int(value)
        if kind in (6, 9) and ident in self.users:
            resolved.setdefault("users", {})[str(ident)] = self.users[ident].payload()
            member = guild.members.get(ident) if guild else None
            if member is not None:
                data = member.payload(permissions=member.permissions)
                del data["user"]
                resolved.setdefault("members", {})[str(ident)] = data
            return ident
        if kind == 7 and ident in self.channels:
            channel = self.channels[ident].payload(self.users)
            channel["permissions"] = str(ALL_PERMISSIONS)
            resolved.setdefault("channels", {})[str(ident)] = channel
            return ident
        if kind in (8, 9) and guild is not None and ident in guild.roles:
            resolved.setdefault("roles", {})[str(ident)] = guild.roles[ident].payload()
            return ident
        raise StubUsageError(f"option value {value!r} does not resolve to a known user, channel or role")

    def invoke_slash(
        self,
        user: UserRef,
        channel: ChannelRef,
        command: str,
        *subcommands: str,
        options: Mapping[str, Any] | None = None,
        locale: str | None = None,
        guild_locale: str | None = None,
    ) -> Interaction:
        """Run a slash command as ``user`` in ``channel``: ``invoke_slash(alice, table, "poker", "join",
        options={"buy_in": 200})`` (or ``"poker join"``). Values are checked against the synced definition;
        users, channels and roles may be given as objects or ids. Returns the Interaction record; the bot
        receives it over the gateway at once. ``locale`` defaults to the user's, ``guild_locale`` to the guild's.
        """
        u, ch = self.user(user), self.channel(channel)
        guild = self.guilds.get(ch.guild_id) if ch.guild_id else None
        data, _, _ = self._command_data(guild, u, command, subcommands, options or {})
        return self._dispatch_interaction(2, u, ch, data, locale=locale, guild_locale=guild_locale)

    async def autocomplete(
        self,
        user: UserRef,
        channel: ChannelRef,
        command: str,
        *subcommands: str,
        focused: str,
        value: str = "",
        options: Mapping[str, Any] | None = None,
        locale: str | None = None,
        timeout: float = 5.0,  # noqa: ASYNC109 - test helpers take a plain timeout
    ) -> list[dict[str, Any]]:
        """Type ``value`` into option ``focused`` and return the bot's choices ([{"name", "value"}, ...]).

        Raises TimeoutError when the bot does not answer, StubUsageError when the option has no autocomplete.
        """
        u, ch = self.user(user), self.channel(channel)
        guild = self.guilds.get(ch.guild_id) if ch.guild_id else None
        data, leaf, definitions = self._command_data(guild, u, command, subcommands, options or {}, partial=True)
        definition = definitions.get(focused)
        if definition is None or not definition.get("autocomplete"):
            raise StubUsageError(f"option {focused!r} has no autocomplete")
        leaf[:] = [o for o in leaf if o["name"] != focused]
        leaf.append({"name": focused, "type": definition["type"], "value": value, "focused": True})
        inter = self._dispatch_interaction(4, u, ch, data, locale=locale)
        await inter.wait_acked(timeout)
        return list(inter.choices or [])

    def _visible_message(self, user: User, ref: MessageRef) -> Message:
        message = self.message(ref)
        if message.deleted:
            raise StubUsageError(f"message {message.id} was deleted")
        if message.ephemeral_to not in (None, user.id):
            raise StubUsageError(f"message {message.id} is ephemeral to another user")
        channel = self.channels[message.channel_id]
        if channel.type == CHANNEL_DM and channel.recipient_id != user.id:
            raise StubUsageError(f"message {message.id} is in someone else's DMs")
        return message

    def press_button(
        self, user: UserRef, message: MessageRef, custom_id: str | None = None, *, label: str | None = None
    ) -> Interaction:
        """Press a button of a message's current version, found by ``custom_id`` or ``label``."""
        u = self.user(user)
        msg = self._visible_message(u, message)
        button = msg.find_component(custom_id, label=label)
        if button is None or button.get("type") != 2:
            shown = [(b.get("label"), b.get("custom_id")) for b in msg.buttons()]
            raise StubUsageError(f"no button {custom_id or label!r} on message {msg.id}; buttons: {shown}")
        if button.get("disabled"):
            raise StubUsageError(f"button {custom_id or label!r} is disabled")
        if not button.get("custom_id"):
            raise StubUsageError(f"button {custom_id or label!r} is a link or premium button")
        data = {"custom_id": button["custom_id"], "component_type": 2}
        return self._dispatch_interaction(3, u, self.channels[msg.channel_id], data, message=msg)

    def select(self, user: UserRef, message: MessageRef, custom_id: str, values: list[str]) -> Interaction:
        """Choose ``values`` in a string select menu of a message's current version."""
        u = self.user(user)
        msg = self._visible_message(u, message)
        menu = msg.find_component(custom_id)
        if menu is None or menu.get("type") != 3:
            raise StubUsageError(f"no select menu {custom_id!r} on message {msg.id}")
        allowed = [o["value"] for o in menu.get("options") or []]
        if any(v not in allowed for v in values):
            raise StubUsageError(f"select {custom_id!r}: {values} not all in {allowed}")
        if not menu.get("min_values", 1) <= len(values) <= menu.get("max_values", 1):
            raise StubUsageError(f"select {custom_id!r}: {len(values)} values outside min/max")
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        return self._dispatch_interaction(3, u, self.channels[msg.channel_id], data, message=msg)

    def open_modals(self, user: UserRef) -> list[Interaction]:
        """The interactions whose modal is showing to ``user`` and not yet submitted (oldest first)."""
        uid = self.user(user).id
        return [i for i in self.interactions.values() if i.user_id == uid and i.modal and not i.modal_submitted]

    def submit_modal(self, user: UserRef, custom_id: str, values: Mapping[str, str | list[str]]) -> Interaction:
        """Fill and submit the modal with this custom_id that the bot showed to ``user`` (the latest one).

        ``values`` maps text input custom_ids to text (string selects inside labels take a list).
        Required inputs and min/max lengths are checked as the Discord client does.
        """
        u = self.user(user)
        shown = [i for i in self.open_modals(u) if i.modal and i.modal.get("custom_id") == custom_id]
        if not shown:
            raise StubUsageError(f"no open modal {custom_id!r} for user {u.id}")
        origin = shown[-1]
        assert origin.modal is not None
        inputs = {c["custom_id"]: c for c in iter_components(origin.modal["components"]) if c.get("custom_id")}
        unknown = set(values) - set(inputs)
        if unknown:
            raise StubUsageError(f"modal {custom_id!r} has no inputs {sorted(unknown)} (has {sorted(inputs)})")
        components = [_answer(c, values) for c in origin.modal["components"]]
        origin.modal_submitted = True
        message = self.messages.get(origin.message_id) if origin.message_id else None
        data = {"custom_id": custom_id, "components": [c for c in components if c is not None]}
        return self._dispatch_interaction(5, u, self.channels[origin.channel_id], data, message=message)


def _names(options: list[dict[str, Any]]) -> list[str]:
    return [o["name"] for o in options]


def _check_permissions(cmd: dict[str, Any], guild: Guild, user: User) -> None:
    needed = cmd.get("default_member_permissions")
    member = guild.members.get(user.id)
    if needed is None or member is None or member.permissions & ADMINISTRATOR or guild.owner_id == user.id:
        return
    if member.permissions & int(needed) != int(needed):
        raise StubUsageError(f"user {user.id} lacks permissions {needed} for /{cmd['name']}")


def _answer(component: dict[str, Any], values: Mapping[str, str | list[str]]) -> dict[str, Any] | None:
    """A modal component as the submission carries it, with the user's value."""
    kind = component.get("type")
    if kind == 1:
        children = [_answer(c, values) for c in component.get("components") or []]
        return {"type": 1, "components": [c for c in children if c is not None]}
    if kind == 18:
        inner = _answer(component["component"], values)
        return {"type": 18, "id": component.get("id"), "component": inner}
    if kind == 4:
        custom_id = component["custom_id"]
        text = values.get(custom_id, component.get("value") or "")
        if not isinstance(text, str):
            raise StubUsageError(f"text input {custom_id!r} takes a string")
        if component.get("required", True) and not text:
            raise StubUsageError(f"text input {custom_id!r} is required")
        low, high = component.get("min_length", 0), component.get("max_length", 4000)
        if text and not low <= len(text) <= high:
            raise StubUsageError(f"text input {custom_id!r}: {len(text)} characters outside {low}..{high}")
        return {"type": 4, "id": component.get("id"), "custom_id": custom_id, "value": text}
    if kind == 3:
        custom_id = component["custom_id"]
        chosen = values.get(custom_id, [])
        return {"type": 3, "id": component.get("id"), "custom_id": custom_id, "values": list(chosen)}
    return None
