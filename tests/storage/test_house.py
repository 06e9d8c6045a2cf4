"""The house account (issue 17): computer players at cash tables buy in from it; the audit covers it."""

from __future__ import annotations

from bot.storage import HOUSE_USER_ID, LedgerKind, PlayerOutcome, Storage
from tests.storage.conftest import GUILD

ALICE = 101
SOLID = -1001  # a computer player's seat id


async def test_a_computer_player_buys_in_from_the_house_and_the_audit_holds(store: Storage) -> None:
    table = await store.create_table(GUILD, 500, ALICE, "cash", {"min_buy_in": 40, "max_buy_in": 100})
    await store.buy_in(table, GUILD, ALICE, 1, 100)
    house = await store.buy_in(table, GUILD, SOLID, 2, 80)
    assert house == 0  # issued 80, sent 80 to the seat
    rows = await store.ledger(GUILD, HOUSE_USER_ID)
    assert [(r.kind, r.delta, r.balance_after) for r in reversed(rows)] == [
        (LedgerKind.HOUSE_ISSUE, 80, 80),
        (LedgerKind.BUY_IN, -80, 0),
    ]
    assert await store.account(GUILD, SOLID) is None  # no member account for the computer player
    audit = await store.audit(GUILD)
    assert (audit.ok, audit.balances, audit.on_tables, audit.issued) == (True, 900, 180, 1080)

    await store.set_seat_stacks(table, {1: 60, 2: 120})  # the computer player won 40 from Alice
    assert await store.cash_out(table, GUILD, SOLID, 2) == 120  # back to the house
    await store.buy_in(table, GUILD, SOLID, 2, 100)  # from what the house holds: nothing new issued
    assert (await store.account(GUILD, HOUSE_USER_ID)).balance == 20  # type: ignore[union-attr]
    audit = await store.audit(GUILD)
    assert (audit.ok, audit.balances, audit.on_tables, audit.issued) == (True, 920, 160, 1080)
    assert [r.kind for r in await store.ledger(GUILD, HOUSE_USER_ID)].count(LedgerKind.HOUSE_ISSUE) == 1


async def test_the_house_and_computer_players_never_appear_on_the_leaderboard(store: Storage) -> None:
    table = await store.create_table(GUILD, 500, ALICE, "cash", {"min_buy_in": 40, "max_buy_in": 100})
    await store.buy_in(table, GUILD, ALICE, 1, 100)
    await store.buy_in(table, GUILD, SOLID, 2, 100)
    await store.set_seat_stacks(table, {1: 10, 2: 190})
    await store.cash_out(table, GUILD, SOLID, 2)  # the house holds 190 chips
    page = await store.leaderboard(GUILD)
    assert [row.user_id for row in page.rows] == [ALICE]


async def test_a_computer_players_stats_are_kept_like_a_members_and_it_is_listed_for_stats(store: Storage) -> None:
    """Issue 17: /stats can show a computer player: its hands count as a member's do (no balance of its own: its
    chips are the house's); `computer_players` lists those that finished a hand on the server."""
    table = await store.create_table(GUILD, 500, ALICE, "cash", {"min_buy_in": 40, "max_buy_in": 100})
    await store.buy_in(table, GUILD, ALICE, 1, 100)
    await store.buy_in(table, GUILD, SOLID, 2, 100)
    assert await store.computer_players(GUILD) == []
    seats = [{"seat": 1, "user_id": ALICE, "stack": 100}, {"seat": 2, "user_id": SOLID, "stack": 100}]
    hand = await store.start_hand(table, 1, {"n": 1}, seats)
    won = PlayerOutcome(
        preflop_decision=True, won=20, showed=True, vpip=True, pfr=True, went_to_showdown=True, won_at_showdown=True
    )
    lost = PlayerOutcome(preflop_decision=True, showed=True, vpip=True, went_to_showdown=True)
    await store.finish_hand(hand, {"n": 1}, {1: 90, 2: 110}, {SOLID: won, ALICE: lost})
    assert await store.computer_players(GUILD) == [SOLID]
    assert await store.computer_players(GUILD + 1) == []
    stats = await store.stats(GUILD, SOLID)
    assert (stats.hands_played, stats.hands_won, stats.won_at_showdown, stats.went_to_showdown) == (1, 1, 1, 1)
    assert (stats.net, stats.vpip, stats.pfr, stats.balance) == (10, 100.0, 100.0, None)
