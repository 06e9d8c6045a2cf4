"""The slash-command translator (bot/discord_ui/translator.py): French descriptions, option names and choices
from the catalogues; command names stay English."""

import logging

import discord
from discord import app_commands

from bot.discord_ui.translator import CatalogueTranslator
from bot.render import t


def _tree() -> app_commands.CommandTree:
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)
    poker = app_commands.Group(name="poker", description=t("cmd.poker.desc", "en"))

    @poker.command(name="create", description=t("cmd.poker.create.desc", "en"))
    @app_commands.describe(seats=t("cmd.poker.create.opt.seats.desc", "en"))
    @app_commands.choices(
        kind=[
            app_commands.Choice(name=t("choice.cash", "en"), value="cash"),
            app_commands.Choice(name=t("choice.tournament", "en"), value="tournament"),
        ]
    )
    async def create(interaction: discord.Interaction, kind: str, seats: app_commands.Range[int, 2, 10] = 10):
        pass

    @app_commands.command(name="raise", description=t("cmd.raise.desc", "en"))
    @app_commands.describe(amount=t("cmd.raise.opt.amount.desc", "en"))
    async def raise_(interaction: discord.Interaction, amount: app_commands.Range[int, 1]):
        pass

    @app_commands.command(name="mystery", description="Not in the catalogues")
    async def mystery(interaction: discord.Interaction, thing: int):
        pass

    tree.add_command(poker)
    tree.add_command(raise_)
    tree.add_command(mystery)
    return tree


async def _payloads():
    tree = _tree()
    translator = CatalogueTranslator()
    return {cmd.name: await cmd.get_translated_payload(tree, translator) for cmd in tree.get_commands()}


async def test_french_descriptions_option_names_and_choices_come_from_the_catalogue():
    payloads = await _payloads()
    raise_ = payloads["raise"]
    assert raise_["name"] == "raise"
    assert raise_["name_localizations"] == {}  # command names stay English
    assert raise_["description"] == "Raise TO a total for this round"
    assert raise_["description_localizations"] == {"fr": "Relancer JUSQU'À un total pour ce tour"}
    amount = raise_["options"][0]
    assert amount["name"] == "amount"
    assert amount["name_localizations"] == {"fr": "montant"}
    assert amount["description_localizations"]["fr"].startswith("Le total de ta mise dans ce tour")
    assert "en-US" not in amount["description_localizations"]

    poker = payloads["poker"]
    assert poker["description_localizations"] == {"fr": "Tables de Texas hold'em dans ce salon"}
    create = poker["options"][0]
    assert create["name_localizations"] == {}
    assert create["description_localizations"]["fr"] == "Ouvrir une table de hold'em sans limite dans ce salon"
    kind, seats = create["options"]
    assert kind["name_localizations"] == {"fr": "type"}
    assert [c["name_localizations"] for c in kind["choices"]] == [{"fr": "Partie libre"}, {"fr": "Tournoi amical"}]
    assert seats["name_localizations"] == {"fr": "places"}
    assert seats["description_localizations"] == {"fr": "Nombre de places, de 2 à 10"}


async def test_strings_missing_from_the_catalogue_keep_english_and_are_logged_once(caplog):
    with caplog.at_level(logging.WARNING, logger="bot.discord_ui.translator"):
        payloads = await _payloads()
    mystery = payloads["mystery"]
    assert mystery["description_localizations"] == {}
    assert "name_localizations" not in mystery["options"][0]
    messages = [r.getMessage() for r in caplog.records]
    assert sum("cmd.mystery.desc" in m for m in messages) == 1
    assert sum("cmd.mystery.opt.thing.name" in m for m in messages) == 1


async def test_an_explicit_key_overrides_the_derived_one():
    translator = CatalogueTranslator()
    string = app_commands.locale_str("Fold", key="button.fold")
    context = app_commands.TranslationContext(app_commands.TranslationContextLocation.other, None)
    assert await translator.translate(string, discord.Locale.french, context) == "Se coucher"
    assert await translator.translate(string, discord.Locale.american_english, context) is None
