"""Live all-in odds on the street messages of a run-out (issue 15), through the table service."""

from __future__ import annotations

from bot.poker import ActionKind, Street
from bot.render import cards_text, render_street
from bot.tables import RecordingNotifier, StreetAnnouncement, TableOptions, TableService
from bot.tables.clock import settle
from tests.tables.conftest import ALICE, BOB, CHANNEL, GUILD, HOST, NAMES, Decks, actor, deck_for


async def test_an_all_in_on_the_flop_turns_the_hands_up_with_exact_odds_on_the_turn(
    service: TableService, notifier: RecordingNotifier, decks: Decks
) -> None:
    decks.queue.append(deck_for(["AsAh", "KsKh"], "2c7d9hKd3s"))
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    for user in (ALICE, BOB):
        await service.get(CHANNEL).join(user, NAMES[user])
    await service.get(CHANNEL).start_game(ALICE)
    await settle()
    first = actor(service)
    assert first is not None
    await service.get(CHANNEL).act(first, ActionKind.CALL)
    await service.get(CHANNEL).act(actor(service), ActionKind.CHECK)
    await service.get(CHANNEL).act(actor(service), ActionKind.ALL_IN)
    await service.get(CHANNEL).act(actor(service), ActionKind.CALL)
    await settle()
    await service.get(CHANNEL).drain()
    streets = {a.street: a for a in notifier.announcements if isinstance(a, StreetAnnouncement)}
    assert streets[Street.FLOP].odds is None  # dealt while the betting was open
    assert streets[Street.RIVER].odds is None  # the showdown tells the rest
    turn = streets[Street.TURN]
    assert turn.odds is not None and turn.odds.exact and turn.odds.runouts == 44
    (pot,) = turn.odds.pots
    assert pot.players == (0, 1)
    # The kings made a set on the turn: the aces win only on the two aces left (2 of 44).
    kings = next(i for i, cards in enumerate(turn.faces) if "Ks" in {str(c) for c in cards})
    assert round(pot.of(kings).win * 44) == 42 and round(pot.of(1 - kings).win * 44) == 2
    english = render_street(turn, "en")
    assert "chances over every run-out" in english
    assert f"{turn.names[kings]} {cards_text(turn.faces[kings])}: 95.5% to win" in english
    french = render_street(turn, "fr")
    assert "de gagner" in french and "95,5" in french
