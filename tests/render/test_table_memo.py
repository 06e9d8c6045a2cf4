"""The table message drawn with a table's memo (`table_embed`: the parts of its last drawing, the last actions
extended by the new events' lines) is byte for byte the message drawn from nothing (`render_table`), whatever was
drawn before in the same channel: in the hand's order, in any order, in the other language, with names changed."""

from __future__ import annotations

import random
from dataclasses import replace

from bot.discord_ui.table_view import table_payload
from bot.poker import ActionKind, PlayerActed
from bot.render import i18n
from bot.render.events import render_event_lines
from bot.render.recent import EventLineMemo
from bot.render.table_message import _MEMOS, MEMO_TABLES, render_table, table_embed, table_memo
from tests.render.table_cases import cases
from tests.render.test_table_goldens import GOLDENS, digest


def _fresh(snapshot, name):  # type: ignore[no-untyped-def]
    return render_table(snapshot, snapshot.language, name).to_dict()


def test_every_case_drawn_with_its_tables_memo_is_the_message_drawn_from_nothing() -> None:
    """Each hand's messages in its order, one language after the other (as a table draws them: the last actions
    extended at each action, the showdown's awards and shown hands among them)."""
    i18n.clear_render_cache()
    extended = 0
    for language in ("en", "fr"):
        for case in cases():
            if case.snapshot.language != language:
                continue
            memo = table_memo(case.snapshot.channel_id)
            before = memo.events.drawn
            got = table_embed(case.snapshot, language, case.table_name)
            assert got == _fresh(case.snapshot, case.table_name), case.name
            extended += before is not None and memo.events.drawn is not before
    assert extended > 1000


def test_every_payload_drawn_in_each_hands_order_is_its_golden() -> None:
    """The whole payload (embed and buttons, both remembered per table) as the bot draws it, hand after hand."""
    import json

    expected = json.loads(GOLDENS.read_text(encoding="utf-8"))
    for language in ("en", "fr"):
        for case in cases():
            if case.snapshot.language == language:
                assert digest(table_payload(case.snapshot, case.table_name)) == expected[case.name], case.name


def _fresh_payload(snapshot, name):  # type: ignore[no-untyped-def]
    _MEMOS.pop(snapshot.channel_id, None)
    return table_payload(snapshot, name)


def test_one_channel_drawn_in_any_order_in_both_languages_gives_the_same_messages() -> None:
    rng = random.Random(14)
    picked = rng.sample(cases(), 600)
    for case in picked:  # every snapshot drawn in the same channel, one after another, most of them unrelated
        snapshot = replace(case.snapshot, channel_id=1)
        assert table_embed(snapshot, snapshot.language, case.table_name) == _fresh(snapshot, case.table_name)
        other = replace(snapshot, language="fr" if snapshot.language == "en" else "en", names=snapshot.names[::-1])
        assert table_embed(other, other.language, case.table_name) == _fresh(other, case.table_name)


def _acted(player: int, added: int) -> PlayerActed:
    return PlayerActed(player=player, action=ActionKind.CALL, amount=added, added=added, all_in=False)


def _lines(events, names, language, pot, memo=None):  # type: ignore[no-untyped-def]
    return render_event_lines(events, names, language, last=6, pot_after=pot, memo=memo)


def test_the_last_actions_are_extended_by_the_new_events_lines_also_when_old_ones_leave_the_window() -> None:
    names = ("Alice", "Bob", "Chloé")
    events = tuple(_acted(i % 3, 1 + i % 4) for i in range(60))
    for first in range(0, 50, 7):
        memo = EventLineMemo()
        for step in range(first + 1, 60):  # one event more at each step, the oldest leaving a window of 40
            shown = events[max(0, step - 40) : step]
            pot = 100 + sum(e.added for e in shown)
            assert _lines(shown, names, "en", pot, memo) == _lines(shown, names, "en", pot)
        assert memo.drawn is not None


def test_the_last_actions_are_drawn_in_full_when_anything_but_new_events_changed() -> None:
    names = ("Alice", "Bob", "Chloé")
    events = tuple(_acted(i % 3, 2) for i in range(12))
    other = tuple(_acted((i + 1) % 3, 4) for i in range(11))
    changes = [
        (events, names, "en", 25),  # the pot is not what the new events explain
        (events, ("Zoé", "Bob", "Chloé"), "en", 24),  # a name changed
        (events, names, "fr", 24),  # the table's language changed
        (events, names, "en", None),  # no pots shown
        ((*other, events[-1]), names, "en", 24),  # the same last event after other ones
        ((*events, _acted(0, 2), _acted(1, 2), _acted(2, 2), _acted(0, 2), _acted(1, 2)), names, "en", 34),  # many new
    ]
    for shown, new_names, language, pot in changes:
        memo = EventLineMemo()
        assert _lines(events, names, "en", 24, memo) == _lines(events, names, "en", 24)
        assert memo.drawn is not None
        assert _lines(shown, new_names, language, pot, memo) == _lines(shown, new_names, language, pot), (pot, language)


def test_the_memos_are_bounded() -> None:
    for channel in range(MEMO_TABLES + 50):
        table_memo(10**9 + channel)
    assert len(_MEMOS) == MEMO_TABLES


