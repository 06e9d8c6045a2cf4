"""The Discord stand-in's own tests: a real discord.py bot process (tests/discord_stub/testbot.py) against it.

One stand-in and one bot process serve the whole module (starting a bot costs about half a second);
after each test no Discord rule violation may remain, except those a test takes on purpose.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import pytest
import pytest_asyncio

from tests.discord_stub import BotProcess, CardForms, DiscordStub, PrivacyChecker, StubUsageError, User, limits
from tests.discord_stub.model import Channel, Message

pytestmark = pytest.mark.asyncio(loop_scope="module")


@dataclass
class World:
    stub: DiscordStub
    bot: BotProcess
    channel: Channel
    alice: User
    bob: User
    carol: User


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def world() -> AsyncIterator[World]:
    stub = await DiscordStub().start()
    guild = stub.add_guild(name="Casino", channels=["table-1", "lobby"], locale="en-US")
    alice = stub.add_member(1001, "alice", locale="fr")
    bob = stub.add_member(1002, "bob", dms_open=False)
    carol = stub.add_member(1003, "carol")
    bot = BotProcess(stub, entry="tests.discord_stub.testbot:main")
    try:
        await bot.start()
        yield World(stub, bot, guild.channel("table-1"), alice, bob, carol)
    finally:
        await bot.stop()
        await stub.stop()


@pytest_asyncio.fixture(loop_scope="module")
async def w(world: World) -> AsyncIterator[World]:
    yield world
    world.stub.faults.clear()
    world.stub.ack_deadline = 3.0
    assert world.bot.running, world.bot.log_tail()
    world.stub.assert_no_violations()


async def slash(w: World, who: User, *path: str, **options: object) -> Message:
    """Invoke, wait for the acknowledgement and the bot to go quiet; returns the response message."""
    inter = w.stub.invoke_slash(who, w.channel, *path, options=options)
    await inter.wait_acked()
    await w.stub.wait_idle(0.15)
    message = w.stub.original(inter)
    assert message is not None
    return message


def bump_numbers(w: World) -> list[int]:
    return [
        int(m.content.split("#")[1].split()[0]) for m in w.stub.channel_messages(w.channel) if "bump #" in m.content
    ]


# -- connection and commands --------------------------------------------------------------------------


async def test_bot_connects_through_gateway_bot_and_syncs_its_commands(w: World) -> None:
    assert w.stub.gateway.identify_count >= 1
    assert w.stub.request_counts.get("GET /gateway/bot") == 1
    poker, _ = sorted(w.stub.commands(), key=lambda c: c["name"])
    subcommands = {o["name"] for o in poker["options"]}
    assert {"join", "table", "secret", "dm", "break"} <= subcommands
    assert w.stub.command_syncs[0][0] is None


async def test_json_responses_carry_the_exact_content_type_and_require_the_token(w: World) -> None:
    async with aiohttp.ClientSession() as session:
        headers = {"Authorization": f"Bot {w.stub.token}"}
        async with session.get(f"{w.stub.api_base}/users/@me", headers=headers) as response:
            assert response.headers["Content-Type"] == "application/json"
            assert (await response.json())["id"] == str(w.stub.application_id)
        async with session.get(f"{w.stub.api_base}/users/@me", headers={"Authorization": "Bot wrong"}) as response:
            assert response.status == 401


async def test_invalid_command_definitions_are_refused_and_recorded(w: World) -> None:
    url = f"{w.stub.api_base}/applications/{w.stub.application_id}/guilds/1/commands"
    bad = [{"name": "Poker", "description": "", "type": 1}]
    async with (
        aiohttp.ClientSession() as session,
        session.put(url, json=bad, headers={"Authorization": f"Bot {w.stub.token}"}) as response,
    ):
        assert response.status == 400
        assert (await response.json())["code"] == 50035
    assert {v.kind for v in w.stub.take_violations()} == {"command_invalid"}


# -- slash commands, autocomplete, buttons, modals ----------------------------------------------------


async def test_slash_command_options_and_locales_reach_the_bot(w: World) -> None:
    message = await slash(w, w.alice, "poker", "join", seat=3, name="al")
    assert message.content == "alice joins seat 3 as al (fr/en-US)"
    inter = w.stub.invoke_slash(w.bob, w.channel, "poker join", options={"seat": 4, "name": "b"}, locale="de")
    await inter.wait_acked()
    assert w.stub.original(inter).content.endswith("(de/en-US)")  # type: ignore[union-attr]


async def test_options_a_discord_client_would_refuse_raise_usage_errors(w: World) -> None:
    with pytest.raises(StubUsageError, match=r"outside 1\.\.10"):
        w.stub.invoke_slash(w.alice, w.channel, "poker", "join", options={"seat": 11, "name": "x"})
    with pytest.raises(StubUsageError, match="required option 'name'"):
        w.stub.invoke_slash(w.alice, w.channel, "poker", "join", options={"seat": 1})
    with pytest.raises(StubUsageError, match="no option 'colour'"):
        w.stub.invoke_slash(w.alice, w.channel, "poker", "join", options={"seat": 1, "name": "x", "colour": 1})
    with pytest.raises(StubUsageError, match="needs a subcommand"):
        w.stub.invoke_slash(w.alice, w.channel, "poker")
    with pytest.raises(StubUsageError, match="not one of"):
        w.stub.invoke_slash(w.alice, w.channel, "poker", "break", options={"kind": "nonsense"})


async def test_member_permissions_gate_commands_as_discord_does(w: World) -> None:
    with pytest.raises(StubUsageError, match="lacks permissions"):
        w.stub.invoke_slash(w.alice, w.channel, "pokeradmin")
    boss = w.stub.add_member(1009, "boss", admin=True)
    inter = w.stub.invoke_slash(boss, w.channel, "pokeradmin")
    await inter.wait_acked()
    assert w.stub.original(inter).content == "manage_guild=True"  # type: ignore[union-attr]


async def test_files_are_uploaded_as_attachments(w: World) -> None:
    message = await slash(w, w.alice, "poker", "say", text="picture", attach=True)
    [attachment] = message.latest.attachments
    assert attachment["filename"] == "picture.png" and attachment["size"] == len(b"\x89PNG fake")


async def test_autocomplete_returns_the_bots_choices(w: World) -> None:
    choices = await w.stub.autocomplete(w.alice, w.channel, "poker", "join", focused="name", value="al")
    assert choices == [{"name": "Alice", "value": "alice"}, {"name": "Albert", "value": "albert"}]


async def test_persistent_button_press_edits_the_table_and_posts_once(w: World) -> None:
    table = await slash(w, w.alice, "poker", "table", number=7)
    before = len(bump_numbers(w))
    press = w.stub.press_button(w.bob, table, "stub:bump:7")
    assert await press.wait_acked() == 6
    await w.stub.wait_for(lambda: len(bump_numbers(w)) == before + 1)
    await w.stub.wait_for(lambda: table.edit_count == 1)
    n = bump_numbers(w)[-1]
    assert [v.content for v in table.versions] == [f"table 7: count={n - 1}", f"table 7: count={n}"]
    assert w.stub.last_message(w.channel).content == f"bump #{n} by bob"  # type: ignore[union-attr]


async def test_modal_opens_from_a_button_and_its_submission_reaches_the_bot(w: World) -> None:
    table = await slash(w, w.alice, "poker", "table", number=8)
    opened = w.stub.press_button(w.carol, table, label="Form")
    assert await opened.wait_acked() == 9
    with pytest.raises(StubUsageError, match="required"):
        w.stub.submit_modal(w.carol, "stub:modal:name", {"note": "hi"})
    with pytest.raises(StubUsageError, match="outside"):
        w.stub.submit_modal(w.carol, "stub:modal:name", {"name": "x" * 21})
    submitted = w.stub.submit_modal(w.carol, "stub:modal:name", {"name": "Caro"})
    await submitted.wait_acked()
    reply = w.stub.original(submitted)
    assert reply is not None and reply.content == "Thanks Caro (-)" and reply.ephemeral_to == w.carol.id
    assert reply not in w.stub.channel_messages(w.channel)
    assert w.stub.open_modals(w.carol) == []


async def test_ephemeral_reply_is_seen_only_by_its_user_and_its_button_updates_it(w: World) -> None:
    message = await slash(w, w.alice, "poker", "secret")
    assert message in w.stub.ephemerals(w.alice, w.channel)
    assert message not in w.stub.channel_messages(w.channel) and message not in w.stub.visible_to(w.bob)
    with pytest.raises(StubUsageError, match="ephemeral to another user"):
        w.stub.press_button(w.bob, message, "stub:reveal")
    press = w.stub.press_button(w.alice, message, "stub:reveal")
    assert await press.wait_acked() == 7
    assert message.content == "revealed" and message.components == [] and message.is_ephemeral


async def test_dm_is_delivered_and_a_closed_dm_is_refused_with_50007(w: World) -> None:
    reply = await slash(w, w.alice, "poker", "dm", text="psst")
    [dm] = w.stub.dms(w.alice)
    assert dm.content == "psst"
    with pytest.raises(StubUsageError, match="someone else's DMs"):
        w.stub.press_button(w.carol, dm, "stub:reveal")
    press = w.stub.press_button(w.alice, dm, "stub:reveal")  # a button in a DM: the interaction has no guild
    assert await press.wait_acked() == 7 and dm.content == "revealed"
    # the first followup after a "thinking" deferral fills the deferred message, which stays ephemeral
    assert reply.content == "Sent you a DM" and reply.ephemeral_to == w.alice.id
    assert not w.stub.pending_deferrals()

    refused_before = len(w.stub.refused_dms)
    reply = await slash(w, w.bob, "poker", "dm", text="psst")
    assert w.stub.dms(w.bob) == [] and len(w.stub.refused_dms) == refused_before + 1
    assert reply.content == "Your DMs are closed"
    assert w.stub.last_message(w.channel).content == "I can't DM bob (code 50007)"  # type: ignore[union-attr]


async def test_responses_and_followups_keep_every_edit(w: World) -> None:
    inter = w.stub.invoke_slash(w.carol, w.channel, "poker", "edit")
    await w.stub.wait_for(lambda: inter.followup_ids and w.stub.followups(inter)[0].edit_count == 1)
    original = w.stub.original(inter)
    assert original is not None and [v.content for v in original.versions] == ["v1", "v2"]
    assert [v.content for v in w.stub.followups(inter)[0].versions] == ["f1", "f2"]


async def test_thinking_deferral_then_edit_of_the_original(w: World) -> None:
    inter = w.stub.invoke_slash(w.carol, w.channel, "poker", "slow")
    assert await inter.wait_acked() == 5
    original = w.stub.original(inter)
    assert original is not None and original.flags & (1 << 7)
    await w.stub.wait_for(lambda: original.content == "done thinking")
    assert not original.flags & (1 << 7)


# -- rule enforcement ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "violation"),
    [
        ("long_content", "content_too_long"),
        ("big_embed", "embed_limit"),
        ("many_rows", "component_limit"),
        ("long_custom_id", "custom_id_too_long"),
        ("unknown_route", "unknown_route"),
        ("double_ack", "double_ack"),
        ("followup_before_ack", "followup_before_ack"),
    ],
)
async def test_each_broken_rule_is_recorded(w: World, kind: str, violation: str) -> None:
    inter = w.stub.invoke_slash(w.alice, w.channel, "poker", "break", options={"kind": kind})
    await inter.wait_acked()
    await w.stub.wait_for(lambda: w.stub.violations, what=violation)
    await w.stub.wait_idle(0.1)
    assert [v.kind for v in w.stub.take_violations()] == [violation]


async def test_unacknowledged_and_late_interactions_are_recorded(w: World) -> None:
    w.stub.ack_deadline = 0.4
    ignored = w.stub.invoke_slash(w.alice, w.channel, "poker", "break", options={"kind": "no_ack"})
    late = w.stub.invoke_slash(w.alice, w.channel, "poker", "break", options={"kind": "late_ack", "seconds": 0.6})
    callback = "POST /interactions/{webhook_id}/{webhook_token}/callback"
    refused = len([r for r in w.stub.errors() if f"{r.method} {r.route}" == callback])
    await w.stub.wait_for(lambda: len([r for r in w.stub.errors() if f"{r.method} {r.route}" == callback]) > refused)
    assert not ignored.acked and not late.acked
    assert sorted(v.detail.split()[1] for v in w.stub.take_violations("ack_timeout")) == sorted(
        [str(ignored.id), str(late.id)]
    )


async def test_limits_accept_the_maximum_and_refuse_one_more() -> None:
    assert limits.check_message({"content": "x" * 2000}, creating=True) == []
    assert limits.check_message({"content": "x" * 2001}, creating=True)[0][0] == "content_too_long"
    assert limits.check_message({}, creating=True)[0][0] == "empty_message"
    field = {"name": "n" * 256, "value": "v" * 20}
    assert limits.check_embeds([{"title": "t" * 256, "fields": [field] * 20}]) == []
    assert limits.check_embeds([{"fields": [field] * 26}])  # 26 fields, and over 6000 characters
    assert limits.check_embeds([{"description": "d" * 4096}, {"description": "d" * 1904}]) == []
    assert [k for k, _ in limits.check_embeds([{"description": "d" * 4096}, {"description": "d" * 1905}])] == [
        "embed_limit"
    ]
    assert limits.check_embeds([{"footer": {"text": "f" * 2049}}, {"author": {"name": "a" * 257}}])
    assert limits.check_embeds([{"title": "t"}] * 11)

    def rows(n: int, width: int) -> list[dict[str, object]]:
        return [
            {
                "type": 1,
                "components": [{"type": 2, "style": 1, "label": "b", "custom_id": f"{r}-{c}"} for c in range(width)],
            }
            for r in range(n)
        ]

    assert limits.check_components(rows(5, 5)) == []
    assert limits.check_components(rows(6, 1))[0][0] == "component_limit"
    assert limits.check_components(rows(1, 6))[0][0] == "component_limit"
    select = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]}
    mixed = [{"type": 1, "components": [select, {"type": 2, "style": 1, "label": "b", "custom_id": "b"}]}]
    assert limits.check_components(mixed)[0][0] == "component_limit"
    duplicate = [{"type": 1, "components": [{"type": 2, "style": 1, "custom_id": "same"}] * 2}]
    assert [k for k, _ in limits.check_components(duplicate)] == ["duplicate_custom_id"]
    assert limits.check_choices({"choices": [{"name": "n", "value": "v"}] * 26})[0][0] == "autocomplete_limit"
    assert limits.check_modal({"title": "t" * 46, "custom_id": "m", "components": []})


# -- fault injection ----------------------------------------------------------------------------------


async def press_and_count(w: World, table: Message, presses: int) -> list[int]:
    """Press Bump ``presses`` times, one after the other; returns the new bump numbers."""
    before = len(bump_numbers(w))
    for i in range(presses):
        w.stub.press_button(w.carol, table, label="Bump")
        await w.stub.wait_for(lambda i=i: len(bump_numbers(w)) == before + i + 1, timeout=10)
    await w.stub.wait_idle(0.2)
    return bump_numbers(w)[before:]


async def test_rate_limits_are_retried_and_no_action_is_lost_or_doubled(w: World) -> None:
    table = await slash(w, w.alice, "poker", "table", number=9)
    w.stub.faults.rate_limit("POST /channels/{channel_id}/messages", count=3, retry_after=0.05)
    w.stub.faults.rate_limit("PATCH /channels/{channel_id}/messages/{message_id}", count=2, retry_after=0.05)
    w.stub.faults.rate_limit("POST /interactions/{webhook_id}/{webhook_token}/callback", count=2, retry_after=0.05)
    numbers = await press_and_count(w, table, 4)
    assert numbers == list(range(numbers[0], numbers[0] + 4))
    assert table.content == f"table 9: count={numbers[-1]}"
    assert len([r for r in w.stub.requests if r.status == 429]) >= 7


async def test_slow_responses_delay_but_lose_nothing(w: World) -> None:
    table = await slash(w, w.alice, "poker", "table", number=10)
    w.stub.faults.slow("POST /channels/{channel_id}/messages", delay=0.3, count=2)
    numbers = await press_and_count(w, table, 2)
    assert len(numbers) == 2 and numbers[1] == numbers[0] + 1


async def test_gateway_close_is_resumed_and_missed_interactions_are_replayed(w: World) -> None:
    table = await slash(w, w.alice, "poker", "table", number=11)
    identifies, resumes, replayed = w.stub.gateway.identify_count, w.stub.gateway.resume_count, w.stub.gateway.replayed
    before = len(bump_numbers(w))
    assert await w.stub.close_gateway(4000) == 1
    missed = [w.stub.press_button(w.carol, table, label="Bump") for _ in range(3)]  # sent while disconnected
    await w.stub.wait_for(lambda: len(bump_numbers(w)) == before + 3, timeout=10)
    await w.stub.wait_idle(0.2)
    assert all(i.acked for i in missed)
    assert sorted(bump_numbers(w)[before:]) == list(range(bump_numbers(w)[before], bump_numbers(w)[before] + 3))
    assert w.stub.gateway.resume_count == resumes + 1 and w.stub.gateway.identify_count == identifies
    assert w.stub.gateway.replayed >= replayed + 3
    assert w.stub.gateway.paths[-1] == "/gateway/resume/"  # READY's resume_gateway_url was used

    w.stub.request_reconnect()  # op 7: reconnect and RESUME
    await w.stub.wait_for(lambda: w.stub.gateway.resume_count == resumes + 2)
    await w.stub.wait_connected()
    assert len(await press_and_count(w, table, 1)) == 1


async def test_invalidated_session_makes_the_bot_identify_again(w: World) -> None:
    identifies = w.stub.gateway.identify_count
    w.stub.invalidate_session(resumable=False)
    await w.stub.wait_for(lambda: w.stub.gateway.identify_count == identifies + 1, timeout=10)
    await w.stub.wait_connected()
    assert w.stub.gateway.paths[-1] == "/gateway/"  # DEFAULT_GATEWAY points at the stand-in
    message = await slash(w, w.alice, "poker", "say", text="still here")
    assert message.content == "still here"


# -- privacy ------------------------------------------------------------------------------------------


async def test_privacy_check_finds_hole_cards_shown_to_others_before_the_showdown(w: World) -> None:
    stub = w.stub
    checker = PrivacyChecker(stub)
    start = stub.mark()
    await slash(w, w.alice, "poker", "dm", text="Your cards: A♠ 10♦")  # her own DM: private
    await slash(w, w.alice, "poker", "peek", text="A♠ T♦")  # her own ephemeral: private
    await slash(w, w.alice, "poker", "say", text="Board: 2♣ 7♥ 9♠ (Aspen plays)")  # no hole card
    await slash(w, w.alice, "poker", "whisper", user=w.carol.id, text="alice has As")  # carol's DM: leak
    await slash(w, w.alice, "poker", "say", text="carol holds Q♣")  # public before the showdown: leak
    reveal = stub.mark()
    await slash(w, w.alice, "poker", "say", text="Showdown: alice A♠ 10♦")  # shown: allowed
    await slash(w, w.alice, "poker", "say", text="carol mucked Q♣ J♣")  # mucked cards stay private: leak
    end = stub.mark()
    await slash(w, w.alice, "poker", "say", text="next hand: Q♣ on the board")  # after the hand
    checker.add_hand(
        w.channel.id,
        {w.alice.id: ["As", "Td"], w.carol.id: ["Qc", "Jc"]},
        start=start,
        reveal=reveal,
        end=end,
        shown=[w.alice.id],
    )
    leaks = checker.leaks()
    found = sorted((leak.owner, leak.card, leak.viewer) for leak in leaks)
    assert found == [
        (w.alice.id, "As", f"user {w.carol.id} (DM)"),
        (w.carol.id, "Jc", "the channel"),
        (w.carol.id, "Qc", "the channel"),
        (w.carol.id, "Qc", "the channel"),
    ]
    with pytest.raises(AssertionError, match="4 hole card leak"):
        checker.assert_private()


async def test_card_forms_are_configurable_and_match_whole_tokens() -> None:
    forms = CardForms()
    assert set(forms.forms("Td")) == {"10♦", "T♦", "10d", "Td"}
    pattern = forms.pattern("As")
    assert pattern.search("A♠ K♥") and pattern.search("(As)") and pattern.search("A♠️")
    assert not pattern.search("Aspen") and not pattern.search("KAs")
    assert forms.pattern("Td").search("10♦") and not forms.pattern("Td").search("110♦")
    symbols_only = CardForms(ascii=False, ten=("10",))
    assert not symbols_only.pattern("As").search("As") and not symbols_only.pattern("Td").search("T♦")
    emoji = CardForms(extra=lambda rank, suit: [f":{rank}{suit}:"])
    assert emoji.pattern("Kh").search("hand :Kh: shown")
