"""Standings after real play through the table service (issue 11 item 3): a tournament to the end and a cash
evening, each figure of /stats and /leaderboard computed by hand from the hands played, and the ledger audit."""

from __future__ import annotations

from bot.poker import ActionKind
from bot.storage import LeaderboardBy, LeaderboardRow, Storage
from bot.tables import ManualClock, TableOptions, TableService
from tests.tables.conftest import ALICE, BOB, CHANNEL, CHLOE, DAVID, GUILD, HOST, NAMES, Decks, actor, deck_for

CALL, CHECK, FOLD, RAISE, ALL_IN = (
    ActionKind.CALL,
    ActionKind.CHECK,
    ActionKind.FOLD,
    ActionKind.RAISE,
    ActionKind.ALL_IN,
)


async def play(service: TableService, *moves: tuple[int, ActionKind] | tuple[int, ActionKind, int]) -> None:
    """Each move by the member whose turn it must be (the test says who acts, and fails if the table disagrees)."""
    for user, kind, *amount in moves:
        assert actor(service) == user, (NAMES[user], kind)
        await service.get(CHANNEL).act(user, kind, *amount)


async def seat(service: TableService, **options: object) -> None:
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2, **options))
    for user in (ALICE, BOB, CHLOE):  # seats 1, 2, 3
        await service.get(CHANNEL).join(user, NAMES[user])


def button(service: TableService) -> int:
    return next(s.user_id for s in service.get(CHANNEL).snapshot().seats if s.is_button)


async def test_a_tournament_to_the_end_counts_every_hand_pot_and_win(
    service: TableService, storage: Storage, decks: Decks, clock: ManualClock
) -> None:
    # Hand 1 - button Bob, Chloé SB (player 0), Alice BB (player 1): Bob raises to 6, Chloé calls, Alice folds;
    # checked down, Chloé's aces beat Bob's kings: she collects 6 + 6 + 2 = 14. Stacks: Alice 98, Bob 94, Chloé 108.
    decks.queue.append(deck_for(["AhAd", "7c2d", "KhKd"], "Qs9c5d3h8s"))
    # Hand 2 - button Chloé, Alice SB (player 0), Bob BB (player 1): Chloé all-in 108, Alice calls all-in (98), Bob
    # calls all-in (94); Chloé's aces win the main pot 3 x 94 = 282 and the side pot 2 x 4 = 8 (her 10 above
    # Alice's 98 are returned uncalled): she collects 290 and holds every chip. Alice (98 at the start of the hand)
    # places 2nd, Bob (94) 3rd.
    decks.queue.append(deck_for(["KcKs", "QcQh", "AcAs"], "2h7d9s4cJh"))
    await seat(service, kind="tournament", starting_stack=100)
    await service.get(CHANNEL).start_game(HOST)
    assert button(service) == BOB
    await play(service, (BOB, RAISE, 6), (CHLOE, CALL), (ALICE, FOLD))
    await play(service, *[(user, CHECK) for _ in range(3) for user in (CHLOE, BOB)])
    assert [s.stack for s in service.get(CHANNEL).snapshot().seats] == [98, 94, 108]
    await clock.advance(service.get(CHANNEL).view().options.next_hand_delay + 0.1)
    assert button(service) == CHLOE
    await play(service, (CHLOE, ALL_IN), (ALICE, CALL), (BOB, CALL))
    assert CHANNEL not in service.runners  # one player holds every chip: the tournament is over

    chloe = await storage.stats(GUILD, CHLOE)
    assert (chloe.hands_played, chloe.hands_won, chloe.biggest_pot) == (2, 2, 290)  # was: biggest pot 0
    assert (chloe.won_at_showdown, chloe.went_to_showdown) == (2, 2)
    assert (chloe.vpip_hands, chloe.pfr_hands) == (2, 1)  # called hand 1, moved all-in hand 2
    assert (chloe.tournaments_played, chloe.tournaments_won) == (1, 1)
    assert chloe.net == 0  # tournament chips are not balance chips: net counts cash tables only
    alice = await storage.stats(GUILD, ALICE)
    assert (alice.hands_played, alice.hands_won, alice.biggest_pot, alice.went_to_showdown) == (2, 0, 0, 1)
    assert (alice.vpip_hands, alice.pfr_hands, alice.tournaments_played, alice.tournaments_won) == (1, 0, 1, 0)
    bob = await storage.stats(GUILD, BOB)
    assert (bob.hands_played, bob.hands_won, bob.went_to_showdown, bob.vpip_hands, bob.pfr_hands) == (2, 0, 2, 2, 1)

    wins = await storage.leaderboard(GUILD, LeaderboardBy.TOURNAMENT_WINS, user_id=BOB)
    assert wins.rows == (LeaderboardRow(1, CHLOE, 1), LeaderboardRow(2, ALICE, 0), LeaderboardRow(2, BOB, 0))
    assert wins.own == LeaderboardRow(2, BOB, 0)
    net = await storage.leaderboard(GUILD, LeaderboardBy.NET, user_id=CHLOE)
    assert (net.rows, net.total, net.own) == ((), 0, None)  # no cash hand here: nobody has a net (and none is shown)

    # Entering the tournament opened each account with its grant: each has a balance, a rank, and issued chips.
    balances = await storage.leaderboard(GUILD, LeaderboardBy.BALANCE, user_id=ALICE)
    assert balances.rows == tuple(LeaderboardRow(1, user, 1000) for user in (ALICE, BOB, CHLOE))
    audit = await storage.audit(GUILD)
    assert (audit.ok, audit.balances, audit.on_tables, audit.issued) == (True, 3000, 0, 3000)  # was: issued 0


