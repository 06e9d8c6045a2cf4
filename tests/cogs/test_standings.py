"""Issue 5 through the command tree: chips (buy-in, rebuy, leave, refill), server settings and the audit,
/leaderboard pages, /stats of scripted hands, /history with a PHH file that the engine's replay reproduces,
a tournament to the end — and the French of a French client and of a French table."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

from tests.cogs.conftest import World, cards_of


def embed_text(embed) -> str:
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    return "\n".join(parts + [f"{f.name}: {f.value}" for f in embed.fields])


async def test_buy_in_rebuy_leave_and_refill_move_the_balance(world: World) -> None:
    await world.seat({"alice": 60, "bob": 100})
    assert await world.balance("alice") == 940
    rebuy = await world.slash("alice", "poker rebuy", amount=40)
    assert rebuy.response.content == "Rebuy of 40: your stack is 100, your balance 900."
    refused = await world.slash("alice", "poker rebuy", amount=1)
    # At the maximum the refusal says so (issue 11 item 7; was "You can add at most 0 ...").
    assert refused.response.content == "Your stack is already at the table's maximum (100): nothing to add"
    left = await world.slash("bob", "poker leave")
    assert left.response.content == "You left the table: your stack of 100 went back to your balance (1,000)."
    assert await world.balance("bob") == 1000
    shown = await world.slash("bob", "poker balance")
    assert shown.response.content == "Your balance: 1,000 chips."

    # A member with nothing left claims a refill, once per cooldown.
    storage = world.bot.storage
    await storage.adjust(world.guild.id, world.member("bob").id, -1000, "test: lost it all elsewhere")
    refill = await world.slash("bob", "poker refill")
    assert refill.response.content == "You received 1,000 chips. Your balance is now 1,000."
    await storage.adjust(world.guild.id, world.member("bob").id, -1000, "test: lost it all again")
    too_soon = await world.slash("bob", "poker refill")
    assert too_soon.response.content.startswith("You can claim a refill again <t:")
    assert await world.balance("bob") == 0
    assert (await storage.audit(world.guild.id)).ok
    world.acknowledge_refusals()


async def test_settings_and_audit_are_for_managers_and_new_tables_follow_them(world: World) -> None:
    admin = world.member("ada", admin=True)
    shown = await world.slash(admin, "poker-admin settings")
    assert shown.response.ephemeral and shown.response.content == ""
    # SimCord's guild has no French locale: English, from the server's Discord language.
    assert "Language: English — the server's Discord language" in embed_text(shown.response.embeds[0])
    changed = await world.slash(
        admin, "poker-admin settings", language="fr", starting_grant=500, refill_cooldown=1, big_blind=4, timer=45
    )
    assert changed.response.content == "Settings updated."
    text = embed_text(changed.response.embeds[0])
    assert "Language: French — chosen in `/poker-admin settings`" in text
    assert "Starting chips: 500" in text and "Blinds 2/4" in text
    assert "Refill cooldown: 1 hour" in text and "45 seconds" in text
    assert await world.balance("zoe") == 500  # the new grant

    # A new table follows the server: French public messages, blinds 2/4, buy-in range scaled with them.
    created = await world.slash("zoe", "poker create")
    assert created.response.content == (
        "zoe a ouvert une table ici (blinds 2/4, 10 places). Rejoignez-la avec `/poker join`."
    )
    runner = world.service.runners[world.channel.id]
    options = runner.view().options
    assert (options.big_blind, options.turn_timeout) == (4, 45)
    assert (options.min_buy_in, options.max_buy_in, options.buy_in) == (80, 200, 200)
    joined = await world.slash("zoe", "poker join")
    assert joined.response.content == "Seat 1: you play with 200. Your balance: 300."  # her client is English

    audit = await world.slash(admin, "poker-admin audit")
    assert audit.response.ephemeral
    assert embed_text(audit.response.embeds[0]).startswith(
        "Ledger audit\nAudit passed: balances 300 + chips on tables 200 = chips issued 500."
    )


async def test_french_clients_get_french_answers_and_french_tables_speak_french(world: World) -> None:
    world.speaks("amelie", "fr")
    world.speaks("bruno", "fr")
    await world.seat({"amelie": None, "bruno": None})
    nothing = await world.slash("amelie", "poker cards")
    assert nothing.response.content == "Aucune donne n'est en cours"
    joined_twice = await world.slash("bruno", "poker join")
    assert joined_twice.response.content == "Tu es déjà à cette table (place 2)"
    await world.slash("amelie", "poker start")
    mine = await world.press("amelie", "My cards")  # the table speaks English; her answer is French
    assert mine.response.content.startswith("Tes cartes\u00a0: **")
    assert world.dms("amelie")[-1].startswith("Tes cartes pour la donne n° 1")
    shown = await world.press("bruno", "Raise…")
    assert shown.modal["title"] == "Relancer"
    world.acknowledge_refusals()


async def test_leaderboard_pages_with_the_callers_own_rank(world: World) -> None:
    storage = world.bot.storage
    names = [f"p{i:02}" for i in range(12)]
    for rank, name in enumerate(names):
        member = world.member(name)
        await storage.ensure_account(world.guild.id, member.id)
        await storage.adjust(world.guild.id, member.id, 1000 - 10 * rank, "test standings")
    board = await world.slash("p11", "leaderboard")
    page = board.response
    assert page.ephemeral
    text = embed_text(page.embeds[0])
    assert text.splitlines()[0] == "Leaderboard — balances"
    assert "1. p00 — 2,000" in text and "10. p09 — 1,910" in text and "p10" not in text
    assert "Your rank: 12 — 1,890" in text and "Page 1/2" in text
    buttons = [c for row in page.message.components for c in row.children]
    assert [(b.label, b.disabled) for b in buttons] == [("Previous", True), ("Next", False)]
    turned = await world.member("p11").click(page, label="Next")
    assert turned.acknowledged
    second = embed_text(page.embeds[0])  # the same message, edited in place
    assert "11. p10 — 1,900" in second and "12. p11 — 1,890" in second and "Page 2/2" in second
    by_wins = await world.slash("p00", "leaderboard", by="wins")
    assert "Leaderboard — tournament wins" in embed_text(by_wins.response.embeds[0])


async def test_stats_and_history_of_scripted_hands_with_a_replayable_phh_export(world: World, tmp_path: Path) -> None:
    # Hand 1 (button bob, heads-up: bob posts the SB and acts first; alice is player 0): bob raises, alice
    # calls, checked down: alice's kings beat bob's ace high.
    world.decks.queue(["KhKd", "AhQs"], "Kc9d4s2h7c")
    # Hand 2 (button alice, player 1; bob is player 0): alice raises, bob folds.
    world.decks.queue(["5c5d", "8s8h"], "")
    await world.seat({"alice": 100, "bob": 100})
    await world.slash("alice", "poker start")
    assert world.actor() == "bob"
    await world.slash("bob", "raise", amount=6)
    await world.slash("alice", "call")
    while world.snapshot().actor_user_id is not None:
        await world.slash(world.actor(), "check")
    await world.advance(5)
    assert world.actor() == "alice"
    await world.slash("alice", "raise", amount=6)
    await world.slash("bob", "fold")
    assert world.stacks() == {"alice": 108, "bob": 92}  # +6 at the showdown, +2 (bob's big blind)

    # Computed by hand: alice called (hand 1) and raised (hand 2) before the flop: VPIP 2/2, PFR 1/2; she won
    # both pots, one at the showdown; biggest pot 12; net +8. bob raised in hand 1 and folded his big blind.
    stats = await world.slash("alice", "stats")
    text = embed_text(stats.response.embeds[0])
    assert "Hands played: 2" in text and "Hands won: 2" in text and "Showdowns won / reached: 1 / 1" in text
    assert "Biggest pot: 12" in text and "Net chips (cash tables): +8" in text
    assert "VPIP: 100.0%" in text and "PFR: 50.0%" in text
    bob_stats = await world.slash("alice", "stats", member=world.member("bob"))
    bob_text = embed_text(bob_stats.response.embeds[0])
    assert "Stats — bob" in bob_text and "Hands won: 0" in bob_text and "Net chips (cash tables): −8" in bob_text
    assert "VPIP: 50.0%" in bob_text and "PFR: 50.0%" in bob_text
    # The rankings after this cash evening: by net as computed above; by wins, none yet, and it says why
    # (was: "Nobody has played here yet.").
    by_net = embed_text((await world.slash("bob", "leaderboard", by="net")).response.embeds[0])
    assert "1. alice — +8\n2. bob — −8" in by_net and "Your rank: 2 — −8" in by_net
    by_wins = embed_text((await world.slash("bob", "leaderboard", by="wins")).response.embeds[0])
    assert "No tournament has finished here yet: this ranking counts tournaments won." in by_wins
    assert "You have no rank here yet: you have not finished a tournament." in by_wins

    listing = await world.slash("alice", "history")
    lines = embed_text(listing.response.embeds[0])
    assert "#2 · alice wins the pot (4)" in lines
    board = " ".join(cards_of("Kc9d4s2h7c"))
    assert f"#1 · {board} · alice wins the pot (12) with Three of a kind, kings" in lines

    # Hand 2 as alice: her own cards are hers, bob's (folded, never shown) are not in the file or the embed.
    exported = await world.slash("alice", "history", hand=2)
    message = exported.response
    assert message.content == "PHH file of hand #2 attached."
    detail = embed_text(message.embeds[0])
    assert "Your cards: " + " ".join(cards_of("8s8h")) in detail
    assert " ".join(cards_of("5c5d")) not in detail
    attachment = message.attachments[0]
    phh = (await attachment.read()).decode()
    assert '"d dh p1 ????"' in phh and '"d dh p2 8s8h"' in phh and "5c" not in phh
    # Hand 1 as bob: both hands were shown at the showdown, so his file has both.
    bob_file = await world.slash("bob", "history", hand=1)
    phh1 = (await bob_file.response.attachments[0].read()).decode()
    assert '"d dh p1 KhKd"' in phh1 and '"d dh p2 AhQs"' in phh1
    for number, text in ((1, phh1), (2, phh)):
        path = tmp_path / f"hand{number}.phh"
        path.write_text(text)
        command = [sys.executable, "-m", "bot.poker", "replay", str(path)]
        done = await asyncio.to_thread(subprocess.run, command, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
        stored = await world.bot.storage.hand_by_number(world.service.runners[world.channel.id].ids.table_id, number)
        assert json.loads(done.stdout)["finishing_stacks"] == stored.result["finishing_stacks"]

    missing = await world.slash("alice", "history", hand=9)
    assert missing.response.content == "No hand #9 at this table."
    await world.advance(5)
    playing = await world.slash("alice", "history", hand=3)
    assert playing.response.content.startswith("Hand #3 is still being played")
    world.acknowledge_refusals()


async def test_a_tournament_played_to_the_end_ranks_its_players(world: World) -> None:
    world.decks.queue(["AhAd", "7c2d"], "Kc9d4s2h3c")  # button bob (seat 2): alice is player 0 = BB
    await world.seat({"alice": None, "bob": None}, kind="tournament", stack=50)
    assert await world.balance("alice") == 1000  # tournament chips are not balance chips
    await world.slash("alice", "poker start")
    await world.slash("bob", "allin")
    await world.slash("alice", "call")
    # The board is run out: flop, turn and river share one message with the showdown (no message storm).
    showdown = next(m for m in world.messages() if m.embeds and m.embeds[0].title == "Showdown — hand #1")
    # The all-in turned the hands face up: where the betting closed (before the flop), then on the flop and the
    # turn, each player's exact chances (issue 15).
    assert showdown.content.splitlines()[0] == "**All-in before the flop** · Pot: 100"
    flop = next(line for line in showdown.content.splitlines() if line.startswith("**Flop**"))
    assert flop.startswith("**Flop**: " + " ".join(cards_of("Kc9d4s")))
    streets = [line.split(":")[0].split(" · ")[0] for line in showdown.content.splitlines() if line.startswith("**")]
    assert streets == ["**All-in before the flop**", "**Flop**", "**Turn**", "**River**"]
    assert showdown.content.count("chances over every run-out") == 3
    assert not any(m.content.startswith("**Flop**") for m in world.messages() if m.id != showdown.id)
    texts = [m.content for m in world.messages()] + [embed_text(e) for m in world.messages() for e in m.embeds]
    joined = "\n".join(texts)
    assert "bob is eliminated in 2nd place." in joined
    assert "Tournament results" in joined and "1st — alice" in joined and "2nd — bob" in joined
    assert world.channel.id not in world.service.runners  # the tournament is over: the table closed
    assert await world.balance("alice") == 1000 and await world.balance("bob") == 1000
    wins = await world.slash("bob", "leaderboard", by="wins")
    text = embed_text(wins.response.embeds[0])
    assert "1. alice — 1 win" in text

    # Issue 11 item 3, computed by hand: alice played 1 hand and won it, a pot of 50 + 50 = 100, at the showdown.
    stats = embed_text((await world.slash("alice", "stats")).response.embeds[0])
    assert "Hands played: 1" in stats and "Hands won: 1" in stats and "Showdowns won / reached: 1 / 1" in stats
    assert "Biggest pot: 100" in stats  # was 0: tournament pots did not count
    assert "Net chips (cash tables): 0" in stats and "Tournaments played / won: 1 / 1" in stats
    # No cash hand was played: the net ranking says what it counts instead of "Nobody has played here yet".
    net = embed_text((await world.slash("alice", "leaderboard", by="net")).response.embeds[0])
    assert "No hand has finished at a cash table here yet: net winnings count cash tables only" in net
    assert "You have no rank here yet: you have not finished a hand at a cash table." in net
    # Entering opened both accounts with their grant: the audit counts it (was: "chips issued 0").
    audit = await world.slash(world.member("ada", admin=True), "poker-admin audit")
    assert "balances 2,000 + chips on tables 0 = chips issued 2,000." in embed_text(audit.response.embeds[0])


async def test_a_member_with_only_the_starting_grant_has_a_balance_a_rank_and_issued_chips(world: World) -> None:
    await world.seat({"alice": 40, "bob": 100})  # balances 960 and 900
    shown = await world.slash("zoe", "poker balance")
    assert shown.response.content == "Your balance: 1,000 chips."
    board = embed_text((await world.slash("zoe", "leaderboard")).response.embeds[0])
    assert "1. zoe — 1,000\n2. alice — 960\n3. bob — 900" in board
    assert "Your rank: 1 — 1,000" in board  # was: "You have no rank yet", below a #1 with 960
    own = embed_text((await world.slash("zoe", "stats")).response.embeds[0])
    assert "Balance: 1,000" in own and "No hands played yet." in own
    # A member who never came has no balance to show (looking at them issues nothing), and no rank.
    stranger = embed_text((await world.slash("zoe", "stats", member=world.member("yann"))).response.embeds[0])
    assert "Balance" not in stranger and "No hands played yet." in stranger
    # yann's first look at the leaderboard opens his account: he is ranked with his grant.
    first_look = embed_text((await world.slash("yann", "leaderboard")).response.embeds[0])
    assert "1. yann — 1,000" in first_look and "Your rank: 1 — 1,000" in first_look
    audit = await world.slash(world.member("ada", admin=True), "poker-admin audit")
    text = embed_text(audit.response.embeds[0])
    # ada's own audit touches no chips: 960 + 900 + 1,000 + 1,000 in balances, 140 on the table.
    assert "Audit passed: balances 3,860 + chips on tables 140 = chips issued 4,000." in text


async def test_settings_show_the_language_in_force_and_why(world: World) -> None:
    world.guild_locale = "fr"  # the server's Discord language is French
    admin = world.member("ada", admin=True)
    shown = embed_text((await world.slash(admin, "poker-admin settings")).response.embeds[0])
    assert "Language: French — the server's Discord language" in shown  # was: "Language: English"
    world.speaks("ada", "fr")
    shown_fr = embed_text((await world.slash(admin, "poker-admin settings")).response.embeds[0])
    assert "Langue: Français — la langue Discord du serveur" in shown_fr
    created = await world.slash("zoe", "poker create")
    assert created.response.content.startswith("zoe a ouvert une table ici")  # what the settings said
    # The server chooses English, the bot's default: it is in force, and the settings say why.
    world.speaks("ada", "en")
    chosen = embed_text((await world.slash(admin, "poker-admin settings", language="en")).response.embeds[0])
    assert "Language: English — chosen in `/poker-admin settings`" in chosen
    assert world.service.runners[world.channel.id].language == "en"
    await world.slash(admin, "poker end")
    reopened = await world.slash("zoe", "poker create")
    assert reopened.response.content.startswith("zoe opened a table here")  # was: French, from the locale


async def test_history_lists_a_hand_cancelled_by_the_end_of_the_table_as_cancelled(world: World) -> None:
    """Issue 11 item 13: a hand refunded by /poker end was listed as "#1 · 4♦ 10♠ 5♥ · —"."""
    world.decks.queue(["KhKd", "AhQs", "2c7d"], "4dTs5h")
    await world.seat({"alice": 100, "bob": 100, "chloe": 100})
    await world.slash("alice", "poker start")
    while len(world.snapshot().board) < 3:
        await world.slash(world.actor(), "check" if world.snapshot().legal.can_check else "call")
    ended = await world.slash("alice", "poker end")
    assert ended.response.content == "The table is closed."
    listing = await world.slash("bob", "history")
    board = " ".join(cards_of("4dTs5h"))
    assert f"#1 · {board} · cancelled, every bet returned" in embed_text(listing.response.embeds[0])
    world.speaks("chloe", "fr")
    french = await world.slash("chloe", "history")
    assert f"n° 1 · {board} · annulée, toutes les mises rendues" in embed_text(french.response.embeds[0])


async def test_history_of_an_all_in_hand_shows_the_odds_street_by_street(world: World) -> None:
    """Issue 15: the same figures as the run-out's street messages, plus those where the betting closed."""
    world.decks.queue(["AhAd", "7c2d"], "Kc9d4s2h3c")  # button bob: alice is player 0 (BB)
    await world.seat({"alice": 100, "bob": 100})
    await world.slash("alice", "poker start")
    await world.slash("bob", "allin")
    await world.slash("alice", "call")
    await world.advance(6)
    shown = await world.slash("bob", "history", hand=1)
    embed = shown.response.embeds[0]
    fields = {f.name.split(" ")[0]: f.value for f in embed.fields}
    aces, junk = " ".join(cards_of("AhAd")), " ".join(cards_of("7c2d"))
    # Heads-up preflop is counted exactly too (every one of the 1,712,304 boards, by rank patterns).
    for street in ("Preflop", "Flop", "Turn"):
        assert "chances over every run-out" in fields[street]
    assert f"alice {aces}: " in fields["Preflop"] and f"bob {junk}: " in fields["Preflop"]
    assert "≈" not in fields["Preflop"] and "chances" not in fields["River"]
    world.speaks("alice", "fr")
    french = await world.slash("alice", "history", hand=1)
    text = embed_text(french.response.embeds[0])
    assert text.count("chances sur tous les tirages") == 3 and "de gagner" in text
