"""`DiscordNotifier`: the table service's `Notifier` in Discord terms — the table message (posted, then edited in
place with its buttons), public announcements (streets, showdown, eliminations, notices, the table's end) and
hole cards by DM.

Public messages use the table's language (`snapshot.language`); a DM uses the player's last seen Discord
locale. Messages are sent through `Client.get_partial_messageable`, so nothing depends on the channel cache
(the bot has no member list and may restart). Hole cards only ever go to their owner's DM.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import discord
from discord.http import Route

from bot.discord_ui.errors import NO_MENTIONS
from bot.discord_ui.people import People
from bot.discord_ui.presses import webhook_request
from bot.discord_ui.rest import RouteCache, passes_url_through
from bot.discord_ui.shows import offers_show, show_components
from bot.discord_ui.table_view import buy_in_components, table_payload
from bot.poker import Card, HandResult, TableKind
from bot.poker.coach import CoachFacts
from bot.render import (
    NoticeKind,
    render_cards_shown,
    render_hand_summary,
    render_hole_cards_dm,
    render_level_up,
    render_player_notice,
    render_showdown,
    render_streets,
    render_table_closed,
)
from bot.render.coach import coach_dm_text
from bot.render.embeds import EmbedSpec
from bot.render.events import street_key
from bot.tables import (
    Announcement,
    CardsShown,
    Carrier,
    LevelAnnouncement,
    Picture,
    PlayerAnnouncement,
    StreetAnnouncement,
    TableClosedAnnouncement,
    TableSnapshot,
)

log = logging.getLogger(__name__)

#: DM channels remembered by user id (discord.py keeps only 128 private channels: past that, each hole-card DM
#: would cost a user lookup and a DM-channel creation on top of the message).
DM_CHANNELS_KEPT = 10_000


def to_embed(spec: EmbedSpec) -> discord.Embed:
    """A discord.Embed from render's plain-data embed (already within Discord's limits)."""
    return discord.Embed.from_dict(spec.to_dict())


def picture_files(http: object, pictures: Sequence[Picture]) -> dict[str, list[discord.File]]:
    """The `files=` of a multipart post of `pictures` by `http` (a client's `http`), beside its form: none for
    discord.py's own `HTTPClient.request`, which sends the form as given and uses `files` only to rewind them
    before a retry (the pictures' bytes are the form's file parts, aiohttp BytesPayloads: about 12 % less CPU per
    post than a discord.File's BytesIO, benchmarks/rest.py); the files themselves for another client (the tests'
    simulator reads the attachments from them)."""
    if passes_url_through(http):
        return {}
    return {"files": [discord.File(io.BytesIO(p.data), filename=p.filename) for p in pictures]}


def _callback_route(carrier: Carrier) -> Route:
    """The interaction's answer (`POST /interactions/{id}/{token}/callback`), sent by `webhook_request`."""
    return Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=carrier.interaction_id,
        webhook_token=carrier.token,
    )


