"""The one way the Discord layer and the cogs reach the bot's parts: storage, the table service and the people
seen in interactions, through `parts(client)` (typed, as python-discord types its cogs with its own `Bot`).

`bot.app.PokerBot` has these parts; it sits above this layer, so what it must offer is declared here as the
`BotParts` protocol (mypy checks PokerBot against it where the app builds the table service).
"""

from __future__ import annotations

from typing import Protocol, cast, runtime_checkable

import discord

from bot.discord_ui.errors import CommandRefused
from bot.discord_ui.people import People
from bot.storage import Storage
from bot.tables import TableService


@runtime_checkable
class BotParts(Protocol):
    """What the bot offers its cogs: `storage` (open once `setup_hook` ran), `tables` (the table service, None
    until it is built) and `people` (display names and locales seen in interactions)."""

    @property
    def storage(self) -> Storage: ...

    @property
    def tables(self) -> TableService | None: ...

    @property
    def people(self) -> People: ...


#: Whether instances of a class have the parts, by class: `isinstance` against a runtime-checkable protocol
#: walks the protocol's members every time (about 70 us), and `parts` runs at every interaction.
_HAS_PARTS: dict[type, bool] = {}


def has_parts(client: object) -> bool:
    """Whether `client` offers `BotParts` (`isinstance(client, BotParts)`, remembered per class: the parts are
    the properties of the bot's class, `bot.app.PokerBot`)."""
    kind = type(client)
    known = _HAS_PARTS.get(kind)
    if known is None:
        known = _HAS_PARTS[kind] = isinstance(client, BotParts)
    return known


def parts(client: discord.Client) -> BotParts:
    """The bot's parts behind `client` (an interaction's `client`, a cog's `bot`). Raises CommandRefused
    ("unknown") for a client without them (a bare `discord.Client`): nothing can be done there."""
    if not has_parts(client):
        raise CommandRefused("unknown")
    return cast(BotParts, client)


def table_service(client: discord.Client) -> TableService:
    """The bot's table service. Raises CommandRefused("unknown") while there is none (not built yet)."""
    service = parts(client).tables
    if service is None:
        raise CommandRefused("unknown")
    return service
