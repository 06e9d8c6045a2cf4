"""What the bot stored, read back in the test process through `bot.storage` and replayed with the engine.

The bot writes every action before announcing it (docs/architecture.md, "The hand is its history"); these helpers
rebuild each hand from its stored record and actions with `bot.poker`, so the tests can compare what the
channel showed with what the engine computes. SQLite in WAL mode lets a second connection read while the
bot runs.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.poker import ActionKind, Hand, HandRecord, HoleCardsDealt, PlayerActed
from bot.render import render_event_line, t
from bot.render.events import POT_LINE_EVENTS, chips_into_pot, pot_count_of
from bot.storage import HandRow, Storage


@contextlib.asynccontextmanager
async def open_storage(path: str | Path) -> AsyncIterator[Storage]:
    """The bot's database opened by the test (a second connection; safe while the bot runs)."""
    storage = await Storage.open(path)
    try:
        yield storage
    finally:
        await storage.close()


def replay(row: HandRow) -> Hand:
    """The hand rebuilt by the engine from its stored record and every stored action, in order."""
    hand = Hand.from_record(HandRecord.from_json(row.record["record"]))
    for action in row.actions:
        hand.act(ActionKind(action["kind"]), action.get("amount"))
    return hand


@dataclass(frozen=True)
class HandState:
    """The public state of a replayed hand, by user id: enough to compare with the table message."""

    number: int
    board: tuple[str, ...]
    pots: tuple[int, ...]
    stacks: dict[int, int]
    bets: dict[int, int]
    actor: int | None
    complete: bool
    actions: tuple[tuple[int, str, int | None], ...]


def hand_state(row: HandRow) -> HandState:
    """Replay a stored hand and describe it by user id (the record keeps the hand's users in player order)."""
    hand = replay(row)
    users = [int(u) for u in row.record["users"]]
    return HandState(
        number=row.number,
        board=tuple(str(c) for c in hand.board),
        pots=tuple(p.amount for p in hand.pots()),
        stacks=dict(zip(users, hand.stacks, strict=True)),
        bets=dict(zip(users, hand.bets, strict=True)),
        actor=None if hand.actor is None else users[hand.actor],
        complete=hand.is_complete,
        actions=tuple((users[a["player"]], a["kind"], a.get("amount")) for a in row.actions),
    )


def hole_cards(row: HandRow) -> dict[int, list[str]]:
    """Each user's hole cards in a stored hand (from the stored deck, dealt by the engine)."""
    hand = Hand.from_record(HandRecord.from_json(row.record["record"]))
    users = [int(u) for u in row.record["users"]]
    return {user: [str(c) for c in hand.hole_cards[i]] for i, user in enumerate(users)}


async def all_hands(storage: Storage, table_id: int) -> list[HandRow]:
    """Every hand of a table, oldest first."""
    return sorted(await storage.hands_for_table(table_id, limit=10_000), key=lambda h: h.number)


def public_lines(row: HandRow, names: Mapping[int, str]) -> list[tuple[str, bool]]:
    """The hand's public history as the engine's replay renders it in English on the table message: (line, is it
    a player's action), in order; each blind, action and returned bet ends with the pot it left ("bob calls 4 ·
    pot 9"). `names`: display names by user id."""
    hand = replay(row)
    players = [names[int(u)] for u in row.record["users"]]
    events = [e for e in hand.events if not isinstance(e, HoleCardsDealt)]
    pot_count = pot_count_of(events)
    out: list[tuple[str, bool]] = []
    pot = 0
    for event in events:
        pot += chips_into_pot(event)
        line = render_event_line(event, players, "en", pot_count=pot_count)
        if line is None:
            continue
        if isinstance(event, POT_LINE_EVENTS):
            line = t("event.with_pot", "en", line=line, amount=pot)
        out.append((line, isinstance(event, PlayerActed)))
    return out
