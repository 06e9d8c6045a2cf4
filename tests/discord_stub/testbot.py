"""A tiny discord.py bot that exercises every stand-in feature; used by the stand-in's own tests.

``/poker`` subcommands: ``join`` (options + autocomplete), ``table`` (a message with persistent
DynamicItem buttons: "Bump" counts presses and posts one message per press; "Form" opens a modal),
``secret`` (ephemeral reply with a button that updates it), ``dm`` (deferred, then DM or a refusal
notice), ``whisper`` (DM someone else), ``say`` / ``peek`` (public / ephemeral text), ``slow`` (thinking
then edit), ``edit`` (response, edit, followup, followup edit) and ``break`` (deliberately breaks one
Discord rule, bypassing discord.py's own checks, so the stand-in's enforcement can be tested).
Run it with ``STUB_BOT_ENTRY=tests.discord_stub.testbot:main python -m tests.discord_stub.run_bot``.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import re
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

log = logging.getLogger(__name__)

NAMES = ["alice", "albert", "bob", "carol", "dave"]
BREAKS = [
    "long_content",
    "big_embed",
    "many_rows",
    "long_custom_id",
    "no_ack",
    "late_ack",
    "double_ack",
    "unknown_route",
    "followup_before_ack",
]


class Counter:
    """The bump count (one per process; a press must count exactly once)."""

    value = 0


class BumpButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"stub:bump:(?P<table>\d+)"):
    """Persistent button: each press adds one and posts "bump #N"."""

    def __init__(self, table: int) -> None:
        super().__init__(discord.ui.Button(label="Bump", custom_id=f"stub:bump:{table}"))
        self.table = table

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> BumpButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        Counter.value += 1
        n = Counter.value
        assert interaction.channel is not None and interaction.message is not None
        await interaction.channel.send(f"bump #{n} by {interaction.user.name}")  # type: ignore[union-attr]
        await interaction.message.edit(content=f"table {self.table}: count={n}")


class FormButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"stub:form:(?P<table>\d+)"):
    """Persistent button that opens the name modal."""

    def __init__(self, table: int) -> None:
        super().__init__(discord.ui.Button(label="Form", custom_id=f"stub:form:{table}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> FormButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())


class NameModal(discord.ui.Modal, title="Your name"):
    """A modal with one required text input and one optional."""

    name: discord.ui.TextInput[NameModal] = discord.ui.TextInput(label="Name", custom_id="name", max_length=20)
    note: discord.ui.TextInput[NameModal] = discord.ui.TextInput(
        label="Note", custom_id="note", required=False, style=discord.TextStyle.paragraph
    )

    def __init__(self) -> None:
        super().__init__(custom_id="stub:modal:name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Thanks {self.name.value} ({self.note.value or '-'})", ephemeral=True)


class SecretView(discord.ui.View):
    """Attached to an ephemeral reply; pressing updates that ephemeral message."""

    @discord.ui.button(label="Reveal", custom_id="stub:reveal")
    async def reveal(self, interaction: discord.Interaction, button: discord.ui.Button[SecretView]) -> None:
        await interaction.response.edit_message(content="revealed", view=None)


poker = app_commands.Group(name="poker", description="Stand-in self-test commands")


@poker.command(description="Join a seat")
@app_commands.describe(seat="Seat number", name="Display name")
async def join(interaction: discord.Interaction, seat: app_commands.Range[int, 1, 10], name: str) -> None:
    locales = f"{interaction.locale.value}/{interaction.guild_locale.value if interaction.guild_locale else '-'}"
    await interaction.response.send_message(f"{interaction.user.name} joins seat {seat} as {name} ({locales})")


@join.autocomplete("name")
async def join_name(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=n.title(), value=n) for n in NAMES if n.startswith(current.lower())]


@poker.command(description="Post a table message with buttons")
async def table(interaction: discord.Interaction, number: int = 1) -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(BumpButton(number))
    view.add_item(FormButton(number))
    await interaction.response.send_message(f"table {number}: count={Counter.value}", view=view)


@poker.command(description="An ephemeral reply with a button")
async def secret(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("only you can see this", ephemeral=True, view=SecretView())


@poker.command(description="DM yourself")
async def dm(interaction: discord.Interaction, text: str) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        await interaction.user.send(text, view=SecretView(timeout=None))
    except discord.Forbidden as exc:
        assert interaction.channel is not None
        await interaction.channel.send(f"I can't DM {interaction.user.name} (code {exc.code})")  # type: ignore[union-attr]
        await interaction.followup.send("Your DMs are closed", ephemeral=True)
    else:
        await interaction.followup.send("Sent you a DM", ephemeral=True)


@poker.command(description="DM someone else")
async def whisper(interaction: discord.Interaction, user: discord.User, text: str) -> None:
    await user.send(text)
    await interaction.response.send_message("whispered", ephemeral=True)


@poker.command(description="Say something publicly")
async def say(interaction: discord.Interaction, text: str, attach: bool = False) -> None:
    if attach:
        picture = discord.File(io.BytesIO(b"\x89PNG fake"), filename=f"{text}.png")
        await interaction.response.send_message(text, file=picture)
    else:
        await interaction.response.send_message(text)


@poker.command(description="Say something only you see")
async def peek(interaction: discord.Interaction, text: str) -> None:
    await interaction.response.send_message(text, ephemeral=True)


@app_commands.command(name="pokeradmin", description="Administrators only")
@app_commands.default_permissions(manage_guild=True)
async def pokeradmin(interaction: discord.Interaction) -> None:
    perms = interaction.permissions
    await interaction.response.send_message(f"manage_guild={perms.manage_guild}", ephemeral=True)


@poker.command(description="Think, then answer")
async def slow(interaction: discord.Interaction) -> None:
    await interaction.response.defer(thinking=True)
    await asyncio.sleep(0.2)
    await interaction.edit_original_response(content="done thinking")


@poker.command(description="Respond, edit, follow up, edit the followup")
async def edit(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("v1")
    await interaction.edit_original_response(content="v2")
    followup = await interaction.followup.send("f1", wait=True)
    await followup.edit(content="f2")


@poker.command(name="break", description="Break one Discord rule on purpose")
@app_commands.choices(kind=[app_commands.Choice(name=k, value=k) for k in BREAKS])
async def break_rule(interaction: discord.Interaction, kind: str, seconds: float = 0.0) -> None:
    http = interaction.client.http
    channel_id = interaction.channel_id
    post = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
    raw: dict[str, Any] | None = None
    if kind == "long_content":
        raw = {"content": "x" * 2001}
    elif kind == "big_embed":
        raw = {"embeds": [{"title": "t", "description": "d" * 4097}]}
    elif kind == "many_rows":
        row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "b", "custom_id": "x"}]}
        raw = {"content": "rows", "components": [_row(i) for i in range(6)] + [row]}
    elif kind == "long_custom_id":
        raw = {"content": "id", "components": [{"type": 1, "components": [_button("c" * 101)]}]}
    if raw is not None:
        try:
            await http.request(post, json=raw)
        except discord.HTTPException as exc:
            log.info("refused as expected: %s", exc)
    elif kind == "unknown_route":
        try:
            await http.request(discord.http.Route("GET", "/nowhere/{channel_id}", channel_id=channel_id))
        except discord.NotFound:
            pass
    elif kind == "no_ack":
        return
    elif kind == "late_ack":
        await asyncio.sleep(seconds)
        try:
            await interaction.response.send_message("late")
        except discord.NotFound:
            pass
        return
    elif kind == "double_ack":
        await interaction.response.send_message("first")
        await _raw_callback(interaction, {"type": 4, "data": {"content": "second"}})
        return
    elif kind == "followup_before_ack":
        url = f"{discord.http.Route.BASE}/webhooks/{interaction.application_id}/{interaction.token}?wait=1"
        async with aiohttp.ClientSession() as session, session.post(url, json={"content": "early"}) as response:
            await response.read()
    await interaction.response.send_message(f"broke {kind}", ephemeral=True)


def _button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "b", "custom_id": custom_id}


def _row(i: int) -> dict[str, Any]:
    return {"type": 1, "components": [_button(f"r{i}")]}


async def _raw_callback(interaction: discord.Interaction, body: dict[str, Any]) -> None:
    url = f"{discord.http.Route.BASE}/interactions/{interaction.id}/{interaction.token}/callback"
    async with aiohttp.ClientSession() as session, session.post(url, json=body) as response:
        await response.read()


class TestBot(commands.AutoShardedBot):
    """The stand-in's test bot."""

    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())

    async def setup_hook(self) -> None:
        self.add_dynamic_items(BumpButton, FormButton)
        self.tree.add_command(poker)
        self.tree.add_command(pokeradmin)
        await self.tree.sync()


def main() -> None:
    """Run the test bot with DISCORD_TOKEN."""
    logging.basicConfig(level=os.environ.get("TESTBOT_LOG_LEVEL", "INFO"))
    TestBot().run(os.environ["DISCORD_TOKEN"], log_handler=None)
