"""A six-player cash game of ten hands played against the real bot process through the Discord stand-in.

The players use slash commands, the table message's buttons and the Bet…/Raise… form; whose turn it is is
read from the table message, as a player would. One hand goes all-in three ways with different stacks (a
side pot and a showdown); a short stack sits out, rebuys and sits back in; busted players buy in again.
Afterwards the channel, read as a spectator, is compared with what the bot stored and with the engine's
replay of every hand: the same actions (none lost, none doubled), the same stacks, the ledger's cash-outs,
a passing audit, no hole card seen by anyone else before its showdown, and no Discord rule broken.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field

from bot.storage import HandRow
from tests.discord_stub import PrivacyChecker

from .checks import assert_channel_shows_stored_hands, assert_moves_stored_once
from .conftest import NEXT_HAND_DELAY, World
from .driver import GRANT
from .records import all_hands, hole_cards, open_storage, replay
from .spectator import RESULT_TITLE, STREET, TableView, cards_in, chips, result_lines

HANDS = 10
BUY_INS = {"alice": 100, "bob": 80, "carol": 60, "dave": 100, "erin": 70, "frank": 50}
#: The first hand where three players go all-in (repeated until a side pot was seen).
ALL_IN_FROM = 3
#: The hand during which the shortest stack sits out; they rebuy and sit in during the next one.
SIT_OUT_HAND = 6
REJOIN_BUY_IN = 50

#: Chips a player bought during a hand they were not dealt in: (name, hand number, chips).
Added = list[tuple[str, int, int]]


@dataclass
class Plan:
    """What the players do in one hand, and what happened so far in it."""

    number: int
    all_in: bool
    actions: int = 0
    all_ins: int = 0
    by_street: dict[int, int] = field(default_factory=dict)


def decide(view: TableView, plan: Plan, careful: str | None) -> tuple[str, str, int | None]:
    """(action, via, amount) for the player to act. Ways to act rotate so that every button, every action
    command and the form are used; chips change hands slowly except in the all-in hand."""
    street = len(view.board)
    first = plan.by_street.get(street, 0) == 0
    facing = view.to_call > 0
    via = ("button", "slash")[plan.actions % 2]
    me = view.seats[view.actor or ""]
    passive = ("call" if facing else "check", via, None)
    if plan.all_in:
        if street == 0 and plan.all_ins < 3:
            way = ("button", "slash", "button")[plan.all_ins]
            if way == "button" and "all_in" not in view.buttons:
                return "call", way, None  # the call is the whole stack: one button, "Call N (all-in)"
            return "all_in", way, None
        return ("fold" if facing else "check"), via, None
    if view.actor == careful:
        return ("fold" if facing else "check"), via, None
    if street == 0:
        if first and "raise" in view.buttons and plan.number % 3 == 1:
            return "raise", "modal", None  # the form's minimum
        if first and "raise" in view.buttons and plan.number % 3 == 2 and me.stack + me.bet > 6:
            return "raise", "slash", 6
        if facing and (plan.number + plan.actions) % 5 == 0:
            return "fold", via, None
        return passive
    if street == 3 and first and "bet" in view.buttons and me.stack > 2:
        return ("bet", "modal", None) if plan.number % 2 == 0 else ("bet", "slash", 2)
    if street == 5 and first and "bet" in view.buttons and plan.number % 4 == 0 and me.stack > 3:
        return "bet", "slash", 3
    return passive


async def dm_cards(world: World, name: str, number: int) -> list[str]:
    """The hole cards of hand `number` in the player's DMs (sent just after the hand's table message)."""

    def found() -> list[str] | None:
        for message in reversed(world.stub.dms(world.game.user(name))):
            if f"hand #{number} " in message.content:
                return cards_in(message.content)
        return None

    return await world.stub.wait_for(found, what=f"{name}'s DM for hand #{number}")


async def settle(world: World) -> TableView:
    """Let the bot finish what a command started (table edits, notices); the table as it is then."""
    await world.stub.wait_idle(0.15)
    return world.game.spectator.table()


async def test_six_players_play_ten_hands_with_a_side_pot_a_rebuy_and_showdowns(world: World) -> None:
    game, stub, host = world.game, world.stub, world.host
    await game.open_table(host, BUY_INS)
    bought = dict(BUY_INS)
    added: Added = []

    plans: dict[int, Plan] = {}
    side_pot_hand: int | None = None
    careful: str | None = None  # sits out after this hand: loses as little as possible
    while True:
        view = await game.turn()
        number = view.hand_number
        assert number is not None
        if number not in plans:
            plans[number] = Plan(number, all_in=side_pot_hand is None and number >= ALL_IN_FROM)
            view = await start_of_hand(world, view, bought, added)
            if number == SIT_OUT_HAND:
                # The shortest stack that can rebuy (below the maximum of 100) and fold its way through the hand.
                careful = min(view.seats.values(), key=lambda s: (not 3 <= s.stack < 100, s.stack)).name
                assert await game.command(game.user(careful), "poker", "sitout") == (
                    "You sit out: no cards for you until `/poker sitin`."
                )
                view = await settle(world)
            elif number == SIT_OUT_HAND + 1 and careful is not None:
                view = await rebuy_and_sit_in(world, view, careful, bought, added)
                careful = None
            elif number == HANDS:
                for user in world.players[1:]:
                    await game.command(user, "poker", "sitout")
                view = await settle(world)
        plan = plans[number]
        action, via, amount = decide(view, plan, careful)
        after = await game.act(view.actor or "", action, via, amount)
        plan.actions += 1
        plan.by_street[len(view.board)] = plan.by_street.get(len(view.board), 0) + 1
        plan.all_ins += action == "all_in" or (plan.all_in and action == "call" and "all_in" not in view.buttons)
        if after.hand_number is None:  # the hand is over: its table message is back to the idle picture
            results = game.spectator.results()
            assert len(results.get(number, [])) == 1, f"hand #{number} must end with one result message"
            if plan.all_in and any("side pot" in line for line in result_lines(results[number][0])["Pots won"]):
                side_pot_hand = number
            if number == HANDS:
                break

    # No hand after the last: everyone but the host sits out.
    await asyncio.sleep(3 * float(NEXT_HAND_DELAY))
    await stub.wait_idle(0.2)
    final = game.spectator.table()
    assert final.hand_number is None and max(game.spectator.hand_messages()) == HANDS
    assert side_pot_hand is not None, "no all-in hand produced a side pot"
    hands = await check_against_storage(world, final, bought, added, side_pot_hand)

    audit = await game.command(host, "poker-admin", "audit")
    assert "Audit passed" in audit, audit
    assert await game.command(host, "poker", "end") == "The table is closed."
    await stub.wait_idle(0.2)
    closed = game.spectator.messages()[-1]
    assert closed.embeds and closed.embeds[0]["title"] == "Table closed"
    cashed = dict(_share(line) for line in result_lines(closed)["Back to balances"])
    assert cashed == final.stacks
    await check_ledger(world, final.stacks, bought)
    check_privacy(world, hands)
    check_pictures(world)
    # The side pot's hand went to a showdown: its revealed cards match the deck sealed before its first action.
    verified = await game.command(world.players[-1], "poker", "verify", hand=side_pot_hand)
    assert verified.startswith(f"✅ Hand #{side_pot_hand}: the ") and "revealed cards match" in verified, verified


def _share(line: str) -> tuple[str, int]:
    match = re.fullmatch(r"(.+) \(([\d,]+)\)", line)
    assert match, line
    return match.group(1), chips(match.group(2))


async def start_of_hand(world: World, view: TableView, bought: dict[str, int], added: Added) -> TableView:
    """At a hand's first turn: busted players buy in again; the player to act checks their cards privately."""
    game = world.game
    number = view.hand_number or 0
    for user in world.players:
        if user.name not in view.seats:
            answer = await game.command(user, "poker", "join", buy_in=REJOIN_BUY_IN)
            assert answer.startswith("Seat ") and f"you play with {REJOIN_BUY_IN}." in answer, answer
            bought[user.name] += REJOIN_BUY_IN
            added.append((user.name, number, REJOIN_BUY_IN))
    actor = view.actor or ""
    shown = await game.my_cards(actor, "button" if number % 2 else "slash")
    assert shown == await dm_cards(world, actor, number)
    return await settle(world)


