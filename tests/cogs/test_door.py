"""Every input checked at our door (issue 12, items 6 to 11), with requests a hostile client builds by hand:
option values outside their declaration, amounts in other scripts or of 5,000 digits, buttons and forms naming
another channel or malformed, names with bidirectional controls. Each gets a clear private answer and changes
nothing."""

from __future__ import annotations

import json
import logging
import sqlite3
from typing import Any

import discord
import pytest

from bot.discord_ui.table_view import ACTION_ID
from tests.cogs.conftest import FORGED_POST, World
from tests.cogs.test_refusals import answer, state

KINDS = "one of Cash game, Friendly tournament, Learning table (cards face up, coach on)"

NOT_VALID = "That button is not valid: use the latest table message"
NOT_HERE = "That button does not work here: use the table message of this channel"


async def settings_row(world: World) -> Any:
    return await world.bot.storage.guild_settings(world.guild.id)


class Door:
    """Checks that a forged request gets a private answer (exactly `expected` when given) and changes nothing:
    not the table, not the server's settings, no table opened, nothing public."""

    def __init__(self, world: World) -> None:
        self.world = world

    async def _state(self) -> tuple[Any, ...]:
        world = self.world
        table = await state(world) if world.channel.id in world.service.runners else None
        return table, await settings_row(world), len(world.service.runners)

    async def refuses(self, request: Any, expected: str | None = None) -> str:
        before = await self._state()
        mark = len(self.world.env.http_requests)
        text = answer(await request())
        if expected is not None:
            assert text == expected
        assert await self._state() == before
        public = [text for text in self.world.public_texts(mark) if FORGED_POST not in text]
        assert public == [], public
        return text


# ---------------------------------------------------------------------- item 6: option values


async def test_a_forged_huge_starting_grant_is_refused_never_stored(world: World) -> None:
    ada = world.member("ada", admin=True)
    door = Door(world)
    await door.refuses(
        lambda: world.forge_slash(ada, "poker-admin settings", {"starting_grant": 1e20}),
        "“1e+20” is not a valid starting_grant: a whole number from 0 to 1,000,000,000",
    )
    world.speaks("ada", "fr")
    await door.refuses(
        lambda: world.forge_slash(ada, "poker-admin settings", {"starting_grant": 10**20}),
        "«\u00a0100000000000000000000\u00a0» n'est pas une valeur possible pour jetons_depart\u00a0: un nombre entier "
        "de 0 à 1\u202f000\u202f000\u202f000",
    )
    # New members still get the server's grant, in whole chips.
    assert (await settings_row(world)).starting_grant == 1000
    await world.seat({"zoe": None})
    assert await world.balance("zoe") + world.stacks()["zoe"] == 1000
    world.acknowledge_refusals()


