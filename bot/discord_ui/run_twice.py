"""The Yes / No buttons of the question "run it twice?" (issue 15), on the table message while it is open.

A button's custom_id is `poker:rit:<yes|no>:<channel id>:<hand number>` (at most 46 characters), so a press works
after a restart and a press on an older hand's message is refused. The buttons are public (everyone watching sees
the question), but only the players still to answer may press: anyone else gets the service's private refusal
("no_run_twice_question", in the presser's language). Presses run behind bot/discord_ui/components.py first (the
custom_id's channel must be the one pressed in).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.discord_ui.components import guarded_component
from bot.discord_ui.errors import CommandRefused
from bot.render import t
from bot.tables import ServiceError, TableSnapshot

__all__ = ["RunTwiceButton", "run_twice_custom_id", "run_twice_row"]


def run_twice_custom_id(yes: bool, channel_id: int, hand_number: int) -> str:
    """`poker:rit:<yes|no>:<channel id>:<hand number>`."""
    return f"poker:rit:{'yes' if yes else 'no'}:{channel_id}:{hand_number}"


def run_twice_row(snapshot: TableSnapshot) -> dict[str, Any] | None:
    """The action row of Yes / No buttons (Discord JSON) while `snapshot` has a run-it-twice question open, in
    the table's language; None otherwise."""
    if not snapshot.run_twice_pending:
        return None
    buttons = [
        {
            "type": discord.ComponentType.button.value,
            "style": (discord.ButtonStyle.success if yes else discord.ButtonStyle.secondary).value,
            "label": t("button.run_twice_yes" if yes else "button.run_twice_no", snapshot.language),
            "custom_id": run_twice_custom_id(yes, snapshot.channel_id, snapshot.hand_number),
        }
        for yes in (True, False)
    ]
    return {"type": discord.ComponentType.action_row.value, "components": buttons}


class RunTwiceButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"poker:rit:(?P<answer>yes|no):(?P<channel>[0-9]{1,20}):(?P<hand>[0-9]{1,10})",
):
    """Yes or No to "run it twice?" for the presser (`TableRunner.answer_run_twice`)."""

    def __init__(self, yes: bool, channel_id: int, hand_number: int, *, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=label, custom_id=run_twice_custom_id(yes, channel_id, hand_number)))
        self.yes = yes
        self.channel_id = channel_id
        self.hand_number = hand_number

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> RunTwiceButton:
        """Rebuild the button from its custom_id (after a restart too)."""
        label = getattr(item, "label", None)
        return cls(match["answer"] == "yes", int(match["channel"]), int(match["hand"]), label=label)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Answer for the presser; refusals (not asked, answered already, an older hand) are private."""
        await guarded_component(interaction, self.channel_id, lambda: self._press(interaction))

    async def _press(self, interaction: discord.Interaction[Any]) -> None:
        service = getattr(interaction.client, "tables", None)
        if service is None:
            raise CommandRefused("unknown")
        runner = service.get(self.channel_id)
        # Checked before deferring, so that a refusal is the private answer to the press.
        snapshot = runner.snapshot()
        if interaction.user.id not in snapshot.run_twice_pending or snapshot.hand_number != self.hand_number:
            raise ServiceError("no_run_twice_question")
        # The table message is edited by the service after the answer: the press itself needs no answer.
        await interaction.response.defer()
        await runner.answer_run_twice(interaction.user.id, self.yes, hand_number=self.hand_number)
