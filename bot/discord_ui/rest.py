"""The REST requests of an action, each made without work it need not repeat (docs/architecture.md, "The fast path
of a press"): the interaction's callback sent straight on the client's HTTP session, and discord.py Routes whose URL
is read once per channel.

- **Routes read once** (`cached_route`, `RouteCache`): discord.py's `HTTPClient.request` hands `route.url` to
  aiohttp, which parses a string URL again at every request, and a table message is edited about 20 times a hand
  at the same URL. `cached_route` gives a Route whose `url` is a `yarl.URL` made once (the same text, quoted by
  the Route); `RouteCache` keeps one per channel (its table message's, while it lasts). The rest of the request
  is discord.py's own: the rate limit buckets (a channel's edits, Discord's X-RateLimit headers, the wait before
  an exhausted bucket), 429 retries, the global limit, the errors. discord.py declares `url` a `str`:
  tests/discord_ui/test_rest.py fails when its request stops passing a Route's `url` to aiohttp as it is.
- **The interaction's callback** (`interaction_callback`): `POST /interactions/{id}/{token}/callback` (a press's
  acknowledgement, the amount form, a private answer, the edit that answers a press). discord.py sends it through
  its webhook adapter, with no rate limit bucket of its own (Discord takes one callback per interaction and
  refuses a second), only retries after a 429 or a server error. This sends the same request and answers each
  status the same way (the same retries, the same exceptions: `discord.NotFound` for an expired interaction,
  10062), without the adapter's lock per token, its JSON text of each body and its reading of an empty answer.

Measured in one run (benchmarks/rest.py, the event loop's CPU per request against a local server): 18-20 % less
per callback, 13-16 % less per table edit (benchmarks/README.md).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections import OrderedDict
from typing import Any
from urllib.parse import quote

import aiohttp
import discord
import orjson
from discord.http import HTTPClient, Route
from discord.webhook.async_ import async_context
from yarl import URL

log = logging.getLogger(__name__)

#: How many requests one callback may take: discord.py's own number (a 429 or a server error is tried again).
TRIES = 5
#: Connection resets (BSD and Windows numbers) tried again, as discord.py does.
RESET_ERRNOS = (54, 10054)
_SAFE_TOKEN = re.compile(r"[A-Za-z0-9._~-]+")
_JSON = {"Content-Type": "application/json"}
CALLBACK_PATH = "/interactions/{webhook_id}/{webhook_token}/callback"


def cached_route(method: str, path: str, *, parsed: bool = True, **parameters: Any) -> Route:
    """A discord.py Route whose `url` is a `yarl.URL` read once (module docstring), or its text when not `parsed`
    (`passes_url_through`: a client whose HTTP is not discord.py's own, such as the tests' simulator). Pass it to
    `client.http.request` as any Route. Raises what `Route` raises."""
    route = Route(method, path, **parameters)
    if parsed:
        route.url = URL(route.url, encoded=True)  # type: ignore[assignment]  # aiohttp takes either; pinned by a test
    return route


def passes_url_through(http: object) -> bool:
    """Whether `http.request` is discord.py's own `HTTPClient.request`, which hands `route.url` to aiohttp as it is
    (another, such as SimCord's, may read it as text)."""
    return getattr(type(http), "request", None) is HTTPClient.request


class RouteCache:
    """One Route per channel (`get`): the last one asked for (a channel's table message changes with each hand: the
    previous message's route is replaced, not kept), at most `size` channels (the least recently used forgotten)."""

    def __init__(self, method: str, path: str, size: int = 10_000) -> None:
        self.method = method
        self.path = path
        self.size = size
        self._routes: OrderedDict[int, tuple[tuple[int, ...], Route]] = OrderedDict()

    def get(self, http: object, *, channel_id: int, **parameters: int) -> Route:
        """The Route of `path` for `channel_id` and the other (integer) parameters, made once (`cached_route`) for
        requests by `http` (a client's `http`: its URL parsed once if `passes_url_through(http)`)."""
        routes = self._routes
        values = tuple(parameters.values())
        known = routes.get(channel_id)
        if known is not None and known[0] == values:
            routes.move_to_end(channel_id)
            return known[1]
        parsed = passes_url_through(http)
        route = cached_route(self.method, self.path, parsed=parsed, channel_id=channel_id, **parameters)
        routes[channel_id] = (values, route)
        routes.move_to_end(channel_id)
        if len(routes) > self.size:
            routes.popitem(last=False)
        return route


_base: tuple[str, URL] | None = None


def _base_url() -> URL:
    """`Route.BASE` as a URL (read each time: the stand-in of the tests points it elsewhere before the bot starts)."""
    global _base
    text = Route.BASE
    if _base is None or _base[0] != text:
        _base = (text, URL(text))
    return _base[1]


def callback_url(interaction_id: int, token: str) -> URL:
    """The URL of an interaction's callback (the token quoted as discord.py's Route quotes it, if it needs it)."""
    if not _SAFE_TOKEN.fullmatch(token):
        token = quote(token, safe="")
    base = _base_url()
    return base.with_path(f"{base.raw_path}/interactions/{interaction_id}/{token}/callback", encoded=True)


def _session(client: discord.Client) -> aiohttp.ClientSession:
    """The client's HTTP session, as discord.py's `Interaction` reaches it (name-mangled `HTTPClient.__session`)."""
    session: aiohttp.ClientSession = getattr(client.http, "_HTTPClient__session")  # noqa: B009  # name-mangled
    return session


async def webhook_request(
    client: discord.Client, route: Route, payload: dict[str, Any], params: dict[str, Any] | None = None
) -> Any:
    """One request on an interaction's webhook (its callback, followups): through discord.py's webhook adapter and
    the client's HTTP session, as discord.py's own `Interaction` sends its responses (`interactions.py`:
    `state.http`'s `__session`). Not `client.http.request`: its rate limiter keeps one bucket per webhook token
    and, past 256 of them, scans them all at each new one (0.8 s of 5.5 s of loop CPU in a profile at 30
    tables). Raises discord.HTTPException when Discord refuses (an expired interaction: NotFound, 10062)."""
    http = client.http
    adapter = async_context.get()
    return await adapter.request(
        route, _session(client), payload=payload, proxy=http.proxy, proxy_auth=http.proxy_auth, params=params
    )


async def _answer(response: aiohttp.ClientResponse) -> Any:
    """The response's body as discord.py reads it (JSON when it says so, else text; an empty body is "")."""
    raw = await response.read()
    if raw and response.headers.get("Content-Type", "").startswith("application/json"):
        return orjson.loads(raw)
    return raw.decode("utf-8", errors="replace")


async def interaction_callback(client: discord.Client, interaction_id: int, token: str, body: dict[str, Any]) -> None:
    """Answer an interaction (`body`: Discord's interaction response, e.g. {"type": 6}) in one request on the
    client's HTTP session, as discord.py's webhook adapter would (module docstring): a 429 is waited out
    (`retry_after`) and a server error tried again after 1, 3, 5... s, up to `TRIES` requests; a connection reset
    too. Raises discord.NotFound (an expired or unknown interaction: 10062), discord.Forbidden,
    discord.DiscordServerError after the last try, discord.HTTPException otherwise (a 429 without Cloudflare's
    `Via` header: a ban, not a limit)."""
    http = client.http
    if not passes_url_through(http):  # not discord.py's HTTP (a simulator): its webhook adapter, as discord.py would
        route = Route("POST", CALLBACK_PATH, webhook_id=interaction_id, webhook_token=token)
        await webhook_request(client, route, body)
        return
    session = _session(client)
    url = callback_url(interaction_id, token)
    data = orjson.dumps(body)
    response: aiohttp.ClientResponse | None = None
    answer: Any = None
    for attempt in range(TRIES):
        try:
            async with session.post(
                url, data=data, headers=_JSON, proxy=http.proxy, proxy_auth=http.proxy_auth
            ) as response:
                answer = await _answer(response)
                status = response.status
                if 200 <= status < 300:
                    return
                if status == 429:
                    if not response.headers.get("Via") or not isinstance(answer, dict):
                        raise discord.HTTPException(response, answer)
                    retry_after = float(answer["retry_after"])
                    log.warning("interaction %s is rate limited; retrying in %.2f s", interaction_id, retry_after)
                    await asyncio.sleep(retry_after)
                    continue
                if status >= 500:  # the webhook adapter tries every server error again
                    await asyncio.sleep(1 + attempt * 2)
                    continue
                if status == 403:
                    raise discord.Forbidden(response, answer)
                if status == 404:
                    raise discord.NotFound(response, answer)
                raise discord.HTTPException(response, answer)
        except OSError as exc:
            if attempt < TRIES - 1 and exc.errno in RESET_ERRNOS:
                await asyncio.sleep(1 + attempt * 2)
                continue
            raise
    if response is not None and response.status >= 500:
        raise discord.DiscordServerError(response, answer)
    if response is not None:
        raise discord.HTTPException(response, answer)
    raise RuntimeError("no request was made")
