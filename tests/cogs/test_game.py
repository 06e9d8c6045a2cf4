"""A complete game through the real command tree: four members sit down, play hands with bets and raises by
buttons, forms and slash commands, an all-in with a side pot goes to a showdown; the channel (a spectator) never
sees a hole card that was not shown, and every chip is accounted for."""

from __future__ import annotations

from tests.cogs.conftest import World, cards_of

PLAYERS = {"alice": 100, "bob": 40, "chloe": 100, "dave": 100}
TOTAL = sum(PLAYERS.values())


def embed_text(message) -> str:
    """Everything an embed shows, as one string."""
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    return "\n".join(parts)


def assert_never_public(world: World, since: int, *hands: str) -> None:
    texts = world.public_texts(since)
    for hand in hands:
        for card in cards_of(hand):
            leaks = [text for text in texts if card in text]
            assert not leaks, f"{card} of {hand} leaked: {leaks[0][:300]}"


async def test_four_players_play_hands_with_raises_an_all_in_a_side_pot_and_a_showdown(world: World) -> None:
    spectator = world.member("sam")  # in the channel, never sits down
    # Hand 1 (button: dave, seat 4): alice SB, bob BB, chloe UTG.
    world.decks.queue(["9c4d", "8h3c", "QhQc", "Td2s"], "Kd7s2h5c6h")
    # Hand 2 (button: alice): bob SB, chloe BB, dave UTG, alice.
    world.decks.queue(["AhAd", "7c2d", "KhKd", "QsJs"], "Ac8d3s9h4c")
    await world.seat(PLAYERS)
    assert await world.balance("bob") == 1000 - 40

    mark = len(world.env.http_requests)
    start = await world.slash("alice", "poker start")
    assert start.response is not None and not start.response.ephemeral
    table = world.table_message()
    assert "hand #1" in table.embeds[0].title
    assert world.actor() == "chloe"
    # The time bank's button is a second row.
    assert world.button_labels() == ["Fold", "Call 2", "Raise…", "All-in 100", "My cards", "Time (+60 s)"]
    for name, hand in zip(PLAYERS, ["9c4d", "8h3c", "QhQc", "Td2s"], strict=True):
        dm = world.dms(name)[-1].splitlines()  # the cards, then the proofs of the cards against the sealed deck
        assert dm[0].endswith("**" + " ".join(cards_of(hand)) + "**"), world.dms(name)
        assert len(dm) == 4 and all(line.startswith("`") and line.endswith("`") for line in dm[2:]), dm

    # Raise… opens a form prefilled with the minimum, min and max in its label.
    shown = await world.press("chloe", "Raise…")
    field = shown.modal["components"][0]["components"][0]
    assert field["value"] == "4" and "min 4" in field["label"] and "max 100" in field["label"]
    await world.member("chloe").submit_modal(shown, {"amount": "6"})
    assert world.snapshot().seats[2].bet == 6 and world.actor() == "dave"
    assert world.button_labels()[:2] == ["Fold", "Call 6"]
    await world.press("dave", "Fold")
    folded = await world.slash("alice", "fold")
    assert folded.response.ephemeral and folded.response.content == "alice folds"
    called = await world.slash("bob", "call")
    assert called.response.content == "bob calls 4"
    flop = world.messages()[-1]
    assert flop.content.startswith("**Flop**") and " ".join(cards_of("Kd7s2h")) in flop.content
    assert world.actor() == "bob" and world.button_labels()[:2] == ["Check", "Bet…"]
    await world.slash("bob", "check")
    # /bet suggests amounts: the typed one first, then minimum, half pot, pot and all-in.
    choices = await world.member("chloe").autocomplete(world.channel, "bet", "amount", "")
    assert [c["value"] for c in choices] == [2, 6, 13, 94]
    assert choices[0]["name"] == "Minimum: 2"
    await world.slash("chloe", "bet", amount=8)
    hand_message = world.table_message().id
    await world.press("bob", "Fold")
    result = world.messages()[-1]
    assert "chloe wins the pot (13)" in embed_text(result)
    assert "Uncalled bets returned\nchloe: 8" in embed_text(result)
    assert world.stacks() == {"alice": 99, "bob": 34, "chloe": 107, "dave": 100}
    assert_never_public(world, mark, "9c4d", "8h3c", "QhQc", "Td2s")
    # Between hands the hand's table message is one line, its summary, without buttons (issue 11 items 1, 11;
    # it used to stay a full table saying "Next hand" with a time soon past).
    old = next(m for m in world.messages() if m.id == hand_message)
    assert old.content == "Hand #1 · chloe wins 13 · " + " ".join(cards_of("Kd7s2h"))
    assert old.components == [] and old.embeds == []
    assert world.service.runners[world.channel.id].view().message_id is None  # the next deal posts the next one

    # Hand 2 starts by itself a few seconds later; the button moved to alice.
    mark = len(world.env.http_requests)
    await world.advance(5)
    assert world.snapshot().hand_number == 2
    assert world.actor() == "dave"
    await world.slash("dave", "raise", amount=10)
    await world.press("alice", "Call 10")
    assert "All-in 34" in world.button_labels()
    await world.press("bob", "All-in 34")
    await world.slash("chloe", "fold")
    await world.slash("dave", "call")
    await world.slash("alice", "call")
    assert world.actor() == "dave"  # bob is all-in
    await world.slash("dave", "bet", amount=20)
    await world.slash("alice", "call")
    pots = [p.amount for p in world.snapshot().pots]
    assert pots == [104, 40]
    assert "Main pot: 104" in world.table_message().embeds[0].description
    before_showdown = len(world.env.http_requests)
    for name in ("dave", "alice", "dave", "alice"):  # turn and river checked down
        await world.slash(name, "check")
    showdown = world.messages()[-1]
    text = embed_text(showdown)
    assert showdown.embeds[0].title == "Showdown — hand #2"
    assert "bob: " + " ".join(cards_of("AhAd")) + " — Three of a kind, aces" in text
    assert "dave: " + " ".join(cards_of("KhKd")) + " — Pair of kings" in text
    # An all-in took place: every hand still in is shown (the engine's showdown rule).
    assert "alice: " + " ".join(cards_of("QsJs")) in text
    assert "bob wins the main pot (104) with Three of a kind, aces" in text
    assert "dave wins side pot 1 (40) with Pair of kings" in text
    assert world.stacks() == {"alice": 45, "bob": 104, "chloe": 105, "dave": 86}
    assert sum(world.stacks().values()) == TOTAL

    # Privacy: a folded hand is never public; shown hands only from the showdown on.
    assert_never_public(world, mark, "7c2d")
    before = world.public_texts(mark, until=before_showdown)
    for card in cards_of("AhAdKhKdQsJs"):
        assert not any(card in text for text in before), card
    seen_by_spectator = "\n".join(embed_text(m) for m in world.messages("sam"))
    for card in cards_of("7c2d9c4d8h3cQhQcTd2s"):
        assert card not in seen_by_spectator
    report = await world.bot.storage.audit(world.guild.id)
    assert report.ok, report.problems
    assert spectator.id not in {s.user_id for s in world.snapshot().seats}


