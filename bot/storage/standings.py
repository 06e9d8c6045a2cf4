"""Standings: a member's figures (/stats) and the server's rankings (/leaderboard), from one definition of each."""

from __future__ import annotations

from bot.storage.executor import Tx
from bot.storage.ledger import Ledger
from bot.storage.models import LeaderboardBy, LeaderboardPage, LeaderboardRow, StatsRow

#: The finished hands a member was dealt on a server (`p` their row, `h` the hand, `t` its table): the one
#: definition every hand figure counts (a hand cancelled by /poker end never finished: its rows have no final
#: stack). Named parameter :guild.
_PLAYED_HANDS = """
    hand_players p JOIN hands h ON h.id = p.hand_id JOIN poker_tables t ON t.id = h.table_id
    WHERE t.guild_id = :guild AND h.ended_at IS NOT NULL AND p.final_stack IS NOT NULL
"""
#: Tournament finishing places recorded on a server (`tp`, `t` its table). Named parameter :guild.
_PLACES = "tournament_places tp JOIN poker_tables t ON t.id = tp.table_id WHERE t.guild_id = :guild"

#: The leaderboard ranks members only: computer players (negative ids) and the house (0) never appear on it.
_LEADERBOARD_VALUES = {
    LeaderboardBy.BALANCE: "SELECT user_id, balance AS value FROM accounts WHERE guild_id = :guild AND user_id > 0",
    LeaderboardBy.NET: f"""
        SELECT p.user_id, SUM(p.net) AS value FROM {_PLAYED_HANDS} AND t.kind = 'cash' AND p.user_id > 0
        GROUP BY p.user_id
    """,
    LeaderboardBy.TOURNAMENT_WINS: f"""
        SELECT tp.user_id, SUM(CASE WHEN tp.place = 1 THEN 1 ELSE 0 END) AS value FROM {_PLACES} AND tp.user_id > 0
        GROUP BY tp.user_id
    """,
}


async def stats(tx: Tx, guild_id: int, user_id: int) -> StatsRow:
    """Body of `Storage.stats`."""
    member = {"guild": guild_id, "user": user_id}
    hands = await tx.one(
        f"""
        SELECT COUNT(*) AS played,
               COALESCE(SUM(CASE WHEN p.won > 0 THEN 1 ELSE 0 END), 0) AS won,
               COALESCE(SUM(p.won_at_showdown), 0) AS won_sd,
               COALESCE(SUM(p.went_to_showdown), 0) AS went_sd,
               COALESCE(SUM(p.showed), 0) AS shown,
               COALESCE(MAX(p.won), 0) AS biggest,
               COALESCE(SUM(CASE WHEN t.kind = 'cash' THEN p.net END), 0) AS net,
               COALESCE(SUM(p.vpip), 0) AS vpip,
               COALESCE(SUM(p.pfr), 0) AS pfr,
               COALESCE(SUM(p.preflop_decision), 0) AS decisions
        FROM {_PLAYED_HANDS} AND p.user_id = :user
        """,
        member,
    )
    tournaments = await tx.one(
        f"""
        SELECT COUNT(*) AS played, COALESCE(SUM(CASE WHEN tp.place = 1 THEN 1 ELSE 0 END), 0) AS won
        FROM {_PLACES} AND tp.user_id = :user
        """,
        member,
    )
    balance = await Ledger.balance_of(tx, guild_id, user_id)
    assert hands is not None and tournaments is not None
    return StatsRow.from_rows(guild_id, user_id, balance, hands, tournaments)


async def computer_players(tx: Tx, guild_id: int) -> list[int]:
    """Body of `Storage.computer_players`."""
    rows = await tx.all(
        f"SELECT DISTINCT p.user_id AS user_id FROM {_PLAYED_HANDS} AND p.user_id < 0 ORDER BY p.user_id DESC",
        {"guild": guild_id},
    )
    return [int(row["user_id"]) for row in rows]


async def leaderboard(
    tx: Tx, guild_id: int, by: LeaderboardBy, limit: int, offset: int, user_id: int | None
) -> LeaderboardPage:
    """Body of `Storage.leaderboard`."""
    values = _LEADERBOARD_VALUES[LeaderboardBy(by)]
    ranked = f"""
        SELECT user_id, value, RANK() OVER (ORDER BY value DESC) AS rank
        FROM ({values}) AS v ORDER BY value DESC, user_id
    """
    page = {"guild": guild_id, "limit": limit, "offset": offset}
    rows = await tx.all(f"{ranked} LIMIT :limit OFFSET :offset", page)
    total = await tx.count(f"SELECT COUNT(*) AS n FROM ({values}) AS v", {"guild": guild_id})
    own = None
    if user_id is not None:
        own = await tx.one(f"SELECT * FROM ({ranked}) AS r WHERE user_id = :user", {"guild": guild_id, "user": user_id})
    return LeaderboardPage(
        by=LeaderboardBy(by),
        rows=tuple(LeaderboardRow.from_row(r) for r in rows),
        total=total,
        offset=offset,
        own=None if own is None else LeaderboardRow.from_row(own),
    )
