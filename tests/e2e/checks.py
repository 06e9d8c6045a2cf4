"""Checks shared by the end-to-end tests: what the channel showed, hand by hand, against what the bot stored.

A spectator's view (tests/e2e/spectator.py) is compared with the hands read back from the database and
replayed by the engine (tests/e2e/records.py), and the players' moves (tests/e2e/driver.py) with the actions
stored: none lost, none doubled, none out of order.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.storage import HandRow

from .driver import Game
from .records import hand_state, public_lines, replay
from .spectator import hand_log, parse_table


def assert_moves_stored_once(game: Game, hands: list[HandRow], names: Mapping[int, str]) -> None:
    """Every move the players made is stored exactly once, in order, with its amount; nothing else is stored."""
    stored = [(h.number, names[u], kind, amount) for h in hands for u, kind, amount in hand_state(h).actions]
    made = [(m.hand, m.name, m.action, m.amount) for m in game.moves]
    assert [s[:3] for s in stored] == [m[:3] for m in made]
    for s, m in zip(stored, made, strict=True):
        assert m[3] is None or s[3] == m[3], (s, m)


def assert_channel_shows_stored_hands(game: Game, hands: list[HandRow], names: Mapping[int, str]) -> None:
    """Hand by hand, the channel as a spectator saw it is the engine's replay of the stored hand: one table
    message per hand whose first picture has the starting stacks (after blinds), whose "Last actions" over its
    edits are the replay's lines in order (every action but the hand's last, which ends it, was shown once),
    each street announced once with the replay's board, and one result message."""
    spectator = game.spectator
    tables, results, streets = spectator.hand_messages(), spectator.results(), spectator.streets()
    assert sorted(tables) == [h.number for h in hands], "one table message per stored hand"
    for h in hands:
        hand = replay(h)
        assert hand.is_complete and list(hand.stacks) == h.result["finishing_stacks"]
        users = [names[int(u)] for u in h.record["users"]]
        dealt = parse_table(tables[h.number], tables[h.number].versions[0])
        assert {n: dealt.seats[n].stack + dealt.seats[n].bet for n in users} == dict(
            zip(users, hand.starting_stacks, strict=True)
        ), f"hand #{h.number}: the first picture shows other stacks"
        expected = public_lines(h, names)
        seen = hand_log(tables[h.number])
        assert seen == [line for line, _ in expected[: len(seen)]], f"hand #{h.number}: the table showed other events"
        shown_actions = sum(1 for _, acted in expected[: len(seen)] if acted)
        assert shown_actions >= len(h.actions) - 1, f"hand #{h.number}: an action never reached the table message"
        dealt_streets = [("Flop", 3), ("Turn", 4), ("River", 5)][: max(0, len(hand.board) - 2)]
        assert streets.get(h.number, []) == [(s, [str(c) for c in hand.board[:n]]) for s, n in dealt_streets]
        assert len(results.get(h.number, [])) == 1, f"hand #{h.number} must end with one result message"
