"""A whole hand through the table service, rendered as the channel shows it, in English and in French: every
table message picture and every announcement within Discord's limits, and the same pots in the street messages
as on the table. `pytest -s` prints the channel, to read it as a spectator does."""

from __future__ import annotations

import os

import pytest

from bot.poker import ActionKind
from bot.render import (
    render_action_buttons,
    render_player_notice,
    render_showdown,
    render_street,
    render_table,
)
from bot.render.announce import render_hand_summary
from bot.render.embeds import CONTENT_MAX, EmbedSpec
from bot.render.events import pots_summary
from bot.tables import (
    HandResultAnnouncement,
    PlayerAnnouncement,
    RecordingNotifier,
    StreetAnnouncement,
    TableOptions,
    TableService,
)
from bot.tables.clock import settle
from tests.tables.conftest import ALICE, BOB, CHANNEL, CHLOE, DAVID, GUILD, HOST, NAMES, Decks, actor, deck_for

STACKS = {ALICE: 40, BOB: 100, CHLOE: 100, DAVID: 60}


def _embed_ok(spec: EmbedSpec) -> None:
    assert spec.total_length() <= 6000 and len(spec.description) <= 4096 and len(spec.title) <= 256
    assert all(len(f.value) <= 1024 and len(f.name) <= 256 for f in spec.fields) and len(spec.fields) <= 25


def _text(spec: EmbedSpec) -> str:
    return "\n".join([f"## {spec.title}", spec.description, *(f"[{f.name}]\n{f.value}" for f in spec.fields)])


async def _play(service: TableService) -> None:
    """Preflop everyone calls; the flop is bet and called; on the turn the first player goes all-in and the others
    call; then checks (or a bet nobody can call) to the end."""
    while actor(service) is not None:
        snap = service.get(CHANNEL).snapshot()
        legal = snap.legal
        assert legal is not None
        street = len(snap.board)
        first = all(s.bet == 0 for s in snap.seats)
        if street == 3 and first and legal.can_bet:
            await service.get(CHANNEL).act(actor(service), ActionKind.BET, 10)
        elif street == 4 and first and legal.can_bet:
            await service.get(CHANNEL).act(actor(service), ActionKind.ALL_IN)
        elif legal.can_check:
            await service.get(CHANNEL).act(actor(service), ActionKind.CHECK)
        else:
            await service.get(CHANNEL).act(actor(service), ActionKind.CALL)


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_a_whole_hand_reads_right_and_fits_discord(
    service: TableService, notifier: RecordingNotifier, decks: Decks, language: str
) -> None:
    # Player 0 is left of the button. Tens and threes twice (a nine and a jack kicker), two pair sevens, ace high.
    decks.queue.append(deck_for(["9c Ts", "Jc Td", "Ac Kd", "7h 7s"], "Th 3c 3d 6s 2h"))
    await service.create_table(GUILD, CHANNEL, HOST, TableOptions.for_blinds(1, 2), language=language)
    for user, stack in STACKS.items():
        await service.get(CHANNEL).join(user, NAMES[user], buy_in=stack)
    await service.get(CHANNEL).start_game(ALICE)
    await _play(service)
    await settle()
    await service.get(CHANNEL).drain()

    channel: list[str] = []
    last_table = None
    for snap in notifier.snapshots:
        spec = render_table(snap, language, "#poker")
        _embed_ok(spec)
        for button in render_action_buttons(snap.legal, language) if snap.legal is not None else ():
            assert len(button.label) <= 80
        last_table = snap
        channel.append(_text(spec))
    for announcement in notifier.announcements:
        if isinstance(announcement, StreetAnnouncement):
            line = render_street(announcement, language)
            assert len(line) <= CONTENT_MAX
            # The street message's pots are those the table message shows after the street was dealt.
            assert pots_summary(announcement.pots, language) in line
            channel.append(line)
        elif isinstance(announcement, HandResultAnnouncement):
            spec = render_showdown(announcement, language)
            _embed_ok(spec)
            channel.append(_text(spec))
        elif isinstance(announcement, PlayerAnnouncement):
            line = render_player_notice(announcement, language)
            assert len(line) <= CONTENT_MAX
            channel.append(line)
    # The hand is over: its table message is retired into the one-line summary of the hand (issue 11 item 11).
    assert last_table is not None
    retired = [m for m in notifier.messages.values() if m.retired]
    assert retired and retired[-1].result is not None and retired[-1].result.hand_number == 1
    summary = render_hand_summary(1, retired[-1].result, language)
    assert len(summary) <= CONTENT_MAX
    channel.append(summary)
    text = "\n\n".join(channel)
    if os.environ.get("SHOW_CHANNEL"):
        print(f"\n===== {language} =====\n{text}")
    result = next(a for a in notifier.announcements if isinstance(a, HandResultAnnouncement))
    showdown = _text(render_showdown(result, language))
    kicker = {"en": "Two pair, tens and threes, jack kicker", "fr": "Deux paires, dix et trois, kicker valet"}
    assert kicker[language] in showdown
    assert {"en": "nine kicker", "fr": "kicker neuf"}[language] in showdown
    # The old table message's summary names what decided the main pot, as the showdown does (issue 11 item 5).
    assert f"{NAMES[ALICE]} {'wins' if language == 'en' else 'gagne'} 160 " in summary
    assert summary.count(kicker[language]) == 1
