"""Differential test: our engine against PokerKit 0.7.7 on thousands of random hands.

Both engines get the same players, stacks, blinds/antes and the same cards (PokerKit's hole cards,
burn cards and board are dealt explicitly from our deck order). At every decision we compare the
player to act, the amount to call, whether a bet/raise is allowed and its minimum and maximum
"raise to"; then the same decision is applied to both; at the end the finishing stacks must agree.
PokerKit runs in tournament mode (its cash mode crashes on some all-in run-outs), with automation
for everything except the players' decisions and the cards.

Known, deliberate differences (our rules follow rule book 000 and the Poker TDA; each is checked to
be the only reason when the engines disagree):

1. Odd chips: PokerKit gives the whole remainder of a split pot to one winner, and it first merges
   the main and side pots that have the same winners once the losing hands are killed; rule book
   000 §07 compares and splits each pot separately and gives its odd chips one at a time to the
   winners starting left of the button. When stacks differ we re-settle our hand PokerKit's way
   (from our own events) and require an exact match.
2. Short big blind: PokerKit lets the others call the short amount actually posted; we make them
   call the full big blind (TDA). Hands where a blind poster is short are not generated here (they
   are covered by named tests in test_hand_rules.py).
3. Re-opening after short all-ins (TDA rule 47, rule book 000 §05): a player who already acted in
   the round may raise again only when facing at least a full raise since they last acted (several
   short all-ins adding up to a full raise do re-open). PokerKit follows a running sum of
   consecutive short all-ins instead: it counts a first short increment as "full" when no full
   bet/raise was made before it (re-opening where we don't), and it restarts the sum after each
   crossing (refusing where the player does face a full raise). Wherever the engines disagree on
   "may raise", we check that the player already acted this round and that our answer is exactly
   "amount to call >= last full raise increment".
4. Empty decisions: when everyone else has folded or is all-in and the last player who can act has
   already matched the bet, betting stops for us (issue 3 rule 4); PokerKit still asks that player
   to check (they can do nothing else). We make that check for PokerKit, after asserting it is the
   only thing it allows.
5. Straddles: with a straddle we require the first raise to be to at least 2 straddles (card-room
   rule); PokerKit uses min_bet + the largest blind. No straddles are generated here.
"""

from __future__ import annotations

import os
import random
import warnings
from dataclasses import dataclass, field

import pytest

pokerkit = pytest.importorskip("pokerkit")

from bot.poker import ActionKind, Hand, HandSettings, HandShown, PlayerActed, PotAwarded, StreetDealt, build_pots  # noqa: E402

AUTOMATIONS = (
    pokerkit.Automation.ANTE_POSTING,
    pokerkit.Automation.BET_COLLECTION,
    pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
    pokerkit.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    pokerkit.Automation.HAND_KILLING,
    pokerkit.Automation.CHIPS_PUSHING,
    pokerkit.Automation.CHIPS_PULLING,
)


@dataclass
class Stats:
    hands: int = 0
    decisions: int = 0
    reopen_differences: int = 0
    empty_checks: int = 0
    odd_chip_differences: int = 0
    showdowns: int = 0
    notes: list[str] = field(default_factory=list)


