"""Many varied table messages, built deterministically from real engine hands: the inputs of the table message
goldens (`test_table_goldens.py`) and of `benchmarks/table_message.py`.

Each case is a `TableSnapshot` (and the table's name) as the table service would build it: hands played at random
(seeded) by 2 to 10 players with short and deep stacks (all-ins, side pots, hands run twice), at no-limit,
pot-limit and fixed-limit, with antes, learning tables' face-up cards, time banks, sealed decks, tournament
levels, players waiting or sitting out beside the hand, odd names (Markdown, mentions, emoji, braces, 32
characters); hands played as `benchmarks/load.py` plays them; the PHH hands of `tests/data/phh/real-slice.phhs`
once over (real awards and split pots); and tables between hands or closed. Every case is drawn in English and
in French.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from bot.poker import ActionKind, BlindPosted, Hand, HandSettings, HoleCardsDealt, LevelBy, Street, TableKind
from bot.poker.phh import load_file, replay
from bot.render.table import SeatState, SeatView, TableSnapshot, Waiting

PHH_SLICE = Path(__file__).resolve().parents[1] / "data" / "phh" / "real-slice.phhs"

NAMES = (
    "Alice",
    "Bob",
    "Chloé",
    "**bold**",
    "_under_score_",
    "back`tick",
    "~~strike~~",
    "||spoiler||",
    "> quoted",
    "# heading",
    "[link](https://x.y)",
    "back\\slash",
    "Zoë 🃏",
    "🤖 Solid 3",
    "W" * 32,
    "Ångström Ünïcødé Ñandú Œuvre ß",
    "<@123456789012345678>",
    "@everyone",
    "李小龙",
    "{count} {name}",
    "{{braces}}",
    "%s %d",
    "👨‍👩‍👧 family",
    "Élodie-Marie",
    "x",
)
TABLE_NAMES = (None, "Friday night", "**Big** `game`", "{table} #1", "Table " + "long " * 30, "Partie de Zoé")
BLINDS = ((1, 2), (5, 10), (25, 50), (500, 1000), (5000, 10000), (1, 3))
BETTINGS = ("no-limit", "no-limit", "pot-limit", "fixed-limit")
LANGUAGES = ("en", "fr")
DEADLINE = 1_790_000_000.0


@dataclass(frozen=True)
class Case:
    """One table message to draw: a name for the golden, the snapshot, the table's name."""

    name: str
    snapshot: TableSnapshot
    table_name: str | None


def cases() -> list[Case]:
    """All the cases, in a fixed order, each in both languages (about 3,200)."""
    found: list[Case] = []
    for case in [*played_hands(), *load_like_hands(20), *_phh_hands(), *_idle_tables()]:
        for language in LANGUAGES:
            found.append(Case(f"{case.name}-{language}", replace(case.snapshot, language=language), case.table_name))
    return found


def _table_fields(rng: random.Random, players: int) -> dict[str, object]:
    """Tournament or cash, level and what comes next (the fields beside the hand)."""
    if rng.random() < 0.4:
        by = rng.choice((LevelBy.HANDS, LevelBy.MINUTES))
        fields: dict[str, object] = {
            "kind": TableKind.TOURNAMENT,
            "level": rng.randrange(1, 12),
            "level_by": by,
            "players_left": rng.choice((players, players + 7, 1)),
            "average_stack": rng.choice((0, 1500, 123_456)),
        }
        if rng.random() < 0.8:
            fields["next_level"] = (rng.choice((10, 15, 1000)), rng.choice((20, 30, 2000)), rng.choice((0, 0, 5)))
            fields["next_level_in"] = rng.choice((1, 2, 5, 60))
        return fields
    return {"kind": TableKind.CASH, "level": rng.choice((None, None, 3))}


