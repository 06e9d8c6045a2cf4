"""The cog tests' world: the real PokerBot (cogs, command tree, table service, storage on a temp file) inside
SimCord, an offline Discord simulator, with a manual table clock and stacked decks.

- `table_clock`: the table service's `ManualClock`, its sleeps declared to SimCord as intentional waits, so a
  turn timer or the next-hand delay fires only when a test calls `World.advance(seconds)`.
- `decks`: deck orders for the next hands (`decks.queue(...)`), dealt exactly as the engine deals (one card
  at a time from the first seat left of the button, burn before flop, turn and river); random (seeded) once
  the queue is empty. The first button goes to the highest seat, so hand 1's player 0 is seat 1.
- `World`: the guild, the channel, members, and helpers to run commands, press buttons, read what the channel
  and each member see, and the REST log the privacy checks read.
"""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator, Awaitable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
import simcord.backend.serializers as simcord_serializers
import simcord.interactions as simcord_interactions
from discord import app_commands
from discord.http import Route
from simcord import Env, InteractionResult, MemberActor

from bot.app import PokerBot
from bot.config import Settings
from bot.discord_ui.errors import unwrap
from bot.discord_ui.wiring import create_table_service
from bot.poker import Card, PokerError, full_deck, parse_cards
from bot.render import card_text
from bot.tables import ManualClock


class SimClock(ManualClock):
    """The table clock for SimCord: a ManualClock whose sleeps are declared as intentional external waits
    (SimCord otherwise reports a bot task waiting on an unknown future as stuck)."""

    env: Env | None = None

    async def sleep_until(self, when: float) -> None:
        if self.env is None or when <= self.time():
            await super().sleep_until(when)
            return
        await self.env.external_wait(super().sleep_until(when), reason="table clock (turn timer, next hand)")


class StackedDecks(random.Random):
    """The table service's rng: the `decks` fixture deals its queued deck orders first (`next_deck`, the
    service's deck factory), then seeded shuffles. `choice` (the first button draw) picks the highest seat."""

    def __init__(self, seed: int = 7) -> None:
        super().__init__(seed)
        self.orders: list[list[Card]] = []

    def queue(self, holes: Sequence[str], board: str = "") -> None:
        """Queue the next hand's deck: `holes[i]` = player i's two cards ("AhKd"), `board` = up to five
        cards in dealing order. The burns and the rest of the deck are the remaining cards, in a fixed order."""
        hole_cards = [parse_cards(h) for h in holes]
        board_cards = list(parse_cards(board)) if board else []
        used = {c for cards in hole_cards for c in cards} | set(board_cards)
        rest = [c for c in full_deck() if c not in used]
        order = [cards[0] for cards in hole_cards] + [cards[1] for cards in hole_cards]
        for street in ([3], [1], [1]):
            order.append(rest.pop())  # burn
            for _ in range(street[0]):
                order.append(board_cards.pop(0) if board_cards else rest.pop())
        self.orders.append(order + rest)

    def choice(self, seq: Sequence[Any]) -> Any:
        return max(seq)

    def next_deck(self) -> list[Card] | None:
        """The next queued deck order, or None (then the hand is shuffled with this generator)."""
        return self.orders.pop(0) if self.orders else None


