"""The table message's buttons take the fast path (bot/discord_ui/presses.py): read from the raw gateway payload,
answered over the bot's HTTP client. Each press acts once; each forged or stale press is refused exactly as the
door refused it before (same text, privately, in the presser's language, nothing changed); anything that is not
a table button is left to discord.py."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest
from discord.webhook.async_ import async_context

from bot.discord_ui.errors import CommandRefused
from bot.discord_ui.presses import ANSWER_WITHIN_S, Press, TableButton, acknowledge_action
from tests.cogs.conftest import FORGED_POST, World
from tests.cogs.test_door import NOT_HERE, NOT_VALID, Door
from tests.cogs.test_refusals import answer, state


def taken(world: World) -> int:
    return int(world.bot.presses.taken)


def callbacks(world: World, since: int) -> list[Any]:
    """The interaction callbacks (acknowledgements and responses) the bot sent since REST request `since`."""
    return [e.json for e in world.env.http_requests[since:] if e.path.endswith("/callback")]


def followups(world: World, since: int) -> list[Any]:
    return [e.json for e in world.env.http_requests[since:] if e.method == "POST" and e.path.startswith("/webhooks/")]


async def refused_privately(world: World, request: Any, expected: str) -> None:
    """An action press refused by the table: the refusal is the press's one answer, private (type 4, ephemeral;
    an action press is not acknowledged before its action, docs/outbox.md "A press answered by the table edit"),
    nothing changed and nothing public."""
    before, mark = await state(world), len(world.env.http_requests)
    result = await request()
    (answered,) = callbacks(world, mark)
    assert answered["type"] == 4 and answered["data"]["flags"] == 64
    assert result.response is not None and (result.response.content, result.ephemeral) == (expected, True)
    assert result.followups == [] and followups(world, mark) == []
    assert await state(world) == before
    assert [text for text in world.public_texts(mark) if FORGED_POST not in text] == []


async def start(world: World) -> None:
    world.decks.queue(["9c4d", "8h3c", "QhQc"], "Kd7s2h5c6h")
    await world.seat({"alice": 100, "bob": 100, "chloe": 100})
    await world.slash("alice", "poker start")
    assert world.actor() == "chloe"


async def test_a_press_of_a_table_button_takes_the_fast_path_and_acts_once(world: World) -> None:
    await start(world)
    before, mark = taken(world), len(world.env.http_requests)
    pressed = await world.press("chloe", "Call 2")
    assert taken(world) == before + 1
    # One answer, the table message's edit itself (UPDATE_MESSAGE): no deferral, no PATCH.
    (answered,) = callbacks(world, mark)
    assert answered["type"] == 7 and answered["data"]["embeds"][0]["title"].endswith("hand #1")
    assert followups(world, mark) == [] and pressed.followups == []
    assert world.actor() == "alice"
    assert [s.bet for s in world.snapshot().seats] == [1, 2, 2]  # alice SB 1, bob BB 2, chloe called 2
    runner = world.service.runners[world.channel.id]
    stored = await world.bot.storage.hand(runner.view().hand_id)
    assert [a["kind"] for a in stored.actions] == ["call"]  # one action, stored once
    edits = [e for e in world.env.http_requests[mark:] if e.method == "PATCH" and "/messages/" in e.path]
    assert edits == []
    assert len(world.env.http_requests) - mark == 1  # the press cost one REST call in all
    # The presser is remembered as the discord.py path remembered them (name and locale for the DMs).
    assert world.bot.people.name(world.member("chloe").id) == "chloe"
    assert world.bot.people.locale(world.member("chloe").id, "x") == "en-US"


async def test_by_default_a_press_is_acknowledged_before_its_action_and_refused_in_a_followup(world: World) -> None:
    await start(world)
    world.bot.presses.answer_within_s = ANSWER_WITHIN_S  # the bot's default (0: no wait for the edit)
    mark = len(world.env.http_requests)
    pressed = await world.press("chloe", "Call 2")
    assert callbacks(world, mark) == [{"type": 6}] and pressed.followups == []
    edits = [e for e in world.env.http_requests[mark:] if e.method == "PATCH" and "/messages/" in e.path]
    assert len(edits) == 1 and world.actor() == "alice"
    refused = await world.press("chloe", "Fold")  # not her turn: acknowledged first, so refused in a followup
    expected = f"It's not your turn: it's <@{world.member('alice').id}>'s turn"
    assert [(m.content, m.ephemeral) for m in refused.followups] == [(expected, True)]
    world.acknowledge_refusals()


async def test_my_cards_and_the_raise_form_answer_through_the_fast_path(world: World) -> None:
    await start(world)
    before, mark = taken(world), len(world.env.http_requests)
    cards = await world.press("alice", "My cards")  # alice is not to act: her cards and the choices in advance
    (answered,) = callbacks(world, mark)
    assert answered["type"] == 4 and answered["data"]["flags"] == 64
    assert "9" in cards.response.content and cards.response.ephemeral
    labels = [c["label"] for row in cards.response.components for c in row["components"]]
    assert labels == ["Check/Fold", "Call 1", "No choice"]
    await world.member("alice").click(cards.response.message, label="Check/Fold")  # a discord.py button, still answered
    assert world.service.get(world.channel.id).pre_action_of(world.member("alice").id) is not None
    form = await world.press("chloe", "Raise…")
    assert form.modal is not None and form.modal["custom_id"] == f"poker:amount:raise:{world.channel.id}:1"
    assert taken(world) == before + 2  # My cards and Raise…; the pre-action button went through discord.py
    sent = await world.member("chloe").submit_modal(form, {"amount": "6"})
    assert sent.followups == [] and world.actor() == "bob"  # alice's Check/Fold folded her facing the raise


async def test_forged_table_button_ids_are_refused_as_before_through_the_fast_path(world: World) -> None:
    await start(world)
    table = world.channel.id
    chat = world.guild.create_text_channel("chat")
    other_guild = world.env.create_guild("Elsewhere")
    elsewhere = other_guild.create_text_channel("lobby")
    mallory = other_guild.add_member(world.env.create_user("mallory"))
    door = Door(world)
    before_ack: list[tuple[Any, str]] = [
        (lambda: world.forge_press("chloe", f"poker:call:{table}:1", channel=chat), NOT_HERE),  # another channel
        (lambda: world.forge_press(mallory, f"poker:fold:{table}:1", channel=elsewhere), NOT_HERE),  # other server
        (lambda: world.forge_press("chloe", f"poker:call:{table}:1", guild_id=other_guild.id), NOT_HERE),
        (lambda: world.forge_press("chloe", "poker:call:" + "9" * 20 + ":1"), NOT_HERE),  # the largest channel id
        (lambda: world.forge_press("chloe", f"poker:cards:{table}:1", channel=chat), NOT_HERE),
        (lambda: world.forge_press("chloe", f"poker:call:{table}:1", on_message=False), NOT_VALID),  # not on it
    ]
    for request, expected in before_ack:
        before = taken(world)
        await door.refuses(request, expected)
        assert taken(world) == before + 1, expected
    chloe = f"<@{world.member('chloe').id}>"
    world.member("sam")  # a member who is not at the table
    by_the_table: list[tuple[str, str, str]] = [
        (
            "chloe",
            f"poker:call:{table}:" + "9" * 10,
            "That button belongs to an earlier hand: use the latest table message",
        ),
        ("chloe", f"poker:call:{table}:1:" + "9" * 12, "The call is now 2: nothing was played, press again"),
        ("sam", f"poker:fold:{table}:1", f"You're not playing this hand: it's {chloe}'s turn"),  # a stranger
        ("alice", f"poker:fold:{table}:1", f"It's not your turn: it's {chloe}'s turn"),
    ]
    for who, custom_id, expected in by_the_table:
        before = taken(world)
        await refused_privately(world, lambda w=who, c=custom_id: world.forge_press(w, c), expected)
        assert taken(world) == before + 1, expected
    # Not a table button's id (an unknown action, a channel of 21 digits): discord.py's door answers, as before.
    for custom_id in (f"poker:dance:{table}:1", "poker:call:" + "9" * 21 + ":1", f"poker:call:{table}:1:2:3"):
        before = taken(world)
        await door.refuses(lambda c=custom_id: world.forge_press("chloe", c), NOT_VALID)
        assert taken(world) == before, custom_id
    world.speaks("chloe", "fr")
    await door.refuses(
        lambda: world.forge_press("chloe", f"poker:call:{table}:1", channel=chat),
        "Ce bouton ne fonctionne pas ici\u00a0: utilise le message de la table de ce salon",
    )
    assert world.actor() == "chloe"
    world.acknowledge_refusals()


async def test_a_refused_action_press_is_answered_by_its_private_refusal(world: World) -> None:
    await start(world)
    mark = len(world.env.http_requests)
    pressed = await world.forge_press("chloe", f"poker:all_in:{world.channel.id}:1:50")
    (answered,) = callbacks(world, mark)
    assert answered["type"] == 4 and answered["data"]["flags"] == 64
    assert answered["data"]["allowed_mentions"]["parse"] == [] and followups(world, mark) == []
    assert pressed.response is not None
    assert pressed.response.content == "All-in is now 100: nothing was played, press again"
    world.speaks("chloe", "fr")
    refused = await world.forge_press("chloe", f"poker:all_in:{world.channel.id}:1:50")
    assert refused.response is not None and refused.response.content.startswith("Le tapis est maintenant de 100")
    assert world.actor() == "chloe"


async def test_an_old_hands_button_is_refused(world: World) -> None:
    await start(world)
    old_table = world.table_message()
    world.env.inject_error("PATCH", f"/channels/{world.channel.id}/messages/{old_table.id}", status=500, times=None)
    await world.slash("chloe", "fold")
    await world.slash("alice", "fold")
    await world.advance(5)
    assert world.snapshot().hand_number == 2
    actor = world.actor()
    before = taken(world)
    pressed = await world.member(actor).click(old_table, label="Fold")
    assert answer(pressed) == "That button belongs to an earlier hand: use the latest table message"
    assert taken(world) == before + 1 and world.actor() == actor


def payload(custom_id: str, **changes: Any) -> dict[str, Any]:
    button = {"type": 2, "style": 2, "label": "Call 2", "custom_id": custom_id}
    data: dict[str, Any] = {
        "id": "11",
        "application_id": "22",
        "type": 3,
        "token": "tok",
        "channel_id": "33",
        "guild_id": "44",
        "locale": "fr",
        "member": {"user": {"id": "55", "username": "chloe", "global_name": "Chloé"}, "nick": None},
        "data": {"custom_id": custom_id, "component_type": 2},
        "message": {"components": [{"type": 1, "components": [button]}]},
    }
    data.update(changes)
    return data


def test_a_press_is_read_from_the_raw_payload() -> None:
    press = Press.read(None, payload("poker:call:33:7:19"))  # type: ignore[arg-type]  # the client only answers
    assert press is not None
    assert (press.id, press.token, press.application_id, press.user_id) == (11, "tok", 22, 55)
    assert (press.channel_id, press.guild_id, press.locale.value, press.display_name) == (33, 44, "fr", "Chloé")
    assert press.button == TableButton("call", 33, 7, 19) and press.on_message
    assert press.message_id is None  # the payload's message has no id: such a press is deferred, carries nothing
    with_id = Press.read(None, payload("poker:call:33:7:19", message={"id": "66", "components": []}))  # type: ignore[arg-type]
    assert with_id is not None and with_id.message_id == 66
    assert Press.read(None, payload("poker:fold:33:7", locale="xx")).locale.value == "en-US"  # type: ignore[arg-type, union-attr]
    elsewhere = payload("poker:fold:33:7", message={"components": []})
    assert not Press.read(None, elsewhere).on_message  # type: ignore[arg-type, union-attr]


FOLD = {"type": 2, "custom_id": "poker:fold:33:7"}


@pytest.mark.parametrize(
    ("components", "carried"),
    [
        ([{"type": 1, "components": [{"type": 2, "custom_id": "x"}, FOLD]}], True),
        ([{"type": 9, "components": [], "accessory": FOLD}], True),  # section
        ([{"type": 17, "components": [{"type": 1, "components": [FOLD]}]}], True),  # a container
        ([{"type": 18, "component": FOLD}], True),  # a label's component
        ([{"type": 1, "components": [{"type": 3, "custom_id": "poker:fold:33:7"}]}], False),  # a select, not a button
        ([{"type": 1, "components": ["junk", None, {"type": 2, "custom_id": "poker:fold:33:8"}]}], False),
        ({"type": 2, "custom_id": "poker:fold:33:7"}, False),  # not a list
        (None, False),
    ],
)
def test_a_press_is_on_the_message_only_when_a_button_of_it_anywhere_has_its_custom_id(
    components: Any, carried: bool
) -> None:
    press = Press.read(None, payload("poker:fold:33:7", message={"components": components}))  # type: ignore[arg-type]
    assert press is not None and press.on_message is carried


@pytest.mark.parametrize(
    "data",
    [
        payload("poker:dance:33:7"),
        payload("poker:buyin:33:55"),
        payload("poker:call:33:7", type=5),
        payload("poker:call:33:7", data={"custom_id": "poker:call:33:7", "component_type": 3}),
        payload("poker:call:33:7", token=None, id=None),
        payload("poker:call:33:7", member=None),
    ],
    ids=["unknown-action", "other-button", "form", "select", "no-id", "no-user"],
)
def test_what_is_not_a_table_buttons_press_is_left_to_discord_py(data: dict[str, Any]) -> None:
    assert Press.read(None, data) is None  # type: ignore[arg-type]


class Transport:
    """The client and webhook adapter as the fast path uses them (`presses.webhook_request`): every request
    recorded (route path, body) and answered at once."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, Any]] = []
        self.http = self
        self._HTTPClient__session = None
        self.proxy = self.proxy_auth = None
        async_context.set(self)  # type: ignore[arg-type]  # this test's context (its tasks copy it)

    async def request(self, route: Any, session: Any, *, payload: Any = None, **kwargs: Any) -> Any:
        self.sent.append((route.path, payload))
        return None


