"""Live all-in odds on the street messages of a run-out (issue 15), through the table service."""

from __future__ import annotations

from bot.poker import ActionKind, Street
from bot.render import cards_text, render_street
from bot.tables import RecordingNotifier, StreetAnnouncement, TableOptions, TableService
from bot.tables.clock import settle
from tests.tables.conftest import ALICE, BOB, CHANNEL, GUILD, HOST, NAMES, Decks, actor, deck_for
from tests.tables.test_shows import heads_up


async def all_in_and_call(service: TableService, notifier: RecordingNotifier) -> list[StreetAnnouncement]:
    """The player to act moves all-in, the other calls; every street announcement of the hand, in order."""
    await service.get(CHANNEL).act(actor(service), ActionKind.ALL_IN)
    await service.get(CHANNEL).act(actor(service), ActionKind.CALL)
    await settle()
    await service.get(CHANNEL).drain()
    return [a for a in notifier.announcements if isinstance(a, StreetAnnouncement)]


async def test_an_all_in_called_before_the_flop_shows_the_exact_preflop_odds_first(
    service: TableService, notifier: RecordingNotifier, decks: Decks
) -> None:
    await heads_up(service, decks, ["AsAh", "KsKh"], "2c7d9hJd3s")
    announced = await all_in_and_call(service, notifier)
    assert [(a.street, a.face_up) for a in announced] == [
        (Street.PREFLOP, True),  # was: the odds started at the flop
        (Street.FLOP, False),
        (Street.TURN, False),
        (Street.RIVER, False),
    ]
    closed = announced[0]
    assert (closed.cards, closed.board) == ((), ())
    assert closed.odds is not None and closed.odds.exact and closed.odds.runouts == 1_712_304  # C(48, 5) boards
    (pot,) = closed.odds.pots
    aces = next(i for i, cards in enumerate(closed.faces) if "As" in {str(c) for c in cards})
    assert round(pot.of(aces).win, 4) == 0.8236  # A♠A♥ v K♠K♥: 82.36% (every board counted)
    english = render_street(closed, "en")
    assert english.splitlines()[:2] == [
        "**All-in before the flop** · Pot: 200",
        "Cards face up · chances over every run-out:",
    ]
    assert f"{closed.names[aces]} {cards_text(closed.faces[aces])}: 82.4% to win" in english
    french = render_street(closed, "fr").replace("\u00a0", " ").replace("\u202f", " ")
    assert french.splitlines()[:2] == [
        "**Tapis avant le flop** · Pot : 200",
        "Cartes retournées · chances sur tous les tirages :",
    ]
    assert "82,4 % de gagner" in french
    assert all(a.odds is not None for a in announced[1:3]) and announced[3].odds is None


async def test_an_all_in_called_on_the_turn_shows_the_odds_over_the_river(
    service: TableService, notifier: RecordingNotifier, decks: Decks
) -> None:
    """Found with the preflop odds: an all-in on the turn never showed any (the river's message has none)."""
    await heads_up(service, decks, ["AsAh", "KsKh"], "2c7d9hKd3s")
    for kind in (ActionKind.CALL, ActionKind.CHECK, ActionKind.CHECK, ActionKind.CHECK):  # preflop, flop
        await service.get(CHANNEL).act(actor(service), kind)
    assert service.get(CHANNEL).snapshot().street == Street.TURN
    announced = await all_in_and_call(service, notifier)
    assert [(a.street, a.face_up) for a in announced] == [
        (Street.FLOP, False),
        (Street.TURN, False),
        (Street.TURN, True),
        (Street.RIVER, False),
    ]
    closed = announced[2]
    assert closed.odds is not None and closed.odds.exact and closed.odds.runouts == 44
    kings = next(i for i, cards in enumerate(closed.faces) if "Ks" in {str(c) for c in cards})
    assert round(closed.odds.pots[0].of(kings).win * 44) == 42  # the set of kings: all but the two aces left
    english = render_street(closed, "en")
    assert english.startswith(f"**All-in on the turn** · Board: {cards_text(closed.board)} · Pot: 200\n")
    french = render_street(closed, "fr").replace("\u00a0", " ")
    assert french.startswith(f"**Tapis au tournant** · Tableau : {cards_text(closed.board)} · Pot : 200\n")


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
    announced = [a for a in notifier.announcements if isinstance(a, StreetAnnouncement)]
    streets = {a.street: a for a in announced if not a.face_up}
    assert streets[Street.FLOP].odds is None  # dealt while the betting was open
    # Where the betting closed (on the flop), the hands are turned face up with the odds over the turn and river.
    (closed,) = [a for a in announced if a.face_up]
    assert (closed.street, closed.cards, len(closed.board)) == (Street.FLOP, (), 3)
    assert closed.odds is not None and closed.odds.exact and closed.odds.runouts == 990
    assert announced.index(closed) < announced.index(streets[Street.TURN])
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
