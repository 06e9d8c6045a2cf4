"""What a finished hand leaves: its result (the announcement for the channel, the JSON stored with the hand) and
each player's standings outcome (the engine's `HandStatistics`: won, showed, VPIP, PFR, showdown).

Pure functions of the finished `Hand` and its players' users and names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.poker import Hand, HandResult, hand_result_from_events, hand_statistics
from bot.storage import PlayerOutcome


@dataclass(frozen=True)
class FinishedHand:
    """A finished hand's result, twice: `announcement`, for the channel (the showdown / "Hand #N is over"), and
    `stored`, the JSON stored with the hand (`Storage.finish_hand`: board, shown and mucked hands, pots and their
    winners, chips returned, finishing stacks; user ids and chips; a hand run twice adds "second_board" and each
    half's "run", 1 or 2)."""

    announcement: HandResult
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
            | ({"run": p.run} if p.run else {})
            for p in announcement.pots
        ],
        "returned": [[u, chips] for u, _, chips in announcement.returned],
        "finishing_stacks": list(hand.stacks),
    }
    if hand.runs == 2:  # written only for a hand run twice: older results read the same
        data["second_board"] = [str(c) for c in hand.second_board]
    return FinishedHand(announcement, data)


def outcomes(hand: Hand, users: Sequence[int]) -> dict[int, PlayerOutcome]:
    """Per-user standings of the hand: the engine's per-hand statistics (`bot.poker.hand_statistics`: won,
    showed, VPIP, PFR, showdowns) keyed by user id (`users`: by player index)."""
    return dict(zip(users, hand_statistics(hand), strict=True))