def _changes(snapshot):  # type: ignore[no-untyped-def]
    """The snapshot with one input of the message changed at a time (each part's inputs, and a seat's)."""
    from bot.poker import Card, LevelBy, TableKind

    seat = snapshot.seats[0]
    seats = [
        replace(seat, stack=seat.stack + 1),
        replace(seat, bet=seat.bet + 2),
        replace(seat, is_actor=not seat.is_actor),
        replace(seat, is_button=not seat.is_button),
        replace(seat, leaving=not seat.leaving),
        replace(seat, blind=None if seat.blind else "big_blind"),
        replace(seat, name=seat.name + "x"),
        replace(seat, cards=() if seat.cards else (Card(14, "s"), Card(13, "h"))),
        replace(seat, state=type(seat.state)("all_in" if seat.state != "all_in" else "folded")),
    ]
    for changed in seats:
        yield replace(snapshot, seats=(changed, *snapshot.seats[1:]))
    yield replace(snapshot, time_bank_running=not snapshot.time_bank_running)
    yield replace(snapshot, deadline=(snapshot.deadline or 1_790_000_000.0) + 60)
    yield replace(snapshot, deadline=None)
    yield replace(snapshot, seal=None if snapshot.seal else "ab12")
    yield replace(snapshot, board=snapshot.board[:-1])
    yield replace(snapshot, pots=(*snapshot.pots, 7))
    yield replace(snapshot, names=tuple(name + "y" for name in snapshot.names))
    yield replace(snapshot, ante=snapshot.ante + 1)
    yield replace(snapshot, small_blind=snapshot.small_blind + 1)
    yield replace(snapshot, betting="pot-limit" if snapshot.betting != "pot-limit" else "fixed-limit")
    yield replace(snapshot, kind=TableKind.TOURNAMENT if snapshot.kind != TableKind.TOURNAMENT else TableKind.CASH)
    yield replace(snapshot, level=(snapshot.level or 0) + 1, next_level=(10, 20, 0), next_level_in=3)
    yield replace(snapshot, level_by=LevelBy.HANDS if snapshot.level_by == LevelBy.MINUTES else LevelBy.MINUTES)
    yield replace(snapshot, next_level_in=(snapshot.next_level_in or 0) + 1)
    yield replace(snapshot, players_left=(snapshot.players_left or 0) + 2, average_stack=1234)
    yield replace(snapshot, hand_number=snapshot.hand_number + 1)
    yield replace(snapshot, street=None)
    yield replace(snapshot, closed=True)
    yield replace(snapshot, legal=None)
    yield replace(snapshot, run_twice_pending=(snapshot.seats[0].user_id,))
    yield replace(snapshot, events=snapshot.events[:-1])
    yield replace(snapshot, time_bank=None if snapshot.time_bank else 31.5)
    yield replace(snapshot, time_bank=(snapshot.time_bank or 0) + 1)


def test_a_message_drawn_after_any_one_input_changed_is_drawn_from_that_input() -> None:
    rng = random.Random(7)
    playing = [case for case in cases() if case.snapshot.in_hand and case.snapshot.seats]
    for case in rng.sample(playing, 150):
        for changed in _changes(case.snapshot):
            table_payload(case.snapshot, case.table_name)  # the memo primed by the original
            got = table_payload(changed, case.table_name)
            assert got == _fresh_payload(changed, case.table_name), case.name
            table_embed(case.snapshot, case.snapshot.language, case.table_name)
            assert table_embed(changed, changed.language, case.table_name) == _fresh(changed, case.table_name)
            assert table_embed(changed, changed.language, "Other name") == _fresh(changed, "Other name")


def test_a_tables_action_rows_are_those_of_its_hand_and_bounded() -> None:
    """The rows of action buttons are kept by table for the hand being played (issue 14: a process-wide cache of
    1,024 rows kept the earlier hands' rows, which name their hand and never serve again, in every process):
    at most `ACTION_ROWS_PER_HAND` for a hand with more sets of options, none of an earlier hand, and each
    payload still the one drawn from nothing."""
    from bot.discord_ui.table_view import ACTION_ROWS_PER_HAND

    case = next(c for c in cases() if c.snapshot.legal is not None and c.snapshot.legal.can_call)
    snapshot, legal = case.snapshot, case.snapshot.legal
    _MEMOS.pop(snapshot.channel_id, None)
    memo = table_memo(snapshot.channel_id)
    drawn, sizes = [], []
    for k in range(3 * ACTION_ROWS_PER_HAND):  # as many different calls in one hand
        changed = replace(snapshot, legal=replace(legal, call_amount=legal.call_amount + k))
        drawn.append((changed, table_payload(changed, case.table_name)))
        assert memo.actions is not None and memo.actions[0] == snapshot.hand_number
        sizes.append(len(memo.actions[1]))
    assert max(sizes) == ACTION_ROWS_PER_HAND and min(sizes) >= 1
    table_payload(drawn[-1][0], case.table_name)  # the same options again: served from the memo, nothing added
    assert len(memo.actions[1]) == sizes[-1]
    table_payload(replace(snapshot, hand_number=snapshot.hand_number + 1), case.table_name)
    assert memo.actions[0] == snapshot.hand_number + 1 and len(memo.actions[1]) == 1
    for changed, payload in drawn:
        assert payload == _fresh_payload(changed, case.table_name)
