"""The picture that goes with a street or showdown message: drawn when the message is delivered, from what the
message says and the public snapshot it was owed with (docs/outbox.md: rows store meaning, not bytes).

Never for the table message's edits (an action stays one edit), and only when the table's `pictures` option is
on. Drawing takes a few milliseconds of CPU: `picture_for` runs it in the process's one picture thread
(`picture_thread`), so that the event loop goes on serving the other tables meanwhile.

One thread, not asyncio's default executor (up to min(32, cores + 4) threads): each thread that allocates
images gets its own malloc arena, which keeps the freed image buffers (several MiB per thread at 100 busy
tables: most of the memory per table counted in benchmarks/load.py), and several drawing threads only take
turns at the interpreter lock with the event loop, which then waits for each of them. The pictures of a
process are a small share of one core (a few milliseconds each, a few per hand): one thread keeps up, and
each table's messages wait only for their own picture (each table has its own delivery worker).
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from bot.poker import Card, HandResult, PotAwarded, Street
from bot.render.picture import OddsLike, SeatOdds, draw_table, scene_from_snapshot
from bot.render.table import SeatState
from bot.tables.notifier import Announcement, Picture, SeatView, StreetAnnouncement, TableSnapshot
from bot.tables.options import TableOptions

log = logging.getLogger(__name__)

T = TypeVar("T")

_executor: ThreadPoolExecutor | None = None


def picture_thread() -> ThreadPoolExecutor:
    """The process's one picture thread (created on first use; see the module docstring)."""
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="picture")
    return _executor


async def in_picture_thread(draw: Callable[[], T]) -> T:
    """Run `draw` in the picture thread and return what it returns (its exception is raised here)."""
    return await asyncio.get_running_loop().run_in_executor(picture_thread(), draw)


def _draw_samples() -> int:
    """`bot.render.picture.warm_up` (every layout's table, card faces, plates, fonts), then the sample tables
    drawn (`bot.render.picture.samples`: a picture's whole working set), then `bot.poker.equity.warm_up` (numpy
    and the preflop tables); returns how many samples were drawn."""
    from bot.poker.equity import warm_up as warm_up_equity
    from bot.render.picture import warm_up
    from bot.render.picture.samples import golden_scenes  # only needed here: not loaded for every import

    warm_up()
    scenes = golden_scenes()
    for scene in scenes.values():
        draw_table(scene)
    warm_up_equity()
    return len(scenes)


async def prepare_pictures() -> None:
    """Draw the sample tables once in the picture thread, at start-up (`bot.app.PokerBot.setup_hook`), so that
    what the pictures keep for the life of the process is in place before the first hand: the empty table of
    each layout, the card faces, the fonts, and the thread's malloc arena grown to a picture's working set
    (whatever the number of tables; benchmarks/README.md, "memory per table"); the all-in odds' numpy tables
    too. Without it the first street of each layout paid for them, and the load benchmark counted them per
    table. A failure is logged and changes nothing else."""
    try:
        await in_picture_thread(_draw_samples)
    except Exception:
        log.exception("could not prepare the pictures")


def run_out_view(
    snapshot: TableSnapshot, announcement: Any
) -> tuple[dict[int, OddsLike] | None, dict[int, tuple[Card, ...]]]:
    """A run-out street's odds and face-up hands by seat number: the announcement's `odds` (the equity module's
    `Odds`, per pot, by hand player index: the main pot's figures are drawn, the pot every hand still in
    contests) and `faces` (face-up hole cards by hand player index). (None, {}) for a street without them."""
    seat_of = {s.player: s.seat for s in snapshot.seats if s.player is not None}
    faces = {
        seat_of[p]: tuple(cards)
        for p, cards in enumerate(getattr(announcement, "faces", ()) or ())
        if cards and p in seat_of
    }
    odds = getattr(announcement, "odds", None)
    pots = getattr(odds, "pots", ())
    if not pots:
        return None, faces
    exact = bool(getattr(odds, "exact", True))
    main = pots[0]
    per_seat: dict[int, OddsLike] = {
        seat_of[p]: SeatOdds(float(o.win), float(o.tie), exact)
        for p, o in zip(main.players, main.odds, strict=False)
        if p in seat_of
    }
    return per_seat, faces


