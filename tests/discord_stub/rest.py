"""The stand-in's REST API v10: the routes discord.py 2.7 calls for a slash-command bot.

Routes are registered under ``/api/v10`` with the same templates as discord.py's ``Route`` objects,
so a request is recorded and matched by fault rules as ``"POST /channels/{channel_id}/messages"``.
Errors use Discord's JSON error shape ``{"message", "code"}`` (and ``errors`` for 50035); every JSON
response has ``Content-Type: application/json`` exactly, because discord.py parses JSON only then.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import limits
from .faults import rate_limited_response
from .model import CHANNEL_DM, EPHEMERAL, Channel, Interaction, Message

if TYPE_CHECKING:
    from .server import DiscordStub

log = logging.getLogger(__name__)

API = "/api/v10"

# Interaction types -> callback types Discord accepts (docs: "Interaction Response Types").
ALLOWED_CALLBACKS = {1: {1}, 2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}
MESSAGE_FLAGS_ALLOWED = EPHEMERAL | (1 << 2) | (1 << 12) | (1 << 15)


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON response with the exact content type discord.py requires (no charset)."""
    all_headers = {"Content-Type": "application/json"}
    all_headers.update(headers or {})
    return web.Response(status=status, body=json.dumps(data).encode(), headers=all_headers)