def played_hands(count: int = 70, first: int = 0) -> Iterator[Case]:
    """Every message of `count` hands played at random (seeds `first`, `first + 1`, ...), in order, hand after hand
    (named "play<seed>-s<step>")."""
    for seed in range(first, first + count):
        rng = random.Random(seed)
        n = rng.randrange(2, 11)
        small, big = rng.choice(BLINDS)
        betting = rng.choice(BETTINGS)
        ante = rng.choice((0, 0, 0, max(1, big // 4)))
        settings = HandSettings(
            small_blind=small, big_blind=big, ante=ante, betting=betting, run_it_twice=rng.random() < 0.5
        )
        stacks = [rng.choice((big * 3, big * 20, big * 100, big * 250 + 7, small + 1)) for _ in range(n)]
        hand = Hand(settings, stacks, rng=random.Random(seed * 7919))
        # Seats: the hand's players in seat order, and now and then someone seated beside the hand.
        seat_numbers = sorted(rng.sample(range(1, 11), n))
        names = [rng.choice(NAMES) + ("" if rng.random() < 0.7 else f" {i}") for i in range(n)]
        extra: list[SeatView] = []
        free = [s for s in range(1, 11) if s not in seat_numbers]
        for seat in free[: rng.choice((0, 0, 1, 2))]:
            state = rng.choice((SeatState.WAITING, SeatState.SITTING_OUT, SeatState.OUT))
            extra.append(
                SeatView(seat, rng.choice(NAMES), rng.choice((0, 400, 12_345)), state=state, user_id=900 + seat)
            )
        leaving = {p for p in range(n) if rng.random() < 0.1}
        learning = rng.random() < 0.15
        fields = _table_fields(rng, n)
        seal = rng.choice((None, "3f9a1c2e", "ab12cd34ef56"))
        table_name = rng.choice(TABLE_NAMES)
        step = 0
        while True:
            yield Case(
                f"play{seed}-s{step}",
                _hand_snapshot(hand, seat_numbers, names, extra, leaving, learning, fields, seal, rng, seed),
                table_name,
            )
            if hand.is_complete:
                break
            _advance(hand, rng)
            step += 1


def load_like_hands(count: int, first: int = 0) -> Iterator[Case]:
    """Every message of `count` hands as `benchmarks/load.py` plays them (seeds `first`, ...): six players named
    like its members, 100 big blinds each, who check or call and fold one time in ten when facing a bet; a time
    bank of 60 s and a sealed deck (named "load<seed>-s<step>")."""
    for seed in range(first, first + count):
        rng = random.Random(-1 - seed)
        hand = Hand(HandSettings(small_blind=1, big_blind=2), [200] * 6, rng=random.Random(seed * 104_729))
        names = [f"t{seed}p{k}" for k in range(6)]
        fields = {"kind": TableKind.CASH}
        step = 0
        while True:
            snapshot = _hand_snapshot(hand, list(range(1, 7)), names, [], set(), False, fields, "9c0ffee5", rng, seed)
            if snapshot.actor_user_id is not None:
                deadline = DEADLINE + seed * 1000 + step * 3
                snapshot = replace(snapshot, deadline=deadline, time_bank=60.0, time_bank_running=False)
            yield Case(f"load{seed}-s{step}", snapshot, f"table-{seed}")
            if hand.is_complete:
                break
            legal = hand.legal_actions()
            if legal.can_check:
                hand.act(ActionKind.CHECK)
            else:
                hand.act(ActionKind.FOLD if rng.random() < 0.1 else ActionKind.CALL)
            step += 1


def _advance(hand: Hand, rng: random.Random) -> None:
    """One step of a hand: the actor's random choice among its legal actions, or the next run-twice answer."""
    if hand.actor is None:
        hand.answer_run_twice(hand.run_twice_pending[0], rng.random() < 0.8)
        return
    legal = hand.legal_actions()
    choices: list[tuple[ActionKind, int | None]] = []
    if legal.can_fold:
        choices.append((ActionKind.FOLD, None))
    if legal.can_check:
        choices += [(ActionKind.CHECK, None)] * 3
    if legal.can_call:
        choices += [(ActionKind.CALL, None)] * 3
    if (legal.can_bet or legal.can_raise) and legal.min_raise_to is not None and legal.max_raise_to is not None:
        kind = ActionKind.BET if legal.can_bet else ActionKind.RAISE
        choices += [(kind, legal.min_raise_to), (kind, rng.randint(legal.min_raise_to, legal.max_raise_to))]
    if legal.can_all_in:
        choices.append((ActionKind.ALL_IN, None))
    kind, amount = rng.choice(choices)
    hand.act(kind, amount)


def _hand_snapshot(
    hand: Hand,
    seat_numbers: list[int],
    names: list[str],
    extra: list[SeatView],
    leaving: set[int],
    learning: bool,
    fields: dict[str, object],
    seal: str | None,
    rng: random.Random,
    seed: int,
) -> TableSnapshot:
    """The snapshot the table service would draw of `hand` now (as bot/tables/snapshot.py builds it)."""
    blinds = {
        e.player: e.kind for e in hand.events if isinstance(e, BlindPosted) and e.kind in ("small_blind", "big_blind")
    }
    actor = hand.actor
    seats = [
        SeatView(
            seat=seat_numbers[p],
            name=names[p],
            stack=hand.stacks[p],
            bet=hand.bets[p],
            state=SeatState.FOLDED if hand.folded[p] else SeatState.ALL_IN if hand.all_in[p] else SeatState.ACTIVE,
            is_button=p == hand.player_count - 1,
            is_actor=p == actor,
            leaving=p in leaving,
            blind=blinds.get(p),
            user_id=100 + p,
            player=p,
            cards=tuple(hand.hole_cards[p]) if learning else (),
        )
        for p in range(hand.player_count)
    ]
    pending = tuple(100 + p for p in hand.run_twice_pending)
    timed = rng.random() < 0.8
    deadline = DEADLINE + seed * 1000 + len(hand.events) + rng.choice((0.0, 0.5)) if timed else None
    bank: dict[str, object] = {}
    if actor is not None and rng.random() < 0.3:
        bank = rng.choice(({"time_bank": rng.choice((30.0, 12.7, 0.4))}, {"time_bank_running": True}))
    return TableSnapshot(
        table_id=seed + 1,
        guild_id=10_000 + seed,
        channel_id=20_000 + seed,
        small_blind=hand.settings.small_blind,
        big_blind=hand.settings.big_blind,
        ante=hand.settings.ante,
        hand_number=seed + 1,
        seats=tuple(sorted([*seats, *extra], key=lambda s: s.seat)),
        board=tuple(hand.board),
        pots=tuple(hand.pots()),
        street=hand.street if not hand.is_complete else Street.COMPLETE,
        actor_user_id=100 + actor if actor is not None else None,
        deadline=deadline if actor is not None or pending else None,
        legal=hand.legal_actions() if actor is not None else None,
        names=tuple(names),
        events=tuple(e for e in hand.events if not isinstance(e, HoleCardsDealt))[-40:],
        running=True,
        run_twice_pending=pending,
        seal=seal,
        betting=str(hand.settings.betting),
        **fields,  # type: ignore[arg-type]
        **bank,  # type: ignore[arg-type]
    )


def _phh_hands() -> Iterator[Case]:
    for index, phh in enumerate(load_file(PHH_SLICE)):
        rng = random.Random(10_000 + index)
        try:
            hand = replay(phh)
        except ValueError:
            continue
        n = hand.player_count
        names = [rng.choice(NAMES) for _ in range(n)]
        snapshot = _hand_snapshot(hand, list(range(1, n + 1)), names, [], set(), False, {}, None, rng, index)
        yield Case(f"phh{index}", snapshot, rng.choice(TABLE_NAMES))
        # The same hand's names unknown (a player index beyond `names`: "Player N").
        yield Case(f"phh{index}-unnamed", replace(snapshot, names=tuple(names[: n // 2])), None)


def _idle_tables() -> Iterator[Case]:
    for index in range(60):
        rng = random.Random(50_000 + index)
        count = rng.choice((0, 1, 2, 6, 10))
        seats = tuple(
            SeatView(
                seat,
                rng.choice(NAMES),
                rng.choice((0, 200, 1_000_000, 4321)),
                state=rng.choice((SeatState.WAITING, SeatState.SITTING_OUT, SeatState.OUT)),
                is_button=seat == 1,
                leaving=rng.random() < 0.2,
                user_id=700 + seat,
            )
            for seat in sorted(rng.sample(range(1, 11), count))
        )
        small, big = rng.choice(BLINDS)
        waiting = rng.choice((None, None, *Waiting))
        snapshot = TableSnapshot(
            table_id=index,
            hand_number=rng.choice((0, 4, 120)),
            small_blind=small,
            big_blind=big,
            ante=rng.choice((0, 0, big // 2)),
            seats=seats,
            running=rng.random() < 0.5,
            next_hand_at=rng.choice((None, DEADLINE + index)),
            closed=rng.random() < 0.2,
            waiting=waiting,
            betting=rng.choice(BETTINGS),
            **_table_fields(rng, count),  # type: ignore[arg-type]
        )
        yield Case(f"idle{index}", snapshot, rng.choice(TABLE_NAMES))