@dataclass
class World:
    """A running bot in one guild with one table channel. Members by name in `members`."""

    env: Env
    clock: SimClock
    decks: StackedDecks
    settings: Settings
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    members: dict[str, MemberActor] = field(default_factory=dict)
    locales: dict[int, str] = field(default_factory=dict)
    #: The server's Discord language as interactions report it (`guild_locale`); None: SimCord's "en-US".
    guild_locale: str | None = None

    @property
    def bot(self) -> PokerBot:
        return self.env.bot  # type: ignore[return-value]

    def member(self, name: str, *, admin: bool = False) -> MemberActor:
        """A member named `name` (created once); `admin` gives them Manage Server."""
        if name not in self.members:
            roles = [self.admin_role] if admin else []
            self.members[name] = self.guild.add_member(self.env.create_user(name), roles=roles)
        return self.members[name]

    def speaks(self, name: str, locale: str) -> MemberActor:
        """From now on `name`'s Discord client is in `locale` (e.g. "fr")."""
        member = self.member(name)
        self.locales[member.id] = locale
        return member

    @property
    def admin_role(self) -> simcord.RoleHandle:
        roles = self.guild.roles
        if "admins" in roles:
            return roles["admins"]
        return self.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))

    async def slash(self, who: str | MemberActor, name: str, **options: Any) -> InteractionResult:
        member = self.member(who) if isinstance(who, str) else who
        return await member.slash(self.channel, name, **options)

    # ------------------------------------------------------------------ what people see

    def messages(self, viewer: str | None = None) -> list[discord.Message]:
        """The channel's messages, oldest first (as `viewer` sees them when given)."""
        return self.channel.history(viewer=self.member(viewer) if viewer else None)

    def table_message(self) -> discord.Message:
        """The current table message (the one the service edits)."""
        runner = self.service.runners[self.channel.id]
        return next(m for m in self.messages() if m.id == runner.view().message_id)

    def button_labels(self) -> list[str]:
        return [c.label for row in self.table_message().components for c in row.children]  # type: ignore[attr-defined]

    async def seat(self, buy_ins: dict[str, int | None], *, host: str | None = None, **create: Any) -> None:
        """`host` (default: the first name) opens a table with `create` options; each member sits down in
        order (seat 1, 2, ...) with their buy-in (None: the default)."""
        names = list(buy_ins)
        result = await self.slash(host or names[0], "poker create", **create)
        assert result.response is not None and not result.response.ephemeral, result
        for name, buy_in in buy_ins.items():
            options = {} if buy_in is None else {"buy_in": buy_in}
            result = await self.slash(name, "poker join", **options)
            assert result.response is not None and result.response.ephemeral, result

    async def raise_with_button(self, who: str, amount: int | str) -> InteractionResult:
        """`who` presses Bet…/Raise… and submits `amount` in the form (the press's answer when refused at once)."""
        label = next(label for label in self.button_labels() if label.startswith(("Raise", "Bet")))
        shown = await self.press(who, label)
        if shown.modal is None:
            return shown
        return await self.member(who).submit_modal(shown, {"amount": str(amount)})

    async def press(self, who: str, label: str) -> InteractionResult:
        """`who` presses the button labelled `label` on the latest table message."""
        return await self.member(who).click(self.table_message(), label=label)

    def dms(self, who: str) -> list[str]:
        """Contents of the bot's DMs to `who`."""
        channel = self.member(who).user.dm_channel
        return [m.content for m in channel.history() if m.author.id == self.bot.user.id]

    def refuse_dms(self, who: str) -> None:
        """From now on `who` has closed DMs (Discord answers 403, code 50007)."""
        channel = self.member(who).user.dm_channel
        self.env.inject_error(
            "POST",
            f"/channels/{channel.id}/messages",
            status=403,
            code=50007,
            message="Cannot send messages to this user",
            times=None,
        )

    # ------------------------------------------------------------------ the table, from the service

    @property
    def service(self) -> Any:
        return self.bot.tables

    def snapshot(self) -> Any:
        return self.service.get(self.channel.id).snapshot()

    def actor(self) -> str:
        """The name of the member whose turn it is."""
        actor = self.snapshot().actor_user_id
        return next(name for name, m in self.members.items() if m.id == actor)

    def stacks(self) -> dict[str, int]:
        ids = {m.id: name for name, m in self.members.items()}
        return {ids[s.user_id]: s.stack for s in self.snapshot().seats}

    async def balance(self, who: str) -> int:
        return await self.bot.storage.balance(self.guild.id, self.member(who).id)

    async def advance(self, seconds: float) -> None:
        """Let `seconds` pass on the table clock (turn timers, next-hand delay) and let the bot finish."""
        await self.clock.advance(seconds)
        await self.env.settle()

    # ------------------------------------------------------------------ forged requests

    # SimCord sends only what Discord would (it checks option types, ranges and choices, and presses only the
    # buttons a message has). A hostile client's request is built here by hand and dispatched with SimCord's
    # private `_dispatch_interaction`: the one place that uses it (these helpers' tests fail if it changes).

    async def forge_slash(
        self,
        who: str | MemberActor,
        name: str,
        options: dict[str, Any],
        *,
        types: dict[str, int] | None = None,
        channel: simcord.ChannelHandle | None = None,
    ) -> InteractionResult:
        """`who` sends `/name` with `options` exactly as given, unchecked (floats, huge numbers, a string for an
        integer option, options the command does not have...); each option has its declared type unless
        `types` gives another one (an undeclared option: string)."""
        member = self.member(who) if isinstance(who, str) else who
        where = channel or self.channel
        parts = name.split()
        root = self.env.backend.find_command(parts[0], where.guild.id)
        assert root is not None, name
        leaf, nesting = simcord_interactions.walk_to_subcommand(root, parts[1:])
        declared = {option["name"]: option["type"] for option in leaf.get("options") or []}
        wire = [
            {"name": key, "type": (types or {}).get(key, declared.get(key, 3)), "value": value}
            for key, value in options.items()
        ]
        data = {
            "id": root["id"],
            "name": root["name"],
            "type": 1,
            "options": simcord_interactions.nest_options(root, nesting, wire),
        }
        return await member._dispatch_interaction(2, where, data)

    async def forge_press(
        self,
        who: str | MemberActor,
        custom_id: str,
        *,
        channel: simcord.ChannelHandle | None = None,
        on_message: bool = True,
        guild_id: int | None = None,
    ) -> InteractionResult:
        """`who` presses a button `custom_id` on a message of the bot in `channel` (default: the table channel):
        with `on_message`, the message carries that button (as if the bot had posted it); without, it is any
        bot message of the channel and the custom_id is only in the request. `guild_id`: the server the request
        claims to come from (a forged request), instead of the channel's."""
        member = self.member(who) if isinstance(who, str) else who
        where = channel or self.channel
        row = {"type": 1, "components": [{"type": 2, "style": 2, "label": "?", "custom_id": custom_id}]}
        body = {"content": FORGED_POST, "components": [row] if on_message else []}
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=where.id)
        posted = await self.bot.http.request(route, json=body)
        stored = self.env.backend.get_message(where.id, int(posted["id"]))
        payload = dict(simcord_serializers.message_payload(self.env.backend, stored))
        data = {"custom_id": custom_id, "component_type": 2}
        extra: dict[str, Any] = {"message": payload}
        if guild_id is not None:
            extra["guild_id"] = str(guild_id)
        return await member._dispatch_interaction(3, where, data, extra=extra, source_message_id=stored.id)

    async def forge_form(
        self,
        who: str | MemberActor,
        custom_id: str,
        amount: str,
        *,
        channel: simcord.ChannelHandle | None = None,
    ) -> InteractionResult:
        """`who` submits a Bet…/Raise… form `custom_id` with `amount` in its field, without having been shown it."""
        member = self.member(who) if isinstance(who, str) else who
        field = {"type": 4, "custom_id": "amount", "value": amount}
        data = {"custom_id": custom_id, "components": [{"type": 1, "components": [field]}]}
        return await member._dispatch_interaction(5, channel or self.channel, data)

    # ------------------------------------------------------------------ privacy and errors

    def public_texts(self, since: int = 0, until: int | None = None) -> list[str]:
        """Everything the bot sent where the channel can see it between REST requests `since` and `until`:
        channel posts and edits, and interaction answers that are not ephemeral (JSON text: content, embeds,
        buttons)."""
        texts = []
        for entry in self.env.http_requests[since:until]:
            body = entry.json if isinstance(entry.json, dict) else None
            if body is None:
                continue
            callback = entry.path.endswith("/callback")
            if callback and body.get("type") not in (4, 7):
                continue  # a deferral, a modal (shown to the presser only), autocomplete choices
            data = body.get("data") if callback else body
            if not isinstance(data, dict) or int(data.get("flags", 0) or 0) & 64:
                continue  # a deferral (no data) or an ephemeral answer
            if entry.path.startswith(f"/channels/{self.channel.id}/") or entry.path.endswith("/callback"):
                texts.append(json.dumps(data, ensure_ascii=False))
            elif entry.path.startswith("/webhooks/"):
                texts.append(json.dumps(data, ensure_ascii=False))
        return texts

    def acknowledge_refusals(self) -> list[BaseException]:
        """The errors the bot's handlers saw since the last call: all must be refusals (PokerError, or a
        failed permission check), none a bug."""
        errors = [unwrap(e) for e in self.env.errors]
        unexpected = [e for e in errors if not isinstance(e, PokerError | app_commands.CheckFailure)]
        assert not unexpected, unexpected
        return errors


