"""Fault injection for the stand-in's REST routes: 429 rate limits, slow responses, server errors.

A rule matches a route template as discord.py names it (``"POST /channels/{channel_id}/messages"``),
a template for any method (``"/channels/{channel_id}/messages/{message_id}"``), every route (``"*"``),
or a callable ``(method, template, path) -> bool``. ``count`` is how many requests it hits (None: all
of them until removed). A 429 carries what discord.py needs to retry it (a ``Via`` header and a JSON
``retry_after``); without them discord.py would take it for a Cloudflare ban and raise.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from aiohttp import web

RouteMatcher = str | Callable[[str, str, str], bool]


@dataclass
class FaultRule:
    """One injected fault. ``hits`` counts the requests it affected."""

    kind: str  # "rate_limit" | "slow" | "server_error"
    route: RouteMatcher
    count: int | None
    retry_after: float = 0.0
    is_global: bool = False
    delay: float = 0.0
    status: int = 500
    hits: int = 0

    def matches(self, method: str, template: str, path: str) -> bool:
        """Whether this rule applies to the request (ignores ``count``)."""
        if callable(self.route):
            return self.route(method, template, path)
        if self.route == "*":
            return True
        if " " in self.route:
            return self.route == f"{method} {template}"
        return self.route == template

    @property
    def exhausted(self) -> bool:
        """Whether the rule has hit its ``count`` requests."""
        return self.count is not None and self.hits >= self.count


class Faults:
    """The active fault rules of a stand-in (``stub.faults``)."""

    def __init__(self) -> None:
        self.rules: list[FaultRule] = []

    def rate_limit(
        self, route: RouteMatcher = "*", *, count: int | None = 1, retry_after: float = 0.05, is_global: bool = False
    ) -> FaultRule:
        """Answer the next ``count`` matching requests with HTTP 429 (retry_after in seconds)."""
        rule = FaultRule("rate_limit", route, count, retry_after=retry_after, is_global=is_global)
        self.rules.append(rule)
        return rule

    def slow(self, route: RouteMatcher = "*", *, delay: float, count: int | None = None) -> FaultRule:
        """Hold matching requests ``delay`` seconds before handling them."""
        rule = FaultRule("slow", route, count, delay=delay)
        self.rules.append(rule)
        return rule

    def server_error(self, route: RouteMatcher, *, status: int = 500, count: int | None = 1) -> FaultRule:
        """Answer matching requests with a 5xx (discord.py retries 500, 502, 504 and 524)."""
        rule = FaultRule("server_error", route, count, status=status)
        self.rules.append(rule)
        return rule

    def remove(self, rule: FaultRule) -> None:
        """Stop a rule."""
        if rule in self.rules:
            self.rules.remove(rule)

    def clear(self) -> None:
        """Stop every rule."""
        self.rules.clear()

    def take(self, method: str, template: str, path: str) -> list[FaultRule]:
        """The rules that hit this request (counting the hit), dropping exhausted ones."""
        hit: list[FaultRule] = []
        for rule in list(self.rules):
            if rule.exhausted or not rule.matches(method, template, path):
                continue
            rule.hits += 1
            hit.append(rule)
            if rule.exhausted:
                self.rules.remove(rule)
        return hit


def rate_limited_response(rule: FaultRule) -> web.Response:
    """Discord's 429 body and headers (docs: "Rate Limits", exceeding a rate limit)."""
    body = {"message": "You are being rate limited.", "retry_after": rule.retry_after, "global": rule.is_global}
    headers = {
        "Content-Type": "application/json",
        "Via": "1.1 google",
        "Retry-After": str(max(1, round(rule.retry_after))),
        "X-RateLimit-Scope": "global" if rule.is_global else "user",
    }
    if rule.is_global:
        headers["X-RateLimit-Global"] = "true"
    return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)
