"""The table message's controls: its action buttons (state in the custom_id, `ACTION_ID`; their presses are
read from the raw gateway payload by bot/discord_ui/presses.py), the bet/raise form, the Buy in again button, and
the table message itself (embed + buttons, plain JSON) built from a service snapshot.

A button's custom_id is `poker:<action>:<channel id>:<hand number>[:<amount>]` (at most 70 characters), so a
press works after a restart, a press on an older hand's message is refused (stale_button), and a Call N or
All-in N whose amount is no longer the amount is refused with the current one ("The call is now 19"; the
service's rule, `TableRunner.act(expected=...)`). Ids without an amount (older messages) are still accepted.
Presses and forms run behind bot/discord_ui/components.py's `at_table` first: the channel in the custom_id must
be the one pressed in. Labels come from the snapshot's `legal` ("Call 6", "All-in 98") in the table's language; whatever
the press shows only to the presser (the form, the cards, refusals) is in the presser's language
(the interaction's `locale`).
"""

from __future__ import annotations

import logging
import re
from typing import Any, cast

import discord

from bot.discord_ui.advance import pre_action_view
from bot.discord_ui.components import guarded_component
from bot.discord_ui.errors import CommandRefused, send_private
from bot.discord_ui.parts import parts, table_service
from bot.discord_ui.run_twice import run_twice_row
from bot.discord_ui.turns import explain, is_playing
from bot.poker import ActionKind, LegalActions, PokerError, evaluate
from bot.render import (
    AMOUNT_TEXT_MAX,
    Locale,
    normalize_locale,
    parse_amount,
    raise_is_one_amount,
    render_action_buttons,
    render_my_cards,
    render_raise_modal,
    t,
    table_embed,
)
from bot.render.coach import coach_lines
from bot.render.table_message import TableMemo, table_memo
from bot.tables import TableService, TableSnapshot

log = logging.getLogger(__name__)

KINDS: dict[str, ActionKind] = {
    "fold": ActionKind.FOLD,
    "check": ActionKind.CHECK,
    "call": ActionKind.CALL,
    "bet": ActionKind.BET,
    "raise": ActionKind.RAISE,
    "all_in": ActionKind.ALL_IN,
}
STYLES: dict[str, discord.ButtonStyle] = {
    "danger": discord.ButtonStyle.danger,
    "secondary": discord.ButtonStyle.secondary,
    "primary": discord.ButtonStyle.primary,
    "success": discord.ButtonStyle.success,
}
#: custom_id of the form's amount field.
AMOUNT_FIELD = "amount"


def custom_id(action: str, channel_id: int, hand_number: int, amount: int | None = None) -> str:
    """`poker:<action>:<channel id>:<hand number>[:<amount>]` (at most 6 + 7 + 20 + 11 + 13 = 57 characters):
    `amount` is what the button names (Call N: chips to add; All-in N: the street total)."""
    base = f"poker:{action}:{channel_id}:{hand_number}"
    return base if amount is None else f"{base}:{amount}"


#: The custom_id of a table message's action button (`custom_id` builds it); its press is handled from the raw
#: payload by bot/discord_ui/presses.py.
ACTION_ID = re.compile(
    r"poker:(?P<action>fold|check|call|bet|raise|all_in|cards|time):(?P<channel>[0-9]{1,20}):(?P<hand>[0-9]{1,10})"
    r"(?::(?P<amount>[0-9]{1,12}))?"
)


def button_amount(action: str, legal: Any) -> int | None:
    """The amount a button of `action` names for `legal` (the actor's `LegalActions`): the call, the all-in
    total, the one allowed bet or raise total (fixed-limit "Raise to 4"); None for the others (their label
    names no amount; Bet…/Raise… open the form)."""
    if legal is None:
        return None
    if action == "call":
        return int(legal.call_amount)
    if action == "all_in":
        return int(legal.all_in_to)
    if action in ("bet", "raise") and raise_is_one_amount(legal):
        return int(legal.min_raise_to)
    return None


