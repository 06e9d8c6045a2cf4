"""What `benchmarks/load.py --stall-log FILE` writes: each stall (a load player that waited `load.STALL` seconds for
its table message to change) with what the stand-in saw around it, to tell a fault of the bot from a misreading of
the player's (benchmarks/README.md, "Stalls").

A record (`stall_record`, taken when the stall is counted): where it was counted ("act": after the player's own
acknowledged action, the table message did not change; "play": the table said it was someone's turn and nothing
changed), when (the stand-in's `time.monotonic()`), the channel, the table message as the player read it (id, seq,
hand, actor, buttons) and the player's interaction (id, type, custom_id or command, sent, acknowledged, callback
types, followups). `write_stall_log` adds, for the 12 s before and 10 s after each stall, the channel's public
messages (every version: seq, time, title, content, the end of the description, buttons), its interactions and
its REST calls; and the whole run's DM-channel openings (POST /users/@me/channels: end time, duration, status),
the bucket that was behind the stalls of 2 December 2026.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from tests.discord_stub import DiscordStub, Interaction
from tests.discord_stub.model import iter_components
from tests.e2e.spectator import TableView

#: Seconds of the channel's history kept before and after a stall.
BEFORE_S, AFTER_S = 12.0, 10.0


def _interaction(stub: DiscordStub, inter: Interaction) -> dict[str, Any]:
    original = stub.original(inter)
    return {
        "id": inter.id,
        "type": inter.type,
        "user": inter.user_id,
        "what": inter.data.get("custom_id") or inter.data.get("name"),
        "created_at": inter.created_at,
        "acked_at": inter.acked_at,
        "ack_type": inter.ack_type,
        "callbacks": [kind for kind, _ in inter.callbacks],
        "followups": list(inter.followup_ids),
        "original": original.content if original is not None else None,
    }


def stall_record(
    stub: DiscordStub, where: str, channel_id: int, view: TableView, inter: Interaction | None
) -> dict[str, Any]:
    """One stall as it is counted: `where` "act" (after `inter`, the player's acknowledged action) or "play"."""
    return {
        "where": where,
        "at": time.monotonic(),
        "channel": channel_id,
        "view": {
            "message": view.message_id,
            "seq": view.seq,
            "hand": view.hand_number,
            "actor": view.actor,
            "buttons": list(view.buttons),
            "recent": list(view.recent),
        },
        "interaction": None if inter is None else _interaction(stub, inter),
    }


def write_stall_log(stub: DiscordStub, stalls: list[dict[str, Any]], path: Path) -> None:
    """Write `stalls` (`stall_record`s) with the channel's history around each, and the run's DM-channel openings,
    as one JSON object {"stalls": [...], "dm_channels_opened": [[end, duration, status], ...]} to `path`."""
    out = []
    for stall in stalls:
        channel, since, until = stall["channel"], stall["at"] - BEFORE_S, stall["at"] + AFTER_S
        messages = [
            {
                "id": m.id,
                "versions": [
                    {
                        "seq": v.seq,
                        "at": v.at,
                        "title": v.embeds[0].get("title") if v.embeds else None,
                        "content": v.content[:200],
                        "description_end": str(v.embeds[0].get("description", ""))[-300:] if v.embeds else None,
                        "buttons": [c.get("custom_id") for c in iter_components(v.components)],
                    }
                    for v in m.versions
                    if since < v.at < until
                ],
            }
            for m in stub.messages.values()
            if m.channel_id == channel and m.ephemeral_to is None and any(since < v.at < until for v in m.versions)
        ]
        interactions = [
            _interaction(stub, i)
            for i in stub.interactions.values()
            if i.channel_id == channel and since < i.created_at < until
        ]
        requests = [
            (r.at, r.method, r.path, r.status) for r in stub.requests if str(channel) in r.path and since < r.at < until
        ]
        out.append({**stall, "messages": messages, "interactions": interactions, "requests": requests})
    opened = [(r.at, r.duration, r.status) for r in stub.requests if r.route == "/users/@me/channels"]
    path.write_text(json.dumps({"stalls": out, "dm_channels_opened": opened}, indent=1, default=str))
    print(f"stall log: {path} ({len(out)} stalls)")