def error(status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> web.Response:
    """Discord's error body."""
    body: dict[str, Any] = {"message": message, "code": code}
    if errors:
        body["errors"] = errors
    return json_response(body, status)


def invalid_form(problems: list[limits.Problem]) -> web.Response:
    """400 Invalid Form Body (50035), as Discord answers a message over its limits."""
    errors = {
        f"problem_{i}": {"_errors": [{"code": kind.upper(), "message": detail}]}
        for i, (kind, detail) in enumerate(problems)
    }
    return error(400, 50035, "Invalid Form Body", errors)


class Rest:
    """REST handlers bound to a stand-in."""

    def __init__(self, stub: DiscordStub) -> None:
        self.stub = stub

    def routes(self) -> list[tuple[str, str, Any]]:
        """(method, template, handler) for every supported route."""
        return [
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/gateway/bot", self.get_gateway_bot),
            ("GET", "/users/@me", self.get_me),
            ("GET", "/users/{user_id}", self.get_user),
            ("GET", "/applications/@me", self.get_application),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/applications/{application_id}/commands", self.get_commands),
            ("PUT", "/applications/{application_id}/commands", self.put_commands),
            ("GET", "/applications/{application_id}/guilds/{guild_id}/commands", self.get_commands),
            ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", self.put_commands),
            ("GET", "/guilds/{guild_id}", self.get_guild),
            ("GET", "/guilds/{guild_id}/channels", self.get_guild_channels),
            ("GET", "/guilds/{guild_id}/roles", self.get_roles),
            ("GET", "/guilds/{guild_id}/members/{member_id}", self.get_member),
            ("GET", "/channels/{channel_id}", self.get_channel),
            ("POST", "/channels/{channel_id}/typing", self.no_content),
            ("GET", "/channels/{channel_id}/messages", self.get_messages),
            ("POST", "/channels/{channel_id}/messages", self.post_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self.patch_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self.no_content),
            ("PUT", "/channels/{channel_id}/pins/{message_id}", self.no_content),
            ("PUT", "/channels/{channel_id}/messages/pins/{message_id}", self.no_content),
            ("POST", "/users/@me/channels", self.create_dm),
            ("POST", "/interactions/{webhook_id}/{webhook_token}/callback", self.interaction_callback),
            ("POST", "/webhooks/{webhook_id}/{webhook_token}", self.followup_create),
            ("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", self.webhook_get),
            ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", self.webhook_patch),
            ("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", self.webhook_delete),
        ]

    # -- plumbing ----------------------------------------------------------------------------------

    @web.middleware
    async def middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """Records every REST call, applies fault rules, checks the bot token, catches unknown routes."""
        stub = self.stub
        canonical = request.match_info.route.resource.canonical if request.match_info.route.resource else ""
        if not canonical.startswith(API) and not canonical.startswith("/__stub__"):
            if canonical.startswith("/gateway"):
                return await handler(request)
            template = ""
        else:
            template = canonical[len(API) :] if canonical.startswith(API) else canonical
        start = time.monotonic()
        method = request.method
        route = f"{method} {template}" if template else f"{method} {request.path}"
        response: web.StreamResponse
        try:
            if not template:
                stub.violation("unknown_route", f"{method} {request.path}", route)
                response = error(404, 0, "404: Not Found")
            elif template.startswith("/__stub__"):
                return await handler(request)
            else:
                response = await self._faulted(request, handler, method, template)
        except Exception as exc:
            log.exception("stub handler failed for %s", route)
            stub.violation("stub_error", f"{type(exc).__name__}: {exc}", route)
            response = error(500, 0, "stub error")
        stub.record_request(method, template or request.path, request.path, response.status, start)
        return response

    async def _faulted(self, request: web.Request, handler: Any, method: str, template: str) -> web.StreamResponse:
        for rule in self.stub.faults.take(method, template, request.path):
            if rule.kind == "slow":
                await asyncio.sleep(rule.delay)
            elif rule.kind == "rate_limit":
                return rate_limited_response(rule)
            elif rule.kind == "server_error":
                return error(rule.status, 0, f"{rule.status}: injected server error")
        if not template.startswith(("/interactions/", "/webhooks/")):
            expected = f"Bot {self.stub.token}" if self.stub.token else None
            auth = request.headers.get("Authorization", "")
            if not auth.startswith("Bot ") or (expected and auth != expected):
                return error(401, 0, "401: Unauthorized")
        response: web.StreamResponse = await handler(request)
        return response

    async def _body(self, request: web.Request) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The JSON body, or payload_json + uploaded files (as attachment dicts) of a multipart body."""
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            payload = json.loads(str(form.get("payload_json") or "{}"))
            files = []
            for name, value in form.items():
                if isinstance(value, web.FileField):
                    content = value.file.read()
                    files.append(self.stub.attachment(value.filename, len(content), value.content_type, name, content))
            return payload, files
        if request.can_read_body:
            text = await request.text()
            return (json.loads(text) if text else {}), []
        return {}, []

    async def no_content(self, request: web.Request) -> web.Response:
        """204 for routes whose effect the stand-in does not model (typing, reactions, pins)."""
        return web.Response(status=204)

    # -- identity ----------------------------------------------------------------------------------

    async def get_gateway(self, request: web.Request) -> web.Response:
        """GET /gateway."""
        return json_response({"url": self.stub.gateway_url})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        """GET /gateway/bot: the stand-in's websocket URL and shard count."""
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return json_response({"url": self.stub.gateway_url, "shards": self.stub.shards, "session_start_limit": limit})

    async def get_me(self, request: web.Request) -> web.Response:
        """GET /users/@me: the bot user."""
        return json_response(self.stub.bot_user.payload())

    async def get_user(self, request: web.Request) -> web.Response:
        """GET /users/{user_id}."""
        user = self.stub.users.get(int(request.match_info["user_id"]))
        return json_response(user.payload()) if user else error(404, 10013, "Unknown User")

    async def get_application(self, request: web.Request) -> web.Response:
        """GET /applications/@me (and /oauth2/applications/@me)."""
        stub = self.stub
        return json_response(
            {
                "id": str(stub.application_id),
                "name": stub.bot_user.name,
                "icon": None,
                "description": "",
                "summary": "",
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "owner": stub.owner.payload(),
                "team": None,
                "bot": stub.bot_user.payload(),
            }
        )

    # -- commands ----------------------------------------------------------------------------------

    async def get_commands(self, request: web.Request) -> web.Response:
        """GET global or guild commands."""
        guild_id = request.match_info.get("guild_id")
        return json_response(self.stub.commands(int(guild_id) if guild_id else None))

    async def put_commands(self, request: web.Request) -> web.Response:
        """PUT (bulk overwrite) global or guild commands; invalid definitions get 400 50035."""
        payload, _ = await self._body(request)
        guild_id = int(request.match_info["guild_id"]) if "guild_id" in request.match_info else None
        problems = limits.check_commands(payload)
        if problems:
            self.stub.violations_from(problems, request)
            return invalid_form(problems)
        return json_response(self.stub.store_commands(guild_id, payload))

    # -- guilds and channels -----------------------------------------------------------------------

    async def get_guild(self, request: web.Request) -> web.Response:
        """GET /guilds/{guild_id}."""
        guild = self.stub.guilds.get(int(request.match_info["guild_id"]))
        return json_response(guild.payload(self.stub.users)) if guild else error(404, 10004, "Unknown Guild")

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        """GET /guilds/{guild_id}/channels."""
        guild = self.stub.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            return error(404, 10004, "Unknown Guild")
        return json_response([c.payload() for c in guild.channels.values()])

    async def get_roles(self, request: web.Request) -> web.Response:
        """GET /guilds/{guild_id}/roles."""
        guild = self.stub.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            return error(404, 10004, "Unknown Guild")
        return json_response([r.payload() for r in guild.roles.values()])

    async def get_member(self, request: web.Request) -> web.Response:
        """GET /guilds/{guild_id}/members/{member_id}."""
        guild = self.stub.guilds.get(int(request.match_info["guild_id"]))
        member = guild.members.get(int(request.match_info["member_id"])) if guild else None
        return json_response(member.payload()) if member else error(404, 10007, "Unknown Member")

    async def get_channel(self, request: web.Request) -> web.Response:
        """GET /channels/{channel_id}."""
        channel = self._channel(request)
        return json_response(channel.payload(self.stub.users)) if channel else error(404, 10003, "Unknown Channel")

    def _channel(self, request: web.Request) -> Channel | None:
        return self.stub.channels.get(int(request.match_info["channel_id"]))

    async def create_dm(self, request: web.Request) -> web.Response:
        """POST /users/@me/channels: open (or return) the DM channel with a user."""
        payload, _ = await self._body(request)
        user = self.stub.users.get(int(payload.get("recipient_id") or 0))
        if user is None or user.bot:
            return error(400, 50007, "Cannot send messages to this user")
        return json_response(self.stub.dm_channel(user).payload(self.stub.users))

    # -- channel messages --------------------------------------------------------------------------

    def _public_message(self, channel: Channel, message_id: str) -> Message | None:
        message = self.stub.messages.get(int(message_id)) if message_id.isdigit() else None
        if message is None or message.channel_id != channel.id or message.deleted or message.is_ephemeral:
            return None
        return message

    async def get_messages(self, request: web.Request) -> web.Response:
        """GET /channels/{channel_id}/messages (newest first, ``limit`` default 50)."""
        channel = self._channel(request)
        if channel is None:
            return error(404, 10003, "Unknown Channel")
        limit = int(request.query.get("limit", "50"))
        visible = [m for m in channel.messages if not m.deleted and not m.is_ephemeral]
        return json_response([m.payload(self.stub.users) for m in reversed(visible[-limit:])])

    async def get_message(self, request: web.Request) -> web.Response:
        """GET /channels/{channel_id}/messages/{message_id}."""
        channel = self._channel(request)
        message = self._public_message(channel, request.match_info["message_id"]) if channel else None
        return json_response(message.payload(self.stub.users)) if message else error(404, 10008, "Unknown Message")

    async def post_message(self, request: web.Request) -> web.Response:
        """POST /channels/{channel_id}/messages, with limits, and 50007 for a DM to a member who refuses them."""
        stub = self.stub
        channel = self._channel(request)
        payload, files = await self._body(request)
        if channel is None:
            stub.violation("unknown_channel", f"send to unknown channel {request.match_info['channel_id']}")
            return error(404, 10003, "Unknown Channel")
        if channel.type == CHANNEL_DM:
            recipient = stub.users[channel.recipient_id or 0]
            if not recipient.dms_open:
                stub.refused_dms.append((recipient.id, stub.next_seq()))
                stub.touch()
                return error(403, 50007, "Cannot send messages to this user")
        problems = limits.check_message(payload, creating=True, has_files=bool(files))
        if problems:
            stub.violations_from(problems, request)
            return invalid_form(problems)
        nonce = payload.get("nonce")
        if nonce is not None and payload.get("enforce_nonce"):
            # Discord: a post with a nonce already used in this channel by this author (within a few minutes)
            # returns the message made the first time instead of creating another.
            earlier = stub.nonces.get((channel.id, str(nonce)))
            if earlier is not None:
                stub.touch()
                return json_response(earlier.payload(stub.users))
        message = stub.create_message(channel, payload, files=files)
        if nonce is not None and payload.get("enforce_nonce"):
            stub.nonces[(channel.id, str(nonce))] = message
        return json_response(message.payload(stub.users))

    async def patch_message(self, request: web.Request) -> web.Response:
        """PATCH /channels/{channel_id}/messages/{message_id}; only the bot's own messages."""
        stub = self.stub
        channel = self._channel(request)
        payload, files = await self._body(request)
        message = self._public_message(channel, request.match_info["message_id"]) if channel else None
        if message is None:
            return error(404, 10008, "Unknown Message")
        if message.author_id != stub.bot_user.id:
            return error(403, 50005, "Cannot edit a message authored by another user")
        problems = limits.check_message(payload, creating=False)
        if problems:
            stub.violations_from(problems, request)
            return invalid_form(problems)
        stub.edit_message(message, payload, files=files)
        return json_response(message.payload(stub.users))

    async def delete_message(self, request: web.Request) -> web.Response:
        """DELETE /channels/{channel_id}/messages/{message_id}."""
        channel = self._channel(request)
        message = self._public_message(channel, request.match_info["message_id"]) if channel else None
        if message is None:
            return error(404, 10008, "Unknown Message")
        self.stub.delete_message(message)
        return web.Response(status=204)

    # -- interactions ------------------------------------------------------------------------------

    def _callback_body(self, inter: Interaction, kind: int) -> dict[str, Any]:
        message_id = inter.original_message_id
        body: dict[str, Any] = {
            "interaction": {
                "id": str(inter.id),
                "type": inter.type,
                "response_message_id": str(message_id) if message_id else None,
                "response_message_loading": inter.original_loading,
                "response_message_ephemeral": inter.ephemeral,
            }
        }
        if kind in (4, 5, 7) and message_id:
            body["resource"] = {"type": kind, "message": self.stub.messages[message_id].payload(self.stub.users)}
        return body

    async def interaction_callback(self, request: web.Request) -> web.Response:
        """POST /interactions/{id}/{token}/callback: the acknowledgement, checked against Discord's rules."""
        stub = self.stub
        arrived = time.monotonic()
        payload, files = await self._body(request)
        route = "POST /interactions/{webhook_id}/{webhook_token}/callback"
        inter = stub.interactions.get(int(request.match_info["webhook_id"]))
        if inter is None or inter.token != request.match_info["webhook_token"]:
            unknown = request.match_info["webhook_id"]
            stub.violation("unknown_interaction", f"callback for unknown interaction {unknown}")
            return error(404, 10062, "Unknown interaction")
        kind = int(payload.get("type") or 0)
        if inter.acked:
            stub.violation("double_ack", f"interaction {inter.id} acknowledged again with type {kind}", route)
            return error(400, 40060, "Interaction has already been acknowledged.")
        if arrived - inter.created_at > stub.ack_deadline:
            if not inter.timed_out:
                late = arrived - inter.created_at
                stub.violation("late_ack", f"interaction {inter.id} acknowledged after {late:.2f} s", route)
            inter.timed_out = True
            return error(404, 10062, "Unknown interaction")
        if kind not in ALLOWED_CALLBACKS.get(inter.type, set()) or (kind in (6, 7) and inter.message_id is None):
            stub.violation("bad_response_type", f"callback type {kind} for interaction type {inter.type}", route)
            return error(400, 50035, "Invalid Form Body")
        data = payload.get("data") or {}
        problems = self._callback_problems(kind, data)
        if problems:
            stub.violations_from(problems, request)
            return invalid_form(problems)
        stub.acknowledge(inter, kind, data, files, arrived)
        return json_response(self._callback_body(inter, kind))

    def _callback_problems(self, kind: int, data: dict[str, Any]) -> list[limits.Problem]:
        if kind == 4:
            return limits.check_message(data, creating=True)
        if kind == 7:
            return limits.check_message(data, creating=False)
        if kind == 8:
            return limits.check_choices(data)
        if kind == 9:
            return limits.check_modal(data)
        return []

    def _webhook_interaction(self, request: web.Request) -> Interaction | None:
        if int(request.match_info["webhook_id"]) != self.stub.application_id:
            return None
        return self.stub.interactions_by_token.get(request.match_info["webhook_token"])

    async def followup_create(self, request: web.Request) -> web.Response:
        """POST /webhooks/{application_id}/{token}: a followup (the first after a deferral fills its message)."""
        stub = self.stub
        payload, files = await self._body(request)
        inter = self._webhook_interaction(request)
        if inter is None:
            return error(404, 10015, "Unknown Webhook")
        if not inter.acked:
            stub.violation("followup_before_ack", f"followup for interaction {inter.id} before its acknowledgement")
            return error(404, 10015, "Unknown Webhook")
        problems = limits.check_message(payload, creating=True, has_files=bool(files))
        if problems:
            stub.violations_from(problems, request)
            return invalid_form(problems)
        message = stub.followup(inter, payload, files)
        return json_response(message.payload(stub.users))

    def _webhook_message(self, request: web.Request) -> tuple[Interaction | None, Message | None]:
        inter = self._webhook_interaction(request)
        if inter is None:
            return None, None
        key = request.match_info["message_id"]
        if key == "@original":
            message_id = inter.original_message_id
        else:
            message_id = int(key) if key.isdigit() else None
            if message_id not in inter.followup_ids and message_id != inter.original_message_id:
                message_id = None
        message = stub_message = self.stub.messages.get(message_id) if message_id else None
        if stub_message is not None and stub_message.deleted:
            message = None
        return inter, message

    async def webhook_get(self, request: web.Request) -> web.Response:
        """GET /webhooks/{application_id}/{token}/messages/{id or @original}."""
        inter, message = self._webhook_message(request)
        if message is None:
            return error(404, 10008 if inter else 10015, "Unknown Message" if inter else "Unknown Webhook")
        return json_response(message.payload(self.stub.users))

    async def webhook_patch(self, request: web.Request) -> web.Response:
        """PATCH /webhooks/{application_id}/{token}/messages/{id or @original}: edit a response or followup."""
        stub = self.stub
        payload, files = await self._body(request)
        inter, message = self._webhook_message(request)
        if message is None or inter is None:
            return error(404, 10008 if inter else 10015, "Unknown Message" if inter else "Unknown Webhook")
        problems = limits.check_message(payload, creating=False)
        if problems:
            stub.violations_from(problems, request)
            return invalid_form(problems)
        if message.id == inter.original_message_id and inter.original_loading:
            stub.fill_deferred(inter, message, payload, files)
        else:
            stub.edit_message(message, payload, files=files)
        return json_response(message.payload(stub.users))

    async def webhook_delete(self, request: web.Request) -> web.Response:
        """DELETE /webhooks/{application_id}/{token}/messages/{id or @original}."""
        inter, message = self._webhook_message(request)
        if message is None:
            return error(404, 10008 if inter else 10015, "Unknown Message" if inter else "Unknown Webhook")
        self.stub.delete_message(message)
        return web.Response(status=204)
