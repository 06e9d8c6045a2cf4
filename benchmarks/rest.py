"""CPU per REST request of the table's messages, old way and new way side by side in one run.

    python benchmarks/rest.py [--requests 400] [--rounds 15] [--concurrency 16] [--only edit|picture]

A local HTTP server in a child process answers like Discord (the message's JSON with rate limit headers); this
process sends, in rounds that alternate the variants, through discord.py's `HTTPClient.request`:

- `edit`: table edits of 300 tables' messages with a new `Route` each time (before) and with the channel's
  `RouteCache` route (after: bot/discord_ui/rest.py);
- `picture`: posts of a street's line with its picture (a 40 KB PNG's size) as a multipart form whose file part
  is a `discord.File`'s BytesIO (before) and the picture's bytes (after: `DiscordNotifier._post_once`).

Prints each variant's CPU time of this process per request (the median and the best round: the machine's other
work only adds to a round) and the ratio after / before (of the medians, the best rounds, and the median of the
ratios of the rounds run side by side).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

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

    from bot.discord_ui.notifier import DiscordNotifier
    from bot.discord_ui.rest import RouteCache
    from bot.tables import Picture

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

    notifier = DiscordNotifier(client)
    posts = RouteCache("POST", "/channels/{channel_id}/messages")
    picture = Picture(bytes(range(256)) * 160)  # the size of a street's picture (~40 KB)

    async def picture_before(i: int) -> None:
        payload = {"content": "Flop: A♠ K♦ 7♣", "attachments": [{"id": 0, "filename": picture.filename}]}
        files = [discord.File(io.BytesIO(picture.data), filename=picture.filename)]
        form: list[dict[str, Any]] = [{"name": "payload_json", "value": json.dumps(payload, separators=(",", ":"))}]
        form += [
            {"name": f"files[{i}]", "value": f.fp, "filename": f.filename, "content_type": "image/png"}
            for i, f in enumerate(files)
        ]
        try:
            await client.http.request(posts.get(client.http, channel_id=1000 + i % tables), form=form, files=files)
        finally:
            for file in files:
                file.close()

    async def picture_after(i: int) -> None:
        await notifier._post_once(1000 + i % tables, None, content="Flop: A♠ K♦ 7♣", pictures=[picture])

    pairs: dict[str, tuple[Callable[[int], Awaitable[None]], Callable[[int], Awaitable[None]]]] = {
        "table edit": (edit_before, edit_after),
        "street with picture": (picture_before, picture_after),
    }
    if args.only:
        chosen = {"edit": "table edit", "picture": "street with picture"}[args.only]
        pairs = {chosen: pairs[chosen]}
    variants: dict[str, Callable[[int], Awaitable[None]]] = {}
    for name, (before, after) in pairs.items():
        variants[f"{name}, before"], variants[f"{name}, after"] = before, after
    rounds: dict[str, list[float]] = {name: [] for name in variants}
    semaphore = asyncio.Semaphore(args.concurrency)
    counter = 0
    for _ in range(args.rounds):
        for name, send in variants.items():

            async def one(i: int, send: Callable[[int], Awaitable[None]] = send) -> None:
                async with semaphore:
                    await send(i)

            count = args.requests // 4 if name.startswith("street") else args.requests  # 4x the CPU each
            start = time.process_time()
            await asyncio.gather(*(one(counter + i) for i in range(count)))
            counter += count
            rounds[name].append((time.process_time() - start) / count * 1e6)
    await client.http.close()
    for name, values in rounds.items():
        print(f"{name:29s}: median {statistics.median(values):6.1f} µs, best {min(values):6.1f} µs per request")
    for name in pairs:
        before, after = rounds[f"{name}, before"], rounds[f"{name}, after"]
        ratio = statistics.median(after) / statistics.median(before)
        paired = statistics.median(a / b for a, b in zip(after, before, strict=True))
        print(
            f"{name}: after / before = {ratio:.2f} (medians), {min(after) / min(before):.2f} (best), "
            f"{paired:.2f} (median of the rounds' ratios)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=400, help="requests per variant per round")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--concurrency", type=int, default=16, help="requests in flight at once")
    parser.add_argument("--port", type=int, default=18765)
    parser.add_argument("--only", choices=("edit", "picture"), help="measure one pair of variants")
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
