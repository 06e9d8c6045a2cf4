"""The table message's buttons, pressed: read from the raw INTERACTION_CREATE payload and answered with one request
each on the interaction's webhook, without discord.py's Interaction, Message and View (docs/architecture.md, "The
fast path of a press").

A press of a button whose custom_id is a table action (`ACTION_ID`: `poker:<action>:<channel>:<hand>[:<amount>]`,
action fold, check, call, bet, raise, all_in, cards or time) is taken from the gateway event by `Presses.take`
(called by the bot's INTERACTION_CREATE hook, bot/app.py) and run as a `Press`, in this order, each step
refusing privately in the presser's language (the error path of bot/discord_ui/errors.py) and changing nothing:

1. the message pressed must carry that button (a custom_id only in the request, forged: "That button is not
   valid", `unknown_component`; discord.py dropped such a press and the door answered it the same way);
2. `at_table` (bot/discord_ui/components.py): the custom_id's channel is the channel pressed in, and its table
   belongs to the presser's server (`foreign_component`);
3. the action, by the table service: My cards answers privately (`hole_cards_answer`, type 4 ephemeral); Bet… /
   Raise… checks the turn and opens the amount form (type 9); Time acknowledges (type 6) and starts the time
   bank; the others are acknowledged (`acknowledge_action`: by default type 6, sent as the action starts and not
   awaited by it, `PendingAnswer.beside`; with `answer_within_s` > 0,
   by the table edit that shows the action, UPDATE_MESSAGE, type 7, sent by the table's delivery) and act
   (`TableRunner.act`); a refusal before any acknowledgement is the response (type 4, ephemeral), after one a
   followup.

Anything else (another custom_id, a component that is not a button, a payload this module cannot read) is left
to discord.py, as before. Why: at 100 busy tables, discord.py's generic path (building the Interaction and its
Message, `View.from_message`, the DynamicItem dispatch, the webhook adapter's response) took more of the event
loop than the action itself (cProfile under benchmarks/load.py: 4.5 s in the DynamicItem dispatch of the presses,
of which 1.8 s in `TableRunner.act`, plus 1.1 s building Interactions).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import discord
from discord.http import Route
from discord.webhook.async_ import async_context

from bot.discord_ui.components import at_table
from bot.discord_ui.errors import (
    NO_MENTIONS,
    CommandRefused,
    answer_refusal,
    error_text,
    refusal_text,
    where_text,
)
from bot.discord_ui.parts import has_parts, parts, table_service
from bot.discord_ui.table_view import ACTION_ID, KINDS, AmountModal, hole_cards_answer
from bot.discord_ui.turns import ensure_turn, explain
from bot.poker import PokerError
from bot.render.embeds import CONTENT_MAX, clamp
from bot.tables import Carrier
from bot.tables.errors import storage_cause, storage_outcome

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Interaction response types (Discord's "Interaction Response Type").
CHANNEL_MESSAGE = 4
DEFERRED_UPDATE_MESSAGE = 6
MODAL = 9
EPHEMERAL = 64
BUTTON = discord.ComponentType.button.value
COMPONENT_INTERACTION = discord.InteractionType.component.value
_ALLOWED_MENTIONS = NO_MENTIONS.to_dict()


@dataclass(frozen=True, slots=True)
class TableButton:
    """A table action button's custom_id, read (`ACTION_ID`): `action` (fold, check, call, bet, raise, all_in, cards,
    time), the table's `channel_id`, the `hand_number` it was shown for, and the `amount` it names (Call N: chips
    to add; All-in N: the street total; Bet N / Raise to N: the one allowed total) or None."""

    action: str
    channel_id: int
    hand_number: int
    amount: int | None

    @classmethod
    def parse(cls, custom_id: str) -> TableButton | None:
        """The button `custom_id` names, or None when it is not a table action button's id (whole match)."""
        match = ACTION_ID.fullmatch(custom_id)
        if match is None:
            return None
        action, channel, hand, amount = match.group("action", "channel", "hand", "amount")
        return cls(action, int(channel), int(hand), None if amount is None else int(amount))


