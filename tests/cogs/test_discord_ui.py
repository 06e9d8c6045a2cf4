"""The Discord layer's parts on their own, with `spec_set` fakes of discord.py classes: the error path (language,
already-answered interactions, bugs with a reference), the notifier's closed-DM answer, Discord's limits by
construction, table settings from a server's defaults, the PHH mask, and the translated command texts."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any
from unittest.mock import MagicMock, create_autospec

import discord
import pytest

from bot.discord_ui.errors import CommandRefused, handle_interaction_error
from bot.discord_ui.history import phh_for
from bot.discord_ui.notifier import DiscordNotifier
from bot.discord_ui.table_settings import changed_defaults, table_language, table_options
from bot.discord_ui.table_view import ACTION_ID, table_payload
from bot.poker import ActionKind, Hand, HandSettings, InvalidAmountError, LegalActions, full_deck, parse_cards
from bot.render import t
from bot.storage import GuildSettings
from bot.tables import SeatView, ServiceError, TableSnapshot
from tests.cogs.conftest import World

SERVER_DEFAULTS = {
    "small_blind": 1,
    "big_blind": 2,
    "starting_stack": 100,
    "turn_timeout": 60,
    "min_buy_in": 40,
    "max_buy_in": 100,
}


def fake_interaction(
    locale: discord.Locale = discord.Locale.american_english,
    *,
    done: bool = False,
    kind: discord.InteractionType = discord.InteractionType.application_command,
) -> Any:
    interaction = create_autospec(discord.Interaction, instance=True, spec_set=True)
    response = create_autospec(discord.InteractionResponse, instance=True, spec_set=True)
    response.is_done.return_value = done
    interaction.response = response
    interaction.followup = create_autospec(discord.Webhook, instance=True, spec_set=True)
    interaction.locale = locale
    interaction.type = kind
    interaction.command = None
    interaction.data = {"custom_id": "poker:fold:1:1"}
    interaction.id = 99
    interaction.user = create_autospec(discord.Member, instance=True, spec_set=True)
    interaction.user.id = 7
    return interaction


def sent_text(interaction: Any) -> str:
    target = interaction.followup.send if interaction.response.is_done() else interaction.response.send_message
    target.assert_awaited_once()
    kwargs = target.await_args.kwargs
    assert kwargs["ephemeral"] is True
    return kwargs["content"]


async def test_a_refusal_is_answered_privately_in_the_users_language() -> None:
    french = fake_interaction(discord.Locale.french)
    await handle_interaction_error(french, InvalidAmountError("min_raise", amount=1000))
    assert sent_text(french) == "Relance minimum\u00a0: 1\u202f000"
    english = fake_interaction()
    await handle_interaction_error(english, ServiceError("table_full", seats=6))
    assert sent_text(english) == "The table is full (6 seats)"


async def test_an_answered_interaction_gets_a_follow_up_and_a_failed_answer_is_only_logged() -> None:
    deferred = fake_interaction(done=True)
    await handle_interaction_error(deferred, CommandRefused("cannot_kick_self"))
    assert sent_text(deferred) == "Use `/poker leave` to leave the table yourself"
    deferred.response.send_message.assert_not_awaited()

    expired = fake_interaction()
    response = MagicMock(status=404, reason="Not Found")
    expired.response.send_message.side_effect = discord.NotFound(response, {"code": 10062, "message": "Unknown"})
    await handle_interaction_error(expired, ServiceError("no_table"))  # does not raise

    typing = fake_interaction(kind=discord.InteractionType.autocomplete)
    await handle_interaction_error(typing, ValueError("boom"))
    typing.response.send_message.assert_not_awaited()


async def test_a_bug_is_logged_with_a_reference_the_user_sees(caplog: pytest.LogCaptureFixture) -> None:
    interaction = fake_interaction()
    with caplog.at_level(logging.ERROR, logger="bot.discord_ui.errors"):
        await handle_interaction_error(interaction, KeyError("oops"))
    text = sent_text(interaction)
    reference = re.fullmatch(r"Something went wrong \(reference ([0-9a-f]{8})\)", text)
    assert reference is not None, text
    assert reference[1] in caplog.text and "KeyError" in caplog.text


def snapshot(**changes: Any) -> TableSnapshot:
    seats = tuple(
        SeatView(
            seat=n,
            user_id=1000 + n,
            name="N" * 32 + str(n),
            stack=123_456,
            bet=7_890,
            state="active",
            is_button=n == 10,
            is_actor=n == 3,
            leaving=False,
            player=n - 1,
        )
        for n in range(1, 11)
    )
    legal = LegalActions(
        player=2,
        can_fold=True,
        can_check=False,
        can_call=True,
        call_amount=7_890,
        can_bet=False,
        can_raise=True,
        min_raise_to=15_780,
        max_raise_to=131_346,
        can_all_in=True,
        all_in_to=131_346,
    )
    values: dict[str, Any] = {
        "table_id": 1,
        "guild_id": 2**63 - 1,
        "channel_id": 2**64 - 1,
        "host_id": 3,
        "kind": "cash",
        "language": "fr",
        "hand_number": 2**31,
        "small_blind": 500,
        "big_blind": 1000,
        "ante": 100,
        "seats": seats,
        "board": parse_cards("AhKd7c"),
        "street": 1,
        "actor_user_id": 1003,
        "deadline": 1_800_000_060.0,
        "legal": legal,
    }
    values.update(changes)
    return TableSnapshot(**values)


def test_the_table_message_respects_discords_limits_by_construction() -> None:
    payload = table_payload(snapshot(), "#" + "x" * 100)
    (embed,) = (discord.Embed.from_dict(data) for data in payload["embeds"])
    assert len(embed) <= 6000 and len(embed.description or "") <= 4096
    (row,) = payload["components"]
    assert row["type"] == discord.ComponentType.action_row.value and len(row["components"]) <= 5
    labels = [button["label"] for button in row["components"]]
    assert labels == ["Se coucher", "Suivre 7\u202f890", "Relancer…", "Tapis 131\u202f346", "Mes cartes"]
    styles = [discord.ButtonStyle(button["style"]) for button in row["components"]]
    assert styles[0] is discord.ButtonStyle.danger and styles[1] is discord.ButtonStyle.primary
    pattern = re.compile(ACTION_ID.pattern)
    for button in row["components"]:
        assert button["type"] == discord.ComponentType.button.value
        assert len(button["custom_id"]) <= 100 and pattern.fullmatch(button["custom_id"]), button
    between_hands = table_payload(snapshot(street=None, legal=None, actor_user_id=None))
    assert between_hands["components"] == []  # the edit removes the buttons


async def test_closed_dms_make_the_notifier_answer_false_and_never_raise() -> None:
    client = create_autospec(discord.Client, instance=True, spec_set=True)
    dm = create_autospec(discord.DMChannel, instance=True, spec_set=True)
    dm.id = 555
    client.create_dm.return_value = dm
    channel = create_autospec(discord.PartialMessageable, instance=True, spec_set=True)
    client.get_partial_messageable.return_value = channel
    response = MagicMock(status=403, reason="Forbidden")
    refused = {"code": 50007, "message": "Cannot send messages to this user"}
    channel.send.side_effect = discord.Forbidden(response, refused)
    notifier = DiscordNotifier(client)
    assert await notifier.send_hole_cards(snapshot(), 1003, parse_cards("AsAc")) is False
    channel.send.side_effect = None
    notifier.people.remember(MagicMock(id=1003, display_name="ann"), "fr")
    assert await notifier.send_hole_cards(snapshot(), 1003, parse_cards("AsAc")) is True
    content = channel.send.await_args.args[0]
    assert content == f"Tes cartes pour la donne n° {2**31} à <#{2**64 - 1}>\u00a0: **A♠\ufe0e A♣\ufe0e**"
    client.create_dm.assert_awaited_once()  # the DM channel is remembered


async def test_dms_to_a_player_whose_dm_channel_is_being_opened_wait_for_that_one_request() -> None:
    """Opening DM channels is one Discord bucket for the whole bot, one request at a time: a hand's DMs no longer
    wait for the table's earlier ones (`Delivery.queue_together`'s hold), so a player's next DM can come while
    their channel is still being opened; it must not ask for it again (931 openings for 600 players in a load
    run, each one more in that line). Fails on the old code: two requests."""
    client = create_autospec(discord.Client, instance=True, spec_set=True)
    dm = create_autospec(discord.DMChannel, instance=True, spec_set=True)
    dm.id = 555
    opened = asyncio.Event()

    async def create_dm(user: Any) -> Any:
        await opened.wait()
        return dm

    client.create_dm.side_effect = create_dm
    channel = create_autospec(discord.PartialMessageable, instance=True, spec_set=True)
    client.get_partial_messageable.return_value = channel
    notifier = DiscordNotifier(client)
    first = asyncio.ensure_future(notifier.send_hole_cards(snapshot(), 1003, parse_cards("AsAc")))
    second = asyncio.ensure_future(notifier.send_hole_cards(snapshot(hand_number=7), 1003, parse_cards("KsKc")))
    for _ in range(5):
        await asyncio.sleep(0)
    opened.set()
    assert await first is True and await second is True
    assert client.create_dm.await_count == 1
    assert channel.send.await_count == 2
    client.get_partial_messageable.assert_called_with(555, type=discord.ChannelType.private)


def test_table_options_follow_the_servers_defaults_scaled_to_the_blinds() -> None:
    default = table_options(SERVER_DEFAULTS)
    assert (default.small_blind, default.big_blind, default.buy_in, default.min_buy_in, default.max_buy_in) == (
        1,
        2,
        100,
        40,
        100,
    )
    bigger = table_options(SERVER_DEFAULTS, big_blind=10)
    assert (bigger.small_blind, bigger.min_buy_in, bigger.max_buy_in, bigger.buy_in) == (5, 200, 500, 500)
    deep = table_options(SERVER_DEFAULTS, stack=300)
    assert (deep.buy_in, deep.max_buy_in, deep.min_buy_in) == (300, 300, 40)
    tournament = table_options(SERVER_DEFAULTS, kind="tournament", stack=50, seats=6, timer=20)
    assert (tournament.starting_stack, tournament.seats, tournament.turn_timeout) == (50, 6, 20)
    with pytest.raises(ServiceError) as refused:
        table_options(SERVER_DEFAULTS, small_blind=5, big_blind=2)
    assert refused.value.code == "bad_option" and refused.value.params["option"] == "small_blind"


def test_new_default_blinds_scale_the_stored_stacks() -> None:
    assert changed_defaults(SERVER_DEFAULTS, big_blind=4) == {
        "small_blind": 2,
        "big_blind": 4,
        "min_buy_in": 80,
        "max_buy_in": 200,
        "starting_stack": 200,
    }
    assert changed_defaults(SERVER_DEFAULTS, timer=30, stack=80) == {"starting_stack": 80, "turn_timeout": 30}
    assert changed_defaults(SERVER_DEFAULTS) == {}
    with pytest.raises(ServiceError):
        changed_defaults(SERVER_DEFAULTS, stack=1)  # below the big blind


def test_a_new_tables_language_is_the_servers_choice_else_its_discord_locale() -> None:
    default = GuildSettings(1, "en", 1000, 86400, {})
    assert table_language(default, discord.Locale.french) == "fr"
    assert table_language(default, discord.Locale.german) == "en"
    assert table_language(GuildSettings(1, "fr", 1000, 86400, {}, "fr"), discord.Locale.american_english) == "fr"
    # A server that chose English keeps it, though English is the bot's default (was: French, its locale).
    assert table_language(GuildSettings(1, "en", 1000, 86400, {}, "en"), discord.Locale.french) == "en"


def test_the_phh_file_hides_the_hole_cards_nobody_showed() -> None:
    first = parse_cards("AhQsKdQc")  # dealt one card at a time: player 0 gets A♥ K♦, player 1 Q♠ Q♣
    order = [*first, *(c for c in full_deck() if c not in first)]
    hand = Hand(HandSettings(), [100, 100], deck=order)
    hand.act(ActionKind.FOLD)  # heads-up: player 1 (button) acts first and folds
    text = phh_for(hand, viewer=0, players=["ann", "ben"], number=3)
    assert '"d dh p1 AhKd"' in text and '"d dh p2 ????"' in text
    assert "Qs" not in text and "Qc" not in text and 'players = ["ann", "ben"]' in text
    assert '"d dh p1 ????"' in phh_for(hand, viewer=None)


async def test_command_texts_are_translated_into_french_for_discord(world: World) -> None:
    synced = world.env.backend.find_command("raise", None, type=1)
    assert synced["description_localizations"]["fr"] == t("cmd.raise.desc", "fr")
    amount = synced["options"][0]
    assert amount["name"] == "amount"
    assert amount["description"] == "The total you raise TO this round (not the amount added)"
    assert amount["description_localizations"]["fr"] == t("cmd.raise.opt.amount.desc", "fr")
    poker = world.env.backend.find_command("poker", None, type=1)
    create = next(o for o in poker["options"] if o["name"] == "create")
    kind = next(o for o in create["options"] if o["name"] == "kind")
    french = [c["name_localizations"]["fr"] for c in kind["choices"]]
    assert french == [t("choice.cash", "fr"), t("choice.tournament", "fr"), t("choice.learning", "fr")]


def test_action_button_ids_carry_the_amount_they_name_and_old_ids_still_parse() -> None:
    from bot.discord_ui.table_view import button_amount, custom_id

    template = ACTION_ID
    widest = custom_id("all_in", 2**64 - 1, 2**31 - 1, 10**12 - 1)
    assert len(widest) <= 100 and template.fullmatch(widest)["amount"] == str(10**12 - 1)
    old = template.fullmatch("poker:call:123:4")
    assert old is not None and old["amount"] is None  # a message posted before the change keeps working
    legal = LegalActions(0, True, False, True, 19, False, True, 40, 100, True, 100)
    assert custom_id("call", 1, 2, button_amount("call", legal)) == "poker:call:1:2:19"
    assert button_amount("all_in", legal) == 100 and button_amount("fold", legal) is None
