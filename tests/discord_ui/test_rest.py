"""bot/discord_ui/rest.py against the Discord stand-in (tests/discord_stub), in this process: a discord.py client
connected to it sends the table's requests through `cached_route` / `RouteCache` (discord.py's request, its rate
limit handling)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

import discord
import discord.gateway
import pytest
import pytest_asyncio
import yarl
from discord.http import Route
from simcord.http.client import FakeHTTPClient

from bot.discord_ui.notifier import DiscordNotifier, picture_files
from bot.discord_ui.rest import RouteCache, cached_route, passes_url_through
from bot.tables import Picture
from tests.discord_stub import DiscordStub
from tests.discord_stub.model import Channel, Message

pytestmark = pytest.mark.asyncio(loop_scope="module")

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
POST = "POST /channels/{channel_id}/messages"


@dataclass
class World:
    stub: DiscordStub
    client: discord.Client
    channel: Channel


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def world() -> AsyncIterator[World]:
    stub = await DiscordStub().start()
    guild = stub.add_guild(name="Casino", channels=["table-1"], locale="en-US")
    base, gateway = Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = stub.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(stub.gateway_url)
    client = discord.Client(intents=discord.Intents.none())
    task = asyncio.create_task(client.start(stub.token or "stub-token"))
    try:
        await stub.wait_connected()
        yield World(stub, client, guild.channel("table-1"))
    finally:
        await client.close()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = base, gateway
        await stub.stop()


@pytest_asyncio.fixture(loop_scope="module")
async def w(world: World) -> AsyncIterator[World]:
    yield world
    world.stub.faults.clear()
    world.stub.assert_no_violations()


async def post(w: World, content: str) -> Message:
    route = cached_route("POST", "/channels/{channel_id}/messages", channel_id=w.channel.id)
    data = await w.client.http.request(route, json={"content": content})
    return w.stub.messages[int(data["id"])]


def statuses(w: World, route: str, since: int) -> list[int]:
    return [r.status for r in w.stub.requests[since:] if f"{r.method} {r.route}" == route]


async def test_a_cached_route_is_read_once_and_reaches_discord_as_the_same_url(w: World) -> None:
    assert passes_url_through(w.client.http)  # discord.py's own request: the URL goes to aiohttp as it is
    assert not passes_url_through(FakeHTTPClient.__new__(FakeHTTPClient))  # SimCord's reads it as text
    assert isinstance(RouteCache("POST", POST.split()[1]).get(object(), channel_id=1).url, str)
    route = cached_route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=1, message_id=2)
    assert isinstance(route.url, yarl.URL)
    assert str(route.url) == Route("PATCH", route.path, channel_id=1, message_id=2).url
    assert route.key == "PATCH /channels/{channel_id}/messages/{message_id}" and route.major_parameters == "1"
    message = await post(w, "first")
    edits = RouteCache("PATCH", "/channels/{channel_id}/messages/{message_id}")
    again = edits.get(w.client.http, channel_id=w.channel.id, message_id=message.id)
    assert edits.get(w.client.http, channel_id=w.channel.id, message_id=message.id) is again
    await w.client.http.request(again, json={"content": "second"})
    assert message.content == "second"
    other = await post(w, "third")  # the channel's next table message replaces the route kept for the channel
    assert edits.get(w.client.http, channel_id=w.channel.id, message_id=other.id) is not again


async def test_cached_routes_keep_discord_py_rate_limit_retries_global_ones_included(w: World) -> None:
    message = await post(w, "table")
    edits = RouteCache("PATCH", "/channels/{channel_id}/messages/{message_id}")
    since = len(w.stub.requests)
    w.stub.faults.rate_limit(EDIT, count=2, retry_after=0.05)
    w.stub.faults.rate_limit(POST, count=1, retry_after=0.05, is_global=True)
    await w.client.http.request(
        edits.get(w.client.http, channel_id=w.channel.id, message_id=message.id), json={"content": "a"}
    )
    await post(w, "after a global limit")
    await w.client.http.request(
        edits.get(w.client.http, channel_id=w.channel.id, message_id=message.id), json={"content": "b"}
    )
    assert message.content == "b"
    assert statuses(w, EDIT, since) == [429, 429, 200, 200]
    assert statuses(w, POST, since) == [429, 200]


async def test_pictures_are_posted_as_their_bytes_through_discord_py_and_again_after_a_rate_limit(w: World) -> None:
    notifier = DiscordNotifier(w.client)
    assert picture_files(w.client.http, [Picture(b"x")]) == {}  # discord.py's request: the form's bytes alone
    assert [type(f) for f in picture_files(FakeHTTPClient.__new__(FakeHTTPClient), [Picture(b"x")])["files"]] == [
        discord.File
    ]  # the simulator reads the attachments from the files
    flop, table = Picture(b"\x89PNG flop", "flop.png"), Picture(b"\x89PNG table " * 500)
    since = len(w.stub.requests)
    w.stub.faults.rate_limit(POST, count=1, retry_after=0.05)
    await notifier._post_once(w.channel.id, "nonce-1", content="Flop", pictures=[flop, table])
    assert statuses(w, POST, since) == [429, 200]  # discord.py sent the same form again
    [message] = [m for m in w.stub.messages.values() if m.channel_id == w.channel.id and m.content == "Flop"]
    attachments = message.latest.attachments
    assert [(a["filename"], a["content_type"]) for a in attachments] == [
        ("flop.png", "image/png"),
        ("table.png", "image/png"),
    ]
    assert [w.stub.uploads[a["id"]] for a in attachments] == [flop.data, table.data]


async def test_a_dm_is_posted_once_per_nonce_without_keeping_its_channels_route(w: World) -> None:
    """A hole-card DM goes to its player's DM channel (with its nonce: posted again, no second message), and the
    notifier keeps no route for that channel: one post per player and hand, and a route kept for each of the
    process's players took 0.4 MiB at 100 tables of 6 (issue 14). The table channel's route is still kept."""
    from bot.poker import parse_cards
    from tests.cogs.test_discord_ui import snapshot

    notifier = DiscordNotifier(w.client)
    users = [w.stub.add_member(name=f"dm{k}") for k in range(3)]
    table = snapshot(channel_id=w.channel.id)
    for user in users:
        for _ in range(2):  # delivered again after a restart: the same nonce
            assert await notifier.send_hole_cards(table, user.id, parse_cards("AsKd"), nonce=f"dm-{user.id}")
    dms = [m for m in w.stub.messages.values() if m.content and "A♠" in m.content and m.channel_id != w.channel.id]
    assert len(dms) == len(users) and len({m.channel_id for m in dms}) == len(users)
    await notifier._post_once(w.channel.id, "table-nonce", content="the table")
    assert list(notifier._posts._routes) == [w.channel.id]