#: The content of the message `World.forge_press` posts to carry a button (not an answer of the bot's own).
FORGED_POST = "a message with a button (test)"


def cards_of(text: str) -> list[str]:
    """Render's text of each card of "AhKd" ("A♠︎"-style strings) to look for in messages."""
    return [card_text(c) for c in parse_cards(text)]


def make_settings(tmp_path: Path) -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        discord_token="test-token",
        database_path=tmp_path / "poker.sqlite3",
        dev_guild_id=None,
    )


def make_bot(settings: Settings, clock: SimClock, decks: StackedDecks) -> PokerBot:
    """The PokerBot with the table service's seams: the simulator's clock, the stacked decks, and the delivery
    worker's idle wait declared to SimCord (whose virtual clock must know that the worker is idle, not busy)."""

    async def idle(work: Awaitable[Any]) -> Any:
        if clock.env is None:
            return await work
        return await clock.env.external_wait(work, reason="table outbox waiting for work")

    return PokerBot(
        settings,
        table_service_factory=lambda bot: create_table_service(
            bot, clock=clock, rng_factory=lambda: decks, deck_factory=decks.next_deck, idle_wait=idle
        ),
        shard_count=1,  # SimCord runs one shard (and has no GET /gateway/bot)
        # One process: nothing to renew the lease against, and SimCord's virtual clock would fire the renewal's
        # timer without end (a write in the database thread each time, which SimCord cannot see settle).
        renew_leases=False,
    )


