"""Hole-card privacy check: no player's hole card is visible to anyone else before the showdown shows it.

For each hand the test registers the channel, each player's hole cards and three moments (stand-in
event numbers from ``stub.mark()``): ``start`` (before the deal), ``reveal`` (the showdown; None if
the hand ended without one) and ``end`` (after the hand; None: until now). A leak is a message version
created in [start, end) that shows a hole card of player P to someone other than P, while it was not
yet allowed: before ``reveal``, or at any time for a player who did not show (mucked cards stay private).

Who sees what: the hand's channel's public messages (everyone), other players' DMs, other players'
ephemeral messages in that channel. A card already present in the message's last version from before
``start`` is not counted (an old message edited during the hand still shows old cards).

Card forms are configurable (``CardForms``): by default rank + suit symbol ("A♠", "10♠" and "T♠") and
the two-letter ASCII form ("As", "Ts"), matched case-sensitively as whole tokens, so "As" in "Aspen"
or "T♠" inside "10♠" never counts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .model import CHANNEL_DM, Message, MessageVersion

if TYPE_CHECKING:
    from .server import DiscordStub

SUIT_SYMBOLS = {"s": ("♠",), "h": ("♥",), "d": ("♦",), "c": ("♣",)}
RANKS = "23456789TJQKA"


def parse_card(card: object) -> tuple[str, str]:
    """("A", "s") from "As", "A♠", "10s", "Td" or any object whose str() is one of those."""
    text = str(card).strip()
    for suit, symbols in SUIT_SYMBOLS.items():
        for symbol in symbols:
            if text.endswith(symbol):
                text = text[: -len(symbol)] + suit
    rank, suit = text[:-1].upper(), text[-1].lower()
    rank = "T" if rank == "10" else rank
    if rank not in RANKS or suit not in SUIT_SYMBOLS:
        raise ValueError(f"not a card: {card!r}")
    return rank, suit


@dataclass(frozen=True)
class CardForms:
    """How the bot may write a card. ``ten``: the spellings of rank ten; ``symbols``: suit -> symbols;
    ``ascii``: also match "As"/"Td"; ``extra``: more forms for a card given as ("A", "s")."""

    ten: tuple[str, ...] = ("10", "T")
    symbols: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: dict(SUIT_SYMBOLS))
    ascii: bool = True
    extra: Callable[[str, str], Iterable[str]] | None = None

    def forms(self, card: object) -> list[str]:
        """Every spelling of one card."""
        rank, suit = parse_card(card)
        ranks = self.ten if rank == "T" else (rank,)
        found = [r + s for r in ranks for s in self.symbols.get(suit, ())]
        if self.ascii:
            found.extend(r + suit for r in ranks)
        if self.extra is not None:
            found.extend(self.extra(rank, suit))
        return found

    def pattern(self, card: object) -> re.Pattern[str]:
        """A regex matching any form of the card as a whole token."""
        alternatives = "|".join(re.escape(f) for f in sorted(self.forms(card), key=len, reverse=True))
        return re.compile(rf"(?<![0-9A-Za-z])(?:{alternatives})(?![0-9A-Za-z])")


@dataclass
class HandSecrets:
    """One hand to check: hole cards per user id and the moments (stand-in ``seq`` numbers)."""

    channel_id: int
    hole_cards: Mapping[int, Sequence[object]]
    start: int
    reveal: int | None = None
    end: int | None = None
    shown: frozenset[int] | None = None  # players whose cards the showdown shows (None: all of them)
    label: str = ""


@dataclass(frozen=True)
class Leak:
    """A hole card seen by someone who should not have seen it yet."""

    hand: str
    owner: int
    card: str
    viewer: str
    message_id: int
    seq: int
    excerpt: str

    def __str__(self) -> str:
        return (
            f"hand {self.hand}: card {self.card} of user {self.owner} visible to {self.viewer} "
            f"in message {self.message_id} (event {self.seq}): {self.excerpt!r}"
        )


class PrivacyChecker:
    """Collects hands and finds leaks in what the stand-in recorded."""

    def __init__(self, stub: DiscordStub, forms: CardForms | None = None) -> None:
        self.stub = stub
        self.forms = forms or CardForms()
        self.hands: list[HandSecrets] = []

    def add_hand(
        self,
        channel: int,
        hole_cards: Mapping[int, Sequence[object]],
        *,
        start: int,
        reveal: int | None = None,
        end: int | None = None,
        shown: Iterable[int] | None = None,
        label: str = "",
    ) -> HandSecrets:
        """Register a hand (see the module docstring for the moments)."""
        hand = HandSecrets(channel, hole_cards, start, reveal, end, None if shown is None else frozenset(shown), label)
        self.hands.append(hand)
        return hand

    def leaks(self) -> list[Leak]:
        """Every leak over every registered hand."""
        found: list[Leak] = []
        for index, hand in enumerate(self.hands):
            found.extend(self._hand_leaks(hand, hand.label or str(index + 1)))
        return found

    def assert_private(self) -> None:
        """Fail (AssertionError listing them) if any hole card leaked."""
        found = self.leaks()
        if found:
            listing = "\n  ".join(str(leak) for leak in found[:20])
            raise AssertionError(f"{len(found)} hole card leak(s):\n  {listing}")

    def _views(self, hand: HandSecrets) -> list[tuple[str, int | None, Message]]:
        """(viewer label, viewer user id or None for everyone, message) for each message to inspect."""
        stub = self.stub
        views: list[tuple[str, int | None, Message]] = []
        channel = stub.channels[hand.channel_id]
        for message in channel.messages:
            if message.ephemeral_to is None:
                views.append(("the channel", None, message))
            elif message.ephemeral_to in hand.hole_cards:
                views.append((f"user {message.ephemeral_to} (ephemeral)", message.ephemeral_to, message))
        for uid in hand.hole_cards:
            user = stub.users.get(uid)
            if user is not None and user.dm_channel_id is not None:
                dm = stub.channels[user.dm_channel_id]
                assert dm.type == CHANNEL_DM
                views.extend((f"user {uid} (DM)", uid, m) for m in dm.messages)
        return views

    def _hand_leaks(self, hand: HandSecrets, label: str) -> list[Leak]:
        patterns = {
            (owner, str(card)): self.forms.pattern(card) for owner, cards in hand.hole_cards.items() for card in cards
        }
        end = hand.end if hand.end is not None else float("inf")
        leaks: list[Leak] = []
        for viewer, viewer_id, message in self._views(hand):
            baseline: MessageVersion | None = None
            for version in message.versions:
                if version.seq < hand.start:
                    baseline = version
                    continue
                if version.seq >= end:
                    break
                text = version.text()
                before = baseline.text() if baseline else ""
                for (owner, card), pattern in patterns.items():
                    if owner == viewer_id or self._allowed(hand, owner, version.seq):
                        continue
                    match = pattern.search(text)
                    if match and not pattern.search(before):
                        excerpt = text[max(0, match.start() - 40) : match.end() + 40]
                        leaks.append(Leak(label, owner, card, viewer, message.id, version.seq, excerpt))
        return leaks

    @staticmethod
    def _allowed(hand: HandSecrets, owner: int, seq: int) -> bool:
        if hand.reveal is None or seq < hand.reveal:
            return False
        return hand.shown is None or owner in hand.shown
