"""Run it twice against PokerKit 0.7.7, and through our PHH export and replay.

Random all-in hands of 2 or 3 players (all-in before the flop or on the flop), every player agreeing to run it
twice. PokerKit (cash-game mode: it offers the run-out count only there) gets the same hole cards, the same
decisions, `select_runout_count(2)` from every player, and our two boards; its finishing stacks must equal ours.
Stacks are multiples of 12 so that no half of a pot, nor its split among two or three tied hands, leaves an
odd chip: the odd chip is where the rule books differ (ours: `hand._halves` and `split_pot`, tested in
test_run_it_twice.py), not a difference this test forgives.
"""

from __future__ import annotations

import random

import pytest

from bot.poker import ActionKind, Hand, HandSettings, PlayerActed, PotAwarded, StreetDealt
from bot.poker.phh import dump_hand, loads, replay
from tests.requirements import require_module

pokerkit = require_module("pokerkit")

from tests.poker.test_differential_pokerkit import AUTOMATIONS as DIFFERENTIAL_AUTOMATIONS  # noqa: E402

# The differential test's automations, and PokerKit pays the pots itself here (no harness settlement).
AUTOMATIONS = (*DIFFERENTIAL_AUTOMATIONS, pokerkit.Automation.CHIPS_PUSHING, pokerkit.Automation.CHIPS_PULLING)


def random_run_twice_hand(rng: random.Random) -> Hand:
    n = rng.choice([2, 2, 3])
    stacks = [12 * rng.randint(1, 40) for _ in range(n)]
    hand = Hand(HandSettings(small_blind=1, big_blind=2, run_it_twice=True), stacks, rng=random.Random(rng.random()))
    on_flop = rng.random() < 0.5 and min(stacks) > 12
    while hand.actor is not None:
        if on_flop and not hand.board:
            legal = hand.legal_actions()
            hand.act(ActionKind.CHECK if legal.can_check else ActionKind.CALL)
        else:
            legal = hand.legal_actions()
            hand.act(ActionKind.ALL_IN if legal.can_all_in else ActionKind.CALL)
    while hand.run_twice_pending:
        hand.answer_run_twice(hand.run_twice_pending[0], True)
    assert hand.is_complete
    return hand


def pokerkit_stacks(hand: Hand) -> list[int]:
    n = hand.player_count
    state = pokerkit.NoLimitTexasHoldem.create_state(
        AUTOMATIONS,
        True,
        0,
        (1, 2) + (0,) * (n - 2),
        2,
        tuple(hand.starting_stacks),
        n,
        mode=pokerkit.Mode.CASH_GAME,
    )
    for player in range(n):
        state.deal_hole("".join(str(c) for c in hand.hole_cards[player]))
    decisions = [e for e in hand.events if isinstance(e, PlayerActed)]
    boards = [e for e in hand.events if isinstance(e, StreetDealt)]
    facing = 2
    cursor = 2 * n  # our deck order: hole cards, then a burn card before each street of each board
    while state.status:
        if state.actor_index is not None:
            decision = decisions.pop(0)
            assert decision.player == state.actor_index
            if decision.amount > facing:
                state.complete_bet_or_raise_to(decision.amount)
                facing = decision.amount
            else:
                state.check_or_call()
        elif state.can_select_runout_count():
            state.select_runout_count(2)
        elif state.can_burn_card():
            state.burn_card(str(hand.deck[cursor]))
            cursor += 1
        elif state.can_deal_board():
            cards = boards.pop(0).cards
            assert hand.deck[cursor : cursor + len(cards)] == cards
            state.deal_board("".join(str(c) for c in cards))
            cursor += len(cards)
            facing = 0
        else:
            raise AssertionError("PokerKit waits for something this test does not give")
    assert not decisions and not boards
    return list(state.stacks)


@pytest.mark.parametrize("seed", range(4))
def test_run_it_twice_hands_pay_as_pokerkit(seed: int) -> None:
    rng = random.Random(seed)
    boards_disagreed = 0
    for _ in range(50):
        hand = random_run_twice_hand(rng)
        assert hand.runs == 2
        assert list(hand.finishing_stacks or ()) == pokerkit_stacks(hand), hand.record().to_json()
        halves = {p.run: p.winners for p in hand.events if isinstance(p, PotAwarded) and p.pot_index == 0}
        boards_disagreed += halves[1] != halves[2]
    assert boards_disagreed >= 3  # the halves really went to different players


def test_a_hand_run_twice_exports_to_phh_and_replays_the_same() -> None:
    rng = random.Random(99)
    for _ in range(40):
        hand = random_run_twice_hand(rng)
        text = dump_hand(hand)
        assert "# run it twice" in text and "# second board" in text
        again = replay(loads(text)[0])
        assert again.finishing_stacks == hand.finishing_stacks
        assert again.board == hand.board and again.second_board == hand.second_board