async def webhook_request(
    client: discord.Client, route: Route, payload: dict[str, Any], params: dict[str, Any] | None = None
) -> Any:
    """One request on an interaction's webhook (its callback, followups): through discord.py's webhook adapter and
    the client's HTTP session, as discord.py's own `Interaction` sends its responses (`interactions.py`:
    `state.http`'s `__session`). Not `client.http.request`: its rate limiter keeps one bucket per webhook token
    and, past 256 of them, scans them all at each new one (0.8 s of 5.5 s of loop CPU in a profile at 30
    tables). Raises discord.HTTPException when Discord refuses (an expired interaction: NotFound, 10062)."""
    http = client.http
    session = getattr(http, "_HTTPClient__session")  # noqa: B009  # name-mangled: discord.py reads it so too
    adapter = async_context.get()
    return await adapter.request(
        route, session, payload=payload, proxy=http.proxy, proxy_auth=http.proxy_auth, params=params
    )


@dataclass(slots=True)
class Press:
    """One press of a table button, from the raw INTERACTION_CREATE payload (`Press.read`): who (`user_id`, the
    `display_name` Discord shows, their `locale`), where (`channel_id`, `guild_id`), the `button`, the message
    pressed (`message_id`) and whether it carries the button (`on_message`); the interaction's `id`, `token` and
    `application_id` to answer it.

    Its answers (at most one response, then followups; `answered` says whether the response was sent): `defer`
    (type 6), `open_form` (type 9), `send_private` (ephemeral: the response, or a followup once answered). Each is
    one REST call on the interaction's webhook (`_send`) and raises discord.HTTPException when Discord refuses it
    (an expired interaction: 10062)."""

    client: discord.Client
    id: int
    token: str
    application_id: int
    user_id: int
    display_name: str
    locale: discord.Locale
    channel_id: int | None
    guild_id: int | None
    custom_id: str
    button: TableButton
    on_message: bool
    message_id: int | None = None
    answered: bool = field(default=False)

    @classmethod
    def read(cls, client: discord.Client, data: Any) -> Press | None:
        """The press in an INTERACTION_CREATE payload, or None when it is not a button press of a table action
        (another type, component or custom_id) or the payload lacks what a press needs: discord.py handles those."""
        if not isinstance(data, dict) or data.get("type") != COMPONENT_INTERACTION:
            return None
        inner = data.get("data")
        if not isinstance(inner, dict) or inner.get("component_type") != BUTTON:
            return None
        custom_id = inner.get("custom_id")
        if not isinstance(custom_id, str):
            return None
        button = TableButton.parse(custom_id)
        if button is None:
            return None
        try:
            member = data.get("member")
            user = member["user"] if isinstance(member, dict) else data["user"]
            nick = member.get("nick") if isinstance(member, dict) else None
            message = data.get("message")
            return cls(
                client=client,
                id=int(data["id"]),
                token=str(data["token"]),
                application_id=int(data["application_id"]),
                user_id=int(user["id"]),
                display_name=str(nick or user.get("global_name") or user["username"]),
                locale=_locale(data.get("locale")),
                channel_id=_snowflake(data.get("channel_id")),
                guild_id=_snowflake(data.get("guild_id")),
                custom_id=custom_id,
                button=button,
                on_message=isinstance(message, dict) and _carries(message.get("components"), custom_id),
                message_id=_snowflake(message.get("id")) if isinstance(message, dict) else None,
            )
        except (KeyError, TypeError, ValueError):
            log.debug("a press of %s left to discord.py: unreadable payload", custom_id)
            return None

    def where(self) -> str:
        """How the log names this press ("interaction 123 (poker:call:1:2) by 456")."""
        return where_text(self.id, self.custom_id, self.user_id)

    async def _send(self, route: Route, payload: dict[str, Any], params: dict[str, Any] | None = None) -> None:
        await webhook_request(self.client, route, payload, params)

    async def _respond(self, kind: int, data: dict[str, Any] | None = None) -> None:
        body: dict[str, Any] = {"type": kind} if data is None else {"type": kind, "data": data}
        route = Route(
            "POST", "/interactions/{webhook_id}/{webhook_token}/callback", webhook_id=self.id, webhook_token=self.token
        )
        await self._send(route, body)
        self.answered = True

    async def defer(self) -> None:
        """Acknowledge without a message (type 6, DEFERRED_UPDATE_MESSAGE): the message pressed is edited later."""
        await self._respond(DEFERRED_UPDATE_MESSAGE)

    async def open_form(self, modal: discord.ui.Modal) -> None:
        """Answer with a form (type 9, MODAL): `modal`'s JSON. The bot keeps no state of it: its submission is read
        from its custom_id (`table_view.submit_amount`)."""
        await self._respond(MODAL, modal.to_dict())

    async def send_private(self, content: str, *, components: list[dict[str, Any]] | None = None) -> None:
        """Answer the presser alone (ephemeral, no mentions), `content` clamped to Discord's 2,000 characters, with
        `components` (action rows' JSON) when given: the response (type 4) if nothing answered yet, else a
        followup (POST /webhooks/{application}/{token})."""
        message: dict[str, Any] = {
            "content": clamp(content, CONTENT_MAX),
            "flags": EPHEMERAL,
            "allowed_mentions": _ALLOWED_MENTIONS,
        }
        if components is not None:
            message["components"] = components
        if not self.answered:
            await self._respond(CHANNEL_MESSAGE, message)
            return
        route = Route(
            "POST", "/webhooks/{webhook_id}/{webhook_token}", webhook_id=self.application_id, webhook_token=self.token
        )
        await self._send(route, message, {"wait": 1})

    async def refuse(self, error: BaseException) -> None:
        """Answer `error` privately in the presser's language (`refusal_text`: a refusal's text, or a bug's
        reference, logged); never raises (a failed answer is logged)."""
        where = self.where()
        await answer_refusal(self.send_private, refusal_text(error, self.locale, where), where)


