"""The table service: one runner per channel, turn timers, next-hand scheduling, chips with the ledger.

Never imports discord: the Discord layer calls `TableService` and implements `Notifier` (docs/architecture.md).
"""

from bot.tables.clock import Clock, ManualClock, SystemClock
from bot.tables.errors import ServiceError
from bot.tables.notifier import (
    Announcement,
    CardsShown,
    Carrier,
    LevelAnnouncement,
    Notifier,
    Picture,
    Placing,
    PlayerAnnouncement,
    RecordingNotifier,
    SeatView,
    StreetAnnouncement,
    TableClosedAnnouncement,
    TableSnapshot,
)
from bot.tables.options import TableOptions
from bot.tables.outbox import InteractionReply
from bot.tables.runner import TableRunner
from bot.tables.service import TableService
from bot.tables.state import TableIds, TableView

__all__ = [
    "Announcement",
    "CardsShown",
    "Carrier",
    "Clock",
    "InteractionReply",
    "LevelAnnouncement",
    "ManualClock",
    "Notifier",
    "Picture",
    "Placing",
    "PlayerAnnouncement",
    "RecordingNotifier",
    "SeatView",
    "ServiceError",
    "StreetAnnouncement",
    "SystemClock",
    "TableClosedAnnouncement",
    "TableIds",
    "TableOptions",
    "TableRunner",
    "TableService",
    "TableSnapshot",
    "TableView",
]
