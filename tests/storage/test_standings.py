"""Standings: stats of scripted hands computed by hand, a tournament to the end, leaderboards and settings."""

from __future__ import annotations

import pytest

from bot.storage import LeaderboardBy, LeaderboardRow, PlayerOutcome, Storage, StorageError
from tests.storage.conftest import GUILD

ALICE, BOB, CHLOE, DAVE = 101, 102, 103, 104


async def play(
    store: Storage,
    table: int,
    number: int,
    start: dict[int, int],
    end: dict[int, int],
    outcomes: dict[int, PlayerOutcome],
) -> None:
    """A finished hand: `start`/`end` are {seat: stack}; seat n belongs to the n-th of ALICE, BOB, CHLOE. A player
    without an outcome folded preflop (a decision)."""
    users = {1: ALICE, 2: BOB, 3: CHLOE}
    seats = [{"seat": seat, "user_id": users[seat], "stack": stack} for seat, stack in start.items()]
    hand = await store.start_hand(table, number, {"n": number}, seats)
    folded = PlayerOutcome(preflop_decision=True)
    await store.finish_hand(hand, {"n": number}, end, {users[s]: outcomes.get(s, folded) for s in start})


async def test_stats_of_three_scripted_hands(store: Storage) -> None:
    table = await store.create_table(GUILD, 800, ALICE, "cash", {})
    for seat, user in ((1, ALICE), (2, BOB), (3, CHLOE)):
        await store.buy_in(table, GUILD, user, seat, 100)
    # Hand 1: Alice raises, Bob calls, Chloé (BB) folds; Alice wins 14 at showdown (net +7 for her: 107).
    await play(
        store,
        table,
        1,
        {1: 100, 2: 100, 3: 100},
        {1: 107, 2: 95, 3: 98},
        {
            1: PlayerOutcome(
                preflop_decision=True,
                won=14,
                showed=True,
                vpip=True,
                pfr=True,
                went_to_showdown=True,
                won_at_showdown=True,
            ),
            2: PlayerOutcome(preflop_decision=True, showed=True, vpip=True, went_to_showdown=True),
        },
    )
    # Hand 2: everyone folds to Bob's raise; he wins 5 uncontested.
    await play(
        store,
        table,
        2,
        {1: 107, 2: 95, 3: 98},
        {1: 107, 2: 98, 3: 95},
        {2: PlayerOutcome(preflop_decision=True, won=5, vpip=True, pfr=True)},
    )
    # Hand 3: Chloé calls, Alice checks the BB... Chloé wins 50 all-in at showdown from Alice.
    await play(
        store,
        table,
        3,
        {1: 107, 2: 98, 3: 95},
        {1: 82, 2: 98, 3: 120},
        {
            1: PlayerOutcome(preflop_decision=True, showed=True, went_to_showdown=True),
            3: PlayerOutcome(
                preflop_decision=True, won=50, showed=True, vpip=True, went_to_showdown=True, won_at_showdown=True
            ),
        },
    )
    alice = await store.stats(GUILD, ALICE)
    assert (alice.hands_played, alice.hands_won, alice.won_at_showdown, alice.went_to_showdown) == (3, 1, 1, 2)
    assert (alice.net, alice.biggest_pot, alice.vpip_hands, alice.pfr_hands) == (-18, 14, 1, 1)
    assert alice.vpip == pytest.approx(100 / 3) and alice.pfr == pytest.approx(100 / 3)
    assert alice.balance == 900
    chloe = await store.stats(GUILD, CHLOE)
    assert (chloe.hands_played, chloe.hands_won, chloe.net, chloe.biggest_pot, chloe.vpip) == (3, 1, 20, 50, 100 / 3)
    bob = await store.stats(GUILD, BOB)
    assert (bob.net, bob.hands_won, bob.won_at_showdown, bob.pfr) == (-2, 1, 0, 100 / 3)

    # Hand 4: Bob (button) and Alice (SB) fold, Chloé walks in the big blind: a hand won, not a preflop decision.
    await play(
        store,
        table,
        4,
        {1: 82, 2: 98, 3: 120},
        {1: 81, 2: 98, 3: 121},
        {3: PlayerOutcome(won=3)},
    )
    chloe = await store.stats(GUILD, CHLOE)
    assert (chloe.hands_played, chloe.hands_won, chloe.preflop_decisions, chloe.vpip_hands) == (4, 2, 3, 1)
    assert (chloe.vpip, chloe.pfr) == (pytest.approx(100 / 3), 0.0)  # 1 of 3 decisions, not 1 of 4 hands
    alice = await store.stats(GUILD, ALICE)
    assert (alice.hands_played, alice.preflop_decisions, alice.vpip) == (4, 4, 25.0)

    page = await store.leaderboard(GUILD, LeaderboardBy.NET, user_id=ALICE)
    assert page.rows == (LeaderboardRow(1, CHLOE, 21), LeaderboardRow(2, BOB, -2), LeaderboardRow(3, ALICE, -19))
    assert page.own == LeaderboardRow(3, ALICE, -19) and page.total == 3


