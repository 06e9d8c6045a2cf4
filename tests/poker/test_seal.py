"""Sealed decks (bot/poker/seal.py): the commitment, single-card proofs, tampering, and a hand end to end."""

from __future__ import annotations

import base64
import json
import random

import pytest

from bot.poker import ActionKind, Hand, HandSettings, StreetDealt
from bot.poker.__main__ import main
from bot.poker.cards import CARDS, shuffled_deck
from bot.poker.events import HandShown, HoleCardsDealt
from bot.poker.phh import dump_hand
from bot.poker.seal import (
    CardProof,
    DeckSeal,
    SealError,
    board_positions,
    hole_positions,
    phh_fields,
    verify_hand,
    verify_proof,
)


def _seal(seed: int = 7, size: int = 52) -> DeckSeal:
    rng = random.Random(seed)
    return DeckSeal.seal(shuffled_deck(rng)[:size], salt=lambda: rng.randbytes(16))


@pytest.mark.parametrize("size", [1, 2, 3, 5, 13, 31, 32, 33, 52])
def test_every_position_has_a_proof_that_leads_to_the_root(size: int) -> None:
    seal = _seal(size=size)
    for position in range(size):
        proof = seal.proof(position)
        assert proof.card == seal.deck[position]
        assert verify_proof(seal.root, proof)
        assert CardProof.from_token(proof.token()) == proof


def test_a_fresh_seal_uses_random_salts_and_a_short_fingerprint() -> None:
    deck = shuffled_deck(random.Random(1))
    a, b = DeckSeal.seal(deck), DeckSeal.seal(deck)
    assert a.root != b.root  # same deck, new salts: nobody can test a guessed deck against a root
    assert len(set(a.salts)) == 52 and all(len(s) == 16 for s in a.salts)
    assert len(a.fingerprint()) == 32 and a.root.hex().upper().startswith(a.fingerprint())


def test_a_proof_carries_no_other_cards_salt() -> None:
    seal = _seal()
    token = seal.proof(10).token()
    assert token == token.upper()  # no lowercase: no part of a token reads as a card ("As", "Td")
    data = base64.b32decode(token + "=" * (-len(token) % 8))
    assert seal.salts[10] in data
    assert not any(salt in data for i, salt in enumerate(seal.salts) if i != 10)


def test_stored_seal_gives_the_same_commitment() -> None:
    seal = _seal()
    again = DeckSeal.from_json(seal.deck, json.loads(json.dumps(seal.to_json())))
    assert again.root == seal.root and again.fingerprint() == seal.fingerprint()
    with pytest.raises(SealError):
        DeckSeal.from_json(seal.deck, {"version": 2, "salts": ""})
    with pytest.raises(SealError):
        DeckSeal.from_json(seal.deck, {"version": 1, "salts": "00" * 16 * 51})


def test_a_proof_against_another_deck_fails() -> None:
    assert not verify_proof(_seal(8).root, _seal(7).proof(3))


def test_tampering_with_any_byte_of_a_proof_fails() -> None:
    """Every bit of a proof matters: position, deck size, card, salt, each path hash."""
    seal = _seal()
    proof = seal.proof(17)
    token = proof.token()
    data = bytearray(base64.b32decode(token + "=" * (-len(token) % 8)))
    for index in range(len(data)):
        for bit in (0x01, 0x80):
            forged = bytearray(data)
            forged[index] ^= bit
            token = base64.b32encode(bytes(forged)).decode().rstrip("=")
            try:
                other = CardProof.from_token(token)
            except SealError:
                continue  # not even a proof
            assert not verify_proof(seal.root, other), (index, bit)


@pytest.mark.parametrize("players", range(2, 11))
def test_positions_are_where_the_engine_deals(players: int) -> None:
    deck = shuffled_deck(random.Random(players))
    hand = Hand(HandSettings(), [100] * players, deck=deck)
    for event in hand.events:
        if isinstance(event, HoleCardsDealt):
            assert tuple(deck[p] for p in hole_positions(players, event.player)) == event.cards
    while not hand.is_complete:
        legal = hand.legal_actions()
        hand.act(ActionKind.CHECK if legal.can_check else ActionKind.CALL)
    assert tuple(deck[p] for p in board_positions(players)) == hand.board


def _played_hand(players: int = 4, seed: int = 3) -> tuple[Hand, DeckSeal]:
    """A hand where player 0 folds and the others check or call to the showdown."""
    hand = Hand(HandSettings(), [100] * players, rng=random.Random(seed))
    seal = DeckSeal.seal(hand.deck)
    folded = False
    while not hand.is_complete:
        legal = hand.legal_actions()
        if hand.actor == 0 and not folded:
            hand.fold()
            folded = True
        else:
            hand.act(ActionKind.CHECK if legal.can_check else ActionKind.CALL)
    return hand, seal


def _revealed(hand: Hand) -> dict[int, tuple]:
    return {e.player: e.cards for e in hand.events if isinstance(e, HandShown)}


def test_a_hands_revealed_cards_verify_and_folded_cards_stay_secret() -> None:
    hand, seal = _played_hand()
    shown = _revealed(hand)
    assert 0 not in shown  # the folded player's cards are never shown
    proofs = seal.public_proofs(hand.player_count, len(hand.board), sorted(shown))
    result = verify_hand(seal.root, hand.player_count, hand.board, shown, proofs)
    assert result.ok and result.checked == 5 + 2 * len(shown)
    assert all(p.position not in hole_positions(4, 0) for p in proofs)


