"""A hand run twice as the channel reads it (issue 15): the result names both boards and the board each half of
the pot was won on, in the retired one-line summary, the result message's "Pots won", `/history`'s list line and
hand view — in English and in French (the rule book's "deux boards", "la moitié du pot")."""

from __future__ import annotations

from bot.poker import Hand, hand_result_from_events
from bot.render import render_hand_history, render_hand_summary, render_history_line, render_showdown
from tests.poker.helpers import play
from tests.poker.test_run_it_twice import TWICE, deck_with_second_run, heads_up_all_in_preflop
from tests.render.builders import strip_vs

NAMES = ["Bob", "Alice"]  # player 0 holds K♠ K♥, player 1 (the button) A♠ A♥
FIRST = "2♣ 7♦ 9♥ J♣ 3♠"
SECOND = "K♦ 8♣ 4♥ 5♦ 6♠"


def run_twice() -> Hand:
    """Aces win the first board, kings the second (a set): each takes half of the 200-chip pot."""
    hand = heads_up_all_in_preflop()
    hand.answer_run_twice(1, True)
    hand.answer_run_twice(0, True)
    return hand


def twice_with_side_pot() -> tuple[Hand, list[str]]:
    """Three players all-in on the flop (player 0 short): a main and a side pot, each halved between the boards."""
    deck = deck_with_second_run(["QcQd", "AsAh", "KsKh"], "2c7d9hJc3s", "Kd2s", "flop")
    hand = Hand(TWICE, [50, 200, 200], deck=deck)
    play(hand, "p2 call", "p0 call", "p1 check", "p0 all_in", "p1 all_in", "p2 call")
    for player in (2, 0, 1):
        hand.answer_run_twice(player, True)
    return hand, ["Chloé", "Alice", "Bob"]


def fr(text: str) -> str:
    return strip_vs(text).replace("\u00a0", " ").replace("\u202f", " ")


def test_the_summary_names_both_boards() -> None:
    result = hand_result_from_events(4, run_twice().events, NAMES)
    assert result.board != result.second_board and len(result.second_board) == 5
    assert strip_vs(render_hand_summary(4, result, "en")) == (
        "Hand #4 · Alice wins 100 with Pair of aces, Bob wins 100 with Three of a kind, kings"
        f" · first board {FIRST} · second board {SECOND}"
    )
    assert fr(render_hand_summary(4, result, "fr")) == (
        "Donne n° 4 · Alice gagne 100 avec Paire d'as, Bob gagne 100 avec Brelan de rois"
        f" · premier board {FIRST} · deuxième board {SECOND}"
    )


def test_pots_won_say_which_board_each_half_was_won_on() -> None:
    result = hand_result_from_events(4, run_twice().events, NAMES)
    english = render_showdown(result, "en").to_dict()
    assert strip_vs(english["description"]) == f"**First board**: {FIRST}\n**Second board**: {SECOND}"
    pots = next(f["value"] for f in english["fields"] if f["name"] == "Pots won")
    assert strip_vs(pots).splitlines() == [
        "First board: Alice wins half the pot (100) with Pair of aces",
        "Second board: Bob wins half the pot (100) with Three of a kind, kings",
    ]
    french = render_showdown(result, "fr").to_dict()
    assert fr(french["description"]) == f"**Premier board** : {FIRST}\n**Deuxième board** : {SECOND}"
    pots = next(f["value"] for f in french["fields"] if f["name"] == "Pots gagnés")
    assert fr(pots).splitlines() == [
        "Premier board : Alice remporte la moitié du pot (100) — Paire d'as",
        "Deuxième board : Bob remporte la moitié du pot (100) — Brelan de rois",
    ]


