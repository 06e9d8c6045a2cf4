"""The Discord layer's CPU per table-button press: our fast path against discord.py's generic path (the peer).

    python benchmarks/press.py [--presses 20000]

Both read the same INTERACTION_CREATE payload (a table message of six seats: its embed and five buttons, as the
gateway sends it) and acknowledge it (type 6) through a transport that answers at once, so that only the work of
the Discord layer is timed, not the network nor the action (`TableRunner.act`, the same on both paths):

- peer, discord.py: `ConnectionState.parse_interaction_create` (the `Interaction` and its `Message`), the
  DynamicItem dispatch (`View.from_message`, the item found and rebuilt from its custom_id, `interaction_check`)
  and `interaction.response.defer()` through the webhook adapter — what a press of the table's buttons cost
  before bot/discord_ui/presses.py;
- ours: `Presses.take` (`Press.read` from the payload, the presser noted) and `run_press`: the door's checks
  (on the message, `at_table`), the acknowledgement (`acknowledge_action`), then a table whose `act` does
  nothing.

Prints each path's µs per press (process CPU time, best of 5 rounds) and the ratio ours / discord.py.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord
from discord.webhook.async_ import async_context

from bot.discord_ui import presses
from bot.discord_ui.people import People
from bot.discord_ui.table_view import ACTION_ID
from bot.tables import SystemClock

CHANNEL, GUILD, HAND = 1_200_000_000_000_000_001, 1_100_000_000_000_000_001, 17
CALL = f"poker:call:{CHANNEL}:{HAND}:6"


def payload(number: int) -> dict[str, Any]:
    """An INTERACTION_CREATE of a press of Call 6 on a six-seat table message, as the gateway sends it."""
    ids = [f"poker:fold:{CHANNEL}:{HAND}", CALL, f"poker:raise:{CHANNEL}:{HAND}", f"poker:all_in:{CHANNEL}:{HAND}:98"]
    labels = ["Fold", "Call 6", "Raise…", "All-in 98"]
    buttons = [{"type": 2, "style": 2, "label": lb, "custom_id": c} for lb, c in zip(labels, ids, strict=True)]
    buttons.append({"type": 2, "style": 2, "label": "My cards", "custom_id": f"poker:cards:{CHANNEL}:{HAND}"})
    seats = "\n".join(f"\u2003 ` {i}` player{i} — {100 + i} · bet 6" for i in range(1, 7))
    embed = {"type": "rich", "title": "#poker — hand #17", "description": f"Blinds 1/2\n**Pot**: 30\n{seats}"}
    user = {"id": "4101", "username": "alice", "global_name": "Alice", "discriminator": "0", "avatar": None}
    bot_user = {"id": "9001", "username": "Poker", "discriminator": "0", "avatar": None, "bot": True}
    message = {
        "id": "1300000000000000001",
        "channel_id": str(CHANNEL),
        "author": bot_user,
        "content": "",
        "timestamp": "2026-12-01T19:00:00+00:00",
        "edited_timestamp": "2026-12-01T19:00:05+00:00",
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [embed],
        "pinned": False,
        "type": 0,
        "flags": 0,
        "components": [{"type": 1, "components": buttons}],
    }
    member = {"user": user, "nick": None, "roles": [], "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False}
    member.update(mute=False, pending=False, permissions="2147483647", flags=0)
    return {
        "id": str(1_400_000_000_000_000_000 + number),
        "application_id": "9001",
        "type": 3,
        "token": f"token-{number}",
        "version": 1,
        "channel_id": str(CHANNEL),
        "guild_id": str(GUILD),
        "guild_locale": "en-US",
        "locale": "en-US",
        "member": member,
        "app_permissions": "2147483647",
        "entitlements": [],
        "attachment_size_limit": 10_485_760,
        "data": {"custom_id": CALL, "component_type": 2},
        "message": message,
        "channel": {
            "id": str(CHANNEL),
            "type": 0,
            "guild_id": str(GUILD),
            "name": "poker",
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "rate_limit_per_user": 0,
            "topic": None,
            "last_message_id": None,
            "flags": 0,
            "permissions": "2147483647",
        },
    }


class Answered:
    """The transport: every REST call answered at once (counted)."""

    def __init__(self) -> None:
        self.calls = 0

    async def request(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        return None

    async def create_interaction_response(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        return {"interaction": {"id": "1", "type": 3}}


class Table:
    """What the fast path's door asks of the table service before acting: the table of the channel, its server,
    the service clock (a press's arrival); `transport` answers a press handed over as a carrier."""

    class ids:
        guild_id = GUILD

    def __init__(self, transport: Answered) -> None:
        self.transport = transport
        self.clock = SystemClock()

    def find(self, channel_id: int) -> Table | None:
        return self if channel_id == CHANNEL else None

    def get(self, channel_id: int) -> Table:
        return self

    async def act(self, *args: Any, carrier: Any = None, **kwargs: Any) -> None:
        """The action itself is not timed: it is the same on both paths. A press handed over as the carrier of the
        table edit (docs/outbox.md) is answered by the table's delivery: its one REST call, made here."""
        if carrier is not None:
            await self.transport.request(carrier)


class Parts(discord.Client):
    """A client with the parts the fast path reads (`BotParts`)."""

    def __init__(self, transport: Answered) -> None:
        super().__init__(intents=discord.Intents.none())
        self.tables: Any = Table(transport)
        self.people = People()
        self.storage: Any = None


class DispatchedButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ACTION_ID.pattern):
    """The peer's table button: a DynamicItem of the same template, whose callback acknowledges (type 6)."""

    def __init__(self, custom_id: str, done: asyncio.Event | None = None) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id))
        self.done = done

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> DispatchedButton:
        return cls(item.custom_id or "")  # type: ignore[attr-defined]

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer()