def _random_hand(rng: random.Random) -> tuple[HandSettings, list[int]]:
    n = rng.randint(2, 10)
    big_blind = rng.choice([2, 2, 2, 10])
    small_blind = big_blind // 2
    ante = rng.choice([0, 0, 0, 1, big_blind // 2])
    settings = HandSettings(small_blind=small_blind, big_blind=big_blind, ante=ante)
    while True:
        top = rng.choice([20, 60, 300, 2000])
        stacks = [rng.randint(1, top) for _ in range(n)]
        bb_player = 0 if n == 2 else 1
        # Deliberate difference 2: keep every big blind whole (the short-BB rule has its own tests).
        if stacks[bb_player] >= big_blind + ante:
            return settings, stacks


def _pokerkit_state(settings: HandSettings, stacks: list[int]):
    n = len(stacks)
    blinds = (settings.small_blind, settings.big_blind) + (0,) * (n - 2)
    return pokerkit.NoLimitTexasHoldem.create_state(
        AUTOMATIONS,
        True,  # ante trimming: antes count as contributions, like our live antes
        settings.ante,
        blinds,
        settings.big_blind,
        tuple(stacks),
        n,
        mode=pokerkit.Mode.TOURNAMENT,
    )


def _feed_cards(state, hand: Hand, cursor: dict[str, int], stats: Stats) -> None:
    """Deal PokerKit the cards our hand dealt (hole cards, burns, board), whenever it asks; make its
    empty checks (deliberate difference 4)."""
    deck = hand.deck
    n = hand.player_count
    while True:
        if state.actor_index is not None and (
            hand.actor != state.actor_index or len(hand.board) != len(state.board_cards) or hand.is_complete
        ):
            assert state.checking_or_calling_amount == 0 and not state.can_complete_bet_or_raise_to()
            state.check_or_call()
            stats.empty_checks += 1
        elif state.can_deal_hole():
            player = state.hole_dealee_index
            state.deal_hole(f"{deck[player]}{deck[n + player]}")
        elif state.can_burn_card():
            state.burn_card(str(deck[cursor["next"]]))
            cursor["next"] += 1
        elif state.can_deal_board():
            count = state.board_dealing_count
            cards = "".join(str(c) for c in deck[cursor["next"] : cursor["next"] + count])
            state.deal_board(cards)
            cursor["next"] += count
        else:
            return


def _choose(rng: random.Random, hand: Hand) -> tuple[ActionKind, int | None]:
    legal = hand.legal_actions()
    roll = rng.random()
    if legal.can_fold and roll < 0.2:
        return ActionKind.FOLD, None
    if (legal.can_bet or legal.can_raise) and roll < 0.5:
        assert legal.min_raise_to is not None and legal.max_raise_to is not None
        kind = ActionKind.BET if legal.can_bet else ActionKind.RAISE
        pick = rng.random()
        if pick < 0.25:
            return ActionKind.ALL_IN, None
        if pick < 0.5:
            return kind, legal.min_raise_to
        return kind, rng.randint(legal.min_raise_to, legal.max_raise_to)
    if legal.can_check:
        return ActionKind.CHECK, None
    if legal.can_all_in and rng.random() < 0.1:
        return ActionKind.ALL_IN, None
    return ActionKind.CALL, None


def _acted_this_round(hand: Hand, player: int) -> bool:
    for event in reversed(hand.events):
        if isinstance(event, StreetDealt):
            return False
        if isinstance(event, PlayerActed) and event.player == player:
            return True
    return False


def _pokerkit_settlement(hand: Hand) -> tuple[int, ...]:
    """Our hand re-settled the way PokerKit settles (deliberate difference 1).

    PokerKit first kills every hand that wins nothing, recomputes the pots without those players
    (so a main pot and side pots with the same remaining winners become one pot), then gives each
    pot's whole remainder to the winner with the smallest index. We pay each pot as it was formed
    and hand odd chips out one at a time from the button's left (rule book 000 §07).
    """
    stacks = list(hand.finishing_stacks or ())
    awards = [e for e in hand.events if isinstance(e, PotAwarded)]
    for event in awards:
        for player, chips in event.winners:
            stacks[player] -= chips
    winners = {player for event in awards for player, _ in event.winners}
    values = {e.player: e.value for e in hand.events if isinstance(e, HandShown)}
    out = [hand.folded[i] or i not in winners for i in range(hand.player_count)]
    for pot in build_pots(hand.contributions, out):
        best = max((values[i] for i in pot.eligible), default=None) if len(pot.eligible) > 1 else None
        paid = sorted(i for i in pot.eligible if best is None or values[i] == best)
        share, remainder = divmod(pot.amount, len(paid))
        for k, player in enumerate(paid):
            stacks[player] += share + (remainder if k == 0 else 0)
    return tuple(stacks)


def play_one(rng: random.Random, stats: Stats) -> None:
    settings, stacks = _random_hand(rng)
    deck_rng = random.Random(rng.getrandbits(64))
    hand = Hand(settings, stacks, rng=deck_rng)
    state = _pokerkit_state(settings, stacks)
    cursor = {"next": 2 * len(stacks)}
    _feed_cards(state, hand, cursor, stats)
    while not hand.is_complete:
        _feed_cards(state, hand, cursor, stats)
        legal = hand.legal_actions()
        assert state.actor_index == legal.player, "player to act"
        assert state.checking_or_calling_amount == legal.call_amount, "amount to call"
        ours_can_raise = legal.can_bet or legal.can_raise
        theirs_can_raise = state.can_complete_bet_or_raise_to()
        if ours_can_raise != theirs_can_raise:
            # Deliberate difference 3 only: the player acted already and our TDA 47 test decides.
            assert _acted_this_round(hand, legal.player), "disagreement for a player who hasn't acted"
            stack = hand.stacks[legal.player]
            assert stack > legal.call_amount
            assert ours_can_raise == (legal.call_amount >= hand.min_raise_increment)
            stats.reopen_differences += 1
            # Continue with a decision both engines accept.
            kind = ActionKind.CALL if rng.random() < 0.7 else ActionKind.FOLD
            hand.act(kind)
            state.check_or_call() if kind is ActionKind.CALL else state.fold()
            stats.decisions += 1
            _feed_cards(state, hand, cursor, stats)
            continue
        elif ours_can_raise:
            assert state.min_completion_betting_or_raising_to_amount == legal.min_raise_to, "min raise-to"
            assert state.max_completion_betting_or_raising_to_amount == legal.max_raise_to, "max raise-to"
        kind, amount = _choose(rng, hand)
        facing = hand.current_bet
        event = hand.act(kind, amount)
        stats.decisions += 1
        if kind is ActionKind.FOLD:
            state.fold()
        elif event.amount > facing:
            state.complete_bet_or_raise_to(event.amount)
        else:
            state.check_or_call()
        _feed_cards(state, hand, cursor, stats)
    assert not state.status, "PokerKit's hand should be over too"
    ours = hand.finishing_stacks
    assert ours is not None
    theirs = tuple(state.stacks)
    if ours != theirs:
        assert _pokerkit_settlement(hand) == theirs, (ours, theirs, hand.record().to_json())
        stats.odd_chip_differences += 1
    if any(type(e).__name__ == "HandShown" for e in hand.events):
        stats.showdowns += 1
    stats.hands += 1


def run(hand_count: int, seed: int) -> Stats:
    rng = random.Random(seed)
    stats = Stats()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(hand_count):
            play_one(rng, stats)
    return stats


#: Hands per seed; set POKER_DIFFERENTIAL_HANDS for a longer run (e.g. 20000).
HANDS = int(os.environ.get("POKER_DIFFERENTIAL_HANDS", "800"))


@pytest.mark.parametrize("seed", [1, 2])
def test_engine_agrees_with_pokerkit_on_random_hands(seed: int) -> None:
    stats = run(HANDS, seed)
    assert stats.hands == HANDS
    assert stats.decisions > 3 * HANDS
    assert stats.showdowns > HANDS // 10
    # The documented differences do occur in such a run, and were each checked above.
    assert stats.reopen_differences + stats.odd_chip_differences + stats.empty_checks > 0
