"""Properties over random tables and random legal play (hypothesis).

For every hand: chips are conserved at every step, no stack goes negative, every offered action is
accepted (and `can_*`/`verify_*` agree with `legal_actions()`), every refused action raises a
`PokerError` and changes nothing, the hand ends, and every pot is awarded exactly once with all of
its chips.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.poker import ActionKind, Betting, Hand, HandEnded, HandSettings, PokerError, PotAwarded
from tests.poker.helpers import snapshot

KINDS = list(ActionKind)


@st.composite
def tables(draw: st.DrawFn) -> tuple[HandSettings, list[int], int]:
    n = draw(st.integers(2, 10))
    big_blind = draw(st.sampled_from([2, 4, 10]))
    ante_kind = draw(st.sampled_from(["none", "none", "ante", "bb_ante"]))
    amount = draw(st.sampled_from([1, 2, big_blind]))
    hand_settings = HandSettings(
        small_blind=big_blind // 2,
        big_blind=big_blind,
        ante=amount if ante_kind == "ante" else 0,
        big_blind_ante=amount if ante_kind == "bb_ante" else 0,
        straddle=draw(st.booleans()) and n >= 3,
        betting=draw(st.sampled_from(list(Betting))),
        dead_small_blind=draw(st.booleans()) and n >= 3,
    )
    top = draw(st.sampled_from([5, 30, 200, 1000]))
    stacks = draw(st.lists(st.integers(1, top), min_size=n, max_size=n))
    return hand_settings, stacks, draw(st.integers(0, 2**32 - 1))


def _offered(hand: Hand, rng: random.Random) -> list[tuple[ActionKind, int | None]]:
    legal = hand.legal_actions()
    offered: list[tuple[ActionKind, int | None]] = []
    if legal.can_fold:
        offered.append((ActionKind.FOLD, None))
    if legal.can_check:
        offered.append((ActionKind.CHECK, None))
    if legal.can_call:
        offered.append((ActionKind.CALL, None))
    if legal.can_all_in:
        offered.append((ActionKind.ALL_IN, None))
    if legal.can_bet or legal.can_raise:
        assert legal.min_raise_to is not None and legal.max_raise_to is not None
        assert hand.current_bet < legal.min_raise_to <= legal.max_raise_to <= legal.all_in_to
        betting = hand.settings.betting
        assert betting is not Betting.NO_LIMIT or legal.max_raise_to == legal.all_in_to
        assert betting is not Betting.FIXED_LIMIT or legal.max_raise_to == legal.min_raise_to
        # Facing less than the stack, all-in is a bet or raise: allowed only within the limit.
        assert legal.can_all_in == (legal.max_raise_to == legal.all_in_to)
        kind = ActionKind.BET if legal.can_bet else ActionKind.RAISE
        for amount in {legal.min_raise_to, legal.max_raise_to, rng.randint(legal.min_raise_to, legal.max_raise_to)}:
            offered.append((kind, amount))
    else:
        assert legal.min_raise_to is None and legal.max_raise_to is None
    return offered


def _refusals(hand: Hand, rng: random.Random) -> list[tuple[ActionKind, int | None]]:
    """Actions to try that legal_actions() does not offer (a mix of kinds and amounts)."""
    legal = hand.legal_actions()
    tries: list[tuple[ActionKind, int | None]] = []
    for kind in KINDS:
        for amount in (None, 0, -3, legal.all_in_to + 1, rng.randint(0, legal.all_in_to + 5)):
            tries.append((kind, amount))
    if legal.min_raise_to is not None and legal.min_raise_to - 1 > hand.current_bet:
        tries.append((ActionKind.RAISE if legal.can_raise else ActionKind.BET, legal.min_raise_to - 1))
    return tries


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), choices=st.randoms(use_true_random=False))
def test_random_legal_play_keeps_every_invariant(
    table: tuple[HandSettings, list[int], int], choices: random.Random
) -> None:
    hand_settings, stacks, seed = table
    hand = Hand(hand_settings, stacks, rng=random.Random(seed))
    total = sum(stacks)
    steps = 0
    while not hand.is_complete:
        steps += 1
        assert steps < 200
        assert sum(hand.stacks) + hand.total_pot == total
        assert min(hand.stacks) >= 0
        actor = hand.actor
        assert actor is not None and not hand.folded[actor] and hand.stacks[actor] > 0
        offered = _offered(hand, choices)
        offered_set = set(offered)
        for kind, amount in offered:
            assert hand.can_act(kind, amount), (kind, amount, hand.legal_actions())
            hand.verify_action(kind, amount)
        for kind, amount in _refusals(hand, choices):
            if hand.can_act(kind, amount):
                continue
            assert (kind, amount) not in offered_set
            before = snapshot(hand)
            try:
                hand.act(kind, amount)
            except PokerError as error:
                assert str(error) and error.code
            else:  # pragma: no cover - the assertion below reports it
                raise AssertionError(f"{kind} {amount} was refused by can_act but accepted by act")
            assert snapshot(hand) == before
        kind, amount = choices.choice(offered)
        hand.act(kind, amount, player=actor)
    finishing = hand.finishing_stacks
    assert finishing is not None and sum(finishing) == total and min(finishing) >= 0
    events = hand.events
    assert isinstance(events[-1], HandEnded) and events[-1].finishing_stacks == finishing
    awards = [e for e in events if isinstance(e, PotAwarded)]
    pots = hand.pots()
    assert sorted(a.pot_index for a in awards) == list(range(len(pots)))
    for award in awards:
        assert award.amount == pots[award.pot_index].amount > 0
        assert sum(chips for _, chips in award.winners) == award.amount
        assert {p for p, _ in award.winners} <= set(pots[award.pot_index].eligible)
        shares = [chips for _, chips in award.winners]
        assert max(shares) - min(shares) <= 1


@settings(max_examples=100, deadline=None)
@given(table=tables(), choices=st.randoms(use_true_random=False))
def test_rebuilding_from_the_record_at_any_point_gives_the_same_state(
    table: tuple[HandSettings, list[int], int], choices: random.Random
) -> None:
    hand_settings, stacks, seed = table
    hand = Hand(hand_settings, stacks, rng=random.Random(seed))
    while not hand.is_complete:
        rebuilt = Hand.from_record(hand.record())
        assert snapshot(rebuilt) == snapshot(hand)
        hand.act(*choices.choice(_offered(hand, choices)))
    assert Hand.from_record(hand.record()).events == hand.events
