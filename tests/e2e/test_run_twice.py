"""Run it twice against the real bot process through the Discord stand-in (issue 15): two players go all-in on
the flop at a table that offers it, both agree with the table message's buttons, and the channel shows the
odds on the run-out's street line and in its picture, and both boards."""

from __future__ import annotations

from .conftest import World
from .driver import DEFERRED_UPDATE, WAIT
from .spectator import cards_in


async def test_an_all_in_on_the_flop_run_twice_by_agreement_shows_the_odds_and_both_boards(world: World) -> None:
    game = world.game
    host, bob = world.players[0], world.players[1]
    created = await game.command(host, "poker", "create", run_it_twice=True)
    assert "Run it twice is offered here" in created
    for seat, user in enumerate((host, bob), start=1):
        await game.command(user, "poker", "join", seat=seat, buy_in=100)
    assert await game.command(host, "poker", "start") == "The game starts: good luck!"

    view = await game.turn()
    view = await game.act(view.actor or "", "call", "button")
    view = await game.act(view.actor or "", "check", "button")
    assert len(view.board) == 3
    view = await game.act(view.actor or "", "all_in", "button")
    caller = view.actor or ""
    await game.send(caller, "call", "slash")

    def asked() -> bool:
        return "Run it twice? Waiting for" in game.spectator.table().description

    await world.stub.wait_for(asked, WAIT, what="the run-it-twice question on the table message")
    table = game.table_message()
    for user in (host, bob):
        press = world.stub.press_button(user, table.id, label="Run it twice: yes")
        assert await press.wait_acked(WAIT) == DEFERRED_UPDATE

    def run_out() -> str | None:
        text = "\n".join(game.spectator.texts())
        return text if "Second board · **River**" in text else None

    seen = await world.stub.wait_for(run_out, WAIT, what="the second board's river")
    assert f"{host.name} agrees to run it twice." in seen
    assert f"{bob.name} agrees to run it twice. Everyone agreed" in seen
    assert "**All-in on the flop**: " in seen  # the hands turned face up where the betting closed, with odds
    assert seen.count("Cards face up · chances over every run-out") == 2  # then the turn's odds, exact
    assert "% to win" in seen
    rivers = [line for line in seen.splitlines() if "**River**" in line]
    assert len(rivers) == 2 and rivers[1].startswith("Second board · ")
    first, second = (cards_in(line.split("Board:", 1)[1].split(" · Pot:")[0]) for line in rivers)
    assert first[:3] == second[:3] and len(first) == len(second) == 5  # the flop is shared, the rest dealt twice
    assert first[3:] != second[3:]
    # The run-out's one message carries the pictures (picture, issue 15): the turn's, with its odds, then its own.
    [message] = [m for m in game.spectator.messages() if "Second board · **River**" in m.content]
    attachments = message.versions[0].attachments
    assert [a["filename"] for a in attachments][-2:] == ["turn.png", "table.png"]
    assert all(world.stub.uploads[a["id"]].startswith(b"\x89PNG\r\n\x1a\n") for a in attachments)
    # /poker verify (issue 15): both boards come from the sealed deck; a spectator checks the 5 + 2 board cards
    # and the two hands shown.
    await world.stub.wait_for(lambda: game.spectator.results().get(1), WAIT, what="hand 1's result")
    verified = await game.command(world.players[2], "poker", "verify", hand=1)
    assert verified.startswith("✅ Hand #1: the 11 revealed cards match the deck sealed before the first action"), (
        verified
    )
