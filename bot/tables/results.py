"""What a finished hand leaves: its result (the announcement for the channel, the JSON stored with the hand) and
each player's standings outcome (won, showed, VPIP, PFR, showdown).

Pure functions of the finished `Hand` and its players' users and names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.poker import BlindPosted, Hand, HandMucked, HandShown, PlayerActed, PotAwarded, Street, StreetDealt
from bot.render.announce import hand_result_from_events
from bot.storage import PlayerOutcome
from bot.tables.notifier import HandResultAnnouncement


@dataclass(frozen=True)
class FinishedHand:
    """A finished hand's result, twice: `announcement`, for the channel (the showdown / "Hand #N is over"), and
    `stored`, the JSON stored with the hand (`Storage.finish_hand`: board, shown and mucked hands, pots and their
    winners, chips returned, finishing stacks; user ids and chips)."""

    announcement: HandResultAnnouncement
    stored: dict[str, Any]


def hand_result(hand: Hand, number: int, users: Sequence[int], names: Sequence[str]) -> FinishedHand:
    """Hand `number`'s result (see `FinishedHand`). `users` / `names`: the players' user ids and display names
    by player index."""
    announcement = hand_result_from_events(number, hand.events, tuple(names), tuple(users))
    data = {
        "board": [str(c) for c in hand.board],
        "shown": [{"user_id": s.user_id, "cards": [str(c) for c in s.cards]} for s in announcement.shown],
        "mucked": [u for u, _ in announcement.mucked],
        "pots": [
            {"index": p.index, "amount": p.amount, "winners": [[u, chips] for u, _, chips in p.winners]}
            for p in announcement.pots
        ],
        "returned": [[u, chips] for u, _, chips in announcement.returned],
        "finishing_stacks": list(hand.stacks),
    }
    return FinishedHand(announcement, data)


def outcomes(hand: Hand, users: Sequence[int]) -> dict[int, PlayerOutcome]:
    """Per-user standings of the hand: won, showed, VPIP, PFR, showdown (standard definitions:
    VPIP = chips put in preflop voluntarily; PFR = a preflop bet or raise; blinds do not count)."""
    won: dict[int, int] = {}
    showed: set[int] = set()
    at_showdown: set[int] = set()
    vpip: set[int] = set()
    pfr: set[int] = set()
    street = Street.PREFLOP
    # The forced bets set the bet to beat: the big blind, or the straddle (2x BB) when one was posted.
    highest = hand.settings.big_blind
    for event in hand.events:
        if isinstance(event, BlindPosted) and event.kind == "straddle":
            highest = 2 * hand.settings.big_blind
        elif isinstance(event, StreetDealt):
            street = event.street
        elif isinstance(event, PlayerActed) and street == Street.PREFLOP and event.added > 0:
            vpip.add(event.player)
            if event.amount > highest:
                pfr.add(event.player)
            highest = max(highest, event.amount)
        elif isinstance(event, HandShown):
            showed.add(event.player)
            at_showdown.add(event.player)
        elif isinstance(event, HandMucked):
            at_showdown.add(event.player)
        elif isinstance(event, PotAwarded):
            for p, chips in event.winners:
                won[p] = won.get(p, 0) + chips
    result = {}
    for player, user in enumerate(users):
        result[user] = PlayerOutcome(
            won=won.get(player, 0),
            showed=player in showed,
            vpip=player in vpip,
            pfr=player in pfr,
            went_to_showdown=player in at_showdown,
            won_at_showdown=player in at_showdown and won.get(player, 0) > 0,
        )
    return result