def pressed(transport: Transport) -> Press:
    press = Press.read(transport, payload("poker:call:33:7:2", message={"id": "66", "components": []}))  # type: ignore[arg-type]
    assert press is not None and press.message_id == 66
    return press


async def test_a_press_not_answered_by_its_edit_in_time_is_acknowledged_once_at_its_deadline() -> None:
    transport = Transport()
    answer = await acknowledge_action(pressed(transport), arrived=0.0, within=0.01)
    assert answer.carrier is not None and transport.sent == []  # nothing sent before the action
    await asyncio.sleep(0.05)  # no edit took it: acknowledged (type 6) at the deadline
    assert transport.sent == [("/interactions/{webhook_id}/{webhook_token}/callback", {"type": 6})]
    assert not answer.carrier.claim()  # the table's delivery will not answer it again (its edit is a PATCH)


async def test_a_press_answered_by_its_edit_before_the_deadline_is_not_acknowledged() -> None:
    transport = Transport()
    answer = await acknowledge_action(pressed(transport), arrived=0.0, within=0.01)
    assert answer.carrier is not None and answer.carrier.claim()  # the table's delivery took it for its edit
    await asyncio.sleep(0.05)
    assert transport.sent == []


async def test_a_refused_press_gets_no_acknowledgement_after_its_refusal() -> None:
    transport = Transport()
    answer = await acknowledge_action(pressed(transport), arrived=0.0, within=0.01)
    await answer.refused()  # the refusal is its answer (type 4)
    await asyncio.sleep(0.05)
    assert transport.sent == []