def _locale(value: Any) -> discord.Locale:
    """The interaction's locale as discord.py reads it: an unknown spelling is American English."""
    try:
        return discord.Locale(value if value is not None else "en-US")
    except ValueError:
        return discord.Locale.american_english


def _snowflake(value: Any) -> int | None:
    return int(value) if value is not None else None


def _carries(components: Any, custom_id: str) -> bool:
    """Whether a message's `components` JSON carries a button with `custom_id`, nested ones included (action rows,
    sections' accessories, containers). One loop, no generator: it runs at every press."""
    stack = list(components) if isinstance(components, list) else []
    pop, extend, append = stack.pop, stack.extend, stack.append
    while stack:
        component = pop()
        if not isinstance(component, dict):
            continue
        get = component.get
        if get("custom_id") == custom_id and get("type") == BUTTON:
            return True
        children = get("components")
        if isinstance(children, list):
            extend(children)
        accessory, inner = get("accessory"), get("component")
        if isinstance(accessory, dict):
            append(accessory)
        if isinstance(inner, dict):
            append(inner)
    return False


#: How long a plain action's press may wait for the table edit that shows its action to answer it (UPDATE_MESSAGE,
#: one REST call): past this it is acknowledged (type 6) and the edit goes out as a PATCH. 0: no wait, the press is
#: acknowledged as its action starts (`PendingAnswer.beside`). The default: measured on the shared 2-core machine,
#: waiting for the edit made the acknowledgement 2-4 times slower for no CPU saved (first session); with 30 ms
#: (2 December, ninth session) 37 % of the presses were answered by their edit, 1.63 REST calls per action, the CPU
#: ratio to the floor 2.33 against 2.52 without, but the buttons' ack p50 87 ms against 28-56 and p99 296 against
#: 155-191 ms (docs/outbox.md, "A press answered by the table edit", has the figures).
ANSWER_WITHIN_S = 0.0