async def test_a_busted_cash_player_is_told_how_to_come_back_and_gets_a_buy_in_button(world: World) -> None:
    world.decks.queue(["7c2d", "AhAd"], "Kc9d4s5hJc")  # heads-up: seat 2 is the button, with the aces
    await world.seat({"alice": 100, "bob": 100})
    await world.slash("alice", "poker start")
    assert world.actor() == "bob"
    await world.slash("bob", "allin")
    await world.slash("alice", "call")
    notice = next(m for m in reversed(world.messages()) if m.content.startswith("alice is out of chips"))
    assert notice.content == (
        "alice is out of chips and leaves the table. To play again: `/poker join`, or the button below."
    )
    assert not any("is out of chips." == m.content[-16:] for m in world.messages())  # one notice, not two
    others = await world.member("bob").click(notice, label="Buy in again")
    assert others.response.ephemeral and others.response.content.startswith("This button is for")
    assert "alice" not in world.stacks()
    mine = await world.member("alice").click(notice, label="Buy in again")
    assert mine.response.ephemeral and mine.response.content == "Seat 1: you play with 100. Your balance: 800."
    assert world.stacks()["alice"] == 100
    assert (await world.bot.storage.audit(world.guild.id)).ok
    world.acknowledge_refusals()


async def test_an_old_call_button_pressed_after_a_raise_is_refused_with_the_current_amount(world: World) -> None:
    """Issue 11 item 1: bob pressed "Call 2" on a message made before alice raised to 20, and the table recorded
    "bob calls 19". The button names its amount: the press is refused with the amount now, nothing played."""
    world.decks.queue(["9c4d", "8h3c", "QhQc"], "Kd7s2h5c6h")
    await world.seat({"alice": 100, "bob": 100, "chloe": 100})
    await world.slash("alice", "poker start")
    assert world.actor() == "chloe" and "Call 2" in world.button_labels()
    old_call = next(
        c.custom_id for row in world.table_message().components for c in row.children if c.label == "Call 2"
    )
    assert old_call.endswith(":1:2")
    await world.slash("chloe", "raise", amount=20)
    before = world.snapshot()
    pressed = await world.forge_press("alice", old_call)  # alice (small blind) would now call 19
    # The refusal is the press's own private answer (a refused press is no longer deferred first).
    assert pressed.response is not None and pressed.ephemeral and not pressed.followups
    assert pressed.response.content == "The call is now 19: nothing was played, press again"
    assert world.snapshot().seats == before.seats and world.actor() == "alice"
    now_call = next(
        c.custom_id for row in world.table_message().components for c in row.children if c.label == "Call 19"
    )
    await world.forge_press("alice", now_call)
    assert world.actor() == "bob"
    world.acknowledge_refusals()
