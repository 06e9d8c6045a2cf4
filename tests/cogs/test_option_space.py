"""Hypothesis over the whole option space of every slash command, and over poker:* custom ids, through the
command tree (issue 12 item 8): every value gets an answer — a refusal or what the command does —, never
"Something went wrong", and an unexpected error fails the test.

The commands and their options are read from the bot's own command tree, so a new command or option is covered
without changing this file. Declared values go through SimCord as Discord would send them; forged values (any
JSON for any option, of any option type, required options left out) are built by hand (`World.forge_slash`).
"""

from __future__ import annotations

from typing import Any

import pytest
from discord import AppCommandOptionType as OptionType
from discord import app_commands
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from simcord import InteractionResult

from bot.discord_ui.options import INTEGER_LIMIT
from tests.cogs.conftest import World

EXAMPLES = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
PEOPLE = ("alice", "bob", "zed")  # the host (Manage Server), a seated player, a member not at the table


def commands_of(world: World) -> list[app_commands.Command[Any, ..., Any]]:
    """Every slash command (leaf) of the bot's tree."""
    return sorted(
        (c for c in world.bot.tree.walk_commands() if isinstance(c, app_commands.Command)),
        key=lambda c: c.qualified_name,
    )


def declared(parameter: app_commands.Parameter, world: World) -> st.SearchStrategy[Any]:
    """Values Discord itself would send for `parameter`: its choices, or its type within its bounds."""
    if parameter.choices:
        return st.sampled_from([c.value for c in parameter.choices])
    low, high = parameter.min_value, parameter.max_value
    kind = parameter.type
    if kind is OptionType.integer:
        low = -INTEGER_LIMIT if low is None else int(low)
        high = INTEGER_LIMIT if high is None else int(high)
        edges = st.sampled_from(sorted({low, min(low + 1, high), max(high - 1, low), high}))
        return st.one_of(edges, st.integers(low, min(high, low + 1000)), st.integers(low, high))
    if kind is OptionType.string:
        low = 0 if low is None else int(low)
        high = 100 if high is None else int(high)
        levels = st.lists(
            st.tuples(st.integers(0, 10**9), st.integers(0, 10**9)).map(lambda lv: f"{lv[0]}/{lv[1]}"), min_size=1
        ).map(", ".join)
        return st.one_of(st.text(min_size=low, max_size=min(high, 60)), levels.filter(lambda s: low <= len(s) <= high))
    if kind is OptionType.boolean:
        return st.booleans()
    if kind is OptionType.user:
        return st.sampled_from(PEOPLE).map(world.member)
    raise AssertionError(f"no strategy for option type {kind}")


ANY_JSON: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=2**53 - 2, max_value=2**70),
    st.integers(min_value=-(2**70), max_value=0),
    st.floats(allow_nan=False),
    st.sampled_from([1e20, 1e30, -1e20, 2.5, 10.0, 0.0]),
    st.text(max_size=50),
    st.text(alphabet="0123456789", min_size=1, max_size=5000),
)


def answered(result: InteractionResult) -> str:
    """The text of the bot's answer (response or follow-ups; an embed counts); fails when there is none or when
    it is the answer to a bug."""
    messages = [m for m in [result.response, *result.followups] if m is not None]
    shown = [m for m in messages if m.content or m.embeds or m.attachments]
    assert shown, f"no answer: {result!r}"
    text = " ".join(m.content for m in shown)
    assert not text.startswith("Something went wrong"), text
    return text


async def ensure_table(world: World) -> None:
    """A table in the channel with alice (host, Manage Server) and bob, dealt if they could sit down: what
    earlier examples ended or emptied is opened again."""
    world.member("alice", admin=True)
    if world.channel.id not in world.service.runners:
        await world.slash("alice", "poker create")
    for name in ("alice", "bob"):
        if world.member(name).id not in {s.user_id for s in world.snapshot().seats}:
            await world.slash(name, "poker join")
    if not world.snapshot().running and len(world.snapshot().seats) >= 2:
        await world.slash("alice", "poker start")
    world.acknowledge_refusals()


@given(data=st.data())
@EXAMPLES
async def test_every_declared_value_of_every_command_gets_an_answer(world: World, data: st.DataObject) -> None:
    await ensure_table(world)
    command = data.draw(st.sampled_from(commands_of(world)), label="command")
    options = {}
    for parameter in command.parameters:
        if parameter.required or data.draw(st.booleans(), label=f"give {parameter.name}"):
            options[parameter.display_name] = data.draw(declared(parameter, world), label=parameter.name)
    # Discord lets only those who see a command send it (/poker-admin: Manage Server).
    allowed = [p for p in PEOPLE if command.qualified_name in world.member(p).available_commands(world.channel)]
    who = data.draw(st.sampled_from(allowed), label="who")
    result = await world.slash(who, command.qualified_name, **options)
    answered(result)
    world.acknowledge_refusals()


@given(data=st.data())
@EXAMPLES
async def test_every_forged_value_of_every_command_gets_an_answer(world: World, data: st.DataObject) -> None:
    await ensure_table(world)
    command = data.draw(st.sampled_from(commands_of(world)), label="command")
    options: dict[str, Any] = {}
    types: dict[str, int] = {}
    for parameter in command.parameters:
        if not data.draw(st.booleans(), label=f"give {parameter.name}"):
            continue
        if parameter.type is OptionType.user:
            value = data.draw(st.one_of(st.integers(), st.text(max_size=25), st.none()), label=parameter.name)
        else:
            value = data.draw(st.one_of(declared(parameter, world), ANY_JSON), label=parameter.name)
        options[parameter.display_name] = value
        if data.draw(st.booleans(), label=f"retype {parameter.name}"):
            types[parameter.display_name] = data.draw(st.sampled_from([3, 4, 5, 10]), label="type")
    result = await world.forge_slash("alice", command.qualified_name, options, types=types)
    answered(result)
    world.acknowledge_refusals()


CUSTOM_ID_PARTS = st.one_of(
    st.sampled_from(["fold", "check", "call", "bet", "raise", "all_in", "cards", "amount", "lb", "balance", "n"]),
    st.integers(min_value=-1, max_value=10**25).map(str),
    st.text(alphabet="0123456789:abc-", max_size=12),
)


@given(data=st.data())
@EXAMPLES
async def test_every_poker_press_and_form_gets_an_answer(world: World, data: st.DataObject) -> None:
    await ensure_table(world)
    channel = str(world.channel.id)
    parts = data.draw(st.lists(st.one_of(CUSTOM_ID_PARTS, st.just(channel), st.just("1")), max_size=6), label="id")
    custom_id = ("poker:" + ":".join(parts))[:100]
    who = data.draw(st.sampled_from(PEOPLE), label="who")
    if data.draw(st.booleans(), label="form"):
        result = await world.forge_form(who, custom_id, data.draw(st.text(max_size=30), label="amount"))
    else:
        result = await world.forge_press(who, custom_id, on_message=data.draw(st.booleans(), label="on message"))
    if result.deferred and not result.followups:
        return  # a press acted on: its answer is the table message, edited by the service
    if result.modal is not None:
        return  # Bet…/Raise… opened its form
    answered(result)
    world.acknowledge_refusals()


@pytest.mark.parametrize("name", ["poker-admin settings", "poker create", "raise", "history"])
async def test_the_space_covers_the_commands_that_went_wrong(world: World, name: str) -> None:
    """The issue's cases are in the space the properties above draw from."""
    assert name in [c.qualified_name for c in commands_of(world)]
