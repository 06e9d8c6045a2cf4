"""Test helpers for the engine: stacked decks and short ways to play a hand."""

from __future__ import annotations

from collections.abc import Sequence

from bot.poker import ActionKind, Card, Event, Hand, HandSettings, full_deck, parse_cards


def stacked_deck(holes: Sequence[str], board: str = "") -> list[Card]:
    """A full 52-card deck that deals `holes[i]` to player i and `board` as flop, turn and river.

    Dealing order (rule book 000 §04-§05): one card at a time from the button's left, so player i
    gets deck[i] and deck[n + i]; then burn, three flop cards, burn, turn, burn, river. Cards not
    given are filled in from the rest of the deck in a fixed order.
    """
    n = len(holes)
    hole_cards = [parse_cards(h) for h in holes]
    board_cards = list(parse_cards(board))
    chosen = [c for h in hole_cards for c in h] + board_cards
    if len(set(chosen)) != len(chosen):
        raise ValueError("a card is used twice")
    rest = [c for c in full_deck() if c not in set(chosen)]
    deck: list[Card | None] = [None] * (2 * n + 8)
    for i, (first, second) in enumerate(hole_cards):
        deck[i] = first
        deck[n + i] = second
    board_slots = [2 * n + 1, 2 * n + 2, 2 * n + 3, 2 * n + 5, 2 * n + 7]
    for slot, card in zip(board_slots, board_cards, strict=False):
        deck[slot] = card
    filled = [c if c is not None else rest.pop(0) for c in deck]
    return filled + rest


def new_hand(
    stacks: Sequence[int],
    holes: Sequence[str] | None = None,
    board: str = "",
    settings: HandSettings | None = None,
) -> Hand:
    """A hand with the given stacks; hole cards/board stacked when given (default settings: blinds 1/2)."""
    deck = stacked_deck(holes, board) if holes is not None else full_deck()
    return Hand(settings or HandSettings(), stacks, deck=deck)


def play(hand: Hand, *moves: str) -> None:
    """Apply moves written "p2 raise 14", "p0 call", "check", "fold", "all_in" (player optional)."""
    for move in moves:
        words = move.split()
        player = None
        if words[0].startswith("p") and words[0][1:].isdigit():
            player = int(words[0][1:])
            words = words[1:]
        kind = ActionKind(words[0])
        amount = int(words[1]) if len(words) > 1 else None
        hand.act(kind, amount, player=player)


def of_type(events: Sequence[Event], kind: type) -> list[Event]:
    """The events of one class, in order."""
    return [e for e in events if isinstance(e, kind)]


def snapshot(hand: Hand) -> tuple[object, ...]:
    """Everything observable about a hand, to prove a refused action changed nothing."""
    legal = None if hand.actor is None else hand.legal_actions()
    return (
        hand.stacks,
        hand.bets,
        hand.contributions,
        hand.folded,
        hand.all_in,
        hand.board,
        hand.street,
        hand.actor,
        hand.current_bet,
        hand.min_raise_increment,
        hand.pots(),
        tuple(hand.events),
        legal,
        hand.record().actions if not hand.explicit_dealing else None,
    )