class DiscordNotifier:
    """Implements `bot.tables.Notifier` with a discord.py client. `people` gives the players' locales for DMs."""

    def __init__(self, client: discord.Client, people: People | None = None) -> None:
        self.client = client
        self.people = people if people is not None else People()
        self._dm_channels: OrderedDict[int, int] = OrderedDict()
        # DM channels being opened, by user: a second DM waits for the same request (`_dm_channel`).
        self._dm_opening: dict[int, asyncio.Future[int]] = {}
        # Streets waiting to be posted, by channel: a board run out after an all-in goes out as one message, with
        # the pictures of those streets (`_attached`).
        self._streets: dict[int, list[StreetAnnouncement]] = {}
        self._street_pictures: dict[int, list[tuple[StreetAnnouncement, Picture]]] = {}
        # Channel names by id, for table titles when the channel cache misses (after a restart).
        self._channel_names: dict[int, str | None] = {}
        # The routes of posts (by channel) and edits (by message), read once each (bot/discord_ui/rest.py).
        self._posts = RouteCache("POST", "/channels/{channel_id}/messages")
        self._edits = RouteCache("PATCH", "/channels/{channel_id}/messages/{message_id}")

    def _channel(self, snapshot: TableSnapshot) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(snapshot.channel_id, guild_id=snapshot.guild_id)

    async def _table_name(self, snapshot: TableSnapshot) -> str | None:
        """The title of the table message: "#channel". From the channel cache; when the cache does not have the
        channel (just after a restart, before the gateway sent the guild), the channel is fetched once and its
        name remembered, so that the first edit after a restart is titled right. None (render's default, "Poker
        table") only when the channel cannot be read."""
        channel_id = snapshot.channel_id
        # Through the table's guild: `Client.get_channel` walks every guild of the process, at every edit.
        guild = self.client.get_guild(snapshot.guild_id) if snapshot.guild_id else None
        channel = guild.get_channel_or_thread(channel_id) if guild is not None else self.client.get_channel(channel_id)
        name = getattr(channel, "name", None)
        if name:
            self._channel_names[channel_id] = name
        elif channel_id in self._channel_names:
            name = self._channel_names[channel_id]
        else:
            try:
                name = getattr(await self.client.fetch_channel(channel_id), "name", None)
            except discord.HTTPException as exc:
                log.info("could not read the name of channel %s: %s", channel_id, exc)
            self._channel_names[channel_id] = name  # a failure too: one try per channel, not one per edit
        return f"#{name}" if name else None

    async def _send(
        self,
        snapshot: TableSnapshot,
        what: str,
        nonce: str | None = None,
        pictures: Sequence[Picture] = (),
        components: list[dict[str, Any]] | None = None,
        **kwargs: Any,
    ) -> None:
        try:
            if nonce is None and not pictures and components is None:
                await self._channel(snapshot).send(allowed_mentions=NO_MENTIONS, **kwargs)
            else:
                await self._post_once(snapshot.channel_id, nonce, pictures=pictures, components=components, **kwargs)
        except discord.HTTPException as exc:
            log.warning("could not post %s at table %s: %s", what, snapshot.table_id, exc)

    async def _post_once(
        self,
        channel_id: int,
        nonce: str | None,
        content: str | None = None,
        embed: discord.Embed | None = None,
        pictures: Sequence[Picture] = (),
        components: list[dict[str, Any]] | None = None,
        dm: bool = False,
    ) -> None:
        """Post with Discord's `nonce` and `enforce_nonce` (discord.py's `send` has no `enforce_nonce`): a post
        repeated with the same nonce (an outbox row delivered again after a restart) makes no second message.
        `pictures`: attached as the message's files, in order (a multipart body, as discord.py sends files; each
        picture's bytes are the file's part as they are: `picture_files`).
        `components`: the message's buttons (Discord JSON). `dm`: a DM channel's post, whose route is not kept (one
        post per player and hand: the route of each of the process's players, kept, took 0.4 MiB at 100 tables)."""
        payload: dict[str, Any] = {"allowed_mentions": NO_MENTIONS.to_dict()}
        if nonce is not None:
            payload.update(nonce=nonce, enforce_nonce=True)
        if components is not None:
            payload["components"] = components
        if content is not None:
            payload["content"] = content
        if embed is not None:
            payload["embeds"] = [embed.to_dict()]
        if dm:
            route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
        else:
            route = self._posts.get(self.client.http, channel_id=channel_id)
        if not pictures:
            await self.client.http.request(route, json=payload)
            return
        payload["attachments"] = [{"id": i, "filename": p.filename} for i, p in enumerate(pictures)]
        form: list[dict[str, Any]] = [
            {"name": "payload_json", "value": json.dumps(payload, separators=(",", ":"), ensure_ascii=True)}
        ]
        form += [
            {"name": f"files[{i}]", "value": p.data, "filename": p.filename, "content_type": "image/png"}
            for i, p in enumerate(pictures)
        ]
        await self.client.http.request(route, form=form, **picture_files(self.client.http, pictures))

    def _attached(self, channel_id: int, last: Picture | None = None) -> list[Picture]:
        """The pictures of a message that posts the streets buffered for `channel_id` (and `last`, a showdown's):
        the pictures of the run-out streets that carry odds, named after their street ("turn.png"), then the
        message's own picture, "table.png" (`last`, else the last street's)."""
        buffered = self._street_pictures.pop(channel_id, [])
        own = last if last is not None else (buffered[-1][1] if buffered else None)
        odds = [
            Picture(p.data, f"{street_key(a.street)}{'-2' if getattr(a, 'run', 1) == 2 else ''}.png")
            for a, p in (buffered if last is not None else buffered[:-1])
            if getattr(a, "odds", None) is not None
        ]
        return odds + ([own] if own is not None else [])

    async def _flush_streets(self, snapshot: TableSnapshot) -> None:
        """Post the streets announced since the last call (one message, one line each)."""
        streets = self._streets.pop(snapshot.channel_id, None)
        pictures = self._attached(snapshot.channel_id)
        if streets:
            content = render_streets(streets, snapshot.language)
            await self._send(snapshot, "streets", pictures=pictures, content=content)

    async def post_table(self, snapshot: TableSnapshot) -> int | None:
        """Post a new table message (embed + buttons); its id, or None when the channel refused it."""
        await self._flush_streets(snapshot)
        title = await self._table_name(snapshot)
        payload = {**table_payload(snapshot, title), "allowed_mentions": NO_MENTIONS.to_dict()}
        route = self._posts.get(self.client.http, channel_id=snapshot.channel_id)
        try:
            message = await self.client.http.request(route, json=payload)
        except discord.HTTPException as exc:
            log.warning("could not post the table message of table %s: %s", snapshot.table_id, exc)
            return None
        return int(message["id"])

    async def edit_table(self, snapshot: TableSnapshot, carrier: Carrier | None = None) -> None:
        """Edit the table message in place (buttons removed between hands); a deleted message is logged
        (`/poker table` posts a new one). The edited message that Discord sends back is not parsed.

        `carrier`: a press of a button of this message, not yet answered: the edit is that interaction's answer
        (UPDATE_MESSAGE, one REST call, outside the channel's edit rate limit). When Discord refuses that answer
        (the interaction expired) the message is edited as without a carrier; a refusal for another reason is
        acknowledged first, so that the press is answered."""
        await self._flush_streets(snapshot)
        if snapshot.message_id is None:
            if carrier is not None:
                await self.acknowledge(carrier)
            return
        title = await self._table_name(snapshot)
        payload = table_payload(snapshot, title)
        if carrier is not None:
            if await self._update_message(carrier, payload, snapshot):
                return
        route = self._edits.get(self.client.http, channel_id=snapshot.channel_id, message_id=snapshot.message_id)
        try:
            await self.client.http.request(route, json=payload)
        except discord.NotFound:
            log.info("table message %s of table %s is gone", snapshot.message_id, snapshot.table_id)
        except discord.HTTPException as exc:
            log.warning("could not edit the table message of table %s: %s", snapshot.table_id, exc)

    async def _update_message(self, carrier: Carrier, payload: dict[str, Any], snapshot: TableSnapshot) -> bool:
        """Answer `carrier` by editing its message into `payload` (interaction response type 7); False when
        Discord refused (the press is then answered, unless it expired: the caller edits the message)."""
        try:
            await webhook_request(self.client, _callback_route(carrier), {"type": 7, "data": payload})
        except discord.NotFound:  # the interaction expired (or is unknown): nothing can answer it now
            log.info("press %s at table %s expired before its edit", carrier.interaction_id, snapshot.table_id)
            return False
        except discord.HTTPException as exc:
            log.warning("table %s: the edit as a press's answer was refused: %s", snapshot.table_id, exc)
            await self.acknowledge(carrier)
            return False
        return True

    async def acknowledge(self, carrier: Carrier) -> None:
        """Answer a press that carries no edit with an acknowledgement that changes nothing (interaction
        response type 6, DEFERRED_UPDATE_MESSAGE); a refusal (the interaction expired) is logged."""
        try:
            await webhook_request(self.client, _callback_route(carrier), {"type": 6})
        except discord.HTTPException as exc:
            log.info("could not acknowledge press %s: %s", carrier.interaction_id, exc)

    async def retire_table(self, snapshot: TableSnapshot, message_id: int, result: HandResult | None) -> None:
        """Edit an old table message into one line without embed or buttons: its hand's summary, or "moved to a
        newer message" (`render_hand_summary`); a deleted message is left alone."""
        await self._flush_streets(snapshot)
        route = self._edits.get(self.client.http, channel_id=snapshot.channel_id, message_id=message_id)
        content = render_hand_summary(snapshot.hand_number, result, snapshot.language)
        try:
            await self.client.http.request(route, json={"content": content, "embeds": [], "components": []})
        except discord.NotFound:
            log.info("table message %s of table %s is gone", message_id, snapshot.table_id)
        except discord.HTTPException as exc:
            log.warning("could not retire table message %s of table %s: %s", message_id, snapshot.table_id, exc)

    async def announce(
        self,
        snapshot: TableSnapshot,
        announcement: Announcement,
        nonce: str | None = None,
        picture: Picture | None = None,
    ) -> None:
        """Post a new public message: a street, the showdown, a notice about a player, the table's end.

        A street waits for the service's next call (the table edit that follows every action), so that the
        flop, turn and river of a run-out share one message — with the showdown, when it comes next. `nonce`: an
        outbox row's key (posted once however often it is delivered). `picture`: the table's picture, attached
        to the message (a run-out's message carries the pictures of its streets with odds, then the showdown's)."""
        language = snapshot.language
        if isinstance(announcement, StreetAnnouncement):
            self._streets.setdefault(snapshot.channel_id, []).append(announcement)
            if picture is not None:
                self._street_pictures.setdefault(snapshot.channel_id, []).append((announcement, picture))
            return
        if isinstance(announcement, HandResult):
            streets = self._streets.pop(snapshot.channel_id, None)
            pictures = self._attached(snapshot.channel_id, picture)
            embed = to_embed(render_showdown(announcement, language))
            # The Show button for the players whose cards were not shown (bot/discord_ui/shows.py: why here).
            show = offers_show(snapshot, announcement)
            components = show_components(snapshot.channel_id, announcement.hand_number, language) if show else None
            extra: dict[str, Any] = {"content": render_streets(streets, language)} if streets else {}
            await self._send(
                snapshot, "showdown", nonce, pictures=pictures, components=components, embed=embed, **extra
            )
            return
        await self._flush_streets(snapshot)
        if isinstance(announcement, PlayerAnnouncement):
            content = render_player_notice(announcement, language)
            busted = announcement.kind == NoticeKind.BUSTED and snapshot.kind == TableKind.CASH
            if content and busted and not snapshot.closed:
                await self._send_busted(snapshot, announcement, content, nonce)
            elif content:
                await self._send(snapshot, announcement.kind, nonce, content=content)
        elif isinstance(announcement, LevelAnnouncement):
            await self._send(snapshot, "level", nonce, content=render_level_up(announcement, language))
        elif isinstance(announcement, CardsShown):
            content = render_cards_shown(announcement.name, announcement.cards, language)
            await self._send(snapshot, "shown cards", nonce, content=content)
        elif isinstance(announcement, TableClosedAnnouncement):
            embed = to_embed(render_table_closed(announcement, language))
            await self._send(snapshot, "table closed", nonce, embed=embed)
        else:
            log.debug("nothing to post for %r", announcement)

    async def _send_busted(
        self, snapshot: TableSnapshot, announcement: PlayerAnnouncement, content: str, nonce: str | None = None
    ) -> None:
        """The notice of a busted cash player, with their Buy in again button (`BuyInButton`); `nonce` as
        `announce`."""
        payload: dict[str, Any] = {
            "content": content,
            "components": buy_in_components(snapshot.channel_id, announcement.user_id, snapshot.language),
            "allowed_mentions": NO_MENTIONS.to_dict(),
        }
        if nonce is not None:
            payload.update(nonce=nonce, enforce_nonce=True)
        route = self._posts.get(self.client.http, channel_id=snapshot.channel_id)
        try:
            await self.client.http.request(route, json=payload)
        except discord.HTTPException as exc:
            log.warning("could not post busted at table %s: %s", snapshot.table_id, exc)

    async def send_hole_cards(
        self,
        snapshot: TableSnapshot,
        user_id: int,
        cards: tuple[Card, ...],
        nonce: str | None = None,
        proofs: tuple[str, ...] = (),
    ) -> bool:
        """DM the player their cards with a link to the table's channel (and the proofs of the cards against the
        sealed deck); False when the DM is refused (closed DMs: 403/50007) or fails, so that the table can point
        them to My cards. `nonce`: as `announce`."""
        await self._flush_streets(snapshot)
        locale = self.people.locale(user_id, snapshot.language)
        content = render_hole_cards_dm(cards, snapshot.hand_number, f"<#{snapshot.channel_id}>", locale, proofs)
        return await self._send_dm(user_id, content, nonce, "hole cards")

    async def send_coach(
        self, snapshot: TableSnapshot, user_id: int, facts: CoachFacts, nonce: str | None = None
    ) -> bool:
        """DM the member the coach's lines for their turn, in their language (one REST call once their DM channel
        is known); False when the DM is refused or fails, so that the table says so and falls back to My cards.
        `nonce`: as `announce` (one DM per turn, after a restart too)."""
        locale = self.people.locale(user_id, snapshot.language)
        content = coach_dm_text(facts, snapshot.hand_number, f"<#{snapshot.channel_id}>", locale)
        return await self._send_dm(user_id, content, nonce, "the coach")

    async def _send_dm(self, user_id: int, content: str, nonce: str | None, what: str) -> bool:
        """DM `content` to a user (once per `nonce`); False when refused (closed DMs: 403/50007) or failed."""
        try:
            channel = await self._dm_channel(user_id)
            if nonce is None:
                await channel.send(content, allowed_mentions=NO_MENTIONS)
            else:
                await self._post_once(channel.id, nonce, content=content, dm=True)
        except discord.Forbidden:
            log.info("user %s does not accept DMs (%s)", user_id, what)
            return False
        except discord.HTTPException as exc:
            self._dm_channels.pop(user_id, None)
            log.warning("could not DM %s to user %s: %s", what, user_id, exc)
            return False
        return True

    async def _open_dm(self, user_id: int) -> int:
        return (await self.client.create_dm(discord.Object(id=user_id))).id

    async def reply(self, application_id: int, token: str, text: str) -> None:
        """Answer a deferred interaction by editing its original response (idempotent); an expired or unknown
        token is logged."""
        route = Route(
            "PATCH",
            "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
            webhook_id=application_id,
            webhook_token=token,
        )
        try:
            await self.client.http.request(route, json={"content": text, "allowed_mentions": NO_MENTIONS.to_dict()})
        except discord.HTTPException as exc:
            log.warning("could not answer an interaction: %s", exc)

    async def _dm_channel(self, user_id: int) -> discord.PartialMessageable:
        """The DM channel with a user: created once (one REST call), then remembered (a bot's DM channel with a
        user never changes), so that each later DM is a single REST call. A DM while the channel is being opened
        waits for that same request: opening DM channels is one Discord bucket for the whole bot (one request at a
        time until Discord's headers say more), and a hand's DMs no longer wait for the table's earlier ones
        (`Delivery.queue_together`), so a player's second hand could ask again while their first is in line."""
        channel_id = self._dm_channels.get(user_id)
        if channel_id is None:
            opening = self._dm_opening.get(user_id)
            if opening is None:
                opening = asyncio.ensure_future(self._open_dm(user_id))
                self._dm_opening[user_id] = opening
                opening.add_done_callback(lambda _: self._dm_opening.pop(user_id, None))
            channel_id = await asyncio.shield(opening)  # a cancelled DM leaves the opening to the others
        self._dm_channels[user_id] = channel_id
        self._dm_channels.move_to_end(user_id)
        while len(self._dm_channels) > DM_CHANNELS_KEPT:
            self._dm_channels.popitem(last=False)
        return self.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
