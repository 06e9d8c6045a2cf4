"""The all-in odds' result types and the margin of an estimate: what `bot.poker.equity` answers with.

The margin of an estimate is the half-width of a 95 % confidence interval on any of its chances, taken at its
worst case (a chance of one half): `1.96 * 0.5 / sqrt(trials)`, so 0.0049 (±0.49 %) at the default 40,000.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["DEFAULT_TRIALS", "MAX_EXACT_RUNOUTS", "HandOdds", "Odds", "PlayerOdds", "PotOdds", "margin_for"]

#: Monte Carlo run-outs drawn by default: a 95 % margin of ±0.49 % on every chance (`margin_for`).
DEFAULT_TRIALS = 40_000
#: Enumerate every run-out when there are at most this many (else estimate). Covers every flop and turn spot.
MAX_EXACT_RUNOUTS = 50_000
_Z95 = 1.959963984540054


def margin_for(trials: int) -> float:
    """The 95 % margin (a fraction: 0.005 is ±0.5 %) of a chance estimated over `trials` independent run-outs,
    at its worst case (a chance of 1/2): `1.96 * 0.5 / sqrt(trials)`."""
    return _Z95 * 0.5 / math.sqrt(trials)


@dataclass(frozen=True, slots=True)
class PlayerOdds:
    """One player's odds for one pot, fractions in 0..1.

    Attributes:
        win: the chance to win the pot alone.
        tie: the chance to share it with at least one other player (a split pot).
        share: the expected fraction of the pot won (`win` plus each tie's part, 1/k of a k-way split); the
            shares of a pot's players add up to 1.
    """

    win: float
    tie: float
    share: float


@dataclass(frozen=True, slots=True)
class PotOdds:
    """The odds for one pot.

    Attributes:
        players: the indexes (into the hands given) of the players eligible for the pot, ascending.
        odds: their `PlayerOdds`, in the same order.
    """

    players: tuple[int, ...]
    odds: tuple[PlayerOdds, ...]

    def of(self, player: int) -> PlayerOdds:
        """The odds of `player` (an index into the hands given). Raises KeyError when not eligible."""
        try:
            return self.odds[self.players.index(player)]
        except ValueError:
            raise KeyError(player) from None


@dataclass(frozen=True, slots=True)
class Odds:
    """The result of `all_in_odds`.

    Attributes:
        pots: one `PotOdds` per pot asked for, in the order asked.
        exact: True when every run-out was enumerated; False for a Monte Carlo estimate.
        margin: 0.0 when exact; otherwise the 95 % margin of every chance (`margin_for(runouts)`).
        runouts: how many run-outs were enumerated or drawn.
    """

    pots: tuple[PotOdds, ...]
    exact: bool
    margin: float
    runouts: int


@dataclass(frozen=True, slots=True)
class HandOdds:
    """One known hand's odds against unknown hands (`equity_vs_random`, `equity_vs_range`), fractions in 0..1.

    Attributes:
        win, tie, share: as in `PlayerOdds`.
        margin: the 95 % margin of each chance (`margin_for(trials)`).
        trials: how many deals were drawn.
    """

    win: float
    tie: float
    share: float
    margin: float
    trials: int