async def rebuy_and_sit_in(world: World, view: TableView, name: str, bought: dict[str, int], added: Added) -> TableView:
    """The player who sat out is not dealt in; between their hands they rebuy to the maximum and sit in."""
    game = world.game
    seat = view.seats[name]
    assert seat.sitting_out and not seat.bet, f"{name} sat out but was dealt in: {view.description}"
    amount = 100 - seat.stack
    answer = await game.command(game.user(name), "poker", "rebuy", amount=amount)
    assert answer.startswith(f"Rebuy of {amount}: your stack is 100"), answer
    bought[name] += amount
    added.append((name, view.hand_number or 0, amount))
    assert await game.command(game.user(name), "poker", "sitin") == "You're back in from the next hand."
    view = await settle(world)
    assert view.seats[name].stack == 100
    return view


async def check_against_storage(
    world: World, final: TableView, bought: dict[str, int], added: Added, side_pot_hand: int
) -> list[HandRow]:
    """The channel against the database and the engine's replay of every stored hand; returns the hands."""
    game = world.game
    ids = {u.id: u.name for u in world.players}
    async with open_storage(world.db_path) as storage:
        row = await storage.table_for_channel(world.channel.id)
        assert row is not None
        hands = await all_hands(storage, row.id)
    assert [h.number for h in hands] == list(range(1, HANDS + 1))
    assert all(h.ended_at is not None for h in hands)
    assert_moves_stored_once(game, hands, ids)
    assert {m.via for m in game.moves} == {"button", "slash", "modal"}
    assert {m.action for m in game.moves} == {"fold", "check", "call", "bet", "raise", "all_in"}
    assert_channel_shows_stored_hands(game, hands, ids)

    finished: dict[str, tuple[int, int]] = {}  # name -> (hand number, chips after it)
    for h in hands:
        hand = replay(h)
        for i, name in enumerate(ids[int(u)] for u in h.record["users"]):
            # Chips reach a stack between hands only by buying in (rebuy, or joining again after busting).
            last_number, last_stack = finished.get(name, (0, 0))
            bought_since = sum(a for who, n, a in added if who == name and last_number <= n < h.number)
            expected = last_stack + bought_since if name in finished else BUY_INS[name] + bought_since
            assert hand.starting_stacks[i] == expected, (h.number, name)
            finished[name] = (h.number, hand.stacks[i])
        if h.number == side_pot_hand:
            assert len(hand.pots()) >= 2, "a main pot and a side pot"

    # The final table message, the engine's table, the storage's seats and the last hand's replay agree.
    engine = {ids[s["player_id"]]: s["stack"] for s in row.state["table"]["seats"].values()}
    seats = {ids[s.user_id]: s.stack for s in row.seats}
    last = {name: stack for name, (_number, stack) in finished.items() if stack > 0}
    assert final.stacks == engine == seats == last
    assert sum(final.stacks.values()) == sum(bought.values())  # nobody left with chips before the end
    return hands


