"""The limits a table's options keep wherever they are set (`/poker create`, `/poker schedule`): what the rule books
allow is accepted, anything else gets a private refusal in the reader's language and opens or changes nothing."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.poker import TableKind
from bot.tables import TableOptions
from bot.tables.errors import ServiceError
from tests.cogs.conftest import World


async def test_an_ante_above_the_big_blind_is_refused_in_both_languages(world: World) -> None:
    """Rule book 002: antes are "petites contributions de chaque joueur"; at most the big blind here."""
    refused = await world.slash("alice", "poker create", big_blind=2, ante=3)
    assert refused.response.ephemeral
    assert refused.response.content == "Invalid setting ante: allowed is 0 to the big blind (2)"
    world.speaks("bob", "fr")
    refused = await world.slash("bob", "poker create", small_blind=5, big_blind=10, ante=11)
    assert refused.response.ephemeral
    assert refused.response.content == "Réglage ante invalide\u00a0: valeurs permises de 0 à la grosse blind (10)"
    assert world.channel.id not in world.service.runners
    opened = await world.slash("alice", "poker create", big_blind=2, ante=2)  # the big blind itself is allowed
    assert not opened.response.ephemeral
    assert "Blinds 1/2 · ante 2" in world.table_message().embeds[0].description
    world.acknowledge_refusals()


async def test_a_blind_level_whose_ante_is_above_its_big_blind_is_refused(world: World) -> None:
    await world.seat({"alice": None, "bob": None}, kind="tournament", stack=100)
    refused = await world.slash("alice", "poker schedule", levels="1/2, 5/10/11")
    assert refused.response.ephemeral
    assert refused.response.content == (
        "Invalid setting levels: allowed is levels of small blind ≤ big blind, ante from 0 to the big blind"
    )
    world.speaks("alice", "fr")
    refused = await world.slash("alice", "poker schedule", levels="1/2, 5/10/11")
    assert refused.response.content == (
        "Réglage niveaux invalide\u00a0: valeurs permises des niveaux petite blind ≤ grosse blind, "
        "ante de 0 à la grosse blind"
    )
    assert world.service.get(world.channel.id).view().options.blind_levels == ()
    agreed = await world.slash("alice", "poker schedule", levels="1/2, 5/10/10")
    assert not agreed.response.ephemeral
    assert world.service.get(world.channel.id).view().options.blind_levels == ((1, 2, 0), (5, 10, 10))
    world.acknowledge_refusals()


def test_a_big_blind_ante_may_exceed_the_big_blind_but_not_go_below_zero() -> None:
    """Rule book 002 names the big blind ante ("posté par la BB") and no size: it stands for everyone's ante."""
    assert TableOptions.for_blinds(1, 2, big_blind_ante=6).big_blind_ante == 6
    with pytest.raises(ServiceError) as refused:
        TableOptions.for_blinds(1, 2, big_blind_ante=-1)
    assert refused.value.params["option"] == "big_blind_ante"
    with pytest.raises(ServiceError) as refused:
        TableOptions.for_blinds(1, 2, ante=-1)
    assert refused.value.params["option"] == "ante"


async def test_a_buy_in_limit_given_to_a_tournament_is_refused_as_a_cash_tables_setting(world: World) -> None:
    refused = await world.slash("alice", "poker create", kind="tournament", stack=200, max_buy_in=200)
    assert refused.response.ephemeral
    assert refused.response.content == ("max_buy_in is a setting of cash tables only")
    world.speaks("bob", "fr")
    refused = await world.slash("bob", "poker create", kind="learning", min_buy_in=10)
    assert refused.response.content == ("cave_min ne se règle qu'aux parties libres")
    assert world.channel.id not in world.service.runners
    opened = await world.slash("alice", "poker create", kind="cash", min_buy_in=10, max_buy_in=200)
    assert not opened.response.ephemeral  # the same limits open a cash table
    assert world.service.get(world.channel.id).view().options.min_buy_in == 10
    world.acknowledge_refusals()


def test_a_tournaments_options_are_not_held_to_a_cash_tables_buy_in_range() -> None:
    """A tournament never reads its buy-in fields (everyone sits with `starting_stack`): at blinds 500/1,000 the
    default buy-in range of 40 to 100 is below the big blind, refused at a cash table only."""
    tournament = TableOptions(kind=TableKind.TOURNAMENT, small_blind=500, big_blind=1000, starting_stack=50_000)
    assert tournament.validated().starting_stack == 50_000
    assert tournament.with_changes(blind_levels=((500, 1000, 0), (1000, 2000, 100)), level_length=5).blind_levels
    with pytest.raises(ServiceError) as refused:
        replace(tournament, kind=TableKind.CASH).validated()
    assert refused.value.params["option"] == "min_buy_in"
