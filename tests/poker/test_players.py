"""Computer players: they see only their own seat, never act out of turn, never make an illegal decision."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.poker import ActionKind, Hand, HandSettings, NotYourTurnError, Street
from bot.poker.players import Level, PlayerView, Solid, make_player, play_turn, view_of
from tests.poker.helpers import play, stacked_deck

LEVELS = list(Level)


def _views_and_decisions(
    holes: list[str], board: str, level: Level, seed: int
) -> tuple[list[PlayerView], list[object]]:
    """Play the same public actions on a deal; collect player 0's views and decisions with the same seed."""
    hand = Hand(HandSettings(), [200, 200, 200], deck=stacked_deck(holes, board))
    play(hand, "p2 call", "p0 call", "p1 check")  # flop
    player = make_player(level)
    views: list[PlayerView] = []
    decisions: list[object] = []
    rng = random.Random(seed)
    view = view_of(hand, 0)
    views.append(view)
    decisions.append(player.decide(view, rng))
    play(hand, "p0 check", "p1 bet 4", "p2 call")
    view = view_of(hand, 0)
    views.append(view)
    decisions.append(player.decide(view, rng))
    return views, decisions


@pytest.mark.parametrize("level", LEVELS)
def test_a_computer_player_sees_only_its_own_cards_and_the_public_state(level: Level) -> None:
    board = "Qh 7c 2d 9s 3h"
    one = _views_and_decisions(["AhKh", "JcJd", "8s8d"], board, level, seed=5)
    other = _views_and_decisions(["AhKh", "Tc9c", "AsAd"], board, level, seed=5)
    assert one == other  # others' hole cards and the rest of the deck change nothing a bot sees or does
    view = one[0][0]
    assert view.hole_cards == tuple(stacked_deck(["AhKh", "JcJd", "8s8d"], board)[i] for i in (0, 3))
    assert view.shown == ((), (), ())
    assert not any(isinstance(value, Hand) for value in vars_of(view))
    assert [str(c) for c in view.board] == ["Qh", "7c", "2d"]


def vars_of(view: PlayerView) -> list[object]:
    return [getattr(view, name) for name in view.__slots__]


def test_the_view_lists_the_public_action_with_forced_bets_first() -> None:
    hand = Hand(HandSettings(), [200, 200, 200], deck=stacked_deck(["AhKh", "JcJd", "8s8d"], "Qh7c2d9s3h"))
    play(hand, "p2 raise 6", "p0 call", "p1 fold", "p0 check")
    view = view_of(hand, 2)
    assert [(a.street, a.player, a.kind, a.amount, a.blind) for a in view.history] == [
        (Street.PREFLOP, 0, None, 1, "small_blind"),
        (Street.PREFLOP, 1, None, 2, "big_blind"),
        (Street.PREFLOP, 2, ActionKind.RAISE, 6, None),
        (Street.PREFLOP, 0, ActionKind.CALL, 6, None),
        (Street.PREFLOP, 1, ActionKind.FOLD, 2, None),
        (Street.FLOP, 0, ActionKind.CHECK, 0, None),
    ]
    assert view.pot == 14 and view.opponents == (0,) and view.legal.can_check and view.stack == 194


def test_a_view_is_only_for_the_player_to_act() -> None:
    hand = Hand(HandSettings(), [200, 200, 200], deck=stacked_deck(["AhKh", "JcJd", "8s8d"]))
    with pytest.raises(NotYourTurnError):
        view_of(hand, 0)  # player 2 (the button, under the gun three-handed) acts first


def test_public_cards_of_a_face_up_table_are_in_the_view_but_never_the_players_own() -> None:
    holes = ["AhKh", "JcJd", "8s8d"]
    deck = stacked_deck(holes)
    hand = Hand(HandSettings(), [200, 200, 200], deck=deck)
    shown = {i: hand.hole_cards[i] for i in range(3)}
    view = view_of(hand, 2, shown=shown)
    assert view.shown == (hand.hole_cards[0], hand.hole_cards[1], ())


LINEUP = st.lists(st.sampled_from(LEVELS), min_size=2, max_size=10)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lineup=LINEUP,
    seed=st.integers(0, 2**32 - 1),
    blinds=st.sampled_from([(1, 2, 0), (5, 10, 0), (1, 2, 1), (25, 50, 5), (2, 2, 0)]),
)
def test_computer_players_never_make_an_illegal_decision(
    lineup: list[Level], seed: int, blinds: tuple[int, int, int]
) -> None:
    """100 examples of 1,000 decisions each: 100,000 decisions, every level, 2 to 10 players, stacks from one
    chip to 300 big blinds."""
    rng = random.Random(seed)
    # The solid player with fewer Monte Carlo deals (its seam): the same decisions' shapes, five times faster.
    players = [Solid(trials=50) if level is Level.SOLID else make_player(level) for level in lineup]
    small, big, ante = blinds
    hand_settings = HandSettings(small_blind=small, big_blind=big, ante=ante)
    decisions = 0
    for _ in range(2000):  # hands; a deal where the forced bets put everyone all-in asks no decision
        if decisions >= 1000:
            break
        stacks = [rng.randint(1, 3 * big) if rng.random() < 0.2 else rng.randint(big, 300 * big) for _ in lineup]
        hand = Hand(hand_settings, stacks, rng=rng)
        while not hand.is_complete:
            actor = hand.actor
            assert actor is not None
            before = hand.event_count
            event = play_turn(hand, players[actor], rng)  # raises if the decision is refused
            assert event.player == actor and hand.event_count > before
            decisions += 1
    assert decisions >= 1000
