"""A table's settings as chosen at `/poker create`: blinds, stacks, seats, timer, kind; checked and stored as JSON.

Also the one set of table defaults and their scaling: the rule book's table (000 §04: blinds 1/2, 100 chips
each) is the default, and a table at other blinds keeps the same sizes counted in big blinds (`at_blinds`). The
bot's settings (`bot/config.py`), the server defaults of `/poker-admin settings` and `/poker create`
(`bot/discord_ui/table_settings.py`) all start from these numbers; the README's "Settings" table says the same.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from fractions import Fraction
from typing import Any

from bot.poker import LevelBy, TableKind
from bot.tables.errors import ServiceError

#: `/poker create kind:learning`: a tournament table with `TableOptions.learning` (not a kind of its own in storage).
LEARNING = "learning"

MIN_TURN_TIMEOUT = 10
MAX_TURN_TIMEOUT = 600
MAX_TIME_BANK = 600

#: The betting structures a table may play (bot.poker.Betting values; rule books 001 and 002).
BETTING_STRUCTURES = ("no-limit", "pot-limit", "fixed-limit")

#: The default table (rule book 000 §04): blinds 1/2, 60 seconds to act.
DEFAULT_SMALL_BLIND = 1
DEFAULT_BIG_BLIND = 2
DEFAULT_TURN_TIMEOUT = 60
#: Stack sizes in big blinds, kept at any blinds: the tournament stack and a cash table's default buy-in (100 at
#: 1/2, the rule book's "100 jetons"), and a cash table's buy-in range (40 to 100 at 1/2; a rebuy tops up to the
#: maximum).
STACK_BB = 50
MIN_BUY_IN_BB = 20
MAX_BUY_IN_BB = 50


def at_blinds(big_blind: int) -> dict[str, int]:
    """The default stacks at big blind `big_blind` (chips): starting_stack and buy_in (STACK_BB), min_buy_in and
    max_buy_in (MIN_BUY_IN_BB, MAX_BUY_IN_BB)."""
    return {
        "starting_stack": STACK_BB * big_blind,
        "buy_in": STACK_BB * big_blind,
        "min_buy_in": MIN_BUY_IN_BB * big_blind,
        "max_buy_in": MAX_BUY_IN_BB * big_blind,
    }


def rescaled(chips: int, from_big_blind: int, to_big_blind: int) -> int:
    """A stack of `chips` at big blind `from_big_blind`, the same size in big blinds at `to_big_blind` (rounded,
    at least 1 chip)."""
    return max(1, round(chips * Fraction(to_big_blind, from_big_blind)))


#: What each setting allows, in English (the `allowed` text of a "bad_option" refusal; the catalogues translate
#: it as `allowed.<option>` with the same parameters).
ALLOWED: dict[str, str] = {
    "kind": "cash or tournament",
    "small_blind": "1 to the big blind ({big_blind})",
    "big_blind": "at least 1",
    "ante": "0 to the big blind ({big_blind})",
    "big_blind_ante": "0 or more",
    "seats": "2 to 10",
    "turn_timeout": "{min} to {max} seconds",
    "starting_stack": "at least the big blind ({big_blind})",
    "min_buy_in": "between the big blind ({big_blind}) and the maximum buy-in",
    "buy_in": "{min} to {max}",
    "level_by": "hands or minutes",
    "blind_levels": "levels of small blind ≤ big blind, ante from 0 to the big blind",
    "level_length": "at least 1 hand or minute",
    "betting": "no-limit, pot-limit or fixed-limit",
    "missed_blinds": "cash tables only",
    "time_bank": "0 to {max} seconds",
}


@dataclass(frozen=True)
class TableOptions:
    """Everything agreed when a table is created. Chips are ints, times are seconds.

    kind: CASH (buy in from the balance, rebuy, cash out) or TOURNAMENT (rule book 000 §07: the same stack for
    everyone, last player with chips wins); `TableKind`, whose strings are read as its members (as `level_by`'s).
    small_blind/big_blind: 1/2 by default (rule book 000 §04). ante: per player, 0 to the big blind (rule book 002,
    on the blinds: antes are "petites contributions de chaque joueur", small contributions of every player, so one
    above the big blind is refused, at a table and in every level of a blind schedule); big_blind_ante: posted by the
    big blind alone, any size from 0 (rule book 002 names the "Big Blind Ante (BBA) posté par la BB" and no size:
    it stands for every player's ante, so it may exceed the big blind); straddle: allowed (2× BB by the player left
    of the BB) — all off by default. seats: 2–10.
    turn_timeout: 10–600 s.
    starting_stack: the tournament stack (rule book: 100). min_buy_in/max_buy_in/buy_in: cash-table limits
    and the default buy-in (40 to 100 and 100 at blinds 1/2; a rebuy tops up to the maximum), checked at cash
    tables only (a tournament never reads them). The defaults are the module's DEFAULT_* and *_BB numbers.
    blind_levels: optional tournament schedule, a tuple of
    (small blind, big blind, ante) levels, each lasting `level_length` hands or minutes (`level_by`).
    next_hand_delay: seconds between the end of a hand and the next deal.
    run_it_twice: when the betting closes with cards to come and a player all-in, the players still in are asked
    whether to deal the rest of the board twice (rule book 002, by agreement of everyone involved); off by default.
    betting: "no-limit" (default, rule book 000), "pot-limit" or "fixed-limit" (docs/betting.md).
    dead_button: the card room's dead-button rule instead of the simple rotation (bot/poker/table.py).
    missed_blinds: cash tables: players who missed their big blind, and new players, post or wait for it.
    time_bank: seconds of each player's time bank (0: none), refilled `time_bank_refill` seconds per hand up
    to that; at a tournament every bank is full again at each new level (bot/tables/timebank.py).
    pictures: the street and showdown messages carry a picture of the table (on by default; a server turns
    them off for its tables with `/poker-admin settings pictures:False`). four_colour: the picture draws the
    four-colour deck (spades black, hearts red, diamonds blue, clubs green).
    learning: a learning table (issue 17; docs/practice.md): a tournament's chips (given at the table, nothing from
    or to balances) with every hole card face up from the deal, the coach on for everyone, and no place recorded
    (nothing on the leaderboard).
    computer_delay: a computer player's mean pause before it acts, seconds (uniformly half to one and a half
    times it: 1 to 3 s by default; 0 acts at once, for tests).
    """

    kind: TableKind = TableKind.CASH
    small_blind: int = DEFAULT_SMALL_BLIND
    big_blind: int = DEFAULT_BIG_BLIND
    ante: int = 0
    big_blind_ante: int = 0
    straddle: bool = False
    seats: int = 10
    turn_timeout: int = DEFAULT_TURN_TIMEOUT
    starting_stack: int = STACK_BB * DEFAULT_BIG_BLIND
    buy_in: int = STACK_BB * DEFAULT_BIG_BLIND
    min_buy_in: int = MIN_BUY_IN_BB * DEFAULT_BIG_BLIND
    max_buy_in: int = MAX_BUY_IN_BB * DEFAULT_BIG_BLIND
    blind_levels: tuple[tuple[int, int, int], ...] = field(default_factory=tuple)
    level_by: LevelBy = LevelBy.HANDS
    level_length: int = 0
    next_hand_delay: float = 5.0
    run_it_twice: bool = False
    betting: str = "no-limit"
    dead_button: bool = False
    missed_blinds: bool = False
    time_bank: int = 60
    time_bank_refill: int = 5
    pictures: bool = True
    four_colour: bool = False
    computer_delay: float = 2.0
    learning: bool = False

    def __post_init__(self) -> None:
        # The strings of a kind and a level unit (stored JSON, a command's choice) are read as the enums' members; any
        # other value stays, for `validated` to refuse.
        for name, kinds in (("kind", TableKind), ("level_by", LevelBy)):
            value = getattr(self, name)
            if not isinstance(value, kinds) and value in tuple(kinds):
                object.__setattr__(self, name, kinds(value))

    def validated(self) -> TableOptions:
        """Return self if every setting is within its range; raise ServiceError("bad_option") naming the first
        that is not, with what is allowed."""

        def bad(option: str, **params: int) -> ServiceError:
            allowed = ALLOWED[option].format(**params)
            return ServiceError("bad_option", option=option, allowed=allowed, **params)

        if not isinstance(self.kind, TableKind) or (self.learning and self.kind is not TableKind.TOURNAMENT):
            raise bad("kind")
        if not 1 <= self.small_blind <= self.big_blind:
            raise bad("small_blind", big_blind=self.big_blind)
        if self.big_blind < 1:
            raise bad("big_blind")
        if not 0 <= self.ante <= self.big_blind:
            raise bad("ante", big_blind=self.big_blind)
        if self.big_blind_ante < 0:
            raise bad("big_blind_ante")
        if not 2 <= self.seats <= 10:
            raise bad("seats")
        if not MIN_TURN_TIMEOUT <= self.turn_timeout <= MAX_TURN_TIMEOUT:
            raise bad("turn_timeout", min=MIN_TURN_TIMEOUT, max=MAX_TURN_TIMEOUT)
        if self.starting_stack < self.big_blind:
            raise bad("starting_stack", big_blind=self.big_blind)
        # The buy-in range is a cash table's: a tournament's players all sit with `starting_stack` (its fields stay
        # the scaled defaults, never read).
        if self.kind is TableKind.CASH and not self.big_blind <= self.min_buy_in <= self.max_buy_in:
            raise bad("min_buy_in", big_blind=self.big_blind)
        if self.kind is TableKind.CASH and not self.min_buy_in <= self.buy_in <= self.max_buy_in:
            raise bad("buy_in", min=self.min_buy_in, max=self.max_buy_in)
        if not isinstance(self.level_by, LevelBy):
            raise bad("level_by")
        for level in self.blind_levels:
            small, big, ante = level
            if not 1 <= small <= big or not 0 <= ante <= big:
                raise bad("blind_levels")
        if self.blind_levels and self.level_length < 1:
            raise bad("level_length")
        if self.betting not in BETTING_STRUCTURES:
            raise bad("betting")
        if self.missed_blinds and self.kind is not TableKind.CASH:
            raise bad("missed_blinds")
        if not 0 <= self.time_bank <= MAX_TIME_BANK or not 0 <= self.time_bank_refill <= MAX_TIME_BANK:
            raise bad("time_bank", max=MAX_TIME_BANK)
        return self

    @classmethod
    def for_blinds(cls, small_blind: int, big_blind: int, **changes: Any) -> TableOptions:
        """Options with the default stacks scaled to the blinds (`at_blinds`: tournament stack and default buy-in
        50 BB, buy-in 20 to 50 BB) — unless given in `changes`."""
        base: dict[str, Any] = {"small_blind": small_blind, "big_blind": big_blind, **at_blinds(big_blind)}
        base.update(changes)
        return cls(**base).validated()

    def with_changes(self, **changes: Any) -> TableOptions:
        """A validated copy with some settings changed."""
        return replace(self, **changes).validated()

    def to_json(self) -> dict[str, Any]:
        """A JSON object of every setting."""
        data = asdict(self)
        data["blind_levels"] = [list(level) for level in self.blind_levels]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableOptions:
        """Options from `to_json` output (unknown keys ignored, missing ones default)."""
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        if "blind_levels" in known:
            known["blind_levels"] = tuple(tuple(level) for level in known["blind_levels"])
        return cls(**known)
