"""discord.py Routes whose URL is read once per channel, for the table message's edits and the channel's and DMs'
posts (docs/architecture.md, "The fast path of a press").

`cached_route`, `RouteCache`: discord.py's `HTTPClient.request` hands `route.url` to aiohttp, which parses a string
URL again at every request, and a table message is edited about 20 times a hand at the same URL. `cached_route`
gives a Route whose `url` is a `yarl.URL` made once (the same text, quoted by the Route); `RouteCache` keeps one per
channel (its table message's, while it lasts). The rest of the request is discord.py's own: the rate limit buckets
(a channel's edits, Discord's X-RateLimit headers, the wait before an exhausted bucket), 429 retries, the global
limit, the errors. discord.py declares `url` a `str`: tests/discord_ui/test_rest.py fails when its request stops
passing a Route's `url` to aiohttp as it is.

The interaction's answers (its callback, followups) are not here: they go through discord.py's webhook adapter
(`presses.webhook_request`).

Measured in one run (benchmarks/rest.py, the event loop's CPU per request against a local server): 10-16 % less
per table edit (benchmarks/README.md).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from discord.http import HTTPClient, Route
from yarl import URL


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