@pytest.fixture
def table_clock() -> SimClock:
    return SimClock()


@pytest.fixture
def decks() -> StackedDecks:
    """Stacked decks for the table service (its `rng_factory` returns this generator, its `deck_factory` is
    `next_deck`)."""
    return StackedDecks()


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path)


@pytest.fixture
async def env(settings: Settings, table_clock: SimClock, decks: StackedDecks) -> AsyncIterator[Env]:
    """SimCord running the PokerBot (a fixture of its own so that SimCord's pytest plugin selects its clock)."""
    bot = make_bot(settings, table_clock, decks)
    sim = Env(bot, shard_count=1)
    table_clock.env = sim
    await sim.start()
    try:
        yield sim
    finally:
        await sim.shutdown()
        if bot._storage is not None:  # SimCord's shutdown does not close the bot: close its database here
            await bot._storage.close()
        if sim.check_errors:
            sim._raise_errors_since(sim._errors_acknowledged)


@pytest.fixture
def world(
    env: Env, settings: Settings, table_clock: SimClock, decks: StackedDecks, monkeypatch: pytest.MonkeyPatch
) -> World:
    guild = env.create_guild("Poker night")
    channel = guild.create_text_channel("poker")
    world = World(env, table_clock, decks, settings, guild, channel)
    # A plain action's press waits for the edit that shows it to answer it: within SimCord's virtual time, long
    # enough that it always does (the deadline's own path is tests/cogs/test_presses.py's).
    world.bot.presses.answer_within_s = 2.0
    # SimCord sends every interaction with locale en-US; members in `world.locales` get theirs instead.
    base_payload = simcord_interactions.base_payload

    def localized(*args: Any, **kwargs: Any) -> Any:
        record, payload = base_payload(*args, **kwargs)
        locale = world.locales.get(kwargs.get("user_id", 0))
        if locale is not None:
            payload["locale"] = locale
        if world.guild_locale is not None and "guild_locale" in payload:
            payload["guild_locale"] = world.guild_locale
        return record, payload

    monkeypatch.setattr(simcord_interactions, "base_payload", localized)
    return world