async def test_stats_of_a_member_who_never_played(store: Storage) -> None:
    stats = await store.stats(GUILD, DAVE)
    assert (stats.hands_played, stats.net, stats.vpip, stats.pfr, stats.tournaments_played) == (0, 0, 0.0, 0.0, 0)
    assert stats.balance is None  # no account: no chips were issued to them (stats open nothing)
    assert await store.account(GUILD, DAVE) is None


async def test_a_tournament_played_to_the_end_records_places_and_wins(store: Storage) -> None:
    for number in (1, 2):
        table = await store.create_table(GUILD, 900 + number, ALICE, "tournament", {"starting_stack": 100})
        for seat, user in ((1, ALICE), (2, BOB), (3, CHLOE)):
            await store.join_tournament(table, user, seat, 100)
        # Chloé busts first (all her chips to Alice), then Bob (to the winner of that tournament).
        await play(store, table, 1, {1: 100, 2: 100, 3: 100}, {1: 200, 2: 100, 3: 0}, {1: PlayerOutcome(won=200)})
        await store.record_place(table, CHLOE, 3)
        await store.cash_out(table, GUILD, CHLOE, 3)
        winner, loser = (ALICE, BOB) if number == 1 else (BOB, ALICE)
        end = {1: 300, 2: 0} if winner == ALICE else {1: 0, 2: 300}
        await play(store, table, 2, {1: 200, 2: 100}, end, {})
        await store.record_place(table, loser, 2)
        await store.record_place(table, winner, 1)
        with pytest.raises(StorageError):
            await store.record_place(table, DAVE, 1)  # the place is taken
        assert await store.places(table) == {winner: 1, loser: 2, CHLOE: 3}
        await store.close_table(table)

    alice = await store.stats(GUILD, ALICE)
    assert (alice.tournaments_played, alice.tournaments_won, alice.net) == (2, 1, 0)  # tournament chips: no net
    # Tournament hands count like cash hands: 4 played, 2 won (200 each), biggest pot 200 (was 0: cash only).
    assert (alice.hands_played, alice.hands_won, alice.biggest_pot) == (4, 2, 200)
    page = await store.leaderboard(GUILD, LeaderboardBy.TOURNAMENT_WINS, user_id=CHLOE)
    assert page.rows == (LeaderboardRow(1, ALICE, 1), LeaderboardRow(1, BOB, 1), LeaderboardRow(3, CHLOE, 0))
    assert page.own == LeaderboardRow(3, CHLOE, 0)
    # Entering a tournament opened each account with its grant: counted as issued (was: issued 0, no ranks).
    audit = await store.audit(GUILD)
    assert (audit.ok, audit.balances, audit.issued) == (True, 3000, 3000)
    assert (await store.leaderboard(GUILD)).total == 3


async def test_balance_leaderboard_pages_and_the_callers_own_rank_off_the_page(store: Storage) -> None:
    for user in range(1, 26):
        await store.ensure_account(GUILD, user)
        await store.adjust(GUILD, user, user * 10, "spread")
    await store.ensure_account(GUILD + 1, 99)  # another server
    first = await store.leaderboard(GUILD, limit=10, user_id=3)
    assert [r.user_id for r in first.rows] == list(range(25, 15, -1))
    assert [r.rank for r in first.rows] == list(range(1, 11))
    assert first.total == 25
    assert first.own == LeaderboardRow(23, 3, 1030)
    third = await store.leaderboard(GUILD, limit=10, offset=20)
    assert [r.user_id for r in third.rows] == [5, 4, 3, 2, 1] and third.offset == 20
    assert (await store.leaderboard(GUILD, user_id=12345)).own is None


async def test_guild_settings_default_to_the_bot_and_change_per_server(store: Storage) -> None:
    settings = await store.guild_settings(GUILD)
    assert (settings.language, settings.starting_grant, settings.refill_cooldown_s) == ("en", 1000, 3600)
    assert settings.table_defaults == {"small_blind": 1, "big_blind": 2}
    changed = await store.update_guild_settings(GUILD, language="fr", table_defaults={"big_blind": 4, "ante": 1})
    assert (changed.language, changed.starting_grant) == ("fr", 1000)
    assert changed.table_defaults == {"small_blind": 1, "big_blind": 4, "ante": 1}
    changed = await store.update_guild_settings(GUILD, refill_cooldown_s=60, table_defaults={"big_blind": None})
    assert (changed.language, changed.refill_cooldown_s) == ("fr", 60)
    assert changed.table_defaults == {"small_blind": 1, "big_blind": 2, "ante": 1}
    assert (await store.guild_settings(GUILD + 1)).language == "en"
    with pytest.raises(ValueError):
        await store.update_guild_settings(GUILD, language="de")


async def test_meta_values_persist(store: Storage) -> None:
    assert await store.get_meta("command_sync_hash") is None
    await store.set_meta("command_sync_hash", "abc")
    await store.set_meta("command_sync_hash", "def")
    assert await store.get_meta("command_sync_hash") == "def"
