"""What a computer player may know: its own hole cards and the public state of the hand, as a frozen value.

`view_of(hand, player)` copies out of a `Hand` exactly what a human in that seat sees at the table — their
own two cards, the board, every stack, bet and fold, the pot, the public action so far, and what they may do
now — and nothing else: no reference to the `Hand`, the deck or anyone else's hole cards (docs/practice.md,
"What a computer player sees"). A strategy only ever receives a `PlayerView`, so it cannot cheat.

Hand indexes as in `bot.poker.hand`: 0 is the first seat left of the button, n-1 the button (heads-up,
1 is the button and posts the small blind). Chips are ints.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.poker.cards import Card
from bot.poker.events import ActionKind, BlindPosted, PlayerActed, Street, StreetDealt
from bot.poker.hand import Hand, LegalActions

__all__ = ["PlayerView", "PublicAction", "view_of"]


@dataclass(frozen=True, slots=True)
class PublicAction:
    """One public betting decision (or forced bet) as everyone at the table saw it.

    Attributes:
        street: the street it was made on.
        player: the hand index of its author.
        kind: the decision; forced bets are None with `blind` naming them ('small_blind', 'big_blind', ...).
        amount: the author's total bet on this street after it (chips).
        added: chips moved from the stack by it.
        all_in: the author has no chips left after it.
        blind: the forced bet's kind for a forced bet, else None.
        raised: it raised the bet to match on its street (a bet, a raise, or an all-in above the bet; a forced
            bet never counts).
    """

    street: Street
    player: int
    kind: ActionKind | None
    amount: int
    added: int
    all_in: bool
    blind: str | None = None
    raised: bool = False


@dataclass(frozen=True, slots=True)
class PlayerView:
    """The hand seen from one seat while it is that seat's turn (see the module docstring).

    Attributes:
        player: this seat's hand index; player_count: players dealt in (2..10); button: n-1.
        hole_cards: this player's two cards.
        shown: per player, hole cards that are public (a learning table deals face up), () when hidden
            (always () for this player: their cards are `hole_cards`).
        board: the community cards (0, 3, 4 or 5); street: the current street.
        small_blind / big_blind: the hand's blinds (chips).
        stacks / bets / folded: per player, chips behind, chips bet on this street, has folded.
        pot: every chip in the middle, this street's bets included.
        current_bet: the total to match on this street; min_raise_increment: a raise adds at least this.
        legal: what this player may do now (`LegalActions`).
        history: the public actions of the hand so far, forced bets first.
    """

    player: int
    player_count: int
    hole_cards: tuple[Card, ...]
    shown: tuple[tuple[Card, ...], ...]
    board: tuple[Card, ...]
    street: Street
    small_blind: int
    big_blind: int
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    folded: tuple[bool, ...]
    pot: int
    current_bet: int
    min_raise_increment: int
    legal: LegalActions
    history: tuple[PublicAction, ...]

    @property
    def button(self) -> int:
        """The button's hand index (n-1)."""
        return self.player_count - 1

    @property
    def to_call(self) -> int:
        """Chips this player must add to call (0 when checking is free)."""
        return self.legal.call_amount

    @property
    def opponents(self) -> tuple[int, ...]:
        """The other players still in the hand (not folded), in hand order."""
        return tuple(i for i in range(self.player_count) if i != self.player and not self.folded[i])

    @property
    def stack(self) -> int:
        """This player's chips behind."""
        return self.stacks[self.player]

    def actions_on(self, street: Street) -> tuple[PublicAction, ...]:
        """The public decisions (no forced bets) of one street, in order."""
        return tuple(a for a in self.history if a.street is street and a.kind is not None)


def view_of(hand: Hand, player: int, *, shown: Mapping[int, tuple[Card, ...]] | None = None) -> PlayerView:
    """The `PlayerView` of `player` in `hand`, which must be that player's turn.

    Args:
        hand: a hand dealt from a deck (not explicit dealing).
        player: the hand index of the player to act.
        shown: hole cards of others that are public at this table (learning table); none by default.

    Raises:
        NotYourTurnError: `player` is not the player to act.
        HandOverError / IllegalActionError: nobody is to act (from `Hand.legal_actions`).
    """
    legal = hand.legal_actions()
    if legal.player != player:
        hand.verify_action(ActionKind.FOLD, player=player)  # raises NotYourTurnError
    history: list[PublicAction] = []
    street = Street.PREFLOP
    # Callers owe the nominal blinds even when a short blind posted less (as the engine rules).
    to_match = max((amount for _, amount, _ in hand.settings.forced_bets(hand.player_count).blinds), default=0)
    for event in hand.events:
        match event:
            case BlindPosted(player=p, kind=kind, amount=amount):
                history.append(PublicAction(Street.PREFLOP, p, None, amount, amount, False, kind))
            case PlayerActed(player=p, action=kind, amount=amount, added=added, all_in=all_in):
                raised = kind is not ActionKind.FOLD and amount > to_match
                history.append(PublicAction(street, p, kind, amount, added, all_in, raised=raised))
                to_match = max(to_match, amount)
            case StreetDealt(street=dealt):
                street = dealt
                to_match = 0
            case _:
                pass  # hole cards (private), pots and the end are not decisions
    settings = hand.settings
    public = tuple(() if i == player else tuple((shown or {}).get(i, ())) for i in range(hand.player_count))
    return PlayerView(
        player=player,
        player_count=hand.player_count,
        hole_cards=tuple(hand.hole_cards[player]),
        shown=public,
        board=hand.board,
        street=hand.street,
        small_blind=settings.small_blind,
        big_blind=settings.big_blind,
        stacks=hand.stacks,
        bets=hand.bets,
        folded=hand.folded,
        pot=hand.total_pot,
        current_bet=hand.current_bet,
        min_raise_increment=hand.min_raise_increment,
        legal=legal,
        history=tuple(history),
    )
