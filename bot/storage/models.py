"""Row types returned by bot.storage: small frozen dataclasses (chips are ints, times Unix seconds)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

import orjson

from bot.poker import HandStatistics, TableKind
from bot.poker.players.base import is_computer_player


class Row(Protocol):
    """A result row, by column name or position (sqlite3.Row and asyncpg.Record both are)."""

    def __getitem__(self, key: str | int, /) -> Any: ...

    def keys(self) -> Iterable[str]:
        """The column names, in order."""
        ...

    def __iter__(self) -> Iterator[Any]:
        """The values, in column order."""
        ...


#: Unix seconds now (tests inject one).
Clock = Callable[[], float]


_ORJSON_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> str:
    """The JSON text bot.storage stores (keys sorted, compact, UTF-8 text not escaped): the same value always gives
    the same text. Written by orjson (10-30 times faster than the standard library on a hand action, a table's state
    or a hand record, every action's path: issue 14): the same text as `json.dumps(value, sort_keys=True,
    separators=(",", ":"), ensure_ascii=False)`, except that a NaN or an infinity is written null (the standard
    library wrote NaN, which is not JSON), a float's negative exponent has no leading zero ("1e-9", not "1e-09":
    the same value) and a mapping with int keys is sorted by their text ("10" before "2");
    what orjson refuses (an integer beyond 64 bits, a lone surrogate) is written by the standard library. Raises
    TypeError for a value JSON cannot hold."""
    try:
        return orjson.dumps(value, option=_ORJSON_OPTIONS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def loads(text: str | None) -> Any:
    """A stored JSON text's value (None for NULL)."""
    return None if text is None else json.loads(text)


class LedgerKind(StrEnum):
    """Why chips entered or left a balance. GRANT, REFILL and ADJUSTMENT issue chips; the rest move them.

    Adding a kind (e.g. the house account's movements): a member here, in ISSUING_KINDS if it issues chips, and a
    numbered migration in both dialects' folders that lets `ledger.kind` take the new value (docs/storage.md,
    "Adding a ledger kind")."""

    GRANT = "grant"
    REFILL = "refill"
    BUY_IN = "buy_in"
    REBUY = "rebuy"
    CASH_OUT = "cash_out"
    TOURNAMENT_ENTRY = "tournament_entry"
    TOURNAMENT_PRIZE = "tournament_prize"
    REFUND = "refund"
    ADJUSTMENT = "adjustment"
    HOUSE_ISSUE = "house_issue"  # chips issued to the house account for a computer player's buy-in (issue 17)


#: The kinds that issue chips (the audit's "issued" side); every other kind moves chips between a balance and a table.
ISSUING_KINDS = (LedgerKind.GRANT, LedgerKind.REFILL, LedgerKind.ADJUSTMENT, LedgerKind.HOUSE_ISSUE)

#: The server's house account (docs/practice.md, "Chips"): computer players at cash tables buy in from it and cash
#: out to it. It is an account outside every member's balance, never on the leaderboard, opened without a grant.
HOUSE_USER_ID = 0


def ledger_account(user_id: int) -> int:
    """The account a seat's chips come from and go back to: the house for a computer player, else the member."""
    return HOUSE_USER_ID if is_computer_player(user_id) else user_id


class TableStatus(StrEnum):
    """An open table plays; a closed one keeps only its history."""

    OPEN = "open"
    CLOSED = "closed"


class LeaderboardBy(StrEnum):
    """What /leaderboard ranks by: balance, net chips won at cash tables (`StatsRow.net`), or tournament wins."""

    BALANCE = "balance"
    NET = "net"
    TOURNAMENT_WINS = "tournament_wins"


@dataclass(frozen=True)
class GuildDefaults:
    """The bot-wide defaults a server uses until it changes them (from config)."""

    language: str = "en"
    starting_grant: int = 1000
    refill_cooldown_s: int = 24 * 3600
    table_defaults: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class GuildSettings:
    """A server's effective settings: its own choices over the bot's defaults. `chosen_language` is the
    language the server chose with /poker-admin settings ("en"/"fr"), None if it chose none (then `language` is the
    bot's default and a new table speaks the server's Discord language: see bot.discord_ui.table_settings)."""

    guild_id: int
    language: str
    starting_grant: int
    refill_cooldown_s: int
    table_defaults: Mapping[str, Any]
    chosen_language: str | None = None


@dataclass(frozen=True)
class AccountRow:
    """A member's chips on one server (the balance, off the tables)."""

    guild_id: int
    user_id: int
    balance: int
    created_at: float
    last_refill_at: float | None

    @classmethod
    def from_row(cls, row: Row) -> AccountRow:
        """From an `accounts` row."""
        return cls(row["guild_id"], row["user_id"], row["balance"], row["created_at"], row["last_refill_at"])


@dataclass(frozen=True)
class LedgerRow:
    """One chip movement in or out of a balance; `delta` > 0 credits the balance."""

    id: int
    guild_id: int
    user_id: int
    delta: int
    kind: LedgerKind
    reason: str
    table_id: int | None
    hand_id: int | None
    balance_after: int
    created_at: float

    @classmethod
    def from_row(cls, row: Row) -> LedgerRow:
        """From a `ledger` row."""
        return cls(
            row["id"],
            row["guild_id"],
            row["user_id"],
            row["delta"],
            LedgerKind(row["kind"]),
            row["reason"],
            row["table_id"],
            row["hand_id"],
            row["balance_after"],
            row["created_at"],
        )


@dataclass(frozen=True)
class SeatRow:
    """A seat at a table (numbered from 1) with the chips in front of it."""

    seat: int
    user_id: int
    stack: int

    @classmethod
    def from_row(cls, row: Row) -> SeatRow:
        """From a `table_seats` row (seat, user_id, stack)."""
        return cls(row["seat"], row["user_id"], row["stack"])


@dataclass(frozen=True)
class OutboxRow:
    """A message a committed change owes Discord, not yet delivered (docs/outbox.md): the table's id, the row's
    unique `key` (the Discord message nonce of a post) and the table service's JSON `payload`."""

    table_id: int
    key: str
    payload: Mapping[str, Any]

    @classmethod
    def from_row(cls, row: Row) -> OutboxRow:
        """From an `outbox` row (table_id, key, payload)."""
        return cls(row["table_id"], row["key"], loads(row["payload"]))


@dataclass(frozen=True)
class TableRow:
    """A table in a channel; `settings`/`state` are the JSON the table service saved; seats sorted by number."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    kind: TableKind
    settings: Mapping[str, Any]
    state: Mapping[str, Any] | None
    message_id: int | None
    status: TableStatus
    created_at: float
    closed_at: float | None
    seats: tuple[SeatRow, ...]

    @classmethod
    def from_row(cls, row: Row, seats: Iterable[Row]) -> TableRow:
        """From a `poker_tables` row and its `table_seats` rows (in seat order)."""
        return cls(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            host_id=row["host_id"],
            kind=TableKind(row["kind"]),
            settings=loads(row["settings"]),
            state=loads(row["state"]),
            message_id=row["message_id"],
            status=TableStatus(row["status"]),
            created_at=row["created_at"],
            closed_at=row["closed_at"],
            seats=tuple(SeatRow.from_row(s) for s in seats),
        )


#: What a hand meant for one player, for the standings (given to `finish_hand`, keyed by user id): the engine's
#: per-hand statistics (`bot.poker.hand_statistics`: won, showed, vpip, pfr, went_to_showdown, won_at_showdown,
#: preflop_decision).
PlayerOutcome = HandStatistics


@dataclass(frozen=True)
class HandPlayerRow:
    """One player of one hand; `final_stack`/`net` are None until the hand is finished."""

    user_id: int
    seat: int
    player_index: int
    starting_stack: int
    final_stack: int | None
    net: int | None
    won: int
    showed: bool
    vpip: bool
    pfr: bool
    went_to_showdown: bool
    won_at_showdown: bool
    preflop_decision: bool

    @classmethod
    def from_row(cls, row: Row) -> HandPlayerRow:
        """From a `hand_players` row (its flags stored as 0/1)."""
        return cls(
            user_id=row["user_id"],
            seat=row["seat"],
            player_index=row["player_index"],
            starting_stack=row["starting_stack"],
            final_stack=row["final_stack"],
            net=row["net"],
            won=row["won"],
            showed=bool(row["showed"]),
            vpip=bool(row["vpip"]),
            pfr=bool(row["pfr"]),
            went_to_showdown=bool(row["went_to_showdown"]),
            won_at_showdown=bool(row["won_at_showdown"]),
            preflop_decision=bool(row["preflop_decision"]),
        )


@dataclass(frozen=True)
class HandRow:
    """A hand: its record (settings, seats, stacks, deck), its actions in order, and its result once over."""

    id: int
    table_id: int
    number: int
    started_at: float
    ended_at: float | None
    record: Mapping[str, Any]
    actions: tuple[Mapping[str, Any], ...]
    result: Mapping[str, Any] | None
    players: tuple[HandPlayerRow, ...]

    @classmethod
    def from_row(cls, row: Row, actions: Iterable[Row], players: Iterable[Row]) -> HandRow:
        """From a `hands` row, its `hand_actions` rows (in order) and its `hand_players` rows (in hand order)."""
        return cls(
            id=row["id"],
            table_id=row["table_id"],
            number=row["number"],
            started_at=row["started_at"],
            ended_at=row["ended_at"],
            record=loads(row["record"]),
            actions=tuple(loads(a["action"]) for a in actions),
            result=loads(row["result"]),
            players=tuple(HandPlayerRow.from_row(p) for p in players),
        )


@dataclass(frozen=True)
class PuzzleRecord:
    """A member's decision puzzles on one server (issue 17): answered, of them revealed, and of those the ones
    whose answer the numbers favoured."""

    guild_id: int
    user_id: int
    answered: int
    revealed: int
    favoured: int


@dataclass(frozen=True)
class OpenPuzzleRow:
    """A decision puzzle posted in a channel and not yet revealed (issue 17): `posted_at` in the bot's clock
    (seconds since the epoch), `language` its public texts' ("en"/"fr"), `spot_key` the shipped spot's key."""

    channel_id: int
    guild_id: int
    puzzle_id: str
    spot_key: str
    language: str
    posted_at: float


@dataclass(frozen=True)
class AuditReport:
    """The ledger invariant for one server: balances + chips on its open cash tables == chips issued.

    `problems` lists every inconsistency found in words (empty when ok).
    """

    guild_id: int
    ok: bool
    balances: int
    on_tables: int
    issued: int
    problems: tuple[str, ...]


@dataclass(frozen=True)
class StatsRow:
    """A member's standings on one server: the one definition of each figure (the leaderboard ranks by the same).

    Hands: every finished hand the member was dealt, at cash tables and tournaments alike (a hand cancelled
    by /poker end does not count). hands_won: hands in which they collected chips from a pot (a share of a
    split pot counts; an uncalled bet returned is not a win). won_at_showdown / went_to_showdown: hands that
    reached the showdown with them in it, and those of them they won chips in. hands_shown: hands whose hole
    cards they showed, at the showdown or by choice after it (once per hand). biggest_pot: the most chips
    they collected in one hand (every pot and share they won in it), on either kind of table. net: the chips
    they won minus the chips they lost, in **cash-table chips only** (sum over finished cash hands of final
    stack minus starting stack): these are balance chips; tournament chips are not (a tournament's result is
    its place: tournaments_played / tournaments_won). vpip_hands / pfr_hands: hands with a voluntary preflop
    call, bet or raise / a preflop bet or raise (blinds do not count); `vpip`/`pfr` are their percentages of
    preflop_decisions, the hands in which they were asked to act before the flop (not a walk, nor a hand in which
    a forced bet put them all-in: PokerTracker 4's hands minus walks, see bot/poker/statistics.py). `balance`: the
    account's balance, None for a member who has no account (never played nor asked: no chips were issued to them).
    """

    guild_id: int
    user_id: int
    balance: int | None
    hands_played: int
    hands_won: int
    won_at_showdown: int
    went_to_showdown: int
    hands_shown: int
    biggest_pot: int
    net: int
    vpip_hands: int
    pfr_hands: int
    preflop_decisions: int
    tournaments_played: int
    tournaments_won: int

    @classmethod
    def from_rows(cls, guild_id: int, user_id: int, balance: int | None, hands: Row, tournaments: Row) -> StatsRow:
        """From the standings' two aggregate rows (see `bot.storage.standings`); sums become ints (PostgreSQL
        returns NUMERIC for a SUM of BIGINT)."""
        return cls(
            guild_id=guild_id,
            user_id=user_id,
            balance=balance,
            hands_played=int(hands["played"]),
            hands_won=int(hands["won"]),
            won_at_showdown=int(hands["won_sd"]),
            went_to_showdown=int(hands["went_sd"]),
            hands_shown=int(hands["shown"]),
            biggest_pot=int(hands["biggest"]),
            net=int(hands["net"]),
            vpip_hands=int(hands["vpip"]),
            pfr_hands=int(hands["pfr"]),
            preflop_decisions=int(hands["decisions"]),
            tournaments_played=int(tournaments["played"]),
            tournaments_won=int(tournaments["won"]),
        )

    @property
    def vpip(self) -> float:
        """Voluntarily-put-in-pot percentage of the hands with a preflop decision (0.0 when there is none)."""
        return 100.0 * self.vpip_hands / self.preflop_decisions if self.preflop_decisions else 0.0

    @property
    def pfr(self) -> float:
        """Preflop-raise percentage of the hands with a preflop decision (0.0 when there is none)."""
        return 100.0 * self.pfr_hands / self.preflop_decisions if self.preflop_decisions else 0.0


@dataclass(frozen=True)
class LeaderboardRow:
    """A rank (1 = first; ties share a rank) with the member and the value ranked by."""

    rank: int
    user_id: int
    value: int

    @classmethod
    def from_row(cls, row: Row) -> LeaderboardRow:
        """From a ranked row (rank, user_id, value)."""
        return cls(int(row["rank"]), row["user_id"], int(row["value"]))


@dataclass(frozen=True)
class LeaderboardPage:
    """One page of a leaderboard; `total` members ranked; `own` is the asking member's row (None when this
    ranking does not include them: see `Storage.leaderboard`)."""

    by: LeaderboardBy
    rows: tuple[LeaderboardRow, ...]
    total: int
    offset: int
    own: LeaderboardRow | None