class HeldTransport(Transport):
    """A `Transport` whose interaction callbacks are answered only once `release` is set (a slow Discord)."""

    def __init__(self) -> None:
        super().__init__()
        self.release = asyncio.Event()

    async def request(self, route: Any, session: Any, *, payload: Any = None, **kwargs: Any) -> Any:
        self.sent.append((route.path, payload))
        await self.release.wait()
        return None


async def test_by_default_an_action_does_not_wait_for_its_deferrals_round_trip() -> None:
    transport = HeldTransport()
    press = pressed(transport)
    acted = asyncio.Event()

    async def action() -> str:
        acted.set()
        return "acted"

    async def run() -> str:
        answer = await acknowledge_action(press, arrived=0.0, within=0)
        return await answer.beside(action())

    running = asyncio.create_task(run())
    await asyncio.wait_for(acted.wait(), 1)  # acted while the deferral's answer is still awaited
    assert transport.sent == [("/interactions/{webhook_id}/{webhook_token}/callback", {"type": 6})]
    assert not running.done() and not press.answered  # the outcome waits for the deferral (a refusal: a followup)
    transport.release.set()
    assert await asyncio.wait_for(running, 1) == "acted" and press.answered


async def test_by_default_a_refused_action_is_told_after_its_deferral() -> None:
    transport = HeldTransport()
    press = pressed(transport)

    async def refused() -> None:
        raise ValueError("refused")

    async def run() -> None:
        answer = await acknowledge_action(press, arrived=0.0, within=0)
        await answer.beside(refused())

    running = asyncio.create_task(run())
    await asyncio.sleep(0.01)
    assert not running.done()  # held until the deferral is answered
    transport.release.set()
    with pytest.raises(ValueError, match="refused"):
        await asyncio.wait_for(running, 1)
    assert press.answered  # so the refusal goes as a followup


