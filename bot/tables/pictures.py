"""The picture that goes with a street or showdown message: drawn when the message is delivered, from what the
message says and the public snapshot it was owed with (docs/outbox.md: rows store meaning, not bytes).

Never for the table message's edits (an action stays one edit), and only when the table's `pictures` option is
on. Drawing takes a few milliseconds of CPU: `picture_for` runs it in a worker thread so that the event loop
goes on serving the other tables meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any

from bot.render.picture import OddsLike, draw_table, scene_from_snapshot
from bot.tables.notifier import Announcement, HandResultAnnouncement, Picture, StreetAnnouncement, TableSnapshot
from bot.tables.options import TableOptions

log = logging.getLogger(__name__)


def draw_picture(
    snapshot: TableSnapshot,
    announcement: Announcement,
    options: TableOptions,
    odds: Mapping[int, OddsLike] | None = None,
) -> Picture | None:
    """The picture for `announcement` (a street or a hand's result) at a table with `options`, or None: pictures
    are off, or the announcement has none. `odds`: each seat's chances at an all-in (by seat number)."""
    if not options.pictures:
        return None
    if isinstance(announcement, StreetAnnouncement):
        scene = scene_from_snapshot(snapshot, None, odds, four_colour=options.four_colour)
    elif isinstance(announcement, HandResultAnnouncement):
        scene = scene_from_snapshot(snapshot, announcement, four_colour=options.four_colour)
    else:
        return None
    return Picture(draw_table(scene))


async def picture_for(
    snapshot: TableSnapshot, announcement: Announcement, options: TableOptions, odds: Any = None
) -> Picture | None:
    """`draw_picture` in a worker thread; a picture that could not be drawn is logged and left out (the message
    goes without it)."""
    if not options.pictures or not isinstance(announcement, StreetAnnouncement | HandResultAnnouncement):
        return None
    try:
        return await asyncio.to_thread(draw_picture, snapshot, announcement, options, odds)
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
        return await asyncio.to_thread(draw)
    except Exception:
        log.exception("could not draw the picture of table %s", snapshot.table_id)
        return None