def _log_failure(task: asyncio.Future[Any]) -> None:
    """How the action of a press cancelled meanwhile (the bot stopping) ended, when it failed: a refusal (not your
    turn, the storage unavailable...) is what it is, no one left to tell (info; a storage fault a warning), and
    only anything else, a bug, an error with its traceback."""
    if task.cancelled() or (error := task.exception()) is None:
        return
    outcome = storage_outcome(error)
    if outcome == "stored":
        log.warning(
            "a press's action is stored (its press cancelled); a write after it failed: %s", storage_cause(error)
        )
    elif outcome == "not stored":
        log.warning("a press's action could not be stored (its press cancelled): %s", storage_cause(error))
    elif error_text(error, "en") is not None:
        log.info("a press's action was refused after its press was cancelled: %s", getattr(error, "code", error))
    else:
        log.error("a press's action failed after its press was cancelled", exc_info=error)


class PendingAnswer:
    """The answer of a plain action's press while its action runs (`beside`): `carrier` (None when the press names
    no message, or without a wait: it is deferred as its action starts) is handed to `TableRunner.act`; if no one
    answered it `ANSWER_WITHIN_S` after the press, it is acknowledged here (`Carrier.claim` decides who answers,
    once): while the action runs and after, while its edit waits on the table's delivery. `refused` when the action
    is refused: no late acknowledgement from then on, and one in flight is awaited (the refusal is then a
    followup)."""

    def __init__(self, press: Press, carrier: Carrier | None, within: float) -> None:
        self.press = press
        self.carrier = carrier
        self._deferral: asyncio.Task[None] | None = None
        self._deadline = asyncio.get_running_loop().call_later(within, self._late) if carrier is not None else None

    async def beside(self, action: Awaitable[T]) -> T:
        """Run `action` (the press's act) and return what it returns. A press without a carrier is deferred
        (type 6) meanwhile: the deferral is sent first, from this task, and the action runs in a task of its own
        from the loop's next turn, so that the action and its table edit do not wait for the deferral's round trip
        (13 ms at the median, 50 in the slowest 5 % at 100 tables: benchmarks/edit_entry.py). The outcome is the
        action's once the deferral is answered: a refusal is then a followup. A deferral that fails (the
        interaction expired) is logged, and the action stands, as a slash command's does."""
        if self.carrier is not None:
            return await action
        acting = asyncio.ensure_future(action)
        try:
            await self.press.defer()
        except Exception as exc:
            log.info("could not acknowledge %s: %s", self.press.where(), exc)
        except BaseException:  # cancelled (the bot is stopping): the action goes on, its failure logged
            acting.add_done_callback(_log_failure)
            raise
        return await acting

    def _late(self) -> None:
        if self.carrier is not None and self.carrier.claim():
            self._deferral = asyncio.get_running_loop().create_task(self._defer(), name=f"poker-ack-{self.press.id}")

    async def _defer(self) -> None:
        try:
            await self.press.defer()
        except discord.HTTPException as exc:
            log.info("could not acknowledge %s: %s", self.press.where(), exc)

    async def refused(self) -> None:
        """The action was refused (the refusal answers the press): no late acknowledgement from now on; one in
        flight is awaited first."""
        if self._deadline is not None:
            self._deadline.cancel()
        if self._deferral is not None:
            await self._deferral


async def acknowledge_action(press: Press, arrived: float, within: float = ANSWER_WITHIN_S) -> PendingAnswer:
    """How a press that acts on the table (Fold, Check, Call N, Bet N, Raise to N, All-in N) is acknowledged, the
    one place that decides it. With `within` > 0: not at once, but by the table edit that shows its action — a
    `Carrier` (`arrived`:
    the table service clock's time), handed to `TableRunner.act(carrier=)`, which the table's delivery answers
    with that edit (UPDATE_MESSAGE, type 7) or acknowledges (type 6) when no edit of its message can carry it
    (docs/outbox.md, "A press answered by the table edit"); acknowledged here when that edit is not out within
    `within` seconds; a refused action is answered by the refusal. With `within` 0 (the default), or a press that
    names no message, the press is deferred (type 6) as its action starts (`PendingAnswer.beside`), and its edit is
    a PATCH."""
    if press.message_id is None or within <= 0:
        return PendingAnswer(press, None, within)
    return PendingAnswer(press, Carrier(press.id, press.token, press.message_id, arrived), within)


