"""The card room's private controls (issue 16): acting in advance from the ephemeral "My cards" answer, and the
choice of a player who owes missed blinds (post them, or wait for the big blind).

Custom ids (persistent `DynamicItem`s, so they work after a restart; each runs behind the door of
bot/discord_ui/components.py first):

- `poker:pre:<channel>:<hand>:<choice>`: choice `check_fold`, `check`, `call` or `none` (clears it). Only the
  presser's own choice changes, and it is told to them alone.
- `poker:return:<channel>:<user>:<post|wait>`: for that user only.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.discord_ui.components import guarded_component
from bot.discord_ui.errors import CommandRefused, send_private
from bot.discord_ui.parts import table_service
from bot.render import t
from bot.render.i18n import Locale
from bot.tables import TableService
from bot.tables.preactions import PreAction, PreChoice

__all__ = ["PreActionButton", "ReturnButton", "pre_action_view", "return_view", "send_return_choice"]

#: The choices offered in advance, by custom_id word (None: clear the choice).
PRE_CHOICES: dict[str, PreAction | None] = {
    "check_fold": PreAction.CHECK_FOLD,
    "check": PreAction.CHECK,
    "call": PreAction.CALL,
    "none": None,
}


def pre_action_label(choice: PreChoice, locale: Locale) -> str:
    """The name of a choice made in advance ("Check/Fold", "Check", "Call 6") in `locale`."""
    return t(f"button.pre.{choice.action.value}", locale, amount=choice.amount or 0)


def pre_action_view(service: TableService, channel_id: int, user_id: int, locale: Locale) -> discord.ui.View | None:
    """The buttons under "My cards" for a player in the hand who is not to act: Check/Fold, Check (when checking
    is free for them now) or Call N (facing N), and No choice; None when they cannot act in advance."""
    runner = service.runners.get(channel_id)
    offer = runner.pre_action_offer(user_id) if runner is not None else None
    if runner is None or offer is None:
        return None
    number, to_call = offer
    view = discord.ui.View(timeout=None)
    chosen = runner.pre_action_of(user_id)
    offers: list[tuple[str, str]] = [("check_fold", t("button.pre.check_fold", locale))]
    if to_call == 0:
        offers.append(("check", t("button.pre.check", locale)))
    else:
        offers.append(("call", t("button.pre.call", locale, amount=to_call)))
    offers.append(("none", t("button.pre.none", locale)))
    for word, label in offers:
        picked = chosen is not None and chosen.action.value == word
        style = discord.ButtonStyle.primary if picked else discord.ButtonStyle.secondary
        view.add_item(PreActionButton(channel_id, number, word, label=label, style=style))
    return view


class PreActionButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"poker:pre:(?P<channel>[0-9]{1,20}):(?P<hand>[0-9]{1,10}):(?P<choice>check_fold|check|call|none)",
):
    """One choice made in advance, under the presser's private "My cards" answer."""

    def __init__(
        self,
        channel_id: int,
        hand_number: int,
        choice: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"poker:pre:{channel_id}:{hand_number}:{choice}")
        )
        self.channel_id = channel_id
        self.hand_number = hand_number
        self.choice = choice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> PreActionButton:
        """Rebuild the button from its custom_id (after a restart too)."""
        return cls(int(match["channel"]), int(match["hand"]), match["choice"], label=getattr(item, "label", None))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Keep (or clear) the presser's choice; answered privately."""
        await guarded_component(interaction, self.channel_id, lambda: self._press(interaction))

    async def _press(self, interaction: discord.Interaction[Any]) -> None:
        runner = table_service(interaction.client).get(self.channel_id)
        kept = await runner.set_pre_action(interaction.user.id, PRE_CHOICES[self.choice], hand_number=self.hand_number)
        locale = interaction.locale
        if kept is None:
            await send_private(interaction, t("pre.cleared", locale))
        else:
            await send_private(interaction, t("pre.chosen", locale, choice=pre_action_label(kept, locale)))


def return_view(channel_id: int, user_id: int, owed: tuple[int, int], locale: Locale) -> discord.ui.View:
    """Post N (the live big blind plus the dead chips) / Wait for the big blind, for `user_id` only."""
    view = discord.ui.View(timeout=None)
    view.add_item(ReturnButton(channel_id, user_id, "post", label=t("button.return.post", locale, amount=sum(owed))))
    view.add_item(ReturnButton(channel_id, user_id, "wait", label=t("button.return.wait", locale)))
    return view


async def send_return_choice(interaction: discord.Interaction[Any], channel_id: int, owed: tuple[int, int]) -> None:
    """Tell the presser what they owe and offer the choice, privately."""
    big_blind, dead = owed
    locale = interaction.locale
    key = "return.prompt_missed" if dead else "return.prompt_new"
    text = t(key, locale, bb=big_blind, dead=dead)
    await send_private(interaction, text, view=return_view(channel_id, interaction.user.id, owed, locale))


class ReturnButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"poker:return:(?P<channel>[0-9]{1,20}):(?P<user>[0-9]{1,20}):(?P<choice>post|wait)",
):
    """Post the missed blinds and play the next hand, or wait for the big blind (issue 16, rule book 002)."""

    def __init__(self, channel_id: int, user_id: int, choice: str, *, label: str | None = None) -> None:
        style = discord.ButtonStyle.success if choice == "post" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"poker:return:{channel_id}:{user_id}:{choice}")
        )
        self.channel_id = channel_id
        self.user_id = user_id
        self.choice = choice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> ReturnButton:
        """Rebuild the button from its custom_id (after a restart too)."""
        return cls(int(match["channel"]), int(match["user"]), match["choice"], label=getattr(item, "label", None))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Make the choice of this button's player; anyone else is refused privately."""
        await guarded_component(interaction, self.channel_id, lambda: self._press(interaction))

    async def _press(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.user.id != self.user_id:
            raise CommandRefused("button_not_yours", user=self.user_id)
        runner = table_service(interaction.client).get(self.channel_id)
        owed = runner.blinds_owed(self.user_id)
        post = self.choice == "post"
        await runner.choose_return(self.user_id, post)
        locale = interaction.locale
        if post:
            await send_private(interaction, t("return.posted", locale, amount=sum(owed) if owed else 0))
        else:
            await send_private(interaction, t("return.waiting", locale))
