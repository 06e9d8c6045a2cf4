"""The floor bot of `benchmarks/load.py --baseline` (benchmarks/floor_bot.py) against the Discord stand-in: the
honest minimal discord.py bot the ratio ours / floor divides by, so a floor that queues its own work makes the
ratio wrong."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.discord_stub import BotProcess, DiscordStub

SUB = 1
#: /poker create | join | start and /check, as the stand-in checks slash commands against synced definitions
#: (the floor bot syncs none: in a load run the real bot synced them first).
COMMANDS = [
    {
        "name": "poker",
        "description": "poker",
        "options": [
            {"type": SUB, "name": name, "description": name, "options": []} for name in ("create", "join", "start")
        ],
    },
    {"name": "check", "description": "check", "options": []},
]
CALLBACK = "POST /interactions/{webhook_id}/{webhook_token}/callback"
SLOW_S = 1.5


async def test_one_slow_acknowledgement_does_not_hold_up_another_tables(tmp_path: Path) -> None:
    # The floor once sent its acknowledgements on a Route of its own without the major parameters: discord.py
    # then kept one rate-limit bucket for all of them, one request at a time, and each table's acknowledgement
    # waited for every other one in flight (ack p95 314 ms, p99 549 ms in a load run, its loop half idle).
    async with DiscordStub() as stub:
        guild = stub.add_guild(name="Floor", channels=["floor-1", "floor-2"])
        stub.store_commands(guild.id, COMMANDS)
        alice, bob = stub.add_member(name="alice"), stub.add_member(name="bob")
        env = {
            "FLOOR_EDIT_BYTES": "1000"
        }  # about the real bot's table message (its default, 1500, is past a field's 1,024)
        bot = BotProcess(stub, entry="benchmarks.floor_bot:main", env=env, log_path=tmp_path / "floor.log")
        await bot.start(timeout=60)
        try:
            for channel in guild.channels:
                for path, user in (("create", alice), ("join", alice), ("join", bob), ("start", alice)):
                    assert await stub.invoke_slash(user, channel, "poker", path).wait_acked(10)
            first, second = guild.channels
            stub.faults.slow(CALLBACK, delay=SLOW_S, count=1)
            slow = stub.invoke_slash(alice, first, "check")
            await asyncio.sleep(0.2)  # the slow one is in flight
            quick = stub.invoke_slash(alice, second, "check")
            await quick.wait_acked(10)
            assert quick.ack_latency is not None and quick.ack_latency < SLOW_S / 2, quick.ack_latency
            assert not slow.acked, "the slow acknowledgement is still held by the stand-in"
            await slow.wait_acked(10)
            message = stub.last_message(second)
            assert message is not None and message.edit_count == 1  # and the table message was edited once
        finally:
            await bot.stop(timeout=20)
