"""Stored hands for `/history`: filtered to what the asking member may see, exported as PHH (rebuilt by
`bot.tables.record.replay`, the one replay of a stored hand).

A member sees other players' hole cards only where they were shown at the showdown (issue 5); their own
cards are theirs to see: the engine's rule, `bot.poker.Viewer`. Only finished hands are shown or exported: an
unfinished hand's record holds the deck order, i.e. cards nobody has seen yet.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.poker import Card, Event, Hand, HandShown, Viewer
from bot.poker.events import ShownByChoice
from bot.poker.phh import dump_hand
from bot.poker.seal import CardProof, DeckSeal, SealError, Verification, phh_fields, verify_hand
from bot.poker.visibility import shown_players
from bot.storage import HandRow
from bot.tables.record import stored_hand

log = logging.getLogger(__name__)


def visible_events(hand: Hand, viewer: int | None) -> list[Event]:
    """The hand's events without anyone's dealt hole cards but the viewer's (shown hands stay: public)."""
    return Viewer(viewer).events(hand)


def seal_of(row: HandRow) -> DeckSeal | None:
    """The hand's sealed deck (bot.poker.seal) from its stored record, or None for a hand dealt before decks were
    sealed (or whose stored seal is unreadable: logged)."""
    try:
        return stored_hand(row).seal
    except SealError:
        log.exception("hand %s has an unreadable seal", row.id)
        return None


def dealt_board(hand: Hand) -> tuple[Card, ...]:
    """The board cards dealt so far in deal order, as the PHH export writes them: the first board, then (a hand
    run twice) the second run-out's own cards, those not shared with the first board."""
    second = tuple(card for i, card in enumerate(hand.second_board) if i >= len(hand.board) or card != hand.board[i])
    return hand.board + second


def published_proofs(hand: Hand, seal: DeckSeal, viewer: int | None) -> tuple[CardProof, ...]:
    """The proofs a member may have: every board card dealt so far (both boards of a hand run twice), every
    hand shown and every card shown by choice after the hand (public), and the viewer's own hole cards (theirs,
    as in their DM). The proofs of folded and mucked cards nobody showed are never given."""
    shown = sorted(shown_players(hand))
    proofs = seal.public_proofs(hand.player_count, len(dealt_board(hand)), shown)
    by_choice = shown_by_choice(hand)
    for player, cards in sorted(by_choice.items()):
        if player != viewer:
            proofs += seal.card_proofs(hand.player_count, player, cards)
    if viewer is not None and viewer not in shown:
        proofs += seal.hole_proofs(hand.player_count, viewer)
    return proofs


def shown_by_choice(hand: Hand) -> dict[int, tuple[Card, ...]]:
    """The cards each player showed by choice after the hand (issue 15; public), by hand player index."""
    shown: dict[int, tuple[Card, ...]] = {}
    for event in hand.events:
        if isinstance(event, ShownByChoice):
            shown[event.player] = shown.get(event.player, ()) + tuple(event.cards)
    return shown


def verify_for(hand: Hand, seal: DeckSeal, viewer: int | None) -> Verification:
    """Check what `viewer` has seen of the hand (board, shown hands, their own cards) against the seal."""
    seen: dict[int, tuple[Card, ...]] = {e.player: tuple(e.cards) for e in hand.events if isinstance(e, HandShown)}
    for player, cards in shown_by_choice(hand).items():
        seen.setdefault(player, cards)
    if viewer is not None:
        seen[viewer] = tuple(hand.hole_cards[viewer])  # both their cards, whatever they showed
    proofs = published_proofs(hand, seal, viewer)
    return verify_hand(seal.root, hand.player_count, dealt_board(hand), seen, proofs)


def phh_for(
    hand: Hand,
    viewer: int | None,
    *,
    players: Sequence[str] = (),
    table: str = "",
    number: int = 0,
    seal: DeckSeal | None = None,
) -> str:
    """The hand as PHH text for one member: hole cards of players neither shown at the showdown nor the viewer
    written as `????` (PHH's unknown cards), so the file replays (`python -m bot.poker replay`) without revealing
    them. players: display names by player index (PHH `players` field). seal: the hand's sealed deck: the root
    and the proofs the viewer may have (`published_proofs`) are added, for `python -m bot.poker verify`."""
    extra: dict[str, object] = {}
    if players:
        extra["players"] = list(players)
    if table:
        extra["table"] = table
    if number:
        extra["hand"] = number
    if seal is not None:
        extra.update(phh_fields(seal, published_proofs(hand, seal, viewer)))
    return dump_hand(hand, extra=extra, viewer=Viewer(viewer))
