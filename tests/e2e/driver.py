"""Playing poker through the Discord stand-in as the players do: slash commands, the table's buttons and the
Bet…/Raise… form, each checked for its acknowledgement and its effect on the table message.

`Game` knows nothing of the bot's insides: whose turn it is comes from the table message (spectator.py),
what a player was told comes from their ephemeral replies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tests.discord_stub import DiscordStub, Interaction, Message, User
from tests.discord_stub.model import Channel, iter_components

from .spectator import Spectator, TableView, cards_in, is_table_message

#: Chips every member gets on their first touch (the bot's STARTING_GRANT default).
GRANT = 1000
#: Seconds to wait for an acknowledgement or for the table to move (generous for a loaded CI machine).
WAIT = 10.0
#: Discord callback types (the stand-in's `Interaction.ack_type`).
MESSAGE = 4
DEFERRED_UPDATE = 6
UPDATE_MESSAGE = 7
MODAL = 9
#: The slash command of each action (the button's action name differs for all-in).
COMMANDS = {"fold": "fold", "check": "check", "call": "call", "bet": "bet", "raise": "raise", "all_in": "allin"}


class Refused(AssertionError):
    """The bot refused something the test expected to work (the refusal's text is the message)."""


@dataclass
class Move:
    """One action as the test made it, to compare with what the bot stored."""

    hand: int
    name: str
    action: str
    via: str
    amount: int | None = None


@dataclass
class Game:
    """One poker channel and its players, driven through the stand-in."""

    stub: DiscordStub
    channel: Channel
    players: Sequence[User]
    moves: list[Move] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.spectator = Spectator(self.stub, self.channel)
        self.by_name = {u.name: u for u in self.players}

    def user(self, name: str) -> User:
        """The player called `name`."""
        return self.by_name[name]

    # ------------------------------------------------------------------ replies

    def reply(self, inter: Interaction) -> str | None:
        """What the user was answered (the response, then each followup), or None while nothing came."""
        original = self.stub.original(inter)
        if inter.ack_type in (DEFERRED_UPDATE, MODAL):
            original = None
        elif original is None or inter.original_loading:
            return None
        texts = [original.text()] if original is not None else []
        texts += [m.text() for m in self.stub.followups(inter)]
        return "\n".join(texts) if texts else None

    async def command(self, user: User, *path: str, **options: object) -> str:
        """Run a slash command and return the answer its user saw (deferred answers are awaited)."""
        inter = self.stub.invoke_slash(user, self.channel, *path, options=options)
        await inter.wait_acked(WAIT)
        return await self.stub.wait_for(lambda: self.reply(inter), WAIT, what=f"the answer to /{' '.join(path)}")

    async def open_table(self, host: User, buy_ins: Mapping[str, int]) -> None:
        """`host` opens a cash table; the players sit down in order (seat 1, 2, ...) with their buy-ins and the
        host deals the first hand."""
        assert (await self.command(host, "poker", "create")).startswith(f"{host.name} opened a table here")
        for seat, (name, buy_in) in enumerate(buy_ins.items(), start=1):
            answer = await self.command(self.user(name), "poker", "join", seat=seat, buy_in=buy_in)
            assert answer == f"Seat {seat}: you play with {buy_in}. Your balance: {GRANT - buy_in}."
        assert await self.command(host, "poker", "start") == "The game starts: good luck!"

    # ------------------------------------------------------------------ the table

    def table_message(self) -> Message:
        """The newest table message (for a test that saw one already: `table` waits for the first)."""
        message = next((m for m in reversed(self.spectator.messages()) if is_table_message(m)), None)
        assert message is not None, "no table message in the channel"
        return message

    async def table(self, timeout: float = WAIT) -> TableView:  # noqa: ASYNC109 - test helpers take a plain timeout
        """The newest table message as it looks now, once the channel has one (the bot posts it after answering
        the command that opened the table, so a test may get there first)."""
        return await self.stub.wait_for(self.spectator.newest_table, timeout, what="a table message in the channel")

    async def turn(self, timeout: float = WAIT, *, hand: int | None = None) -> TableView:  # noqa: ASYNC109 - test helpers take a plain timeout
        """Wait until someone is to act on the newest table message (the next hand's, between hands; hand number
        `hand` when given), waiting for the table message itself too."""

        def ready() -> TableView | None:
            view = self.spectator.newest_table()
            if view is None or not view.in_hand or (hand is not None and view.hand_number != hand):
                return None
            return view

        what = "a player to act on the table message" + (f" of hand #{hand}" if hand is not None else "")
        return await self.stub.wait_for(ready, timeout, what=what)

    async def act(self, name: str, action: str, via: str, amount: int | None = None) -> TableView:
        """`name` plays `action` (fold, check, call, bet, raise, all_in) through `via`: "button", "slash" or
        "modal" (the Bet…/Raise… button, then the form; `amount` None keeps the minimum it offers). Checks that
        it is their turn on the table message, that the bot acknowledged in time and accepted, and waits for
        the table message to show the result; returns it.

        The result is a newer table message, or the same one once the turn has moved on from `name` (another
        player to act, a new street, the hand over): an action always moves it. Another edit of the message is not
        the move's: a restarted bot refreshing its restored table (the turn's deadline), or a seat's line changing
        (a player back from sitting out)."""
        before = await self.table()
        inter = await self.send(name, action, via, amount)

        def shown() -> bool:
            if self.stub.followups(inter):
                return True
            now = self.spectator.newest_table()
            if now is None:
                return False
            turn = (now.hand_number, now.board, now.actor)
            return now.message_id != before.message_id or turn != (before.hand_number, before.board, before.actor)

        await self.stub.wait_for(shown, WAIT, what=f"the table message after {name}'s {action}")
        if via != "slash" and self.stub.followups(inter):
            raise Refused(f"{action} by {name} ({via}): {self.reply(inter)}")
        return self.spectator.table()

    async def send(self, name: str, action: str, via: str, amount: int | None = None) -> Interaction:
        """The first half of `act`: make the move and wait for its acknowledgement (a button press is answered
        by the table edit that shows it, or acknowledged; a slash command after). Returns the interaction that
        acts."""
        view = await self.table()
        assert view.actor == name, f"{name} cannot {action}: the table message says it is {view.actor}'s turn"
        user = self.user(name)
        if via == "slash":
            options = {"amount": amount} if action in ("bet", "raise") else {}
            inter = self.stub.invoke_slash(user, self.channel, COMMANDS[action], options=options)
            assert await inter.wait_acked(WAIT) == MESSAGE
            answer = await self.stub.wait_for(lambda: self.reply(inter), WAIT, what=f"the answer to /{action}")
            if not answer.startswith(name):
                raise Refused(f"/{COMMANDS[action]} by {name}: {answer}")
        elif via == "button":
            inter = self.stub.press_button(user, view.message_id, view.buttons[action]["custom_id"])
            # Answered by the table edit that shows the action (UPDATE_MESSAGE), or acknowledged when no edit of
            # its message carries it (the action ended the hand: its message is retired), or refused privately.
            assert await inter.wait_acked(WAIT) in (UPDATE_MESSAGE, DEFERRED_UPDATE, MESSAGE)
        elif via == "modal":
            opener = self.stub.press_button(user, view.message_id, view.buttons[action]["custom_id"])
            assert await opener.wait_acked(WAIT) == MODAL, self.reply(opener)
            assert opener.modal is not None
            field_input = next(c for c in iter_components(opener.modal["components"]) if c.get("type") == 4)
            amount = int(field_input["value"]) if amount is None else amount
            inter = self.stub.submit_modal(user, opener.modal["custom_id"], {field_input["custom_id"]: str(amount)})
            assert await inter.wait_acked(WAIT) == DEFERRED_UPDATE
        else:
            raise ValueError(via)
        self.moves.append(Move(view.hand_number or 0, name, action, via, amount))
        return inter

    async def call_down(self, via: str = "button") -> TableView:
        """Everyone calls or checks until the hand is over; returns the table message then."""
        view = await self.table()
        while view.in_hand:
            assert view.actor is not None
            view = await self.act(view.actor, "call" if view.to_call else "check", via)
        return view

    async def my_cards(self, name: str, via: str) -> list[str]:
        """`name` looks at their hole cards (the My cards button or /poker cards); returns the private answer."""
        user = self.user(name)
        if via == "button":
            view = await self.table()
            inter = self.stub.press_button(user, view.message_id, view.buttons["cards"]["custom_id"])
        else:
            inter = self.stub.invoke_slash(user, self.channel, "poker", "cards")
        assert await inter.wait_acked(WAIT) == MESSAGE
        assert inter.ephemeral, "hole cards must be answered privately"
        answer = await self.stub.wait_for(lambda: self.reply(inter), WAIT, what="the My cards answer")
        return cards_in(answer)
