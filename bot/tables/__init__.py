"""The table service: one runner per channel, turn timers, next-hand scheduling, chips with the ledger.

Never imports discord: the Discord layer calls `TableService` and implements `Notifier` (docs/architecture.md).
"""

from bot.render.announce import PotResult, ShownHand
from bot.tables.clock import Clock, ManualClock, SystemClock
from bot.tables.errors import ServiceError
from bot.tables.notifier import (
    Announcement,
    HandResultAnnouncement,
    LevelAnnouncement,
    Notifier,
    Placing,
    PlayerAnnouncement,
    RecordingNotifier,
    SeatView,
    StreetAnnouncement,
    TableClosedAnnouncement,
    TableSnapshot,
)
from bot.tables.options import CASH, TOURNAMENT, TableOptions
from bot.tables.outbox import InteractionReply
from bot.tables.runner import TableRunner
from bot.tables.service import TableService

__all__ = [
    "CASH",
    "TOURNAMENT",
    "Announcement",
    "Clock",
    "HandResultAnnouncement",
    "InteractionReply",
    "LevelAnnouncement",
    "ManualClock",
    "Notifier",
    "Placing",
    "PlayerAnnouncement",
    "PotResult",
    "RecordingNotifier",
    "SeatView",
    "ServiceError",
    "ShownHand",
    "StreetAnnouncement",
    "SystemClock",
    "TableClosedAnnouncement",
    "TableOptions",
    "TableRunner",
    "TableService",
    "TableSnapshot",
]
