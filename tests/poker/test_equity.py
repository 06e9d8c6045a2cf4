"""All-in odds (bot.poker.equity): exact reference spots, side pots, estimates within their margin, and a property
test against a slow brute force that uses the engine's full evaluator (HandValue comparison)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.poker.cards import CARDS, Card, parse_cards
from bot.poker.equity import (
    DEFAULT_TRIALS,
    NotEnoughCardsError,
    all_in_odds,
    equity_vs_random,
    equity_vs_range,
    margin_for,
)
from bot.poker.evaluation import evaluate

ALL_BOARDS = 1_712_304  # C(48, 5): the preflop run-outs of two known hands


def brute_force(hands: list[tuple[Card, ...]], board: tuple[Card, ...], pots: list[tuple[int, ...]]):
    """Per pot, per eligible player: (wins, ties, share) counts over every run-out, the slow way."""
    used = {c for h in hands for c in h} | set(board)
    rest = [c for c in CARDS if c not in used]
    out = [[[0, 0, 0.0] for _ in pot] for pot in pots]
    runouts = 0
    for extra in combinations(rest, 5 - len(board)):
        runouts += 1
        values = [evaluate([*h, *board, *extra]) for h in hands]
        for pot, tally in zip(pots, out, strict=True):
            best = max(values[p] for p in pot)
            winners = [i for i, p in enumerate(pot) if values[p] == best]
            for i in winners:
                if len(winners) == 1:
                    tally[i][0] += 1
                else:
                    tally[i][1] += 1
                tally[i][2] += 1 / len(winners)
    return runouts, out


def cards(*texts: str) -> list[tuple[Card, ...]]:
    return [parse_cards(t) for t in texts]


def test_aces_against_kings_preflop_exact_reference() -> None:
    """A♠A♥ against K♠K♥: 1,410,336 boards win, 292,660 lose, 9,308 split (82.36 % / 17.09 % / 0.54 %)."""
    odds = all_in_odds(cards("AsAh", "KsKh"), max_exact=ALL_BOARDS)  # every board, one by one
    assert odds.exact and odds.margin == 0.0 and odds.runouts == ALL_BOARDS
    aces, kings = odds.pots[0].odds
    assert aces.win * ALL_BOARDS == pytest.approx(1_410_336)
    assert kings.win * ALL_BOARDS == pytest.approx(292_660)
    assert aces.tie * ALL_BOARDS == pytest.approx(9_308) and kings.tie == aces.tie
    assert aces.share + kings.share == pytest.approx(1.0)


def test_preflop_is_an_estimate_within_its_margin_of_the_exact_figures() -> None:
    odds = all_in_odds(cards("AsAh", "KsKh"), rng=random.Random(7), exact_preflop=False)
    assert not odds.exact and odds.runouts == DEFAULT_TRIALS
    assert odds.margin == pytest.approx(margin_for(DEFAULT_TRIALS)) and odds.margin <= 0.005
    aces, kings = odds.pots[0].odds
    assert abs(aces.win - 1_410_336 / ALL_BOARDS) <= odds.margin
    assert abs(kings.win - 292_660 / ALL_BOARDS) <= odds.margin
    assert abs(aces.tie - 9_308 / ALL_BOARDS) <= odds.margin
    # Seeded: the same figures again.
    assert all_in_odds(cards("AsAh", "KsKh"), rng=random.Random(7), exact_preflop=False) == odds


def test_known_flop_spot_is_exact() -> None:
    """A♠K♠ against Q♥Q♦ on J♠ T♠ 2♣ (a flush and straight draw against an overpair): 555 of 990 run-outs."""
    odds = all_in_odds(cards("AsKs", "QhQd"), parse_cards("JsTs2c"))
    assert odds.exact and odds.runouts == 990
    draw, queens = odds.pots[0].odds
    assert draw.win * 990 == pytest.approx(555) and queens.win * 990 == pytest.approx(435)
    assert draw.tie == queens.tie == 0.0


def test_three_way_flop_spot_is_exact() -> None:
    """A♥A♦, K♠K♣ and 8♠7♠ on 9♠ 6♦ 2♥: 498, 63 and 342 of the 903 run-outs."""
    odds = all_in_odds(cards("AhAd", "KsKc", "8s7s"), parse_cards("9s6d2h"))
    assert odds.runouts == 903
    assert [round(o.win * 903) for o in odds.pots[0].odds] == [498, 63, 342]


def test_side_pots_give_each_pot_its_own_odds() -> None:
    """Main pot for all three; the side pot only between the two who covered: the short stack's hand cannot
    win it, so the others' odds there are heads-up odds with its cards out of the deck."""
    hands = cards("AhAd", "KsKc", "8s7s")
    board = parse_cards("9s6d2h")
    odds = all_in_odds(hands, board, pots=[(0, 1, 2), (1, 2)])
    main, side = odds.pots
    assert main.players == (0, 1, 2) and side.players == (1, 2)
    heads_up = all_in_odds([hands[1], hands[2]], board, dead=hands[0]).pots[0]
    assert side.of(1) == heads_up.odds[0] and side.of(2) == heads_up.odds[1]
    with pytest.raises(KeyError):
        side.of(0)
    assert sum(o.share for o in side.odds) == pytest.approx(1.0)


