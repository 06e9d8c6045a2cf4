"""The door of every `poker:*` component (the table's buttons, the Bet…/Raise… form, the leaderboard's pages).

A custom_id comes from the person who presses: a forged request may carry any text, any channel. So:

- a component that names a table's channel in its custom_id runs behind `at_table` (through
  `guarded_component`, or `presses.run_press` for the table message's own buttons): the custom_id's channel
  must be the channel the interaction comes from, and the table there must belong to the interaction's server,
  before anything else is looked at. The refusal is the same
  whatever the other channel holds, so it tells nothing about it;
- a `poker:*` press or form that nothing will handle — no known template matches it (truncated, extra fields,
  huge numbers, unknown action) or, for a button, the message it comes from has no such button (discord.py
  then drops it) — is answered by `answer_unknown_component` (the cog's `on_interaction` listener; for a table
  action's id, by `presses.run_press`) instead of leaving Discord to say "This interaction failed".

A new component kind adds its template to the cog's list (`cogs/table.py`) and, if it names a channel, runs
its callback through `guarded_component`.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Protocol

import discord

from bot.discord_ui.errors import CommandRefused, guarded, handle_interaction_error
from bot.discord_ui.parts import parts

PREFIX = "poker:"


def poker_custom_id(interaction: discord.Interaction[Any]) -> str | None:
    """The custom_id of a button press, select or form submission of this bot (it starts with "poker:")."""
    if interaction.type not in (discord.InteractionType.component, discord.InteractionType.modal_submit):
        return None
    data = interaction.data
    custom_id = data.get("custom_id") if isinstance(data, dict) else None
    return custom_id if isinstance(custom_id, str) and custom_id.startswith(PREFIX) else None


def template_of(item: type[discord.ui.DynamicItem[Any]]) -> re.Pattern[str]:
    """The custom_id template of a DynamicItem class. discord.py shows it only on instances (`.template`); the
    class keeps it as `__discord_ui_compiled_template__` (discord.py 2.4 to 2.7): this is the one place that
    reads it (tests/cogs/test_door.py fails if it moves)."""
    template: re.Pattern[str] = item.__discord_ui_compiled_template__
    return template


class Place(Protocol):
    """Where an interaction comes from: a `discord.Interaction`, or a table button's `Press`
    (bot/discord_ui/presses.py), read from the raw payload."""

    @property
    def channel_id(self) -> int | None: ...

    @property
    def guild_id(self) -> int | None: ...


def at_table(interaction: Place, channel_id: int, table_guild_id: int | None) -> None:
    """Refuse (CommandRefused "foreign_component") a component whose custom_id names `channel_id` when the
    interaction comes from another channel, or when the table there (`table_guild_id`, None if there is none)
    belongs to another server than the interaction's."""
    if channel_id != interaction.channel_id:
        raise CommandRefused("foreign_component")
    if table_guild_id is not None and table_guild_id != interaction.guild_id:
        raise CommandRefused("foreign_component")


async def guarded_component(
    interaction: discord.Interaction[Any], channel_id: int, handler: Callable[[], Awaitable[None]]
) -> None:
    """Run a table component's `handler` behind `at_table` (the custom_id's `channel_id` first), with the common
    error path (`guarded`)."""

    async def checked() -> None:
        service = parts(interaction.client).tables
        runner = service.find(channel_id) if service is not None else None
        at_table(interaction, channel_id, runner.ids.guild_id if runner is not None else None)
        await handler()

    await guarded(interaction, checked)


def _on_message(message: discord.Message | None, custom_id: str) -> bool:
    """Whether `message` carries a component with `custom_id` (in rows or nested layouts)."""
    if message is None:
        return False
    stack: list[Any] = list(message.components)
    while stack:
        component = stack.pop()
        if getattr(component, "custom_id", None) == custom_id:
            return True
        stack.extend(getattr(component, "children", ()) or ())
        stack.extend(getattr(component, "components", ()) or ())
    return False


def is_handled(
    interaction: discord.Interaction[Any],
    custom_id: str,
    buttons: Iterable[re.Pattern[str]],
    forms: Iterable[re.Pattern[str]],
) -> bool:
    """Whether a handler will answer this `poker:*` interaction: a form whose custom_id one of the `forms`
    templates matches whole, or a button that one of the `buttons` templates matches and whose message carries
    it (discord.py rebuilds a DynamicItem from the message's own component)."""
    if interaction.type is discord.InteractionType.modal_submit:
        return any(template.fullmatch(custom_id) for template in forms)
    if not any(template.fullmatch(custom_id) for template in buttons):
        return False
    return _on_message(interaction.message, custom_id)


async def answer_unknown_component(
    interaction: discord.Interaction[Any], *, buttons: Iterable[re.Pattern[str]], forms: Iterable[re.Pattern[str]]
) -> None:
    """`on_interaction` listener: a `poker:*` press or form that no handler will answer (`is_handled`) gets a
    private "not valid" answer. Anything else is left alone."""
    custom_id = poker_custom_id(interaction)
    if custom_id is None or is_handled(interaction, custom_id, buttons, forms):
        return
    await handle_interaction_error(interaction, CommandRefused("unknown_component"))
