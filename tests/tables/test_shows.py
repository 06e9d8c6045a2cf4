"""Showing cards by choice after a hand (issue 15), through the table service: who may show (the hand's players
whose cards were not shown at the showdown), one card or both, until the next hand is dealt; stored before it is
told (its public line is an outbox row), in the hand's history, and told once after a restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.poker import ActionKind, PokerError, parse_cards
from bot.poker.events import ShownByChoice
from bot.poker.phh import dump_hand
from bot.storage import Storage
from bot.tables import CardsShown, ManualClock, RecordingNotifier, TableOptions, TableService
from bot.tables.clock import settle
from bot.tables.record import replay
from tests.tables.conftest import (
    ALICE,
    BOB,
    CHANNEL,
    DEFAULTS,
    GUILD,
    HOST,
    NAMES,
    Decks,
    actor,
    deck_for,
    play_to_end_of_hand,
)
from tests.tables.test_outbox import DiscordDown, restarted


async def heads_up(service: TableService, decks: Decks, holes: list[str], board: str = "") -> None:
    """Alice and Bob (100 each, blinds 1/2) are dealt hand 1 from a stacked deck."""
    decks.queue.append(deck_for(holes, board))
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2))
    for user in (ALICE, BOB):
        await service.get(CHANNEL).join(user, NAMES[user])
    await service.get(CHANNEL).start_game(ALICE)
    await settle()


async def refused(code: str, call: object) -> None:
    with pytest.raises(PokerError) as caught:
        await call  # type: ignore[misc]
    assert caught.value.code == code


def shows(notifier: RecordingNotifier) -> list[CardsShown]:
    return [a for a in notifier.announcements if isinstance(a, CardsShown)]


async def test_after_a_fold_both_players_may_show_one_card_or_both_until_the_next_deal(
    service: TableService, notifier: RecordingNotifier, decks: Decks, clock: ManualClock, storage: Storage
) -> None:
    await heads_up(service, decks, ["AsKd", "7c2h"])
    runner = service.get(CHANNEL)
    folder = actor(service)
    assert folder is not None
    winner = ALICE if folder == BOB else BOB
    cards = {user: runner.hole_cards(user) for user in (ALICE, BOB)}
    await refused("show_not_over", runner.cards_to_show(folder, 1))  # rule book 002: not while the hand is played
    await runner.act(folder, ActionKind.FOLD)  # the other wins without a showdown
    assert await runner.cards_to_show(winner, 1) == tuple(enumerate(cards[winner]))
    assert await runner.cards_to_show(folder, 1) == tuple(enumerate(cards[folder]))
    await refused("show_not_dealt", runner.cards_to_show(HOST, 1))

    first = await runner.show_cards(winner, 1, [1])
    assert first == CardsShown(1, winner, NAMES[winner], (cards[winner][1],))
    assert await runner.cards_to_show(winner, 1) == ((0, cards[winner][0]),)  # the other card is still to show
    await runner.show_cards(folder, 1, [0, 1])
    await refused("show_already", runner.show_cards(folder, 1, [0]))
    await refused("cannot_show", runner.show_cards(winner, 1, [2]))  # no third card (a forged press)
    await refused("show_already", runner.cards_to_show(folder, 1))
    await settle()
    await runner.drain()
    assert shows(notifier) == [first, CardsShown(1, folder, NAMES[folder], cards[folder])]
    # /stats counts each player's hand shown once, whether one card or both were shown, in one show or two.
    assert [(await storage.stats(GUILD, user)).hands_shown for user in (winner, folder)] == [1, 1]

    # The shows are the hand's history: stored in its action log, replayed, exported as PHH shows.
    row = await storage.hand_by_number(runner.ids.table_id, 1)
    assert row is not None
    assert [a["kind"] for a in row.actions][-2:] == ["show", "show"]
    hand = replay(row)
    players = {user: row.record["users"].index(user) for user in (ALICE, BOB)}
    assert [e for e in hand.events if isinstance(e, ShownByChoice)] == [
        ShownByChoice(players[winner], (cards[winner][1],)),
        ShownByChoice(players[folder], cards[folder]),
    ]
    assert f"p{players[winner] + 1} sm {cards[winner][1]} # shown by choice" in dump_hand(hand)

    # The next deal ends the pause: the card still hidden stays hidden.
    decks.queue.append(deck_for(["QcQd", "3s4s"]))
    await clock.advance(service.get(CHANNEL).view().options.next_hand_delay + 1)
    await settle()
    assert runner.snapshot().hand_number == 2
    await refused("show_too_late", runner.show_cards(winner, 1, [0]))
    await refused("show_not_over", runner.cards_to_show(winner, 2))
    assert len(shows(notifier)) == 2


async def test_a_hand_shown_at_the_showdown_is_not_shown_again_a_mucked_one_may_be(
    service: TableService, notifier: RecordingNotifier, decks: Decks
) -> None:
    # Checked down: player 0 (kings, a set on the board) shows first; player 1 cannot win and mucks.
    await heads_up(service, decks, ["KhKd", "AhQs"], "Kc9d4s2h7c")
    runner = service.get(CHANNEL)
    users = runner.view().hand_users
    await play_to_end_of_hand(service)
    await settle()
    await refused("show_at_showdown", runner.cards_to_show(users[0], 1))
    assert await runner.cards_to_show(users[1], 1) == tuple(enumerate(parse_cards("AhQs")))
    shown = await runner.show_cards(users[1], 1, [0])
    assert shown.cards == parse_cards("Ah")
    await settle()
    await runner.drain()
    assert shows(notifier) == [shown]


async def test_a_show_stored_but_not_told_is_told_once_after_a_restart_and_the_pause_goes_on(
    decks: Decks, clock: ManualClock, db_path: Path
) -> None:
    down = DiscordDown(down=False)
    storage = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    service = TableService(storage, down, clock=clock, rng_factory=decks)
    try:
        await heads_up(service, decks, ["AsKd", "7c2h"])
        runner = service.get(CHANNEL)
        folder = actor(service)
        assert folder is not None
        await runner.act(folder, ActionKind.FOLD)
        await settle()
        await runner.drain()
        down.down = True  # Discord is unreachable: the line is stored, not told
        shown = await runner.show_cards(folder, 1, [0])
        await settle()
        await runner.drain()
        assert shows(down) == []
    finally:
        await service.close()
        await storage.close()
    up = RecordingNotifier()
    storage, service = await restarted(db_path, clock, up)
    try:
        assert shows(up) == [shown]
        runner = service.get(CHANNEL)
        await runner.show_cards(folder, 1, [1])  # still the pause before hand 2: the other card too
        await settle()
        await runner.drain()
        assert len(shows(up)) == 2 and len(shows(up)[1].cards) == 1 and shows(up)[1].cards != shown.cards
        await refused("show_already", runner.cards_to_show(folder, 1))
    finally:
        await service.close()
        await storage.close()
    again = RecordingNotifier()
    storage, service = await restarted(db_path, clock, again)
    try:
        assert shows(again) == []  # delivered once, never again
    finally:
        await service.close()
        await storage.close()
