"""Sealed decks: a commitment to a hand's whole deck order before anyone acts, and proofs of single cards.

The scheme (SHA-256 throughout; `H(x)` is SHA-256 of the bytes x):

1. The deck is the hand's deck order, position 0 first (the engine deals from the front: one hole card at a
   time starting left of the button, so player i holds positions i and n + i; then a burn card before the
   flop, the turn and the river: the flop is 2n+1..2n+3, the turn 2n+5, the river 2n+7). A hand run twice
   (issue 15) completes the first board, then deals the second run-out from the next card, 2n+8, a burn card
   before each of its streets as the first (`dealt_board_positions`). The shuffle is the engine's
   (`secrets.SystemRandom`); this module only seals what was shuffled.
2. Each position p gets its own salt: 16 random bytes from `secrets.token_bytes`. The leaf of position p is
   `H(0x00 || "poker-seal-v1" || p as one byte || the card as two ASCII characters, e.g. "Ah" || salt_p)`.
   Without its salt a leaf says nothing about its card (16 random bytes: no one can try the 52 cards).
3. The leaves make a Merkle tree as Certificate Transparency builds it (RFC 6962/9162 §2.1): an inner node is
   `H(0x01 || left || right)`, a tree of n leaves splits at the largest power of two below n. Its root is the
   commitment; `fingerprint()` is the root's first 128 bits in hex, shown on the table message before the
   first action (a different deck with the same fingerprint would take about 2^64 hash evaluations to find).
4. The proof of one card is its position, the card, its salt and the hashes of the sibling nodes from its leaf
   up to the root (6 for a 52-card deck): anyone can recompute the root from it, and nothing about any other
   card. Each player's DM carries the proofs of their hole cards; each board card's proof is public once it is
   dealt, a shown hand's at the showdown; folded and mucked cards' proofs are never published.

`verify_hand` checks the revealed cards of a hand (its board and shown hands, as a PHH export has them) against
the root: every card has a proof, the proof's position is where the deal puts that card, and the recomputed
root is the committed one. Tokens (`CardProof.token`) are base32 of: position, deck size, card index, salt,
then the path hashes; the root and the fingerprint are written in capital hexadecimal.

What it proves: the whole deck order was fixed when the fingerprint was published, before the first action, so
the cards that came later (the board, the showdown) were not chosen during the hand. What it does not prove:
that the shuffle was random, nor that the bot (or whoever runs it) did not look at the cards.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from bot.poker.cards import CARDS, Card, parse_cards

__all__ = [
    "SALT_BYTES",
    "CardProof",
    "DeckSeal",
    "SealError",
    "board_positions",
    "dealt_board_positions",
    "hole_positions",
    "verify_hand",
    "verify_proof",
]

SALT_BYTES = 16
DOMAIN = b"poker-seal-v1"
FINGERPRINT_HEX = 32
_LEAF, _NODE = b"\x00", b"\x01"


class SealError(ValueError):
    """A seal or proof can't be read (malformed token, wrong salt length, unknown version)."""


