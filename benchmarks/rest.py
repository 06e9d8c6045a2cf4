"""CPU per table edit, old way and new way side by side in one run (bot/discord_ui/rest.py's `RouteCache`).

    python benchmarks/rest.py [--requests 400] [--rounds 15] [--concurrency 16]

A local HTTP server in a child process answers like Discord (the edited message's JSON with rate limit headers);
this process sends, in rounds that alternate the variants, table edits of 300 tables' messages through discord.py's
`HTTPClient.request` with a new `Route` each time (before) and with the channel's `RouteCache` route (after).
Prints each variant's CPU time of this process per request (the median and the best round: the machine's other
work only adds to a round) and the ratio after / before.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

MESSAGE = {
    "id": "1234567890123456789",
    "channel_id": "1",
    "content": "",
    "embeds": [{"title": "#table-1 — hand #12", "description": "x" * 900}],
    "components": [{"type": 1, "components": [{"type": 2, "style": 2, "label": "Check", "custom_id": "c"}] * 4}],
    "author": {"id": "1", "username": "bot"},
}
RATE_LIMIT = {
    "X-RateLimit-Limit": "5",
    "X-RateLimit-Remaining": "4",
    "X-RateLimit-Reset": "1700000000.000",
    "X-RateLimit-Reset-After": "0.001",
    "X-RateLimit-Bucket": "abcd",
    "Via": "1.1 google",
}
PAYLOAD = {
    "embeds": [{"title": "#table-1 — hand #12", "description": "line\n" * 200}],
    "components": [{"type": 1, "components": [{"type": 2, "style": 2, "label": "Check", "custom_id": "c"}] * 4}],
}


def serve(port: int) -> None:
    """The child process: answer every request as Discord would (module docstring)."""
    from aiohttp import web

    body = json.dumps(MESSAGE).encode()
    user = json.dumps({"id": "1", "username": "bot", "discriminator": "0", "avatar": None}).encode()

    async def answer(request: web.Request) -> web.Response:
        await request.read()
        if request.method == "GET":
            return web.Response(body=user, content_type="application/json")
        return web.Response(body=body, headers={"Content-Type": "application/json", **RATE_LIMIT})

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", answer)
    web.run_app(app, host="127.0.0.1", port=port, print=None)  # type: ignore[arg-type]


async def measure(args: argparse.Namespace) -> None:
    import discord
    from discord.http import Route

    from bot.discord_ui.rest import RouteCache

    Route.BASE = f"http://127.0.0.1:{args.port}/api/v10"
    client = discord.Client(intents=discord.Intents.none())
    await client.http.static_login("token")
    edits = RouteCache("PATCH", "/channels/{channel_id}/messages/{message_id}")
    # More channels than yarl's cache of parsed URLs holds (128): in the bot, the callbacks' URLs (new at every
    # press, sent by the webhook adapter), the posts' and the DMs' come between two edits of one table message,
    # so that cache never holds it.
    tables = 300

    async def edit_before(i: int) -> None:
        route = Route("PATCH", edits.path, channel_id=1000 + i % tables, message_id=5000 + i % tables)
        await client.http.request(route, json=PAYLOAD)

    async def edit_after(i: int) -> None:
        await client.http.request(
            edits.get(client.http, channel_id=1000 + i % tables, message_id=5000 + i % tables), json=PAYLOAD
        )

    variants: dict[str, Callable[[int], Awaitable[None]]] = {
        "table edit, before": edit_before,
        "table edit, after": edit_after,
    }
    rounds: dict[str, list[float]] = {name: [] for name in variants}
    semaphore = asyncio.Semaphore(args.concurrency)
    counter = 0
    for _ in range(args.rounds):
        for name, send in variants.items():

            async def one(i: int, send: Callable[[int], Awaitable[None]] = send) -> None:
                async with semaphore:
                    await send(i)

            start = time.process_time()
            await asyncio.gather(*(one(counter + i) for i in range(args.requests)))
            counter += args.requests
            rounds[name].append((time.process_time() - start) / args.requests * 1e6)
    await client.http.close()
    for name, values in rounds.items():
        print(f"{name:20s}: median {statistics.median(values):6.1f} µs, best {min(values):6.1f} µs per request")
    before, after = rounds["table edit, before"], rounds["table edit, after"]
    ratio = statistics.median(after) / statistics.median(before)
    print(f"table edit: after / before = {ratio:.2f} (median), {min(after) / min(before):.2f} (best)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=400, help="requests per variant per round")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--concurrency", type=int, default=16, help="requests in flight at once")
    parser.add_argument("--port", type=int, default=18765)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.port)
        return
    server = subprocess.Popen([sys.executable, __file__, "--serve", "--port", str(args.port)])
    try:
        time.sleep(1.5)
        from bot.runtime import event_loop_options

        asyncio.run(measure(args), **event_loop_options())
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