@pytest.mark.parametrize(
    ("command", "options", "types", "expected"),
    [
        ("poker create", {"big_blind": 10**30}, None, "a whole number from 1 to 1,000,000"),
        ("poker create", {"big_blind": 1e30}, None, "a whole number from 1 to 1,000,000"),
        ("poker create", {"small_blind": 2.5}, None, "a whole number from 1 to 1,000,000"),
        ("poker create", {"seats": 11}, None, "a whole number from 2 to 10"),
        ("poker create", {"timer": 5}, None, "a whole number from 10 to 600"),
        ("poker create", {"ante": -1}, None, "a whole number from 0 to 1,000,000"),
        ("poker create", {"stack": "100"}, {"stack": 3}, "a whole number from 1 to 1,000,000,000"),
        ("poker create", {"stack": True}, {"stack": 5}, "a whole number from 1 to 1,000,000,000"),
        ("poker create", {"kind": "poker"}, None, KINDS),
        ("poker create", {"kind": 1}, {"kind": 4}, KINDS),
        ("poker create", {"straddle": "yes"}, {"straddle": 3}, "true or false"),
        ("poker create", {"straddle": None}, None, "true or false"),
        ("poker-admin settings", {"language": "de"}, None, "one of English, Français"),
        ("poker-admin settings", {"refill_cooldown": 10**6}, None, "a whole number from 0 to 8,760"),
        ("poker-admin settings", {"timer": 601}, None, "a whole number from 10 to 600"),
        ("poker join", {"seat": 0}, None, "a whole number from 1 to 10"),
        ("poker join", {"buy_in": 2**64}, None, "a whole number from 1 to 1,000,000,000"),
        ("poker rebuy", {"amount": 0}, None, "a whole number from 1 to 1,000,000,000"),
        ("poker schedule", {"levels": "1/2," * 2000}, None, "a text of 3 to 400 characters"),
        ("poker schedule", {"by": "weeks", "levels": "1/2"}, None, "one of Hands, Minutes"),
        ("poker schedule", {"every": 0, "levels": "1/2"}, None, "a whole number from 1 to 1,000"),
        ("poker kick", {"member": "123"}, None, "a member of this server"),
        ("poker kick", {"member": "not a snowflake"}, None, "a member of this server"),  # discord.py would raise
        ("poker kick", {"member": 12.5}, None, "a member of this server"),
        ("raise", {"amount": 2**53}, None, "a whole number from 1 to 9,007,199,254,740,991"),
        ("raise", {"amount": 10**5000}, None, "a whole number from 1 to 9,007,199,254,740,991"),
        ("raise", {"amount": "9" * 5000}, {"amount": 3}, "a whole number from 1 to 9,007,199,254,740,991"),
        ("bet", {"amount": "12"}, {"amount": 3}, "a whole number from 1 to 9,007,199,254,740,991"),
        ("history", {"hand": -1}, None, "a whole number from 1 to 1,000,000,000"),
        ("leaderboard", {"by": "chips"}, None, "one of Balance, Net winnings (cash tables), Tournament wins"),
        ("stats", {"member": "42"}, None, "a member of this server"),
    ],
)
async def test_option_values_outside_their_declaration_are_refused(
    world: World, command: str, options: dict[str, Any], types: dict[str, int] | None, expected: str
) -> None:
    ada = world.member("ada", admin=True)
    await world.seat({"ada": None, "bob": None})
    name = next(iter(options))
    text = await Door(world).refuses(lambda: world.forge_slash(ada, command, options, types=types))
    assert text.endswith(f"is not a valid {name}: {expected}"), text
    world.acknowledge_refusals()


async def test_a_missing_option_and_a_wrong_choice_are_named_in_the_readers_language(world: World) -> None:
    await world.seat({"alice": None, "bob": None})
    door = Door(world)
    await door.refuses(lambda: world.forge_slash("alice", "raise", {}), "The option amount is missing")
    world.speaks("alice", "fr")
    await door.refuses(lambda: world.forge_slash("alice", "poker rebuy", {}), "Il manque l'option montant")
    await door.refuses(
        lambda: world.forge_slash("alice", "poker create", {"kind": "poker"}),
        "«\u00a0poker\u00a0» n'est pas une valeur possible pour type\u00a0: "
        "une valeur parmi Partie libre, Tournoi amical, Table d'apprentissage (cartes visibles, coach activé)",
    )
    world.acknowledge_refusals()


# ---------------------------------------------------------------------- item 7: amounts typed in the form


async def test_the_form_reads_only_ascii_digits_with_the_readers_separators(world: World) -> None:
    world.decks.queue(["9c4d", "8h3c", "QhQc"], "Kd7s2h5c6h")
    await world.seat({"alice": 100, "bob": 100, "chloe": 100})
    await world.slash("alice", "poker start")
    assert world.actor() == "chloe"
    door = Door(world)
    for typed in ("١٤", "1_0", "+12", "８", "16\n", "1.000", "6,0"):
        await door.refuses(
            lambda typed=typed: world.raise_with_button("chloe", typed), f"“{typed}” is not a whole number of chips"
        )
    channel = world.channel.id
    await door.refuses(
        lambda: world.forge_form("chloe", f"poker:amount:raise:{channel}:1", "9" * 5000),
        "That amount is too long: at most 24 characters",
    )
    await door.refuses(lambda: world.raise_with_button("chloe", "1,000"), "You can't go above 100 (all-in)")
    world.speaks("chloe", "fr")
    await door.refuses(
        lambda: world.raise_with_button("chloe", "1,000"), "«\u00a01,000\u00a0» n'est pas un nombre entier de jetons"
    )
    await door.refuses(lambda: world.raise_with_button("chloe", "1 000"), "Tu ne peux pas dépasser 100 (tapis)")
    world.acknowledge_refusals()