def buy_in_custom_id(channel_id: int, user_id: int) -> str:
    """`poker:buyin:<channel id>:<user id>` (at most 53 characters): the Buy in again button of a busted player."""
    return f"poker:buyin:{channel_id}:{user_id}"


def buy_in_components(channel_id: int, user_id: int, locale: Locale) -> list[dict[str, Any]]:
    """The action row under a busted cash player's notice: one Buy in again button, for that player only."""
    button = {
        "type": discord.ComponentType.button.value,
        "style": discord.ButtonStyle.success.value,
        "label": t("button.buy_in_again", locale),
        "custom_id": buy_in_custom_id(channel_id, user_id),
    }
    return [{"type": discord.ComponentType.action_row.value, "components": [button]}]


class BuyInButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"poker:buyin:(?P<channel>[0-9]{1,20}):(?P<user>[0-9]{1,20})",
):
    """Buy in again, under the notice of a cash player who lost every chip (issue 11 item 7): sits that player
    down again with the table's default buy-in from their balance, like `/poker join`. Anyone else pressing it
    is refused privately; so is a press once the table is closed, or when the buy-in is refused (balance...)."""

    def __init__(self, channel_id: int, user_id: int, *, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.success, custom_id=buy_in_custom_id(channel_id, user_id)
            )
        )
        self.channel_id = channel_id
        self.user_id = user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> BuyInButton:
        """Rebuild the button from its custom_id (after a restart too)."""
        return cls(int(match["channel"]), int(match["user"]), label=getattr(item, "label", None))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Sit the busted player down again (behind the door: the custom_id's channel first); refusals are
        answered privately."""
        await guarded_component(interaction, self.channel_id, lambda: self._press(interaction))

    async def _press(self, interaction: discord.Interaction[Any]) -> None:
        user = interaction.user
        if user.id != self.user_id:
            raise CommandRefused("buy_in_not_yours", user=self.user_id)
        service = table_service(interaction.client)
        seat = await service.get(self.channel_id).join(user.id, user.display_name)
        snapshot = service.get(self.channel_id).snapshot()
        stack = next((s.stack for s in snapshot.seats if s.user_id == user.id), 0)
        balance = await parts(interaction.client).storage.balance(snapshot.guild_id, user.id)
        text = t("join.done_balance", interaction.locale, seat=seat, stack=stack, balance=balance)
        await send_private(interaction, text)


#: custom_id of the Bet…/Raise… form: `poker:amount:<bet|raise>:<channel id>:<hand number>` (at most 51 characters).
AMOUNT_FORM = re.compile(r"poker:amount:(?P<kind>bet|raise):(?P<channel>[0-9]{1,20}):(?P<hand>[0-9]{1,10})")


class AmountModal(discord.ui.Modal):
    """The Bet…/Raise… form: one field prefilled with the minimum, the min and max in its label.

    Stateless like the buttons: the bot does not keep it (the press stops it before sending), and its submission
    is handled from its custom_id by `submit_amount`, so a form opened before a restart, or left open for a long
    time, still works when it is sent."""

    def __init__(self, legal: Any, locale: Locale, channel_id: int, hand_number: int) -> None:
        spec = render_raise_modal(legal, locale)
        kind = "bet" if legal.can_bet else "raise"
        super().__init__(title=spec.title, custom_id=f"poker:amount:{kind}:{channel_id}:{hand_number}")
        self.amount: discord.ui.TextInput[AmountModal] = discord.ui.TextInput(
            custom_id=AMOUNT_FIELD,
            label=spec.label,
            placeholder=spec.placeholder,
            default=spec.default,
            min_length=1,
            max_length=AMOUNT_TEXT_MAX,
        )
        self.add_item(self.amount)


async def submit_amount(interaction: discord.Interaction[Any]) -> None:
    """`on_interaction` listener: a submitted Bet…/Raise… form bets or raises to the typed total; a form of
    another channel, a wrong amount (or a form of an earlier hand, or out of turn) is refused privately and
    changes nothing. Other interactions are left alone."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return
    data: Any = interaction.data or {}
    match = AMOUNT_FORM.fullmatch(str(data.get("custom_id", "")))
    if match is None:
        return
    typed = _field_value(data.get("components", ()), AMOUNT_FIELD) or ""
    kind = KINDS[match["kind"]]
    channel_id, hand_number = int(match["channel"]), int(match["hand"])
    await guarded_component(
        interaction, channel_id, lambda: _bet_or_raise(interaction, kind, channel_id, hand_number, typed)
    )


def _field_value(components: Any, custom_id: str) -> str | None:
    """The value of the text input `custom_id` in a modal submission's components (rows or labels, nested)."""
    for component in components or ():
        if not isinstance(component, dict):
            continue
        if component.get("custom_id") == custom_id and "value" in component:
            return str(component["value"])
        nested = component.get("components") or ([component["component"]] if "component" in component else [])
        found = _field_value(nested, custom_id)
        if found is not None:
            return found
    return None


async def _bet_or_raise(
    interaction: discord.Interaction[Any], kind: ActionKind, channel_id: int, hand_number: int, typed: str
) -> None:
    # Zero or a negative number is read as typed: the engine answers it with the minimum ("Minimum raise is to 4").
    amount = parse_amount(typed, interaction.locale)
    if amount is None and len(typed) > AMOUNT_TEXT_MAX:
        raise CommandRefused("amount_too_long", max=AMOUNT_TEXT_MAX)
    if amount is None:
        raise CommandRefused("amount_not_number", text=typed)
    service = table_service(interaction.client)
    await interaction.response.defer()
    try:
        await service.get(channel_id).act(interaction.user.id, kind, amount, hand_number=hand_number)
    except PokerError as error:
        raise explain(error, service, channel_id) from error


async def show_hole_cards(interaction: discord.Interaction[Any], service: TableService, channel_id: int) -> None:
    """Answer privately with the user's hole cards and their best hand so far (/poker cards; the My cards button
    answers the same `hole_cards_answer` from bot/discord_ui/presses.py). Raises ServiceError: no_table, no_hand,
    not_in_hand."""
    text, view = hole_cards_answer(service, channel_id, interaction.user.id, interaction.locale)
    await send_private(interaction, text, view=view)


def hole_cards_answer(
    service: TableService, channel_id: int, user_id: int, locale: Locale
) -> tuple[str, discord.ui.View | None]:
    """The private answer "My cards" for `user_id` at the channel's table, in `locale`: the text (their hole cards,
    their best hand once the flop is out, the coach's lines on their turn at a learning table) and the buttons to
    act in advance while another player is to act (None when they cannot). Raises ServiceError: no_table,
    no_hand, not_in_hand."""
    cards = service.get(channel_id).hole_cards(user_id)
    board = service.get(channel_id).snapshot().board
    value = evaluate([*cards, *board]) if len(board) >= 3 else None
    text = render_my_cards(cards, locale, value)
    facts = service.get(channel_id).coach_facts(user_id)  # on their turn, with the coach on
    if facts is not None:
        text += "\n" + "\n".join(f"> {line}" for line in coach_lines(facts, locale))
    # Acting in advance (issue 16): the choices, privately, while another player is to act.
    return text, pre_action_view(service, channel_id, user_id, locale)


def table_payload(snapshot: TableSnapshot, table_name: str | None = None) -> dict[str, Any]:
    """The table message as Discord's JSON message body: ``{"embeds": [table_embed], "components": [one action
    row of buttons]}`` in the table's language; no buttons (``[]``) between hands. Buttons carry
    `custom_id`s (`ACTION_ID`, at most 5, one row), labels from `snapshot.legal`.

    Plain JSON rather than discord.py's Embed and View: the table message is posted once per hand but edited
    at every action, and building those objects (and parsing the edited message back) was about 8 % of the
    bot's time at 100 busy tables. Fresh dicts every time: the payload is the caller's to change."""
    embed = table_embed(snapshot, snapshot.language, table_name)
    if not is_playing(snapshot):
        return {"embeds": [embed], "components": []}
    rows = _rows(snapshot)
    components = [{"type": _ROW, "components": [dict(button) for button in row]} for row in rows]
    return {"embeds": [embed], "components": components}


def _rows(snapshot: TableSnapshot) -> tuple[tuple[dict[str, Any], ...], ...]:
    """The rows of buttons of a table message during a hand (each button a dict, to be copied), remembered for the
    table's next message (`TableMemo.buttons`): the same options, question and time bank give the same rows."""
    language = normalize_locale(snapshot.language)
    seconds = int(snapshot.time_bank) if snapshot.time_bank else None
    key = (snapshot.legal, language, snapshot.channel_id, snapshot.hand_number, snapshot.run_twice_pending, seconds)
    memo = table_memo(snapshot.channel_id)
    last = memo.buttons
    if last is not None and last[0] == key:
        return cast(tuple[tuple[dict[str, Any], ...], ...], last[1])
    rows = [_action_row(memo, snapshot.legal, language, snapshot.channel_id, snapshot.hand_number)]
    question = run_twice_row(snapshot)
    if question is not None:
        rows.append(tuple(question["components"]))
    if seconds is not None:  # the actor's time bank, a second row (the first holds five buttons at most)
        time_button = {
            "type": _BUTTON,
            "style": _SECONDARY,
            "label": t("button.time", language, seconds=seconds),
            "custom_id": custom_id("time", snapshot.channel_id, snapshot.hand_number),
        }
        rows.append((time_button,))
    memo.buttons = key, tuple(rows)
    return tuple(rows)


#: Discord's numbers for an action row, a button and the secondary style (read once: discord.py's enums are slow).
_ROW = discord.ComponentType.action_row.value
_BUTTON = discord.ComponentType.button.value
_SECONDARY = discord.ButtonStyle.secondary.value
_STYLE_VALUES = {name: style.value for name, style in STYLES.items()}


#: How many rows of action buttons a table's memo keeps for its hand (the options change at each action and come
#: back within the hand: the same call, the same raise sizes; a hand with more sets of options starts again).
ACTION_ROWS_PER_HAND = 32


def _action_row(
    memo: TableMemo, legal: LegalActions | None, language: str, channel_id: int, hand_number: int
) -> tuple[dict[str, Any], ...]:
    """The action buttons of a table message as Discord JSON (`render_action_buttons`, custom_ids), remembered in
    the table's memo for its hand (`ACTION_ROWS_PER_HAND` sets of options at most): the same options come back at
    the hand's later actions (`table_payload` copies each button). Kept by table, not in a process-wide cache: a
    row names its hand, so a row of an earlier hand never serves again, and a process-wide cache large enough for
    every table's hand (1,024 rows, 1.3 MiB) was full of them, in each process of a cluster."""
    kept = memo.actions
    if kept is None or kept[0] != hand_number or len(kept[1]) >= ACTION_ROWS_PER_HAND:
        kept = memo.actions = hand_number, {}
    rows = kept[1]
    key = (legal, language)
    row = rows.get(key)
    if row is None:
        row = rows[key] = tuple(
            {
                "type": _BUTTON,
                "style": _STYLE_VALUES.get(spec.style, _SECONDARY),
                "label": spec.label,
                "custom_id": custom_id(spec.action, channel_id, hand_number, button_amount(spec.action, legal)),
            }
            for spec in render_action_buttons(legal, language)
        )
    return cast(tuple[dict[str, Any], ...], row)
