"""The floor of an action's work, for `benchmarks/load.py --baseline`: a minimal discord.py bot.

It plays no poker. It answers the load's players just enough for them to play on as they do against the real
bot (benchmarks/load.py's TableDriver reads the same table message): /poker create, join and start are
acknowledged; each table has a table message naming whose turn it is; every action (a Check / Fold button, or
/check, /call, /fold) is acknowledged (a button: deferred update; a slash command: an ephemeral line) and the
table message is edited once, with a JSON payload of `FLOOR_EDIT_BYTES` bytes (the real bot's average edit,
measured by the same run), to name the next player. After `FLOOR_ACTIONS_PER_HAND` actions (the real bot's
average hand) the hand ends and, `FLOOR_NEXT_HAND_DELAY` seconds later (the table's own 5 s pause), the next
hand's table message is posted, as the real bot posts one per hand.

This is the cost that no Discord bot acting on a press can avoid with discord.py: the gateway event parsed into
an `Interaction`, one acknowledgement and one message edit over REST. The real bot's CPU per action divided
by this one's is the "ratio ours / floor" the benchmark prints.

Run by the benchmark through `tests.discord_stub.run_bot` (STUB_BOT_ENTRY=benchmarks.floor_bot:main).
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import discord
from discord.http import Route


@dataclass
class FloorTable:
    """One channel's pretend table: who sits, whose turn it is, the table message."""

    channel_id: int
    players: list[str] = field(default_factory=list)
    hand: int = 0
    actor: int = 0
    actions: int = 0
    message_id: int | None = None


class FloorBot(discord.Client):
    """Acknowledge, edit one message; nothing else (see the module docstring)."""

    def __init__(self, edit_bytes: int, actions_per_hand: int, next_hand_delay: float) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(intents=intents)
        self.edit_bytes = edit_bytes
        self.actions_per_hand = actions_per_hand
        self.next_hand_delay = next_hand_delay
        self.tables: dict[int, FloorTable] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def on_ready(self) -> None:
        gc.collect()
        gc.freeze()

    def payload(self, table: FloorTable, *, in_hand: bool = True) -> dict[str, Any]:
        """The table message: a title with the hand number, seat lines, whose turn, Check/Fold buttons; padded to
        `edit_bytes` of JSON with a field of filler (the size of the real bot's table message)."""
        lines = ["Blinds 1/2 · Cash game"]
        for seat, name in enumerate(table.players, start=1):
            mark = "▶" if in_hand and seat - 1 == table.actor else "\u2003"
            lines.append(f"{mark} `{seat:2d}` **{name}** — 100")
        if in_hand:
            lines.append(f"▶ **{table.players[table.actor]}** to act — <t:{int(time.time()) + 60}:R>")
        rows = []
        if in_hand:
            buttons = [
                {"type": 2, "style": 2, "label": "Check", "custom_id": f"poker:check:{table.channel_id}:{table.hand}"},
                {"type": 2, "style": 4, "label": "Fold", "custom_id": f"poker:fold:{table.channel_id}:{table.hand}"},
            ]
            rows = [{"type": 1, "components": buttons}]
        embed = {"title": f"<#{table.channel_id}> — hand #{table.hand}", "description": "\n".join(lines)}
        body: dict[str, Any] = {"embeds": [embed], "components": rows}
        missing = self.edit_bytes - len(json.dumps(body, ensure_ascii=False).encode())
        if missing > 40:
            embed["fields"] = [{"name": "Filler", "value": "x" * (missing - 40)}]
        return body

    async def post_hand(self, table: FloorTable) -> None:
        table.hand += 1
        table.actor = table.actions = 0
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=table.channel_id)
        message = await self.http.request(route, json=self.payload(table))
        table.message_id = int(message["id"])

    async def next_hand(self, table: FloorTable) -> None:
        await asyncio.sleep(self.next_hand_delay)
        await self.post_hand(table)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
        channel_id = interaction.channel_id or 0
        table = self.tables.setdefault(channel_id, FloorTable(channel_id))
        name = interaction.user.name
        # Acknowledged as any discord.py bot does, through `interaction.response` (discord.py's webhook adapter: a
        # lock per interaction). Not `self.http.request` with a Route of our own: a callback Route without the
        # major parameters (webhook_id, webhook_token) is one rate-limit bucket for every interaction, and
        # discord.py's bucket (one request at a time when Discord sends no X-RateLimit headers) then queued every
        # table's acknowledgement behind the one in flight: the floor's ack p99 of 300-600 ms in some runs.
        if interaction.type is discord.InteractionType.component:
            await interaction.response.defer()
        else:
            command = data.get("name", "")
            options = data.get("options") or []
            sub = options[0]["name"] if command == "poker" and options else None
            await interaction.response.send_message(f"{name} {sub or command}s", ephemeral=True)
            if sub == "join":
                if name not in table.players:
                    table.players.append(name)
                return
            if sub == "create":
                return
            if sub == "start":
                await self.post_hand(table)
                return
        if table.message_id is None:
            return
        table.actions += 1
        table.actor = (table.actor + 1) % len(table.players)
        over = table.actions >= self.actions_per_hand
        route = Route(
            "PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=channel_id, message_id=table.message_id
        )
        await self.http.request(route, json=self.payload(table, in_hand=not over))
        if over:
            task = asyncio.create_task(self.next_hand(table))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)


def main() -> None:
    """Run the floor bot with the stand-in's token (DISCORD_TOKEN) and the sizes from the environment."""
    sys.setswitchinterval(0.0002)
    bot = FloorBot(
        edit_bytes=int(os.environ.get("FLOOR_EDIT_BYTES", "1500")),
        actions_per_hand=int(os.environ.get("FLOOR_ACTIONS_PER_HAND", "22")),
        next_hand_delay=float(os.environ.get("FLOOR_NEXT_HAND_DELAY", "5")),
    )
    from bot.runtime import event_loop_options

    async def run() -> None:
        async with bot:
            await bot.start(os.environ["DISCORD_TOKEN"])

    try:
        asyncio.run(run(), **event_loop_options())
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
