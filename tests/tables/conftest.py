"""Fixtures for the table-service tests: real storage on a temp file, a recording notifier, a manual clock,
and stacked decks."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.poker import CARDS, ActionKind, Card, parse_cards
from bot.storage import GuildDefaults, Storage
from bot.storage.sqlite import SQLiteExecutor
from bot.tables import ManualClock, RecordingNotifier, TableService
from bot.tables.clock import settle

GUILD = 10
CHANNEL = 20
HOST = 100
ALICE, BOB, CHLOE, DAVID = 101, 102, 103, 104
NAMES = {ALICE: "Alice", BOB: "Bob", CHLOE: "Chloé", DAVID: "David", HOST: "Host"}

DEFAULTS = GuildDefaults(language="en", starting_grant=1000, refill_cooldown_s=3600)


class StackedRng(random.Random):
    """A 'random' generator whose shuffles put chosen cards first (the rest in a fixed order)."""

    def __init__(self, first: Sequence[Card]) -> None:
        super().__init__(7)
        self.first = list(first)

    def shuffle(self, x: list[Card]) -> None:  # type: ignore[override]
        rest = [c for c in CARDS if c not in self.first]
        x[:] = self.first + rest


def deck_for(holes: Sequence[str], board: str = "") -> list[Card]:
    """The deck order that deals `holes[i]` to hand player i (0 = left of the button) one card at a time,
    then burns and deals the board (flop, turn, river) from `board`."""
    hands = [parse_cards(h) for h in holes]
    n = len(hands)
    order: list[Card] = [hands[i % n][i // n] for i in range(2 * n)]
    board_cards = list(parse_cards(board)) if board else []
    used = set(order) | set(board_cards)
    burns = iter(c for c in CARDS if c not in used)
    for street in (board_cards[:3], board_cards[3:4], board_cards[4:5]):
        if street:
            order.append(next(burns))
            order.extend(street)
    return order


@dataclass
class Decks:
    """A queue of stacked decks for the next hands; when empty, a seeded shuffle."""

    queue: list[list[Card]] = field(default_factory=list)
    seed: int = 1

    def __call__(self) -> random.Random:
        if self.queue:
            return StackedRng(self.queue.pop(0))
        self.seed += 1
        return random.Random(self.seed)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def decks() -> Decks:
    return Decks()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "poker.sqlite3"


@pytest.fixture
async def storage(db_path: Path, clock: ManualClock) -> AsyncIterator[Storage]:
    store = await Storage.open(db_path, defaults=DEFAULTS, clock=clock.time)
    yield store
    await store.close()


@pytest.fixture
def notifier() -> RecordingNotifier:
    return RecordingNotifier()


@pytest.fixture
async def service(
    storage: Storage, notifier: RecordingNotifier, clock: ManualClock, decks: Decks
) -> AsyncIterator[TableService]:
    svc = TableService(storage, notifier, clock=clock, rng_factory=decks)
    yield svc
    await settle()
    await svc.close()


def actor(service: TableService, channel: int = CHANNEL) -> int | None:
    """The user id of the player to act at the channel's table (None between hands)."""
    return service.get(channel).snapshot().actor_user_id


async def play_to_end_of_hand(service: TableService, channel: int = CHANNEL) -> None:
    """Everyone still in checks or calls until the hand is over."""
    number = service.get(channel).snapshot().hand_number
    for _ in range(40):
        snap = service.get(channel).snapshot()
        if snap.hand_number != number or snap.actor_user_id is None:
            return
        kind = ActionKind.CHECK if snap.legal is not None and snap.legal.can_check else ActionKind.CALL
        await service.get(channel).act(snap.actor_user_id, kind)
    raise AssertionError("the hand did not end")


def refuse_writes_under(storage: Storage, method: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the database refuse writes (SQLITE_READONLY: `PRAGMA query_only`, a real `StorageUnavailable`) while
    `storage.<method>` runs, and only then."""
    executor = storage.executor
    assert isinstance(executor, SQLiteExecutor)
    real = getattr(storage, method)

    async def refused(*args: object, **kwargs: object) -> object:
        async with executor.connection.execute("PRAGMA query_only = ON"):
            pass
        try:
            return await real(*args, **kwargs)
        finally:
            async with executor.connection.execute("PRAGMA query_only = OFF"):
                pass

    monkeypatch.setattr(storage, method, refused)