def test_verification_fails_when_a_revealed_card_or_proof_is_changed() -> None:
    hand, seal = _played_hand()
    shown = _revealed(hand)
    proofs = list(seal.public_proofs(hand.player_count, len(hand.board), sorted(shown)))
    players = hand.player_count
    # a board card that is not the one committed at its place
    other = next(c for c in CARDS if c not in hand.board and all(c not in h for h in shown.values()))
    board = (*hand.board[:3], other, hand.board[4])
    assert not verify_hand(seal.root, players, board, shown, proofs).ok
    # a shown card changed
    player = min(shown)
    changed = dict(shown)
    changed[player] = (other, shown[player][1])
    assert not verify_hand(seal.root, players, hand.board, changed, proofs).ok
    # a proof missing
    assert not verify_hand(seal.root, players, hand.board, shown, proofs[1:]).ok
    # a proof whose salt was changed
    forged = CardProof(proofs[0].position, proofs[0].size, proofs[0].card, bytes(16), proofs[0].path)
    assert not verify_hand(seal.root, players, hand.board, shown, [forged, *proofs[1:]]).ok
    # the card of another place, offered for the river
    river = seal.proof(board_positions(players)[4])
    moved = CardProof(board_positions(players)[3], river.size, river.card, river.salt, river.path)
    board = (*hand.board[:3], river.card, hand.board[4])
    assert not verify_hand(seal.root, players, board, shown, [*proofs[:3], moved, proofs[4], *proofs[5:]]).ok
    # another commitment
    assert not verify_hand(_seal(99).root, players, hand.board, shown, proofs).ok


def test_a_folded_players_proof_is_not_expected_and_is_flagged_if_published() -> None:
    hand, seal = _played_hand()
    shown = _revealed(hand)
    proofs = [*seal.public_proofs(4, 5, sorted(shown)), *seal.hole_proofs(4, 0)]
    result = verify_hand(seal.root, 4, hand.board, shown, proofs)
    assert not result.ok and any("not revealed" in p for p in result.problems)


def _public_phh(hand: Hand, seal: DeckSeal, proofs, visible=()) -> str:  # type: ignore[no-untyped-def]
    """The export as a spectator gets it: hole cards unknown (`????`) except shown ones and `visible` players'."""
    text = dump_hand(hand, extra=phh_fields(seal, proofs))
    shown = _revealed(hand)
    for player, cards in enumerate(hand.hole_cards):
        if player not in shown and player not in visible:
            text = text.replace(f"d dh p{player + 1} {''.join(str(c) for c in cards)}", f"d dh p{player + 1} ????")
    return text


def _export(tmp_path, hand: Hand, seal: DeckSeal, proofs) -> str:  # type: ignore[no-untyped-def]
    path = tmp_path / "hand.phh"
    path.write_text(_public_phh(hand, seal, proofs), encoding="utf-8")
    return str(path)


def test_command_line_verifies_a_sealed_export(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    hand, seal = _played_hand()
    shown = _revealed(hand)
    path = _export(tmp_path, hand, seal, seal.public_proofs(4, 5, sorted(shown)))
    assert main(["verify", path]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["ok"] is True and line["fingerprint"] == seal.fingerprint() and line["checked"] == 5 + 2 * len(shown)


def test_command_line_fails_a_tampered_export(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    hand, seal = _played_hand()
    shown = _revealed(hand)
    path = _export(tmp_path, hand, seal, seal.public_proofs(4, 5, sorted(shown)))
    text = open(path, encoding="utf-8").read()
    flop = "".join(str(c) for c in hand.board[:3])
    other = next(c for c in CARDS if c not in hand.board and all(c not in h for h in shown.values()))
    tampered = tmp_path / "tampered.phh"
    tampered.write_text(text.replace(f"d db {flop}", f"d db {flop[:4]}{other}"), encoding="utf-8")
    assert main(["verify", str(tampered)]) == 1
    line = json.loads(capsys.readouterr().out)
    assert line["ok"] is False and line["problems"]


def test_command_line_refuses_an_unsealed_export(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    hand, _seal = _played_hand()
    path = tmp_path / "plain.phh"
    path.write_text(dump_hand(hand), encoding="utf-8")
    assert main(["verify", str(path)]) == 1
    assert "not sealed" in capsys.readouterr().out


def test_a_players_own_hole_cards_verify_with_their_dm_proofs(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """The folded player's export shows their own cards (`d dh p1 ...`): their DM tokens prove them."""
    hand, seal = _played_hand()
    shown = _revealed(hand)
    text = _public_phh(hand, seal, seal.public_proofs(4, 5, sorted(shown)), visible=(0,))
    assert f"d dh p1 {''.join(str(c) for c in hand.hole_cards[0])}" in text
    path = tmp_path / "mine.phh"
    path.write_text(text, encoding="utf-8")
    tokens = [p.token() for p in seal.hole_proofs(4, 0)]
    assert main(["verify", str(path), *[f"--proof={t}" for t in tokens]]) == 0
    assert json.loads(capsys.readouterr().out)["checked"] == 5 + 2 * len(shown) + 2
    assert main(["verify", str(path)]) == 1  # without them, p1's cards have no proof
    capsys.readouterr()


def test_street_events_follow_board_positions() -> None:
    hand, seal = _played_hand(players=6, seed=11)
    streets = [e for e in hand.events if isinstance(e, StreetDealt)]
    assert [c for e in streets for c in e.cards] == list(hand.board)
    assert tuple(seal.deck[p] for p in board_positions(6)) == hand.board
