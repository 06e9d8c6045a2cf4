"""The Show button (issue 15): under a hand's result message, for its players to show their cards by choice until
the next hand is dealt (bot/tables/shows.py has the rule and what the rule book says).

Why the result message: it is the message that tells how the hand ended ("Hand #N is over: Alice wins 3"), the
newest in the channel when the pause before the next hand starts, so a player finds the button where they look;
the table message is above the hand's streets, and is retired into one line without buttons when the hand ends
(docs/architecture.md, the Discord contract). The button stays on the result message afterwards (taking it off at
the next deal would cost one more Discord call per hand, counted against the last action's budget of REST calls:
benchmarks/load.py): a press after the next deal takes the button off that message (the press's own answer) and
is refused privately ("show_too_late"), in the presser's language.

Two steps, both private to the presser: **Show my cards** (public button, `poker:show:<channel>:<hand>`, at most
44 characters) answers with the presser's cards still hidden and a button for each, and one for both
(`poker:showc:<channel>:<hand>:<0|1|01>`: hole cards by index, at most 48 characters); that press shows them: the
public line "Alice shows A♠ K♦" is posted by the table service once the show is stored. A stranger, a spectator,
a player whose hand was shown at the showdown, or a second press gets the service's refusal, privately. Presses run
behind bot/discord_ui/components.py first (the custom_id's channel must be the one pressed in).
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

from bot.discord_ui.components import guarded_component
from bot.discord_ui.errors import send_private
from bot.discord_ui.parts import table_service
from bot.poker import HandResult
from bot.render import t
from bot.render.cards import cards_text
from bot.render.i18n import Locale
from bot.storage import is_computer_player
from bot.tables import ServiceError, TableSnapshot

T = TypeVar("T")

__all__ = ["ShowButton", "ShowCardButton", "offers_show", "show_components", "show_custom_id"]

#: The choices of the second step, by custom_id word: the hole cards' indexes (0: the first dealt).
WHICH = {"0": (0,), "1": (1,), "01": (0, 1)}


def show_custom_id(channel_id: int, hand_number: int) -> str:
    """`poker:show:<channel id>:<hand number>`."""
    return f"poker:show:{channel_id}:{hand_number}"


def offers_show(snapshot: TableSnapshot, result: HandResult) -> bool:
    """Whether the result message of `result` carries the Show button: some player of the hand, not a computer,
    did not have their cards shown at the showdown. When `snapshot` no longer knows the hand's players (a result
    delivered again after a restart), the button is offered: a press is checked by the service anyway."""
    dealt = [s for s in snapshot.seats if s.player is not None] if snapshot.hand_number == result.hand_number else []
    if not dealt:
        return True
    shown = {hand.user_id for hand in result.shown}
    return any(s.user_id not in shown and not is_computer_player(s.user_id) for s in dealt)


def show_components(channel_id: int, hand_number: int, locale: Locale) -> list[dict[str, Any]]:
    """The action row under a hand's result message (Discord JSON): one Show my cards button."""
    button = {
        "type": discord.ComponentType.button.value,
        "style": discord.ButtonStyle.secondary.value,
        "label": t("button.show", locale),
        "custom_id": show_custom_id(channel_id, hand_number),
    }
    return [{"type": discord.ComponentType.action_row.value, "components": [button]}]


async def _unless_late(interaction: discord.Interaction[Any], call: Awaitable[T]) -> T:
    """`call`'s answer; when the pause is over (the next hand is dealt: "show_too_late"), the pressed message loses
    its Show buttons first (the press's own answer, so no call per hand is spent on them), then the refusal is
    told privately (`guarded`)."""
    try:
        return await call
    except ServiceError as error:
        if error.code == "show_too_late" and not interaction.response.is_done():
            await interaction.response.edit_message(view=None)
        raise


class ShowButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"poker:show:(?P<channel>[0-9]{1,20}):(?P<hand>[0-9]{1,10})",
):
    """Show my cards, under a hand's result: answers the presser privately with their cards still hidden."""

    def __init__(self, channel_id: int, hand_number: int, *, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=label, custom_id=show_custom_id(channel_id, hand_number)))
        self.channel_id = channel_id
        self.hand_number = hand_number

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> ShowButton:
        """Rebuild the button from its custom_id (after a restart too)."""
        return cls(int(match["channel"]), int(match["hand"]), label=getattr(item, "label", None))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Offer the presser their hidden cards (refusals are private)."""
        await guarded_component(interaction, self.channel_id, lambda: self._press(interaction))

    async def _press(self, interaction: discord.Interaction[Any]) -> None:
        runner = table_service(interaction.client).get(self.channel_id)
        hidden = await _unless_late(interaction, runner.cards_to_show(interaction.user.id, self.hand_number))
        locale = interaction.locale
        view = discord.ui.View(timeout=None)
        for index, card in hidden:  # only the cards still hidden: after one of two, the other alone
            label = t("button.show_card", locale, card=cards_text((card,)))
            view.add_item(ShowCardButton(self.channel_id, self.hand_number, str(index), label=label))
        if len(hidden) == 2:
            label = t("button.show_both", locale, cards=cards_text(card for _index, card in hidden))
            view.add_item(ShowCardButton(self.channel_id, self.hand_number, "01", label=label))
        await send_private(interaction, t("show.prompt", locale, number=self.hand_number), view=view)


class ShowCardButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"poker:showc:(?P<channel>[0-9]{1,20}):(?P<hand>[0-9]{1,10}):(?P<which>0|1|01)",
):
    """Show one hole card (0, 1) or both (01) of a finished hand, from the presser's private choice."""

    def __init__(self, channel_id: int, hand_number: int, which: str, *, label: str | None = None) -> None:
        custom_id = f"poker:showc:{channel_id}:{hand_number}:{which}"
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary, custom_id=custom_id))
        self.channel_id = channel_id
        self.hand_number = hand_number
        self.which = which

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> ShowCardButton:
        """Rebuild the button from its custom_id (after a restart too)."""
        return cls(int(match["channel"]), int(match["hand"]), match["which"], label=getattr(item, "label", None))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Show the cards chosen (the public line follows from the table service); refusals are private."""
        await guarded_component(interaction, self.channel_id, lambda: self._press(interaction))

    async def _press(self, interaction: discord.Interaction[Any]) -> None:
        runner = table_service(interaction.client).get(self.channel_id)
        user = interaction.user.id
        # Checked before acknowledging, so that a refusal is the press's private answer; then the press is
        # acknowledged before the show is stored (a crash after the commit leaves no press unanswered: the public
        # line, stored with the show, is told after the restart), and the private choice becomes what was shown.
        await _unless_late(interaction, runner.cards_to_show(user, self.hand_number))
        await interaction.response.defer()
        shown = await runner.show_cards(user, self.hand_number, WHICH[self.which])
        text = t("show.done", interaction.locale, cards=cards_text(shown.cards))
        await interaction.edit_original_response(content=text, view=None)