def test_hands_shown_name_the_hand_made_on_each_board() -> None:
    """Found last session: the "Hands shown" lines named each hand on the first board only (aces, then Bob's
    kings as a pair) while "Pots won" gave the second half to Bob's set of kings on the second board."""
    result = hand_result_from_events(4, run_twice().events, NAMES)
    english = render_showdown(result, "en").to_dict()
    hands = next(f["value"] for f in english["fields"] if f["name"] == "Hands shown")
    assert strip_vs(hands).splitlines() == [
        "Bob: K♠ K♥ — first board: Pair of kings · second board: Three of a kind, kings",
        "Alice: A♠ A♥ — first board: Pair of aces · second board: Pair of aces",
    ]
    french = render_showdown(result, "fr").to_dict()
    hands = next(f["value"] for f in french["fields"] if f["name"] == "Mains montrées")
    assert fr(hands).splitlines() == [
        "Bob : K♠ K♥ — premier board : Paire de rois · deuxième board : Brelan de rois",
        "Alice : A♠ A♥ — premier board : Paire d'as · deuxième board : Paire d'as",
    ]
    once = heads_up_all_in_preflop()
    once.answer_run_twice(1, False)  # one run: one hand each, the line as before
    english = render_showdown(hand_result_from_events(5, once.events, NAMES), "en").to_dict()
    hands = next(f["value"] for f in english["fields"] if f["name"] == "Hands shown")
    assert strip_vs(hands).splitlines() == ["Bob: K♠ K♥ — Pair of kings", "Alice: A♠ A♥ — Pair of aces"]


def test_side_pots_run_twice_name_their_halves_and_boards() -> None:
    hand, names = twice_with_side_pot()
    result = hand_result_from_events(9, hand.events, names)
    lines = strip_vs(
        next(f["value"] for f in render_showdown(result, "en").to_dict()["fields"] if f["name"] == "Pots won")
    )
    assert all(line.startswith(("First board: ", "Second board: ")) for line in lines.splitlines())
    assert "half the main pot" in lines and "half of side pot 1" in lines
    french = fr(
        next(f["value"] for f in render_showdown(result, "fr").to_dict()["fields"] if f["name"] == "Pots gagnés")
    )
    assert "la moitié du pot principal" in french and "la moitié du pot annexe 1" in french


def test_history_shows_both_boards_in_the_list_and_the_hand() -> None:
    hand = run_twice()
    line = strip_vs(render_history_line(4, hand.events, NAMES, "en"))
    assert line == (
        f"#4 · {FIRST} · second board {SECOND} · First board: Alice wins half the pot (100) with Pair of aces; "
        "Second board: Bob wins half the pot (100) with Three of a kind, kings"
    )
    assert fr(render_history_line(4, hand.events, NAMES, "fr")).startswith(
        f"n° 4 · {FIRST} · deuxième board {SECOND} · "
    )
    spec = render_hand_history(4, hand.events, NAMES, "en").to_dict()
    text = strip_vs(str(spec))
    assert "Second board: Bob wins half the pot (100) with Three of a kind, kings" in text


def test_history_names_the_hand_made_on_each_board_in_both_languages() -> None:
    """`/history hand` named each shown hand on the first board only (Bob's kings as a pair), where the showdown
    message and its "Pots won" give Bob's second half to his set of kings on the second board."""
    hand = run_twice()

    def result_lines(locale: str) -> list[str]:
        spec = render_hand_history(4, hand.events, NAMES, locale).to_dict()
        field = spec["fields"][-1]  # the result, after the streets of both boards
        return [line for line in strip_vs(field["value"]).splitlines() if " show" in line or " montre " in line]

    assert result_lines("en") == [
        "Bob shows K♠ K♥ (first board: Pair of kings · second board: Three of a kind, kings)",
        "Alice shows A♠ A♥ (first board: Pair of aces · second board: Pair of aces)",
    ]
    assert [fr(line) for line in result_lines("fr")] == [
        "Bob montre K♠ K♥ (premier board : Paire de rois · deuxième board : Brelan de rois)",
        "Alice montre A♠ A♥ (premier board : Paire d'as · deuxième board : Paire d'as)",
    ]
    once = heads_up_all_in_preflop()
    once.answer_run_twice(1, False)  # one run: the line as before
    spec = render_hand_history(5, once.events, NAMES, "en").to_dict()
    assert "Bob shows K♠ K♥ (Pair of kings)" in strip_vs(spec["fields"][-1]["value"])
