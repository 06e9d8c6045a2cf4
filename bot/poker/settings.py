"""Hand settings: blinds, antes, big-blind ante, straddle, minimum bet; and who posts what.

A table's settings are the named fields (`small_blind`, `big_blind`, `ante`, `big_blind_ante`,
`straddle`). Hand histories from elsewhere (PHH files) can post forced bets a table of ours never
would (only one blind, antes as dead money); the optional `blinds_or_straddles`, `antes` and
`dead_antes` fields describe them exactly, in PHH's per-player layout.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.poker.errors import InvalidSetupError

__all__ = ["ForcedBets", "HandSettings"]

MIN_PLAYERS = 2
MAX_PLAYERS = 10


@dataclass(frozen=True, slots=True)
class HandSettings:
    """The forced bets and the minimum bet of a hand (chips, ints).

    Attributes:
        small_blind: posted by the first player left of the button (heads-up: by the button).
        big_blind: posted by the next player (heads-up: by the non-button player). Rule book 000 §04.
        ante: posted by every player before the deal (rule book 002). It counts as that player's
            contribution: a player all-in for less than the ante wins only what they matched.
        big_blind_ante: posted by the big blind alone, before the blind, as dead money in the main
            pot (rule book 002 "Big Blind Ante").
        straddle: the player left of the big blind posts a live straddle of 2x the big blind and
            action starts on their left (rule book 002); only with 3 or more players.
        min_bet: the minimum opening bet of a street; None means the big blind (rule book 000 §05).
        blinds_or_straddles: PHH layout, per player in hand order (0 = first left of the button;
            heads-up the file's order is [small blind, big blind] and is swapped as in PHH/PokerKit);
            when given it replaces small_blind, big_blind and straddle.
        antes: PHH layout of per-player antes (heads-up swapped the same way); replaces ante and
            big_blind_ante when given.
        dead_antes: antes (the `ante` field or the `antes` layout) are dead money in the main pot
            rather than each player's contribution (PHH `ante_trimming_status = false`). The
            big-blind ante is always dead.
        run_it_twice: when the betting closes with cards to come and a player all-in, the players still in
            the hand are asked whether to deal the rest of the board twice; if every one of them agrees, each
            pot is split in two halves, one per board (rule book 002: "run it twice" by agreement of all
            involved, before the run-out). Off by default.

    Raises (at construction):
        InvalidSetupError: a negative amount, no positive minimum bet, or a non-int amount.
    """

    small_blind: int = 1
    big_blind: int = 2
    ante: int = 0
    big_blind_ante: int = 0
    straddle: bool = False
    min_bet: int | None = None
    blinds_or_straddles: tuple[int, ...] | None = None
    antes: tuple[int, ...] | None = None
    dead_antes: bool = False
    run_it_twice: bool = False

    def __post_init__(self) -> None:
        amounts = [self.small_blind, self.big_blind, self.ante, self.big_blind_ante]
        amounts += list(self.blinds_or_straddles or ()) + list(self.antes or ())
        if self.min_bet is not None:
            amounts.append(self.min_bet)
        for amount in amounts:
            if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
                raise InvalidSetupError("invalid_settings", detail=f"amounts must be whole chips >= 0, got {amount!r}")
        if self.effective_min_bet < 1:
            raise InvalidSetupError("invalid_settings", detail="the minimum bet (big blind) must be at least 1")
        if self.blinds_or_straddles is None and self.small_blind > self.big_blind:
            raise InvalidSetupError("invalid_settings", detail="the small blind can't be above the big blind")

    @property
    def effective_min_bet(self) -> int:
        """The minimum opening bet: `min_bet`, or the big blind when None."""
        return self.min_bet if self.min_bet is not None else self.big_blind

    def forced_bets(self, player_count: int) -> ForcedBets:
        """Who posts what in a hand of `player_count` players (see `ForcedBets`; cached).

        Raises:
            InvalidSetupError: player_count outside 2..10, or a PHH layout of another length.
        """
        return _forced_bets(self, player_count)

    def _forced_bets(self, player_count: int) -> ForcedBets:
        n = player_count
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise InvalidSetupError("player_count", count=n)
        antes = [0] * n
        dead = [False] * n
        kinds = ["ante"] * n
        if self.antes is not None:
            if len(self.antes) != n:
                raise InvalidSetupError("invalid_settings", detail=f"{len(self.antes)} antes for {n} players")
            antes = list(self.antes[::-1] if n == 2 else self.antes)
            dead = [self.dead_antes] * n
        else:
            antes = [self.ante] * n
            dead = [self.dead_antes] * n
            if self.big_blind_ante:
                bb = 0 if n == 2 else 1
                if self.ante:
                    raise InvalidSetupError("invalid_settings", detail="choose either antes or a big-blind ante")
                antes[bb] = self.big_blind_ante
                dead[bb] = True
                kinds[bb] = "bb_ante"
        # blinds: (player, nominal amount, kind) in posting order
        blinds: list[tuple[int, int, str]] = []
        if self.blinds_or_straddles is not None:
            layout = self.blinds_or_straddles
            if len(layout) != n:
                raise InvalidSetupError("invalid_settings", detail=f"{len(layout)} blinds for {n} players")
            for position, amount in enumerate(layout):
                if amount:
                    player = (1 - position) if n == 2 else position
                    kind = ("small_blind", "big_blind")[position] if position < 2 else "straddle"
                    blinds.append((player, amount, kind))
        elif n == 2:
            if self.small_blind:
                blinds.append((1, self.small_blind, "small_blind"))
            blinds.append((0, self.big_blind, "big_blind"))
        else:
            if self.small_blind:
                blinds.append((0, self.small_blind, "small_blind"))
            blinds.append((1, self.big_blind, "big_blind"))
            if self.straddle:
                blinds.append((2, 2 * self.big_blind, "straddle"))
        return ForcedBets(tuple(antes), tuple(dead), tuple(kinds), tuple(blinds), self.effective_min_bet)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict; the optional PHH fields appear only when set."""
        out: dict[str, Any] = {
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "ante": self.ante,
            "big_blind_ante": self.big_blind_ante,
            "straddle": self.straddle,
        }
        if self.min_bet is not None:
            out["min_bet"] = self.min_bet
        if self.blinds_or_straddles is not None:
            out["blinds_or_straddles"] = list(self.blinds_or_straddles)
        if self.antes is not None:
            out["antes"] = list(self.antes)
        if self.dead_antes:
            out["dead_antes"] = True
        if self.run_it_twice:
            out["run_it_twice"] = True
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HandSettings:
        """Inverse of `to_json`. Raises InvalidSetupError on bad values (unknown keys are refused)."""
        known = set(cls.__dataclass_fields__)
        unknown = set(data) - known
        if unknown:
            raise InvalidSetupError("invalid_settings", detail=f"unknown fields {sorted(unknown)}")
        values = dict(data)
        for key in ("blinds_or_straddles", "antes"):
            if values.get(key) is not None:
                values[key] = tuple(values[key])
        return cls(**values)


@functools.lru_cache(maxsize=256)
def _forced_bets(settings: HandSettings, player_count: int) -> ForcedBets:
    return settings._forced_bets(player_count)


@dataclass(frozen=True, slots=True)
class ForcedBets:
    """The forced bets of one hand, resolved for its number of players (hand player indexes).

    Attributes:
        antes: nominal ante of each player (0 = none).
        dead: per player, whether their ante is dead money (not counted as their contribution).
        ante_kinds: event kind of each player's ante ('ante' or 'bb_ante').
        blinds: (player, nominal amount, kind) in posting order; kind 'small_blind', 'big_blind'
            or 'straddle'.
        min_bet: minimum opening bet of each street.
    """

    antes: tuple[int, ...]
    dead: tuple[bool, ...]
    ante_kinds: tuple[str, ...]
    blinds: tuple[tuple[int, int, str], ...]
    min_bet: int
