"""Per-hand statistics of each player, read from a hand's events (as PokerKit keeps `Statistics` beside its
engine): chips won, cards shown, VPIP, PFR, showdowns reached and won. The standings add them up. Cards shown
count once per hand, whether shown at the showdown or by choice after the hand (rule book 002: showing a hand
that need not be shown is the player's choice; either way the table saw it).

Definitions (the usual ones; the rule books define no statistics): VPIP — the player put chips in the pot
preflop voluntarily (a call, bet, raise or all-in; posting a blind, a straddle or an ante does not count);
PFR — the player bet or raised preflop (put in more than the bet to beat: the big blind, or the straddle —
2x the big blind, rule book 002 — when one was posted). Their rates are out of the hands with a preflop
decision: the player was asked to act before the flop. PokerTracker 4's VPIP is cnt_vpip / (cnt_hands -
cnt_walks), a walk being the big blind's hand when everyone folds to it (its PFR has the same denominator);
the same holds for every hand in which the player never had the chance to act preflop (everyone else folded
or left before their turn, or a forced bet put them all-in). A showdown is reached by every player who showed or
mucked at it (rule book 000 §06); it is won when they collected chips from a pot of the hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.poker.events import (
    BlindPosted,
    HandMucked,
    HandShown,
    PlayerActed,
    PotAwarded,
    ShownByChoice,
    Street,
    StreetDealt,
)
from bot.poker.hand import Hand

__all__ = ["HandStatistics", "hand_statistics"]


@dataclass(frozen=True, slots=True)
class HandStatistics:
    """What one hand meant for one player: won (chips collected from pots, 0 if none; an uncalled bet returned
    is not a win), showed (hole cards shown, at the showdown or by choice after the hand), vpip, pfr,
    went_to_showdown, won_at_showdown, and preflop_decision (the player was asked to act before the flop: the
    hands VPIP and PFR are rates of)."""

    won: int = 0
    showed: bool = False
    vpip: bool = False
    pfr: bool = False
    went_to_showdown: bool = False
    won_at_showdown: bool = False
    preflop_decision: bool = False


def hand_statistics(hand: Hand) -> tuple[HandStatistics, ...]:
    """Each player's `HandStatistics` in `hand` (by hand player index), from its events so far."""
    won: dict[int, int] = {}
    showed: set[int] = set()
    at_showdown: set[int] = set()
    vpip: set[int] = set()
    pfr: set[int] = set()
    decided: set[int] = set()
    street = Street.PREFLOP
    # The forced bets set the bet to beat: the big blind, or the straddle (2x BB) when one was posted.
    highest = hand.settings.big_blind
    for event in hand.events:
        match event:
            case BlindPosted(kind="straddle"):
                highest = 2 * hand.settings.big_blind
            case StreetDealt(street=dealt):
                street = dealt
            case PlayerActed(player=player, amount=amount, added=added) if street == Street.PREFLOP:
                decided.add(player)
                if added > 0:
                    vpip.add(player)
                    if amount > highest:
                        pfr.add(player)
                    highest = max(highest, amount)
            case HandShown(player=player):
                showed.add(player)
                at_showdown.add(player)
            case HandMucked(player=player):
                at_showdown.add(player)
            case ShownByChoice(player=player):
                showed.add(player)
            case PotAwarded(winners=winners):
                for player, chips in winners:
                    won[player] = won.get(player, 0) + chips
    return tuple(
        HandStatistics(
            won=won.get(player, 0),
            showed=player in showed,
            vpip=player in vpip,
            pfr=player in pfr,
            went_to_showdown=player in at_showdown,
            won_at_showdown=player in at_showdown and won.get(player, 0) > 0,
            preflop_decision=player in decided,
        )
        for player in range(hand.player_count)
    )
