"""Sealed decks for hands run twice (issue 15): both boards come from the sealed deck in deal order, so
`verify_hand` and `python -m bot.poker verify` check the second board's cards at the places the engine deals them."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bot.poker import CARDS, Hand, HandSettings, full_deck
from bot.poker.__main__ import main
from bot.poker.phh import dump_hand
from bot.poker.seal import DeckSeal, board_positions, dealt_board_positions, phh_fields, verify_hand
from bot.poker.visibility import shown_players
from tests.poker.helpers import play

TWICE = HandSettings(run_it_twice=True)

#: Where the betting closes (the moves that put everyone all-in) and how many cards the second run-out deals.
CLOSING = {
    "preflop": (("all_in", "call"), 5),
    "flop": (("call", "check", "all_in", "call"), 2),
    "turn": (("call", "check", "check", "check", "all_in", "call"), 1),
}


def _run_twice(players: int, street: str, seed: int) -> tuple[Hand, DeckSeal]:
    """A hand of `players` where the last two to act go all-in on `street` (the others fold) and run it twice."""
    deck = full_deck()
    random.Random(seed).shuffle(deck)
    hand = Hand(TWICE, [100] * players, deck=deck)
    for _ in range(players - 2):
        play(hand, "fold")  # players before the blinds fold: heads-up between the blinds
    moves, _second = CLOSING[street]
    play(hand, *moves)
    for player in hand.run_twice_pending:
        hand.answer_run_twice(player, True)
    assert hand.is_complete and hand.runs == 2
    return hand, DeckSeal.seal(hand.deck)


def _dealt(hand: Hand) -> tuple:
    """Both boards as dealt: the first board, then the second run-out's own cards (as the PHH export writes them)."""
    second = [c for i, c in enumerate(hand.second_board) if c != hand.board[i]]
    return (*hand.board, *second)


@pytest.mark.parametrize("players", [2, 3, 6, 10])
@pytest.mark.parametrize("street", sorted(CLOSING))
def test_second_board_positions_are_where_the_engine_deals_them(players: int, street: str) -> None:
    hand, _seal = _run_twice(players, street, seed=players)
    board = _dealt(hand)
    assert len(board) == 5 + CLOSING[street][1]
    assert tuple(hand.deck[p] for p in dealt_board_positions(players, len(board))) == board
    assert dealt_board_positions(players, 5) == board_positions(players)


def test_a_second_run_out_of_another_size_is_no_board() -> None:
    for dealt in (8, 9, 11):
        with pytest.raises(ValueError):
            dealt_board_positions(2, dealt)


@pytest.mark.parametrize("street", sorted(CLOSING))
def test_a_hand_run_twice_verifies_with_both_boards(street: str) -> None:
    hand, seal = _run_twice(3, street, seed=5)
    board, shown = _dealt(hand), {p: hand.hole_cards[p] for p in sorted(shown_players(hand))}
    proofs = seal.public_proofs(3, len(board), sorted(shown))
    result = verify_hand(seal.root, 3, board, shown, proofs)
    assert result.ok, result.problems
    assert result.checked == len(board) + 2 * len(shown)


def test_a_tampered_second_board_fails() -> None:
    hand, seal = _run_twice(2, "preflop", seed=9)
    board = _dealt(hand)
    shown = {p: hand.hole_cards[p] for p in sorted(shown_players(hand))}
    proofs = list(seal.public_proofs(2, len(board), sorted(shown)))
    used = set(board) | {c for cards in shown.values() for c in cards}
    other = next(c for c in CARDS if c not in used)
    tampered = (*board[:7], other, *board[8:])
    result = verify_hand(seal.root, 2, tampered, shown, proofs)
    assert not result.ok and result.failed == (other,)
    assert result.problems == (f"second board card 3 ({other}): the proof at its place is for {board[7]}",)
    # The second board's cards given as if dealt once: too many cards for one board, every card fails.
    assert not verify_hand(seal.root, 2, board[:8], shown, proofs[:8]).ok


def _export(tmp_path: Path, hand: Hand, seal: DeckSeal) -> Path:
    board = _dealt(hand)
    shown = sorted(shown_players(hand))
    path = tmp_path / "twice.phh"
    path.write_text(dump_hand(hand, extra=phh_fields(seal, seal.public_proofs(2, len(board), shown))))
    return path


def test_command_line_verifies_a_hand_run_twice_and_fails_a_tampered_second_board(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hand, seal = _run_twice(2, "flop", seed=21)
    path = _export(tmp_path, hand, seal)
    text = path.read_text()
    assert text.count("# second board") == 2
    assert main(["verify", str(path)]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["ok"] is True and line["checked"] == 7 + 4, line
    river2 = hand.second_board[4]
    other = next(c for c in CARDS if c not in _dealt(hand) and all(c not in h for h in hand.hole_cards))
    tampered = tmp_path / "tampered.phh"
    tampered.write_text(text.replace(f"d db {river2} # second board", f"d db {other} # second board"))
    assert main(["verify", str(tampered)]) == 1
    line = json.loads(capsys.readouterr().out)
    assert line["ok"] is False and line["problems"] == [
        f"second board card 5 ({other}): the proof at its place is for {river2}"
    ]
