"""Sealed decks and cards shown by choice after the hand (issue 15): a card shown alone, or both in two shows, is
revealed, so its proof is published and `python -m bot.poker verify` checks it at its own place in the deck."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bot.poker import CARDS, Hand, HandSettings, full_deck
from bot.poker.__main__ import main
from bot.poker.events import ShownByChoice
from bot.poker.phh import dump_hand
from bot.poker.seal import DeckSeal, hole_positions, phh_fields, revealed_in_phh, verify_hand
from tests.poker.helpers import play


def _folded_hand(seed: int = 4) -> tuple[Hand, DeckSeal]:
    """Heads-up: the button (player 1) folds preflop; the big blind (player 0) wins without a showdown."""
    deck = full_deck()
    random.Random(seed).shuffle(deck)
    hand = Hand(HandSettings(), [100, 100], deck=deck)
    play(hand, "fold")
    assert hand.is_complete
    return hand, DeckSeal.seal(hand.deck)


def _export(tmp_path: Path, hand: Hand, seal: DeckSeal) -> Path:
    """A spectator's export: nobody's dealt cards, the shows by choice and their proofs."""
    proofs = []
    for event in hand.events:
        if isinstance(event, ShownByChoice):
            proofs += seal.card_proofs(2, event.player, event.cards)
    text = dump_hand(hand, extra=phh_fields(seal, proofs))
    for player, cards in enumerate(hand.hole_cards):
        text = text.replace(f"d dh p{player + 1} {''.join(map(str, cards))}", f"d dh p{player + 1} ????")
    path = tmp_path / "shown.phh"
    path.write_text(text)
    return path


@pytest.mark.parametrize("which", [0, 1])
def test_a_single_card_shown_by_choice_verifies_at_its_own_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], which: int
) -> None:
    hand, seal = _folded_hand()
    card = hand.hole_cards[0][which]
    hand.show_by_choice(0, (card,))
    proof = seal.card_proofs(2, 0, (card,))
    assert [p.position for p in proof] == [hole_positions(2, 0)[which]]
    assert verify_hand(seal.root, 2, (), {0: (card,)}, proof).ok
    path = _export(tmp_path, hand, seal)
    assert main(["verify", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["checked"] == 1
    other = next(c for c in CARDS if c not in hand.hole_cards[0] and c not in hand.hole_cards[1])
    tampered = tmp_path / "tampered.phh"
    tampered.write_text(path.read_text().replace(f"p1 sm {card} #", f"p1 sm {other} #"))
    assert main(["verify", str(tampered)]) == 1
    assert not json.loads(capsys.readouterr().out)["ok"]


def test_both_cards_shown_in_two_shows_are_both_revealed_and_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hand, seal = _folded_hand(seed=8)
    first, second = hand.hole_cards[1]  # the folder shows the second card, then the first
    hand.show_by_choice(1, (second,))
    hand.show_by_choice(1, (first,))
    path = _export(tmp_path, hand, seal)
    _board, hole = revealed_in_phh(json.loads("[" + path.read_text().split("actions = [")[1].split("]")[0] + "]"))
    assert set(hole[1]) == {first, second}
    assert main(["verify", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["checked"] == 2
