"""Sample tables for the picture: the golden-file tests, `scripts/picture_goldens.py` and `benchmarks/render.py`
draw these (2, 6 and 10 seats in a hand, a 10-seat showdown with side pots, one with long hand names, an all-in
with odds, a split pot with a computer player; and `table_series`, the streets and results of many busy tables in turn).

Each sample is a public snapshot (the service's own `bot.render.table.TableSnapshot`, with engine events and
pots) and, at a showdown, the hand's `HandResult`, as the table service hands them to the Discord layer.
"""

from __future__ import annotations

import dataclasses
import random

from bot.poker.cards import Card, full_deck, parse_cards
from bot.poker.evaluation import evaluate
from bot.poker.events import Event, HandShown, HoleCardsDealt, Street
from bot.poker.pots import Pot
from bot.poker.result import HandResult, PotResult, ShownHand
from bot.render.picture import OddsLike, SeatOdds, TableScene, scene_from_snapshot
from bot.render.table import SeatState, SeatView, TableSnapshot

NAMES = ("Alice", "Bob", "Chloé", "David", "Émilie", "François", "Grégoire", "Hélène", "Ibrahim", "Jean-Sébastien")


def _seats(
    count: int, states: dict[int, str], bets: dict[int, int], actor: int, stacks: int = 100
) -> tuple[SeatView, ...]:
    # heads-up the button posts the small blind (rule book 000 §04)
    blinds = {1: "big_blind", 2: "small_blind"} if count == 2 else {1: "small_blind", 2: "big_blind"}
    seats = []
    for i in range(count):
        number = i + 1
        seats.append(
            SeatView(
                seat=number,
                user_id=100 + number,
                name=NAMES[i],
                stack=stacks + 37 * i,
                bet=bets.get(number, 0),
                state=SeatState(states.get(number, "active")),
                is_button=number == count,
                is_actor=number == actor,
                player=i,
                blind=blinds.get(number),
            )
        )
    return tuple(seats)


def _snapshot(
    language: str,
    hand_number: int,
    small_blind: int,
    big_blind: int,
    max_seats: int,
    seats: tuple[SeatView, ...],
    board: tuple[Card, ...],
    pots: tuple[Pot, ...],
    street: Street,
    *,
    ante: int,
    events: tuple[Event, ...] = (),
) -> TableSnapshot:
    """A sample table's public snapshot: the service's own `TableSnapshot` (bot/render/table.py)."""
    return TableSnapshot(
        language=language,
        hand_number=hand_number,
        small_blind=small_blind,
        big_blind=big_blind,
        ante=ante,
        max_seats=max_seats,
        seats=seats,
        board=board,
        pots=pots,
        street=street,
        events=events,
    )


def hand_in_play(count: int, language: str = "en") -> TableSnapshot:
    """A hand on the turn with `count` seated (2..10, as many seats as `count` rounds up to a layout's)."""
    max_seats = 2 if count <= 2 else 6 if count <= 6 else 10
    states = {3: "folded", 5: "all_in", 7: "sitting_out", 9: "folded"} if count > 2 else {}
    bets = {1: 12, 2: 40, 4: 40} if count > 2 else {1: 8}
    states = {k: v for k, v in states.items() if k <= count}
    seats = _seats(count, states, {k: v for k, v in bets.items() if k <= count}, 2)
    board = parse_cards("Ks9d4cTh")
    return _snapshot(language, 42, 1, 2, max_seats, seats, board, (Pot(86, (0, 1)),), Street.TURN, ante=0)


def showdown(language: str = "en") -> tuple[TableSnapshot, HandResult]:
    """A 10-seat showdown with a side pot: three hands shown, two winners."""
    seats = _seats(10, {3: "folded", 4: "folded", 6: "folded", 7: "folded", 8: "folded", 9: "folded"}, {}, 0)
    board = parse_cards("Ks9d4c2hAc")
    hands = {1: parse_cards("AhKh"), 2: parse_cards("9s9c"), 5: parse_cards("QdJd"), 10: parse_cards("7c7d")}
    shown = tuple(
        ShownHand(100 + seat, NAMES[seat - 1], cards, evaluate(cards + board)) for seat, cards in hands.items()
    )
    pots = (
        PotResult(0, 240, ((102, "Bob", 240),), shown[1].value, shown[0].value),
        PotResult(1, 130, ((101, "Alice", 130),), shown[0].value, shown[3].value),
    )
    result = HandResult(57, board, shown, ((106, "François"),), pots, (), True)
    snapshot = _snapshot(language, 57, 5, 10, 10, seats, board, (), Street.COMPLETE, ante=1)
    return snapshot, result