async def drain() -> None:
    """Wait for every task the presses started (and those they started)."""
    while pending := asyncio.all_tasks() - {asyncio.current_task()}:
        await asyncio.gather(*pending, return_exceptions=True)


async def peer(count: int, transport: Answered) -> float:
    client = discord.Client(intents=discord.Intents.none())
    client.add_dynamic_items(DispatchedButton)
    state = client._connection
    bot_user = {"id": "9001", "username": "Poker", "discriminator": "0", "avatar": None, "bot": True}
    state.user = discord.ClientUser(state=state, data=bot_user)  # type: ignore[arg-type]  # as READY sets it
    async_context.set(transport)  # type: ignore[arg-type]
    payloads = [payload(i) for i in range(count)]
    started = time.process_time()
    for data in payloads:
        state.parse_interaction_create(data)  # type: ignore[arg-type]
        await asyncio.sleep(0)
        await asyncio.sleep(0)
    await drain()
    return time.process_time() - started


async def ours(count: int, transport: Answered) -> float:
    client = Parts(transport)
    async_context.set(transport)  # type: ignore[arg-type]
    taker = presses.Presses()
    payloads = [payload(i) for i in range(count)]
    started = time.process_time()
    for data in payloads:
        taker.take(client, data)
        await asyncio.sleep(0)
        await asyncio.sleep(0)
    await drain()
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--presses", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    results: dict[str, float] = {}
    for name, run in (("discord.py", peer), ("ours", ours)):
        best = float("inf")
        for _ in range(args.rounds):
            transport = Answered()
            best = min(best, asyncio.run(run(args.presses, transport)))
            assert transport.calls == args.presses, (name, transport.calls)  # each press acknowledged once
        results[name] = best / args.presses * 1e6
        print(f"{name:>10}: {results[name]:7.1f} µs CPU per press (best of {args.rounds} × {args.presses})")
    print(f"     ratio: {results['ours'] / results['discord.py']:.2f} (ours / discord.py)")


if __name__ == "__main__":
    main()