class FailingDeferral(Transport):
    """A `Transport` whose deferral (type 6) Discord refuses (the interaction expired: 10062); the rest answered."""

    async def request(self, route: Any, session: Any, *, payload: Any = None, **kwargs: Any) -> Any:
        self.sent.append((route.path, payload))
        if payload == {"type": 6}:
            raise discord.NotFound(FakeResponse(404), {"code": 10062, "message": "Unknown interaction"})
        return None


class FakeResponse:
    """Enough of aiohttp's response for discord.HTTPException."""

    def __init__(self, status: int) -> None:
        self.status, self.reason = status, "Not Found"


async def test_by_default_a_refused_action_whose_deferral_failed_is_answered_by_its_refusal_once() -> None:
    """The deferral refused, the action refused: the refusal is then the response (type 4), the press's one answer
    after the failed deferral (no followup: nothing acknowledged it)."""
    transport = FailingDeferral()
    press = pressed(transport)

    async def refused() -> None:
        raise CommandRefused("not_your_turn_generic")

    answer = await acknowledge_action(press, arrived=0.0, within=0)
    with pytest.raises(CommandRefused):
        await answer.beside(refused())
    assert not press.answered
    await press.send_private("refused")
    callback = "/interactions/{webhook_id}/{webhook_token}/callback"
    assert [(path, body["type"]) for path, body in transport.sent] == [(callback, 6), (callback, 4)]


async def test_a_press_cancelled_while_its_deferral_is_held_lets_its_action_finish() -> None:
    """The bot stopping (`Presses.close` cancels a press still running): an action already started is not cut off
    by a cancel that reached the press's deferral."""
    transport = HeldTransport()
    press = pressed(transport)
    finished = asyncio.Event()

    async def action() -> None:
        await asyncio.sleep(0.01)
        finished.set()

    async def run() -> None:
        answer = await acknowledge_action(press, arrived=0.0, within=0)
        await answer.beside(action())

    running = asyncio.create_task(run())
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running
    await asyncio.wait_for(finished.wait(), 1)
    transport.release.set()