async def test_a_cash_evening_counts_hands_net_and_ranks_by_net_and_balance(
    service: TableService, storage: Storage, decks: Decks, clock: ManualClock
) -> None:
    # Hand 1 - button Bob, Chloé SB, Alice BB: Bob raises to 6, Chloé folds, Alice calls; on the flop Alice checks,
    # Bob bets 10, Alice folds: Bob collects 1 + 6 + 6 = 13 (his 10 returned). Alice 94, Bob 107, Chloé 99.
    decks.queue.append(deck_for(["9h8h", "6c5c", "JsTs"], "Kd7s2c"))
    # Hand 2 - button Chloé, Alice SB (player 0), Bob BB (player 1): Chloé folds, Alice calls 1 more, Bob checks;
    # checked down, Alice's pair of aces beats Bob: she collects 4. Alice 96, Bob 105, Chloé 99.
    decks.queue.append(deck_for(["AhKh", "QcJd", "7s2c"], "As9d5c3h8s"))
    # Hand 3 - button Alice, Bob SB, Chloé BB: Alice and Bob fold; Chloé collects 2 (her 1 above the SB returned).
    # Alice 96, Bob 104, Chloé 100.
    decks.queue.append(deck_for(["4d3d", "Qh5s", "Tc9c"], ""))
    await seat(service)
    await service.get(CHANNEL).start_game(ALICE)
    delay = service.get(CHANNEL).view().options.next_hand_delay + 0.1
    await play(service, (BOB, RAISE, 6), (CHLOE, FOLD), (ALICE, CALL), (ALICE, CHECK), (BOB, ActionKind.BET, 10))
    await play(service, (ALICE, FOLD))
    await clock.advance(delay)
    assert button(service) == CHLOE
    await play(service, (CHLOE, FOLD), (ALICE, CALL), (BOB, CHECK))
    await play(service, *[(user, CHECK) for _ in range(3) for user in (ALICE, BOB)])
    await clock.advance(delay)
    assert button(service) == ALICE
    await play(service, (ALICE, FOLD), (BOB, FOLD))
    assert [s.stack for s in service.get(CHANNEL).snapshot().seats] == [96, 104, 100]
    for user in (ALICE, BOB, CHLOE):
        assert await service.get(CHANNEL).leave(user)  # between hands: at once, the stack back to the balance

    alice = await storage.stats(GUILD, ALICE)
    assert (alice.hands_played, alice.hands_won, alice.biggest_pot, alice.net) == (3, 1, 4, -4)
    assert (alice.won_at_showdown, alice.went_to_showdown, alice.vpip_hands, alice.pfr_hands) == (1, 1, 2, 0)
    bob = await storage.stats(GUILD, BOB)
    assert (bob.hands_played, bob.hands_won, bob.biggest_pot, bob.net) == (3, 1, 13, 4)
    assert (bob.won_at_showdown, bob.went_to_showdown, bob.vpip_hands, bob.pfr_hands) == (0, 1, 1, 1)
    chloe = await storage.stats(GUILD, CHLOE)
    assert (chloe.hands_played, chloe.hands_won, chloe.biggest_pot, chloe.net, chloe.vpip_hands) == (3, 1, 2, 0, 0)
    # Chloé's big blind walked in hand 3: played and won, but no preflop decision, so not a hand VPIP and PFR are
    # rates of (PokerTracker 4: hands minus walks); every other hand had one for everybody.
    assert (chloe.preflop_decisions, alice.preflop_decisions, bob.preflop_decisions) == (2, 3, 3)
    assert (alice.vpip, bob.vpip, bob.pfr) == (200 / 3, 100 / 3, 100 / 3)
    assert (chloe.balance, alice.balance, bob.balance) == (1000, 996, 1004)

    net = await storage.leaderboard(GUILD, LeaderboardBy.NET, user_id=ALICE)
    assert net.rows == (LeaderboardRow(1, BOB, 4), LeaderboardRow(2, CHLOE, 0), LeaderboardRow(3, ALICE, -4))
    assert net.own == LeaderboardRow(3, ALICE, -4)
    wins = await storage.leaderboard(GUILD, LeaderboardBy.TOURNAMENT_WINS, user_id=ALICE)
    assert (wins.rows, wins.total, wins.own) == ((), 0, None)  # no tournament finished: nobody ranks by wins
    balances = await storage.leaderboard(GUILD, user_id=DAVID)
    assert balances.rows == (
        LeaderboardRow(1, BOB, 1004),
        LeaderboardRow(2, CHLOE, 1000),
        LeaderboardRow(3, ALICE, 996),
    )
    assert balances.own is None and await storage.account(GUILD, DAVID) is None  # David never touched chips here
    assert await storage.balance(GUILD, DAVID) == 1000  # ... until he looks: his grant is issued, he is ranked
    balances = await storage.leaderboard(GUILD, user_id=DAVID)
    assert balances.own == LeaderboardRow(2, DAVID, 1000) and balances.total == 4
    audit = await storage.audit(GUILD)
    assert (audit.ok, audit.balances, audit.issued) == (True, 4000, 4000)