def long_hand_names(language: str = "en") -> tuple[TableSnapshot, HandResult]:
    """A 10-seat showdown of six hands whose names need kickers (two high cards apart on the fifth card, two pairs
    of kings on the fourth): names too long for one line of the plate."""
    seats = _seats(10, {3: "folded", 4: "folded", 6: "folded", 8: "folded"}, {}, 0)
    board = parse_cards("KsQd9c3h2d")
    hands = {
        1: parse_cards("Jh7c"),
        2: parse_cards("Jc6d"),
        5: parse_cards("Kh8c"),
        7: parse_cards("Kc7d"),
        9: parse_cards("9h3c"),
        10: parse_cards("9d2c"),
    }
    shown = tuple(
        ShownHand(100 + seat, NAMES[seat - 1], cards, evaluate(cards + board)) for seat, cards in hands.items()
    )
    pots = (PotResult(0, 360, ((109, "Ibrahim", 360),), shown[4].value, shown[5].value),)
    result = HandResult(71, board, shown, (), pots, (), True)
    snapshot = _snapshot(language, 71, 5, 10, 10, seats, board, (), Street.COMPLETE, ante=0)
    return snapshot, result


def all_in_with_odds(language: str = "en") -> tuple[TableSnapshot, dict[int, OddsLike]]:
    """Three players all-in on the flop, hands turned face up, with each seat's odds (seats 1, 2 and 4)."""
    seats = _seats(6, {1: "all_in", 2: "all_in", 3: "folded", 4: "all_in", 5: "folded", 6: "folded"}, {}, 0)
    board = parse_cards("Ks9d4c")
    hole = {0: parse_cards("AhKh"), 1: parse_cards("9s9c"), 3: parse_cards("QdJd")}
    events = tuple(HandShown(p, cards, evaluate(cards + board)) for p, cards in hole.items())
    pots = (Pot(300, (0, 1, 3)), Pot(74, (1, 3)))
    odds: dict[int, OddsLike] = {
        1: SeatOdds(0.082, 0.0),
        2: SeatOdds(0.853, 0.0),
        4: SeatOdds(0.065, 0.012, exact=False),
    }
    snap = _snapshot(language, 61, 1, 2, 6, seats, board, pots, Street.FLOP, ante=0, events=events)
    return snap, odds


def split_pot(language: str = "en") -> tuple[TableSnapshot, HandResult]:
    """A 6-seat showdown where two jack-high straights split the pot (seat 1 and a computer player at seat 3)
    and a ten-high straight loses; the folded seats are named with characters the font lacks (CJK, emoji)."""
    seats = list(_seats(6, {4: "folded", 5: "folded", 6: "folded"}, {}, 0))
    computer = "🤖 Solide 3" if language == "fr" else "🤖 Solid 3"
    seats[2] = dataclasses.replace(seats[2], name=computer, user_id=-2003)
    seats[3] = dataclasses.replace(seats[3], name="李小龍🐉")
    seats[4] = dataclasses.replace(seats[4], name="Zoé 🎲")
    board = parse_cards("Ts9d8c7h2s")
    hands = {1: parse_cards("Jc3d"), 2: parse_cards("6s6c"), 3: parse_cards("Jd4c")}
    users = {1: 101, 2: 102, 3: -2003}
    shown = tuple(
        ShownHand(users[seat], seats[seat - 1].name, cards, evaluate(cards + board)) for seat, cards in hands.items()
    )
    winners = ((101, seats[0].name, 105), (-2003, computer, 105))
    pots = (PotResult(0, 210, winners, shown[0].value, shown[1].value),)
    result = HandResult(63, board, shown, (), pots, (), True)
    snapshot = _snapshot(language, 63, 5, 10, 6, tuple(seats), board, (), Street.COMPLETE, ante=0)
    return snapshot, result


def with_private_cards(snapshot: TableSnapshot) -> TableSnapshot:
    """The same snapshot with every seat's hole cards among its events (as a careless caller could pass them):
    the picture must not change."""
    secret = parse_cards("2c3c4d5d6h7h8s8d3h3s4s5s6s7s8c8h2d2s3d4h")
    dealt = tuple(HoleCardsDealt(i, (secret[2 * i], secret[2 * i + 1])) for i in range(len(snapshot.seats)))
    return dataclasses.replace(snapshot, events=dealt + snapshot.events)


