"""Cards shown by choice after a hand (issue 15) in storage: appended to the finished hand's action log with the
messages they owe, in one transaction, and only until the table's next hand is dealt."""

from __future__ import annotations

import pytest

from bot.storage import HandNotFound, Storage, TableNotFound
from tests.storage.conftest import GUILD
from tests.storage.test_tables_hands import RECORD, SEATS, two_player_table

SHOW = {"player": 1, "kind": "show", "cards": ["Ah"], "at": 5.0, "by": "player"}


async def test_a_show_is_appended_to_the_finished_hand_with_its_message(store: Storage) -> None:
    table = await two_player_table(store)
    hand = await store.start_hand(table, 1, RECORD, SEATS)
    await store.append_action(hand, {"player": 0, "kind": "fold"})
    await store.finish_hand(hand, {}, {1: 100, 4: 100})
    row = {"key": "oshow1", "payload": {"type": "shown", "hand_number": 1}}
    assert await store.show_cards(hand, SHOW, player=1, outbox=[row]) == 1
    assert await store.show_cards(hand, {**SHOW, "cards": ["Kd"]}, player=1) == 2
    stored = await store.hand(hand)
    assert stored is not None and stored.actions[1:] == (SHOW, {**SHOW, "cards": ["Kd"]})
    assert [(r.key, r.payload) for r in await store.pending_outbox(table)] == [("oshow1", row["payload"])]


async def test_a_show_counts_the_hand_shown_once_for_its_player_in_the_standings(store: Storage) -> None:
    table = await two_player_table(store)
    hand = await store.start_hand(table, 1, RECORD, SEATS)
    await store.append_action(hand, {"player": 0, "kind": "fold"})
    await store.finish_hand(hand, {}, {1: 99, 4: 101})
    stored = await store.hand(hand)
    assert stored is not None
    users = [p.user_id for p in stored.players]  # by player index
    assert [(await store.stats(GUILD, user)).hands_shown for user in users] == [0, 0]
    await store.show_cards(hand, SHOW, player=1)
    await store.show_cards(hand, {**SHOW, "cards": ["Kd"]}, player=1)  # the other card: the same hand shown
    assert [(await store.stats(GUILD, user)).hands_shown for user in users] == [0, 1]


async def test_a_show_is_refused_on_an_unfinished_hand_after_the_next_deal_and_at_a_closed_table(
    store: Storage,
) -> None:
    table = await two_player_table(store)
    hand = await store.start_hand(table, 1, RECORD, SEATS)
    with pytest.raises(HandNotFound):  # not over yet
        await store.show_cards(hand, SHOW, player=1, outbox=[{"key": "o1", "payload": {}}])
    await store.finish_hand(hand, {}, {1: 100, 4: 100})
    second = await store.start_hand(table, 2, RECORD, SEATS)
    with pytest.raises(HandNotFound):  # the next hand is dealt
        await store.show_cards(hand, SHOW, player=1, outbox=[{"key": "o2", "payload": {}}])
    await store.finish_hand(second, {}, {1: 100, 4: 100})
    await store.close_table(table)
    with pytest.raises(TableNotFound):
        await store.show_cards(second, SHOW, player=1, outbox=[{"key": "o3", "payload": {}}])
    with pytest.raises(HandNotFound):
        await store.show_cards(9999, SHOW, player=1)
    for number in (1, 2):
        found = await store.hand_by_number(table, number)
        assert found is not None and found.actions == ()
    assert await store.pending_outbox(table) == []