def test_split_pots_count_as_ties() -> None:
    """A♥K♦ against A♣K♠ on a dry flop: most run-outs split."""
    odds = all_in_odds(cards("AhKd", "AcKs"), parse_cards("2h7c9d"))
    a, b = odds.pots[0].odds
    assert a.tie == b.tie > 0.9
    assert a.share == pytest.approx(b.share) and a.share + b.share == pytest.approx(1.0)


def test_river_and_dead_cards() -> None:
    board = parse_cards("AsKsQsJs2d")
    odds = all_in_odds(cards("Ts3c", "AhAd"), board)
    assert odds.exact and odds.runouts == 1 and odds.pots[0].odds[0].win == 1.0
    # Dead cards leave the deck: with every spade out, the flush draw is dead.
    hands, flop = cards("AsKs", "QhQd"), parse_cards("2s3s4c")
    spades = [c for c in CARDS if c.suit == "s" and c not in (*hands[0], *flop)]
    live = all_in_odds(hands, flop).pots[0].of(0)
    odds = all_in_odds(hands, flop, dead=spades)
    assert odds.exact and odds.runouts == 630  # C(36, 2): 52 - 4 hole - 3 board - 9 dead spades
    assert odds.pots[0].of(0).win < live.win - 0.2


@pytest.mark.parametrize(
    ("hands", "board", "pots", "message"),
    [
        (["AsAh", "KsKh"], "AsTd2c", None, "twice"),
        (["AsAhKd", "KsKh"], "", None, "two hole cards"),
        (["AsAh", "KsKh"], "2c3c4c5c6c7c", None, "at most five"),
        (["AsAh", "KsKh"], "", [()], "no eligible"),
        (["AsAh", "KsKh"], "", [(0, 2)], "no hand"),
    ],
)
def test_bad_input_is_refused(hands: list[str], board: str, pots: list[tuple[int, ...]] | None, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        all_in_odds([parse_cards(h) for h in hands], parse_cards(board), pots=pots)


def test_a_deck_too_short_for_the_board_is_a_clear_error_not_a_division_by_zero() -> None:
    """Found last session: with fewer cards left than the board needs, `all_in_odds` divided by zero."""
    hands, flop = cards("AsKs", "QhQd"), parse_cards("2s3s4c")
    known = {*hands[0], *hands[1], *flop}
    rest = [c for c in CARDS if c not in known]  # 45 cards
    exact = all_in_odds(hands, flop, dead=rest[:43])  # two cards left: exactly one run-out
    assert exact.exact and exact.runouts == 1
    for dead in (rest[:44], rest):  # one card, then none, for the turn and the river
        with pytest.raises(NotEnoughCardsError, match="needed to deal the rest"):
            all_in_odds(hands, flop, dead=dead)
    preflop = [c for c in CARDS if c not in {*hands[0], *hands[1]}]
    with pytest.raises(ValueError, match="only 4 cards are left"):  # a ValueError, as every bad input
        all_in_odds(hands, dead=preflop[:44])
    # The same for one hand against unknown ones: the deck must also deal their hands.
    with pytest.raises(NotEnoughCardsError):
        equity_vs_random(hands[0], 1, flop, dead=[*hands[1], *rest[:42]], trials=10)  # 3 left: 2 for the hand, 1
    assert equity_vs_random(hands[0], 1, flop, dead=[*hands[1], *rest[:41]], trials=10).trials == 10  # 4: enough
    queens = [(hands[1][0], hands[1][1])]
    with pytest.raises(NotEnoughCardsError):  # was: an IndexError from the board's draw running off the deck
        equity_vs_range(hands[0], [queens], flop, dead=rest[:44], trials=10)  # Q♥ Q♦ and one card left
    assert equity_vs_range(hands[0], [queens], flop, dead=rest[:43], trials=10).trials == 10  # Q♥ Q♦ and two


def test_equity_against_random_hands() -> None:
    """Aces against one random hand win about 85 % (84.93 % exact); against five, about 49 %."""
    one = equity_vs_random(parse_cards("AsAh"), 1, rng=random.Random(1), trials=20_000)
    assert abs(one.share - 0.8520) <= one.margin and one.margin == pytest.approx(margin_for(20_000))
    five = equity_vs_random(parse_cards("AsAh"), 5, rng=random.Random(2), trials=20_000)
    assert 0.46 < five.win < 0.52
    # On the river against a made royal flush nobody can beat or tie.
    river = equity_vs_random(parse_cards("AsKs"), 3, parse_cards("QsJsTs2d3c"), rng=random.Random(3), trials=500)
    assert river.win == 1.0 and river.tie == 0.0


def test_equity_against_a_range_matches_the_exact_heads_up_figure() -> None:
    """A range of one combination is a known hand: the figure is `all_in_odds`'s on the flop."""
    hero = parse_cards("AsKs")
    board = parse_cards("JsTs2c")
    odds = equity_vs_range(hero, [[(parse_cards("Qh")[0], parse_cards("Qd")[0])]], board, rng=random.Random(4))
    assert abs(odds.win - 555 / 990) <= odds.margin
    queens = [(a, b) for a, b in combinations(CARDS, 2) if a.rank == b.rank == 12]
    wider = equity_vs_range(hero, [queens], board, rng=random.Random(5), trials=2000)
    assert 0.0 < wider.win < 1.0
    with pytest.raises(ValueError, match="no combination"):
        equity_vs_range(hero, [[(parse_cards("As")[0], parse_cards("Kd")[0])]], board)


deal = st.permutations(CARDS).map(lambda deck: deck[:25])


@settings(max_examples=25, deadline=None)
@given(
    deck=deal,
    players=st.integers(2, 4),
    board_size=st.sampled_from([3, 4, 5]),
    short=st.integers(0, 3),
)
def test_exact_odds_agree_with_a_slow_brute_force(deck: list[Card], players: int, board_size: int, short: int) -> None:
    hands = [tuple(deck[2 * i : 2 * i + 2]) for i in range(players)]
    board = tuple(deck[2 * players : 2 * players + board_size])
    pots = [tuple(range(players)), tuple(p for p in range(players) if p != short % players)]
    odds = all_in_odds(hands, board, pots=pots)
    runouts, expected = brute_force(hands, board, pots)
    assert odds.exact and odds.runouts == runouts
    for pot_odds, tally in zip(odds.pots, expected, strict=True):
        for got, (wins, ties, share) in zip(pot_odds.odds, tally, strict=True):
            assert got.win == pytest.approx(wins / runouts)
            assert got.tie == pytest.approx(ties / runouts)
            assert got.share == pytest.approx(share / runouts)


def test_runout_odds_of_an_all_in_on_the_flop_with_a_side_pot() -> None:
    """Player 0 all-in short on the flop; players 1 and 2 all-in for more: the flop and turn figures, per pot."""
    from bot.poker import Hand, HandSettings
    from bot.poker.equity import runout_odds
    from bot.poker.events import Street
    from tests.poker.helpers import play, stacked_deck

    holes = ["QcQd", "AsAh", "KsKh", "7c2d"]
    hand = Hand(HandSettings(), [50, 200, 200, 200], deck=stacked_deck(holes, "2c7d9hJc3s"))
    play(hand, "p2 call", "p3 fold", "p0 call", "p1 check")
    assert runout_odds(hand) == ()  # betting still open
    play(hand, "p0 all_in", "p1 all_in", "p2 call")
    assert hand.is_complete
    points = runout_odds(hand)
    assert [p.street for p in points] == [Street.FLOP, Street.TURN]
    flop = points[0]
    assert flop.odds.exact and [str(c) for c in flop.board] == ["2c", "7d", "9h"]
    main, side = flop.odds.pots
    assert main.players == (0, 1, 2) and side.players == (1, 2)
    expected = all_in_odds(cards("QcQd", "AsAh", "KsKh"), parse_cards("2c7d9h"), pots=[(0, 1, 2), (1, 2)])
    assert main.odds == expected.pots[0].odds and side.odds == expected.pots[1].odds
    # The folded hand's cards are not known to anyone: they stay in the deck.
    assert flop.odds.runouts == 903


def test_runout_odds_preflop_is_exact() -> None:
    from bot.poker import Hand, HandSettings
    from bot.poker.equity import runout_odds
    from tests.poker.helpers import play, stacked_deck

    hand = Hand(HandSettings(), [100, 100], deck=stacked_deck(["KsKh", "AsAh"], "2c7d9hJc3s"))
    play(hand, "p1 all_in", "p0 call")
    before, flop, turn = runout_odds(hand)
    assert before.odds.exact and before.board == () and before.odds.runouts == ALL_BOARDS
    assert flop.odds.exact and turn.odds.exact and turn.odds.runouts == 44


def test_exact_preflop_by_rank_patterns_gives_the_reference_counts() -> None:
    odds = all_in_odds(cards("AsAh", "KsKh"), exact_preflop=True)
    assert odds.exact and odds.runouts == ALL_BOARDS and odds.margin == 0.0
    aces, kings = odds.pots[0].odds
    assert round(aces.win * ALL_BOARDS) == 1_410_336 and round(kings.win * ALL_BOARDS) == 292_660
    assert round(aces.tie * ALL_BOARDS) == 9_308


@settings(max_examples=12, deadline=None)
@given(deck=st.permutations(CARDS), players=st.integers(2, 4), side=st.booleans())
def test_exact_preflop_by_rank_patterns_agrees_with_enumerating_every_board(
    deck: list[Card], players: int, side: bool
) -> None:
    """Dead cards make plain enumeration cheap: both ways must give the same counts, pot by pot."""
    hands = [tuple(deck[2 * i : 2 * i + 2]) for i in range(players)]
    dead = deck[2 * players : 2 * players + 24]
    pots = [tuple(range(players))] + ([tuple(range(1, players))] if side else [])
    by_ranks = all_in_odds(hands, (), dead, pots=pots, max_exact=0, exact_preflop=True)
    enumerated = all_in_odds(hands, (), dead, pots=pots, max_exact=10**7)
    assert by_ranks.exact and enumerated.exact and by_ranks.runouts == enumerated.runouts
    for mine, theirs in zip(by_ranks.pots, enumerated.pots, strict=True):
        for a, b in zip(mine.odds, theirs.odds, strict=True):
            assert a.win == pytest.approx(b.win) and a.tie == pytest.approx(b.tie) and a.share == pytest.approx(b.share)