def golden_scenes() -> dict[str, TableScene]:
    """The scenes of the golden-file tests, by file stem: each layout in a hand (EN, the 10-seat one in FR too),
    a 10-seat showdown with side pots (EN, FR), one of hand names on two lines (EN, FR), an all-in with odds (FR,
    four-colour deck; EN), a split pot won by a member and a computer player (EN, FR)."""
    showdown_snapshot, result = showdown()
    all_in, odds = all_in_with_odds("fr")
    all_in_en, odds_en = all_in_with_odds()
    split, split_result = split_pot()
    split_fr, split_result_fr = split_pot("fr")
    return {
        "hand_2_seats": scene_from_snapshot(hand_in_play(2)),
        "hand_6_seats": scene_from_snapshot(hand_in_play(6)),
        "hand_10_seats": scene_from_snapshot(hand_in_play(10)),
        "hand_10_seats_fr": scene_from_snapshot(hand_in_play(10, "fr")),
        "showdown_10_seats": scene_from_snapshot(showdown_snapshot, result),
        "showdown_10_seats_fr": scene_from_snapshot(showdown("fr")[0], result),
        "all_in_odds_fr_four_colour": scene_from_snapshot(all_in, None, odds, four_colour=True),
        "all_in_odds": scene_from_snapshot(all_in_en, None, odds_en),
        "showdown_long_hand_names": scene_from_snapshot(*long_hand_names()),
        "showdown_long_hand_names_fr": scene_from_snapshot(*long_hand_names("fr")),
        "split_pot_computer": scene_from_snapshot(split, split_result),
        "split_pot_computer_fr": scene_from_snapshot(split_fr, split_result_fr),
    }


def _series_seats(
    names: list[str], users: list[int], stacks: list[int], in_hand: set[int], button: int, actor: int | None
) -> tuple[SeatView, ...]:
    blinds = {(button + 1) % 6: "small_blind", (button + 2) % 6: "big_blind"}
    return tuple(
        SeatView(
            seat=k + 1,
            user_id=users[k],
            name=names[k],
            stack=stacks[k],
            state=SeatState.ACTIVE if k in in_hand else SeatState.FOLDED,
            is_button=k == button,
            is_actor=k == actor,
            player=k,
            blind=blinds.get(k),
        )
        for k in range(6)
    )


def table_series(
    tables: int = 100, hands: int = 1, seed: int = 15, first_hand: int = 1, checks: bool = False
) -> list[tuple[TableSnapshot, HandResult | None]]:
    """What a busy process's picture thread draws, in order: `tables` tables of six players at ten seats (as
    benchmarks/load.py opens them), `hands` hands each, the flop, turn, river and result of every table in
    turn. Each table has its own names (the same for every `seed`) and hand numbers (from `first_hand`, apart by
    table); every street each player still in puts chips in and one folds, the result shows the last hands and
    pays the best. `checks`: played as benchmarks/load.py's players play instead — everyone calls the big blind
    and checks every street after (nobody folds: the streets' seats look the same from flop to river). A pair
    (snapshot, None) is a street's picture, (snapshot, result) a result's."""
    rng = random.Random(seed)
    deck = full_deck()
    per_table: list[list[tuple[TableSnapshot, HandResult | None]]] = []
    for table in range(tables):
        language = "fr" if table % 4 == 3 else "en"
        names = [f"{NAMES[(table + k) % len(NAMES)]} {table}" for k in range(6)]
        users = [1000 * (table + 1) + k for k in range(6)]
        stacks = [rng.randrange(200, 5000) for _ in range(6)]
        pictures: list[tuple[TableSnapshot, HandResult | None]] = []
        for h in range(hands):
            number = first_hand + 17 * table + h
            cards = rng.sample(deck, 17)
            board, holes = tuple(cards[:5]), [tuple(cards[5 + 2 * k : 7 + 2 * k]) for k in range(6)]
            button, in_hand, pot = h % 6, set(range(6)), 0
            for street, dealt in ((Street.FLOP, 3), (Street.TURN, 4), (Street.RIVER, 5)):
                bet = 2 if checks and street == Street.FLOP else 0 if checks else rng.choice((2, 4, 10, 20, 40, 100))
                for k in in_hand:
                    paid = min(bet, stacks[k])
                    stacks[k] -= paid
                    pot += paid
                if len(in_hand) > 2 and not checks:
                    in_hand.discard(rng.choice(sorted(in_hand)))
                actor = min(in_hand, key=lambda k: (k - button - 1) % 6)
                seats = _series_seats(names, users, stacks, in_hand, button, actor)
                pots = (Pot(pot, tuple(sorted(in_hand))),)
                pictures.append(
                    (_snapshot(language, number, 1, 2, 10, seats, board[:dealt], pots, street, ante=0), None)
                )
            shown = tuple(ShownHand(users[k], names[k], holes[k], evaluate(holes[k] + board)) for k in sorted(in_hand))
            best = max(shown, key=lambda hand: hand.value)
            beaten = max((hand.value for hand in shown if hand is not best), default=None)
            stacks[users.index(best.user_id)] += pot
            awarded = (PotResult(0, pot, ((best.user_id, best.name, pot),), best.value, beaten),)
            result = HandResult(number, board, shown, (), awarded, (), True)
            seats = _series_seats(names, users, stacks, in_hand, button, None)
            pictures.append((_snapshot(language, number, 1, 2, 10, seats, board, (), Street.COMPLETE, ante=0), result))
        per_table.append(pictures)
    return [picture for turn in zip(*per_table, strict=True) for picture in turn]