def street_snapshot(snapshot: TableSnapshot, street: StreetAnnouncement) -> TableSnapshot:
    """`snapshot` with the board, pots and street of the `street` announced. A run-out's streets are announced
    with the hand already over: the chips its pots paid (`PotAwarded`) are taken back off the stacks, so that
    a street's picture never tells the result before the river; nor do the seats' states: every player still in
    with no chip behind then reads all-in, the winners as the losers."""
    seats = snapshot.seats
    if snapshot.street == Street.COMPLETE:
        won: dict[int, int] = {}
        for event in snapshot.events:
            if isinstance(event, PotAwarded):
                for player, chips in event.winners:
                    won[player] = won.get(player, 0) + chips
        seats = tuple(_before_payouts(s, won) for s in seats)
    return dataclasses.replace(
        snapshot, board=tuple(street.board), pots=tuple(street.pots), street=street.street, seats=seats
    )


def _before_payouts(seat: SeatView, won: Mapping[int, int]) -> SeatView:
    """`seat` as it was before the pots were paid: its stack without the chips it `won` (by hand player), and
    all-in when no chip was left behind (a player still in the hand)."""
    if seat.player is None:
        return seat
    stack = seat.stack - won.get(seat.player, 0)
    state = seat.state
    if state in (SeatState.ACTIVE, SeatState.ALL_IN):
        state = SeatState.ALL_IN if stack == 0 else SeatState.ACTIVE
    return dataclasses.replace(seat, stack=stack, state=state)


def draw_picture(
    snapshot: TableSnapshot,
    announcement: Announcement,
    options: TableOptions,
    odds: Mapping[int, OddsLike] | None = None,
) -> Picture | None:
    """The picture for `announcement` (a street or a hand's result) at a table with `options`, or None: pictures
    are off, or the announcement has none. `odds`: each seat's chances at an all-in (by seat number); by
    default those the street announces (`run_out_view`), with the hands turned face up."""
    if not options.pictures:
        return None
    if isinstance(announcement, StreetAnnouncement):
        # The board and pots as of this street (a run-out's streets are all announced once the board is out).
        snapshot = street_snapshot(snapshot, announcement)
        announced, faces = run_out_view(snapshot, announcement)
        scene = scene_from_snapshot(
            snapshot, None, odds if odds is not None else announced, faces=faces, four_colour=options.four_colour
        )
    elif isinstance(announcement, HandResult):
        scene = scene_from_snapshot(snapshot, announcement, four_colour=options.four_colour)
    else:
        return None
    return Picture(draw_table(scene))


async def picture_for(
    snapshot: TableSnapshot, announcement: Announcement, options: TableOptions, odds: Any = None
) -> Picture | None:
    """`draw_picture` in the picture thread; a picture that could not be drawn is logged and left out (the
    message goes without it)."""
    if not options.pictures or not isinstance(announcement, StreetAnnouncement | HandResult):
        return None
    try:
        return await in_picture_thread(functools.partial(draw_picture, snapshot, announcement, options, odds))
    except Exception:
        log.exception("could not draw the picture of table %s", snapshot.table_id)
        return None


async def table_picture(snapshot: TableSnapshot, options: TableOptions) -> Picture | None:
    """The picture of the table as it is now (`/poker table`), or None when the table's pictures are off."""
    if not options.pictures:
        return None

    def draw() -> Picture:
        return Picture(draw_table(scene_from_snapshot(snapshot, four_colour=options.four_colour)))

    try:
        return await in_picture_thread(draw)
    except Exception:
        log.exception("could not draw the picture of table %s", snapshot.table_id)
        return None
