"""A learning table (issue 17): a tournament's chips, every hole card face up from the deal, the coach on for
everyone, computer players welcome, no place recorded (nothing on the leaderboard)."""

from __future__ import annotations

from bot.poker import ActionKind
from bot.render import render_table
from bot.render.cards import cards_text
from bot.storage import LeaderboardBy, Storage
from bot.tables import TableOptions, TableService
from tests.tables.conftest import ALICE, BOB, CHANNEL, GUILD, HOST, NAMES, actor

OPTIONS = TableOptions.for_blinds(1, 2, kind="tournament", learning=True, computer_delay=0)


async def test_a_learning_table_deals_face_up_with_the_coach_on_and_ranks_nobody(
    service: TableService, storage: Storage
) -> None:
    await service.create_table(GUILD, CHANNEL, HOST, OPTIONS)
    await service.get(CHANNEL).join(ALICE, NAMES[ALICE])
    await service.get(CHANNEL).join(BOB, NAMES[BOB])
    assert [r for r in await storage.ledger(GUILD) if r.table_id is not None] == []  # nothing taken from balances
    assert await storage.balance(GUILD, ALICE) == 1000
    await service.get(CHANNEL).start_game(HOST)
    snap = service.get(CHANNEL).snapshot()
    runner = service.get(CHANNEL)
    for seat in snap.seats:
        assert seat.cards == runner.hole_cards(seat.user_id) and len(seat.cards) == 2  # public from the deal
    description = render_table(snap, "en").description
    for seat in snap.seats:
        assert cards_text(seat.cards) in description  # the table message shows them
    first = actor(service)
    assert first is not None
    facts = runner.coach_facts(first)
    assert facts is not None and facts.odds.trials > 0  # the coach is on for everyone
    await service.get(CHANNEL).set_coach(first, False)
    assert runner.coach_facts(first) is None
    await service.get(CHANNEL).act(first, ActionKind.ALL_IN)
    second = actor(service)
    assert second is not None
    await service.get(CHANNEL).act(second, ActionKind.CALL)
    await runner.drain()
    assert await storage.places(runner.ids.table_id) == {}  # nobody ranked, even when a player busts
    page = await storage.leaderboard(GUILD, by=LeaderboardBy.TOURNAMENT_WINS)
    assert page.rows == ()