async def test_the_amount_autocomplete_answers_any_text_without_a_traceback(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    await world.seat({"alice": 100, "bob": 100})
    await world.slash("alice", "poker start")
    actor = world.member(world.actor())
    suggestions = await actor.autocomplete(world.channel, "raise", "amount", "")
    with caplog.at_level(logging.WARNING):
        for typed in ("9" * 5000, "١٤", "+12", "1_0", "16\n", "８"):
            assert await actor.autocomplete(world.channel, "raise", "amount", typed) == suggestions
        typed = await actor.autocomplete(world.channel, "raise", "amount", "1,000")
    assert typed == [{"name": "1,000", "value": 1000}, *suggestions]
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


# ---------------------------------------------------------------------- item 8: every value gets an answer


async def test_a_refill_on_a_server_that_grants_nothing_is_refused_clearly(world: World) -> None:
    ada = world.member("ada", admin=True)
    granted = await world.slash(ada, "poker-admin settings", starting_grant=0)
    fields = {f.name: f.value for f in granted.response.embeds[0].fields}
    assert fields["Starting chips"] == "0"
    door = Door(world)
    expected = (
        "This server gives no refills: its starting grant is 0 (a member with Manage Server can change it in "
        "`/poker-admin settings`)"
    )
    await door.refuses(lambda: world.slash("zed", "poker refill"), expected)
    assert await world.balance("zed") == 0
    world.acknowledge_refusals()


# ---------------------------------------------------------------------- item 9: custom ids


async def test_a_button_or_form_of_another_channel_is_refused_before_anything_else(world: World) -> None:
    world.decks.queue(["9c4d", "8h3c", "QhQc"], "Kd7s2h5c6h")
    await world.seat({"alice": 100, "bob": 100, "chloe": 100})
    await world.slash("alice", "poker start")
    table = world.channel.id
    other_guild = world.env.create_guild("Elsewhere")
    elsewhere = other_guild.create_text_channel("lobby")
    mallory = other_guild.add_member(world.env.create_user("mallory"))
    same_guild = world.guild.create_text_channel("chat")
    chloe = world.member("chloe")  # to act at the table: her own button, pressed from another channel
    nowhere = table + 12345  # a channel without a table: the answer must be the same
    door = Door(world)
    for who, channel in ((mallory, elsewhere), (chloe, same_guild)):
        for target in (table, nowhere):
            for action in ("call", "fold", "cards", "raise"):
                await door.refuses(
                    lambda who=who, a=action, c=channel, t=target: world.forge_press(
                        who, f"poker:{a}:{t}:1", channel=c
                    ),
                    NOT_HERE,
                )
            await door.refuses(
                lambda who=who, c=channel, t=target: world.forge_form(who, f"poker:amount:raise:{t}:1", "6", channel=c),
                NOT_HERE,
            )
    # A request from another server that names the table's own channel (forged: channel ids are global): the
    # table belongs to this server, so the press is refused the same way.
    for action in ("call", "cards"):
        await door.refuses(
            lambda a=action: world.forge_press(chloe, f"poker:{a}:{table}:1", guild_id=other_guild.id), NOT_HERE
        )
    world.speaks("chloe", "fr")
    await door.refuses(
        lambda: world.forge_press(chloe, f"poker:call:{table}:1", channel=same_guild),
        "Ce bouton ne fonctionne pas ici\u00a0: utilise le message de la table de ce salon",
    )
    world.acknowledge_refusals()


MALFORMED = [
    "poker:call:{channel}",
    "poker:call:{channel}:1:2:3:4",
    "poker:call:" + "9" * 30 + ":1",
    "poker:fold:{channel}:" + "9" * 15,
    "poker:dance:{channel}:1",
    "poker:",
    "poker:call:{channel}:-1",
    "poker:call:{channel}:1x",
    "poker:amount:raise:{channel}",
    "poker:amount:shove:{channel}:1",
    "poker:lb:balance:x:n",
    "poker:lb:chips:0:n",
    "poker:amount:raise:{channel}:1",  # a form's id, pressed as a button
]
BUTTON_IDS = ["poker:fold:{channel}:1", "poker:lb:balance:0:n"]  # submitted as forms


@pytest.mark.parametrize("on_message", [True, False], ids=["button-on-message", "custom-id-only"])
async def test_malformed_poker_custom_ids_get_a_private_answer(world: World, on_message: bool) -> None:
    world.decks.queue(["9c4d", "8h3c", "QhQc"], "Kd7s2h5c6h")
    await world.seat({"alice": 100, "bob": 100, "chloe": 100})
    await world.slash("alice", "poker start")
    door = Door(world)
    for template in MALFORMED:
        custom_id = template.format(channel=world.channel.id)
        await door.refuses(lambda c=custom_id: world.forge_press("chloe", c, on_message=on_message), NOT_VALID)
        if custom_id != f"poker:amount:raise:{world.channel.id}:1":  # the one well-formed form id of the list
            await door.refuses(lambda c=custom_id: world.forge_form("chloe", c, "6"), NOT_VALID)
    for template in BUTTON_IDS:
        custom_id = template.format(channel=world.channel.id)
        await door.refuses(lambda c=custom_id: world.forge_form("chloe", c, "6"), NOT_VALID)
    if not on_message:  # a well-formed button that is not on the message it is pressed on: discord.py drops it
        await door.refuses(
            lambda: world.forge_press("chloe", f"poker:call:{world.channel.id}:1", on_message=False), NOT_VALID
        )
    world.acknowledge_refusals()


async def test_a_well_formed_press_is_answered_once(world: World) -> None:
    world.decks.queue(["9c4d", "8h3c", "QhQc"], "Kd7s2h5c6h")
    await world.seat({"alice": 100, "bob": 100, "chloe": 100})
    await world.slash("alice", "poker start")
    pressed = await world.forge_press("chloe", f"poker:call:{world.channel.id}:1")
    assert pressed.response is not None and pressed.followups == []  # the deferral only: the table message says it
    assert world.actor() == "alice"
    assert ACTION_ID.fullmatch(f"poker:call:{world.channel.id}:1")


# ---------------------------------------------------------------------- item 11: names


async def test_names_with_bidirectional_controls_cannot_forge_public_text(world: World) -> None:
    world.decks.queue(["9c4d", "8h3c", "QhQc"], "Kd7s2h5c6h")
    forger = "\u202eecila\u2066 \u200b"
    mark = len(world.env.http_requests)
    await world.seat({forger: 100, "bob": 100, "chloe": 100})
    await world.slash(forger, "poker start")
    await world.slash("chloe", "fold")
    await world.slash(forger, "fold")
    await world.advance(5)
    texts = world.public_texts(mark)
    assert any("ecila" in text for text in texts)
    assert not [text for text in texts if "\u202e" in text or "\u2066" in text or "ecila\u200b" in text]


# ---------------------------------------------------------------------- item 10: who sees the admin commands


async def test_the_servers_own_commands_are_shown_to_manage_server_only(world: World) -> None:
    admin_commands = {"poker-admin settings", "poker-admin audit"}
    assert admin_commands <= set(world.member("ada", admin=True).available_commands(world.channel))
    assert not admin_commands & set(world.member("bob").available_commands(world.channel))
    assert "poker create" in world.member("bob").available_commands(world.channel)
    registered = world.env.backend.find_command("poker-admin", world.guild.id)
    assert int(registered["default_member_permissions"]) == discord.Permissions(manage_guild=True).value
    # The check in code stays: a server may show the commands to anyone, who is then refused.
    world.guild.set_command_permissions(int(registered["id"]), {world.member("bob"): True})
    await Door(world).refuses(
        lambda: world.slash("bob", "poker-admin settings", starting_grant=5),
        "You need the Manage Server permission for that",
    )
    world.acknowledge_refusals()


async def test_settings_stored_as_floats_before_the_door_fall_back_to_the_defaults(world: World) -> None:
    """A server attacked before the door stored REAL 1e+20 and float table defaults: joins, refills and new
    tables work again, with the bot's defaults in their place."""
    ada = world.member("ada", admin=True)
    await world.slash(ada, "poker-admin settings", refill_cooldown=2)
    with sqlite3.connect(world.settings.database_path) as db:
        defaults = json.dumps({"big_blind": 1e30, "small_blind": 2.5, "starting_stack": 1e20, "turn_timeout": 45.0})
        db.execute(
            "UPDATE guild_settings SET starting_grant = 1e20, table_defaults = ? WHERE guild_id = ?",
            (defaults, world.guild.id),
        )
    shown = await world.slash(ada, "poker-admin settings")
    fields = {f.name: f.value for f in shown.response.embeds[0].fields}
    assert fields["Starting chips"] == "1,000"
    await world.seat({"zoe": None, "yan": None})
    snapshot = world.snapshot()
    assert (snapshot.small_blind, snapshot.big_blind) == (1, 2)
    assert await world.balance("zoe") + world.stacks()["zoe"] == 1000
    with pytest.raises(ValueError, match="whole number"):
        await world.bot.storage.update_guild_settings(world.guild.id, starting_grant=1e20)  # type: ignore[arg-type]