async def run_press(press: Press, answer_within: float = ANSWER_WITHIN_S) -> None:
    """Run a table button's press (module docstring: the order of its checks); every refusal or error is answered
    privately (`Press.refuse`), so this never raises."""
    try:
        if not press.on_message:
            raise CommandRefused("unknown_component")
        channel_id = press.button.channel_id
        service = parts(press.client).tables
        runner = service.find(channel_id) if service is not None else None
        at_table(press, channel_id, runner.ids.guild_id if runner is not None else None)
        await _act(press, answer_within)
    except Exception as error:
        await press.refuse(error)


async def _act(press: Press, answer_within: float) -> None:
    service = table_service(press.client)
    button = press.button
    channel_id, hand_number = button.channel_id, button.hand_number
    if button.action == "cards":
        text, view = hole_cards_answer(service, channel_id, press.user_id, press.locale)
        await press.send_private(text, components=view.to_components() if view is not None else None)
        return
    if button.action == "time":  # the time bank, started early (issue 16): the table message shows the deadline
        await press.defer()
        await service.get(channel_id).use_time_bank(press.user_id, hand_number=hand_number)
        return
    if button.action in ("bet", "raise") and button.amount is None:
        legal = ensure_turn(service, channel_id, press.user_id, hand_number)
        if not (legal.can_bet or legal.can_raise) or legal.min_raise_to is None:
            raise CommandRefused("raise_not_reopened", to_call=legal.call_amount)
        await press.open_form(AmountModal(legal, press.locale, channel_id, hand_number))
        return
    answer = await acknowledge_action(press, service.clock.time(), answer_within)
    # A Bet N / Raise to N button (one allowed total, fixed-limit) bets that total: the engine refuses any other;
    # the others name the amount they expect (Call N, All-in N).
    direct = button.action in ("bet", "raise")
    amount, expected = (button.amount, None) if direct else (None, button.amount)
    try:
        await answer.beside(
            service.get(channel_id).act(
                press.user_id,
                KINDS[button.action],
                amount,
                hand_number=hand_number,
                expected=expected,
                carrier=answer.carrier,
            )
        )
    except PokerError as error:
        await answer.refused()
        raise explain(error, service, channel_id) from error
    except BaseException:
        await answer.refused()
        raise


class Presses:
    """The presses being run (their tasks kept until done; `close` waits for them at shutdown); `taken`:
    how many presses this process took from the gateway (tests and benchmarks read it); `answer_within_s`: how
    long a plain action's press may wait for its table edit to answer it (`ANSWER_WITHIN_S`; a seam for tests)."""

    def __init__(self, answer_within_s: float = ANSWER_WITHIN_S) -> None:
        self._tasks: set[asyncio.Task[None]] = set()
        self.taken = 0
        self.answer_within_s = answer_within_s

    def take(self, client: discord.Client, data: Any) -> bool:
        """Take a table button's press out of an INTERACTION_CREATE payload: note who pressed and in which
        language (the bot's `people`), start running it (`run_press`) and return True; False (nothing done) when
        `data` is not such a press (`Press.read`), for discord.py to handle."""
        press = Press.read(client, data)
        if press is None:
            return False
        self.taken += 1
        if has_parts(client):
            parts(client).people.note(press.user_id, press.display_name, press.locale)
        running = run_press(press, self.answer_within_s)
        task = asyncio.get_running_loop().create_task(running, name=f"poker-press-{press.id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return True

    async def close(self, timeout_s: float = 5.0) -> None:
        """The bot is shutting down: let the presses being run finish (an action half stored is never cut off),
        up to `timeout_s` seconds, then cancel those still running."""
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=timeout_s)
        for task in list(self._tasks):
            task.cancel()