def _h(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def _leaf(position: int, card: Card, salt: bytes) -> bytes:
    return _h(_LEAF + DOMAIN + bytes((position,)) + str(card).encode("ascii") + salt)


def _split(n: int) -> int:
    """The largest power of two smaller than n (n >= 2)."""
    k = 1
    while k * 2 < n:
        k *= 2
    return k


@lru_cache(maxsize=len(CARDS))
def _node_index(n: int) -> dict[tuple[int, int], int]:
    """Where each node of a tree of `n` leaves sits in `_tree`'s bytes, by its range of leaves (start, end), as
    `_tree` builds them (depth first, children before their parent, so the root is last). The same for every deck
    of `n` cards: kept once for each size."""
    ranges: list[tuple[int, int]] = []
    _place(0, n, ranges)
    return {span: i for i, span in enumerate(ranges)}


def _place(start: int, end: int, ranges: list[tuple[int, int]]) -> None:
    if end - start > 1:
        k = _split(end - start)
        _place(start, start + k, ranges)
        _place(start + k, end, ranges)
    ranges.append((start, end))


def _tree(leaves: Sequence[bytes]) -> bytes:
    """Every node of the tree over `leaves`, 32 bytes each, one after the other in `_node_index`'s order (the
    leaves themselves as (p, p+1), the root (0, n) last). Built once per deck, so that a proof reads its sibling
    hashes instead of hashing whole subtrees again (a hand's 12 hole-card proofs hashed the deck about 70 times
    over); one bytes object of 3.3 KB for 52 cards, where a dict of the 103 nodes by their ranges took about
    19 KB: every table in a hand keeps its deck's. Plain recursion, no closure: a recursive inner function is a
    reference cycle, whose list of nodes would wait for the garbage collector."""
    nodes: list[bytes] = []
    _build(leaves, 0, len(leaves), nodes)
    return b"".join(nodes)


def _build(leaves: Sequence[bytes], start: int, end: int, nodes: list[bytes]) -> bytes:
    if end - start == 1:
        node = leaves[start]
    else:
        k = _split(end - start)
        node = _h(_NODE + _build(leaves, start, start + k, nodes) + _build(leaves, start + k, end, nodes))
    nodes.append(node)
    return node


def _path(index: int, size: int, tree: bytes) -> list[bytes]:
    """RFC 6962 PATH(m, D[n]): the sibling hashes from the leaf up, read from `tree` (`_tree` of `size` leaves)."""
    at = _node_index(size)
    path: list[bytes] = []
    start, end = 0, size
    while end - start > 1:
        k = _split(end - start)
        if index < start + k:
            sibling = at[(start + k, end)]
            end = start + k
        else:
            sibling = at[(start, start + k)]
            start += k
        path.append(tree[32 * sibling : 32 * sibling + 32])
    path.reverse()  # from the leaf up
    return path


def hole_positions(players: int, player: int) -> tuple[int, int]:
    """The deck positions of hand player `player`'s two hole cards among `players` (dealt one at a time)."""
    return player, players + player


def board_positions(players: int) -> tuple[int, ...]:
    """The deck positions of the five board cards (a burn card before the flop, the turn and the river)."""
    n2 = 2 * players
    return n2 + 1, n2 + 2, n2 + 3, n2 + 5, n2 + 7


#: How many cards a second run-out deals, by where the betting closed: from preflop the whole board, from the
#: flop the turn and the river, from the turn the river.
SECOND_RUN_CARDS = (5, 2, 1)


def dealt_board_positions(players: int, dealt: int) -> tuple[int, ...]:
    """The deck positions of the first `dealt` board cards in deal order, a second run-out's included.

    Up to 5: the first board (`board_positions`). Beyond 5 (a hand run twice, issue 15): the first board is
    complete, and the `dealt - 5` cards that follow are the second run-out's new cards (5, 2 or 1: the streets
    still to come when the betting closed), dealt as the engine does (`Hand._deal_second_run`) from position
    2n+8 on, a burn card before each street: the first board's positions of those streets, moved on by the
    cards the first run-out used.

    Raises:
        ValueError: `dealt` is negative, or more than 5 with a second run-out of another size than 5, 2 or 1.
    """
    first = board_positions(players)
    if dealt < 0:
        raise ValueError(f"no board of {dealt} cards")
    if dealt <= len(first):
        return first[:dealt]
    second = dealt - len(first)
    if second not in SECOND_RUN_CARDS:
        raise ValueError(f"a second run-out deals 5, 2 or 1 cards, not {second}")
    streets = first[len(first) - second :]
    shift = 2 * players + 8 - (streets[0] - 1)  # its first burn card follows the first board's river
    return first + tuple(p + shift for p in streets)


@dataclass(frozen=True)
class CardProof:
    """What proves that `card` is at `position` of a committed deck of `size` cards: its `salt` and the sibling
    hashes from its leaf to the root (`path`)."""

    position: int
    size: int
    card: Card
    salt: bytes
    path: tuple[bytes, ...]

    def token(self) -> str:
        """The proof as one base32 word (capital letters and digits 2-7, about 340 characters for a 52-card deck:
        no lowercase letter, so no part of it ever reads as a card such as "As")."""
        data = bytes((self.position, self.size, self.card.index)) + self.salt + b"".join(self.path)
        return base64.b32encode(data).decode("ascii").rstrip("=")

    @classmethod
    def from_token(cls, token: str) -> CardProof:
        """Read a token back.

        Raises:
            SealError: not a proof token.
        """
        text = token.strip().upper()
        try:
            data = base64.b32decode(text + "=" * (-len(text) % 8))
        except (binascii.Error, ValueError) as exc:
            raise SealError(f"not a proof: {token[:20]!r}…") from exc
        if len(data) < 3 + SALT_BYTES or (len(data) - 3 - SALT_BYTES) % 32:
            raise SealError(f"not a proof (length {len(data)}): {token[:20]!r}…")
        position, size, index = data[0], data[1], data[2]
        if index >= len(CARDS) or not 0 < size <= len(CARDS) or position >= size:
            raise SealError(f"not a proof (position {position}, size {size}, card {index})")
        salt = data[3 : 3 + SALT_BYTES]
        rest = data[3 + SALT_BYTES :]
        path = tuple(rest[i : i + 32] for i in range(0, len(rest), 32))
        return cls(position, size, CARDS[index], salt, path)


def verify_proof(root: bytes, proof: CardProof) -> bool:
    """Whether `proof` leads to `root` (RFC 9162 §2.1.3.2, inclusion proof verification)."""
    fn, sn = proof.position, proof.size - 1
    if fn > sn:
        return False
    r = _leaf(proof.position, proof.card, proof.salt)
    for p in proof.path:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = _h(_NODE + p + r)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            r = _h(_NODE + r + p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and secrets.compare_digest(r, root)


@dataclass(frozen=True)
class DeckSeal:
    """A hand's deck order with one salt per position, and the Merkle tree over them (see the module docstring).

    Build it with `DeckSeal.seal(deck)` when the hand is dealt; store `to_json()` with the hand so that a restart
    keeps the same commitment (`from_json(deck, data)`)."""

    deck: tuple[Card, ...]
    salts: tuple[bytes, ...]
    _nodes: bytes = field(init=False, repr=False, compare=False)
    root: bytes = field(init=False, compare=False)
    _fingerprint: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not 0 < len(self.deck) <= len(CARDS) or len(self.salts) != len(self.deck):
            raise SealError(f"a seal needs 1 to 52 cards and one salt each ({len(self.deck)}, {len(self.salts)})")
        if any(len(s) != SALT_BYTES for s in self.salts):
            raise SealError(f"every salt is {SALT_BYTES} bytes")
        leaves = tuple(_leaf(p, card, salt) for p, (card, salt) in enumerate(zip(self.deck, self.salts, strict=True)))
        nodes = _tree(leaves)
        object.__setattr__(self, "_nodes", nodes)
        object.__setattr__(self, "root", nodes[-32:])
        object.__setattr__(self, "_fingerprint", self.root.hex().upper()[:FINGERPRINT_HEX])

    @classmethod
    def seal(cls, deck: Sequence[Card], salt: Callable[[], bytes] | None = None) -> DeckSeal:
        """Seal `deck` with a fresh random salt per position: `SALT_BYTES` each, cut from one `secrets.token_bytes`
        (`salt`: a seam for tests, called once per position)."""
        if salt is None:
            raw = secrets.token_bytes(SALT_BYTES * len(deck))
            return cls(tuple(deck), tuple(raw[i : i + SALT_BYTES] for i in range(0, len(raw), SALT_BYTES)))
        return cls(tuple(deck), tuple(salt() for _ in deck))

    def fingerprint(self) -> str:
        """The commitment as shown to the table: the root's first 128 bits, 32 hex digits (capitals)."""
        return self._fingerprint

    def proof(self, position: int) -> CardProof:
        """The proof of the card at `position` (0-based deal order).

        Raises:
            IndexError: no such position.
        """
        if not 0 <= position < len(self.deck):
            raise IndexError(f"no position {position} in a deck of {len(self.deck)}")
        path = tuple(_path(position, len(self.deck), self._nodes))
        return CardProof(position, len(self.deck), self.deck[position], self.salts[position], path)

    def hole_proofs(self, players: int, player: int) -> tuple[CardProof, ...]:
        """The proofs of hand player `player`'s hole cards (for their DM only)."""
        return tuple(self.proof(p) for p in hole_positions(players, player))

    def card_proofs(self, players: int, player: int, cards: Sequence[Card]) -> tuple[CardProof, ...]:
        """The proofs of those of hand player `player`'s hole cards that are in `cards` (cards shown by choice
        after the hand, one or both: public once shown)."""
        return tuple(self.proof(p) for p in hole_positions(players, player) if self.deck[p] in cards)

    def board_proofs(self, players: int, dealt: int) -> tuple[CardProof, ...]:
        """The proofs of the first `dealt` board cards (public once dealt; beyond 5, a second run-out's new
        cards: `dealt_board_positions`)."""
        return tuple(self.proof(p) for p in dealt_board_positions(players, dealt))

    def public_proofs(self, players: int, dealt: int, shown: Sequence[int] = ()) -> tuple[CardProof, ...]:
        """Everything public at a point of the hand: the board dealt so far, then the hole cards of the players
        in `shown` (hand indexes: hands shown at the showdown or turned face up at an all-in)."""
        proofs = list(self.board_proofs(players, dealt))
        for player in shown:
            proofs.extend(self.hole_proofs(players, player))
        return tuple(proofs)

    def to_json(self) -> dict[str, Any]:
        """The salts, to store with the hand (the deck is stored already): {"version": 1, "salts": "<hex>"}."""
        return {"version": 1, "salts": b"".join(self.salts).hex()}

    @classmethod
    def from_json(cls, deck: Sequence[Card], data: Mapping[str, Any]) -> DeckSeal:
        """Inverse of `to_json`, with the hand's stored deck.

        Raises:
            SealError: not a seal of a known version, or not one salt per card.
        """
        if data.get("version") != 1:
            raise SealError(f"unknown seal version {data.get('version')!r}")
        try:
            raw = bytes.fromhex(str(data["salts"]))
        except (KeyError, ValueError) as exc:
            raise SealError("bad salts in the stored seal") from exc
        salts = tuple(raw[i : i + SALT_BYTES] for i in range(0, len(raw), SALT_BYTES))
        return cls(tuple(deck), salts)


@dataclass(frozen=True)
class Verification:
    """The outcome of `verify_hand`: `checked` cards proven, the `problems` found (English, for the command line;
    empty when all match) and the cards they are about (`failed`, for messages in other languages)."""

    checked: int
    problems: tuple[str, ...]
    failed: tuple[Card, ...] = ()

    @property
    def ok(self) -> bool:
        """Every revealed card matches the commitment (and there was at least one to check)."""
        return not self.problems and self.checked > 0


def verify_hand(
    root: bytes,
    players: int,
    board: Sequence[Card],
    shown: Mapping[int, Sequence[Card]],
    proofs: Sequence[CardProof],
) -> Verification:
    """Check every revealed card of a hand against the committed `root`.

    players: the number of players dealt in (positions depend on it); board: the board cards in deal order (a
    hand run twice: the first board's five, then the second run-out's new cards, as a PHH export deals them;
    positions from `dealt_board_positions`); shown: hole cards shown, by hand player index (0 = first left of
    the button, as PHH's p1); proofs: the published proofs (any order). Each revealed card needs a proof at the
    position the deal gives it, for that card, that leads to `root`; a proof for a card nobody saw is a problem
    too (it would not have been published)."""
    by_position = {proof.position: proof for proof in proofs}
    problems: list[str] = []
    failed: list[Card] = []
    expected: list[tuple[int, Card, str]] = []
    try:
        positions = dealt_board_positions(players, len(board))
    except ValueError as exc:
        positions = ()
        problems.append(f"a board of {len(board)} cards: {exc}")
        failed.extend(board)
    first = len(board_positions(players))
    for i, (position, card) in enumerate(zip(positions, board, strict=False)):
        # A second run-out's cards are named by their place on the second board (it shares 10 - len(board)).
        what = (
            f"board card {i + 1} ({card})" if i < first else f"second board card {first - len(board) + i + 1} ({card})"
        )
        expected.append((position, card, what))
    for player, cards in sorted(shown.items()):
        # A card shown alone (by choice, after the hand) may be either hole card: its place is the one whose
        # published proof is for it (the other place, when none is, so that the problem names the card).
        places = list(hole_positions(players, player))
        for card in cards:
            if not places:
                problems.append(f"p{player + 1}'s card {card}: a player holds two cards")
                failed.append(card)
                continue
            position = next((p for p in places if p in by_position and by_position[p].card == card), places[0])
            places.remove(position)
            expected.append((position, card, f"p{player + 1}'s card {card}"))
    checked = 0
    for position, card, what in expected:
        proof = by_position.pop(position, None)
        if proof is None:
            problems.append(f"{what}: no proof")
        elif proof.card != card:
            problems.append(f"{what}: the proof at its place is for {proof.card}")
        elif not verify_proof(root, proof):
            problems.append(f"{what}: its proof does not match the commitment")
        else:
            checked += 1
            continue
        failed.append(card)
    for position, proof in sorted(by_position.items()):
        problems.append(f"a proof for {proof.card} at position {position}, a card that was not revealed")
        failed.append(proof.card)
    return Verification(checked, tuple(problems), tuple(failed))


#: The PHH user-defined fields (PHH: names starting with "_") that carry a hand's seal in its export.
PHH_ROOT_FIELD = "_seal_root"
PHH_PROOFS_FIELD = "_seal_proofs"


def phh_fields(seal: DeckSeal, proofs: Sequence[CardProof]) -> dict[str, Any]:
    """The fields to add to a hand's PHH export: the full root (hex) and the published proofs' tokens."""
    return {PHH_ROOT_FIELD: seal.root.hex().upper(), PHH_PROOFS_FIELD: [p.token() for p in proofs]}


def revealed_in_phh(actions: Sequence[str]) -> tuple[tuple[Card, ...], dict[int, tuple[Card, ...]]]:
    """The board (deal order) and the known hole cards by player index of a PHH hand's actions: `d db` lines,
    `d dh pN XxYy` with known cards (not `????`), and shows `pN sm XxYy` (at the showdown, or by choice after
    the hand: one card or both, possibly in two lines — the cards of all of them)."""
    board: list[Card] = []
    hole: dict[int, tuple[Card, ...]] = {}
    for action in actions:
        words = action.split()
        if len(words) >= 3 and words[0] == "d" and words[1] == "db":
            board.extend(parse_cards(words[2]))
        elif len(words) >= 4 and words[0] == "d" and words[1] == "dh" and "?" not in words[3]:
            hole[int(words[2][1:]) - 1] = parse_cards(words[3])
        elif len(words) >= 3 and words[0].startswith("p") and words[1] == "sm" and words[2] not in ("-", "#"):
            player = int(words[0][1:]) - 1
            known = hole.get(player, ())
            hole[player] = known + tuple(c for c in parse_cards(words[2]) if c not in known)
    return tuple(board), hole


def verify_phh(
    fields: Mapping[str, Any], actions: Sequence[str], players: int, extra: Sequence[str] = ()
) -> Verification:
    """Verify a PHH export's revealed cards against its seal (`PHH_ROOT_FIELD`, `PHH_PROOFS_FIELD`); `extra`:
    more proof tokens (a player's own hole cards, from their DM).

    Raises:
        SealError: the export has no seal, or a token is malformed.
    """
    root_text = fields.get(PHH_ROOT_FIELD)
    if not isinstance(root_text, str):
        raise SealError(f"no {PHH_ROOT_FIELD} field: this hand was not sealed")
    try:
        root = bytes.fromhex(root_text)
    except ValueError as exc:
        raise SealError(f"{PHH_ROOT_FIELD} is not hexadecimal") from exc
    tokens = [str(t) for t in fields.get(PHH_PROOFS_FIELD) or []] + list(extra)
    proofs = {}
    for token in tokens:
        proof = CardProof.from_token(token)
        proofs[proof.position] = proof
    board, hole = revealed_in_phh(actions)
    return verify_hand(root, players, board, hole, list(proofs.values()))
