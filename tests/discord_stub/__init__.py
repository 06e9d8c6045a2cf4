"""A local stand-in for Discord's REST API v10 and gateway, to run the real bot process in tests.

Test code only (never shipped). Entry points: ``DiscordStub`` (server.py), ``BotProcess`` (process.py),
``PrivacyChecker`` (privacy.py) and the launcher ``python -m tests.discord_stub.run_bot``.
"""

from .actions import StubUsageError
from .faults import FaultRule, Faults
from .model import Channel, Guild, Interaction, Message, MessageVersion, RequestRecord, User, Violation
from .privacy import CardForms, Leak, PrivacyChecker
from .process import BotProcess
from .server import DiscordStub, GuildHandle

__all__ = [
    "BotProcess",
    "CardForms",
    "Channel",
    "DiscordStub",
    "FaultRule",
    "Faults",
    "Guild",
    "GuildHandle",
    "Interaction",
    "Leak",
    "Message",
    "MessageVersion",
    "PrivacyChecker",
    "RequestRecord",
    "StubUsageError",
    "User",
    "Violation",
]