async def check_ledger(world: World, final: dict[str, int], bought: dict[str, int]) -> None:
    """After /poker end: each final stack went back to its owner's balance through the ledger; audit holds."""
    async with open_storage(world.db_path) as storage:
        report = await storage.audit(world.guild.id)
        assert report.ok, report.problems
        for user in world.players:
            rows = await storage.ledger(world.guild.id, user.id, limit=1000)
            moves = [(r.kind.value, r.delta) for r in rows]  # newest first
            assert sum(-d for k, d in moves if k in ("buy_in", "rebuy")) == bought[user.name], moves
            cash_outs = [d for k, d in moves if k == "cash_out"]
            if user.name in final:
                assert cash_outs[0] == final[user.name], moves
            assert await storage.balance(world.guild.id, user.id) == GRANT - bought[user.name] + sum(cash_outs)
        assert report.on_tables == 0 and report.balances == GRANT * len(world.players)


def check_pictures(world: World) -> None:
    """Every street message and every end-of-hand message carries the PNG picture of the table (as uploaded to
    Discord; a run-out's message also those of its streets with odds); no table message ever carries one, in any
    of its versions (its per-action edits stay plain)."""
    spectator, uploads = world.game.spectator, world.stub.uploads
    pictured = [
        m
        for m in spectator.messages()
        if any(STREET.match(line) for line in m.content.splitlines())
        or (m.embeds and RESULT_TITLE.match(str(m.embeds[0].get("title", ""))))
    ]
    assert len(pictured) > HANDS, "the hands had streets and results"
    for message in pictured:
        attachments = message.versions[0].attachments
        names = [a["filename"] for a in attachments]
        # the message's own picture last, before it those of a run-out's streets with odds ("turn.png")
        assert names[-1] == "table.png" and len(set(names)) == len(names), (names, message.content)
        assert all(name in ("preflop.png", "flop.png", "turn.png", "table.png") for name in names), names
        assert all(uploads[a["id"]].startswith(b"\x89PNG\r\n\x1a\n") for a in attachments)
    for message in spectator.table_messages():
        assert all(not version.attachments for version in message.versions)


def check_privacy(world: World, hands: list[HandRow]) -> None:
    """No hole card was visible to anyone but its owner before its showdown (or ever, when mucked), in the
    channel, in another player's DMs or in another player's private answers."""
    spectator = world.game.spectator
    tables, showdowns = spectator.hand_messages(), spectator.showdowns()
    checker = PrivacyChecker(world.stub)
    for h in hands:
        shown = [s["user_id"] for s in h.result["shown"]]
        assert (h.number in showdowns) == bool(shown)
        checker.add_hand(
            world.channel.id,
            hole_cards(h),
            start=tables[h.number].created_seq,
            reveal=showdowns[h.number].created_seq if h.number in showdowns else None,
            end=tables[h.number + 1].created_seq if h.number + 1 in tables else None,
            shown=shown,
            label=f"#{h.number}",
        )
    assert showdowns, "the game had showdowns"
    checker.assert_private()
    # The check can fail: with no showdown allowed, every shown hand is a leak (of its showdown message).
    strict = PrivacyChecker(world.stub)
    for hand in checker.hands:
        strict.add_hand(hand.channel_id, hand.hole_cards, start=hand.start, end=hand.end, label=hand.label)
    leaks = strict.leaks()
    assert {(leak.hand, leak.owner) for leak in leaks} == {
        (f"#{h.number}", s["user_id"]) for h in hands for s in h.result["shown"]
    }
    assert {leak.message_id for leak in leaks} == {m.id for m in showdowns.values()}


async def test_a_player_whose_dms_are_closed_is_told_publicly_and_sees_the_cards_privately(world: World) -> None:
    game, stub = world.game, world.stub
    bob = game.user("bob")
    stub.set_dms_open(bob, False)
    await game.open_table(world.host, {"alice": 100, "bob": 100})
    view = await game.turn()
    notice = await stub.wait_for(
        lambda: next((t for t in game.spectator.texts() if t.startswith("bob doesn't accept direct messages")), None),
        what="the public notice about bob's closed DMs",
    )
    assert "My cards" in notice
    assert stub.dms(bob) == [] and any(uid == bob.id for uid, _ in stub.refused_dms)
    async with open_storage(world.db_path) as storage:
        table = await storage.table_for_channel(world.channel.id)
        assert table is not None
        (hand,) = await all_hands(storage, table.id)
    cards = hole_cards(hand)
    assert await game.my_cards("bob", "button") == cards[bob.id]
    assert await dm_cards(world, "alice", 1) == cards[world.host.id]
    checker = PrivacyChecker(stub)
    checker.add_hand(world.channel.id, cards, start=game.spectator.hand_messages()[1].created_seq)
    checker.assert_private()
    assert view.hand_number == 1
