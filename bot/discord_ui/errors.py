"""The one error path of the Discord layer: refusals become ephemeral localized answers, bugs get a short id.

Used by `PokerTree.on_error` (slash commands), `PokerView.on_error` (views) and `guarded` (persistent
`DynamicItem` buttons and the Bet…/Raise… form, whose errors discord.py would only log). Domain
refusals are `bot.poker.PokerError`s (engine and table-service codes) or `CommandRefused` (refusals of
the Discord layer itself); they are translated by code with the catalogues of bot.render in the
language of the person who acted (`interaction.locale`). Anything else is logged with a short reference
that the user is shown, so a report can be matched to the log line.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord
from discord import app_commands

from bot.discord_ui.options import OptionRefused, unreadable_option
from bot.poker import PokerError
from bot.render.embeds import CONTENT_MAX, clamp
from bot.render.errors import render_error, render_poker_error
from bot.render.i18n import Locale, t
from bot.storage import StorageUnavailable, StorageUnreadable
from bot.tables.errors import refusal

log = logging.getLogger(__name__)

NO_MENTIONS = discord.AllowedMentions.none()


class CommandRefused(PokerError):
    """A refusal decided by the Discord layer (not by the engine or the table service).

    `key` is a catalogue key: an error code ("not_manager" -> "error.not_manager") or a full dotted key
    ("history.not_found"); `params` fill its template. Nothing has changed when it is raised.
    """

    def __init__(self, key: str, **params: int | str) -> None:
        self.key = key if "." in key else f"error.{key}"
        super().__init__(key.rsplit(".", 1)[-1], t(self.key, "en", **params), **params)


def error_text(error: BaseException, locale: Locale) -> str | None:
    """The localized answer for an expected refusal, or None when `error` is a bug (unexpected).

    Understands PokerError (engine, table service, CommandRefused), the database unavailable (StorageUnavailable)
    or found damaged while the bot runs (StorageUnreadable), refused as `bot.tables.errors.refusal` says, an option
    value refused at the command's door (OptionRefused) and the app-command check errors (missing Manage Server
    permission, guild-only command used elsewhere, a value discord.py could not convert).
    """
    if isinstance(error, CommandRefused):
        return clamp(t(error.key, locale, **error.params), CONTENT_MAX)
    if isinstance(error, StorageUnavailable | StorageUnreadable):  # down, or damaged: nothing changed, not a bug
        return render_poker_error(refusal(error), locale)
    if isinstance(error, PokerError):
        return render_poker_error(error, locale)
    if isinstance(error, OptionRefused):
        return clamp(error.text(locale), CONTENT_MAX)
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return render_error("unknown_command", locale)
    if isinstance(error, app_commands.MissingPermissions):
        return render_error("not_manager", locale)
    if isinstance(error, app_commands.NoPrivateMessage):
        return render_error("guild_only", locale)
    if isinstance(error, app_commands.TransformerError):
        return render_error("amount_not_number", locale, {"text": clamp(str(error.value), 40)})
    if isinstance(error, app_commands.CheckFailure):
        return render_error("unknown", locale)
    return None


def unwrap(error: BaseException) -> BaseException:
    """The error a command or view raised, out of discord.py's CommandInvokeError wrapper."""
    while isinstance(error, app_commands.CommandInvokeError) and error.original is not None:
        error = error.original
    return error


async def send_private(
    interaction: discord.Interaction[Any],
    content: str | None = None,
    *,
    embed: discord.Embed | None = None,
    view: discord.ui.View | None = None,
    file: discord.File | None = None,
) -> None:
    """Answer only the person who acted (ephemeral), whether or not the interaction was already answered
    or deferred: the first answer is the response, later ones are follow-ups."""
    kwargs: dict[str, Any] = {"ephemeral": True, "allowed_mentions": NO_MENTIONS}
    if content is not None:
        kwargs["content"] = clamp(content, CONTENT_MAX)
    if embed is not None:
        kwargs["embed"] = embed
    if view is not None:
        kwargs["view"] = view
    if file is not None:
        kwargs["file"] = file
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)


async def handle_interaction_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Tell the user why their command, press or form was refused (ephemeral, in their language); log a bug
    with a short reference shown to them. Never raises: an expired or already-answered interaction is logged."""
    error = unwrap(error)
    if interaction.type is discord.InteractionType.autocomplete:
        log.warning("autocomplete failed for %s: %r", _where(interaction), error)
        return
    where = _where(interaction)
    text = refusal_text(error, interaction.locale, where)
    await answer_refusal(lambda answer: send_private(interaction, answer), text, where)


def refusal_text(error: BaseException, locale: Locale, where: str) -> str:
    """The private answer to `error` in `locale`: the refusal's text (`error_text`), or for a bug the "unexpected"
    text with a short reference, the error logged with that reference. `where` names the interaction in the log
    ("interaction 123 (poker:call:1:2) by 456")."""
    text = error_text(error, locale)
    if text is None:
        reference = secrets.token_hex(4)
        log.error("unexpected error %s in %s", reference, where, exc_info=error)
        return render_error("unexpected", locale, {"error_id": reference})
    if isinstance(error, StorageUnavailable):
        log.warning("refused %s: the database is unavailable (%s)", where, error.cause)
    elif isinstance(error, StorageUnreadable):  # the table logs the damage once (bot/tables/operation.py)
        log.warning("refused %s: the database is unreadable (%s)", where, error.cause)
    else:
        log.debug("refused %s: %s", where, getattr(error, "code", type(error).__name__))
    return text


async def answer_refusal(send: Callable[[str], Awaitable[None]], text: str, where: str) -> None:
    """Send a refusal's `text` with `send` (a private answer); never raises: an expired or already-answered
    interaction (discord.HTTPException), or the HTTP session closed while shutting down, is logged."""
    try:
        await send(text)
    except discord.HTTPException as exc:  # expired token (10062), already acknowledged elsewhere, outage
        log.warning("could not answer %s with an error message: %s", where, exc)
    except (RuntimeError, aiohttp.ClientError) as exc:  # the HTTP session closed under us: shutting down
        log.info("could not answer %s while shutting down: %s", where, exc)


def where_text(interaction_id: int, what: str, user_id: int) -> str:
    """How the log names an interaction: "interaction <id> (<command, custom_id or type>) by <user id>"."""
    return f"interaction {interaction_id} ({what}) by {user_id}"


def _where(interaction: discord.Interaction[Any]) -> str:
    command = interaction.command.qualified_name if interaction.command is not None else None
    custom_id = (interaction.data or {}).get("custom_id") if isinstance(interaction.data, dict) else None
    return where_text(interaction.id, str(command or custom_id or interaction.type.name), interaction.user.id)


async def guarded(interaction: discord.Interaction[Any], handler: Callable[[], Awaitable[None]]) -> None:
    """Run a component callback with the common error path (discord.py only logs DynamicItem errors)."""
    try:
        await handler()
    except Exception as error:
        await handle_interaction_error(interaction, error)


class PokerTree(app_commands.CommandTree[Any]):
    """The bot's command tree: every slash-command error goes through `handle_interaction_error`; a request whose
    options discord.py could not read is refused first (`unreadable_option`)."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """False (after answering privately) for a request discord.py would fail to read; True otherwise."""
        refusal = unreadable_option(interaction)
        if refusal is None:
            return True
        await handle_interaction_error(interaction, refusal)
        return False

    async def on_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
        """Answer refusals ephemerally in the user's language; log anything unexpected with a reference."""
        await handle_interaction_error(interaction, error)


class PokerView(discord.ui.View):
    """Base view: errors of its items are answered like command errors (views do not reach the tree's)."""

    async def on_error(
        self, interaction: discord.Interaction[Any], error: Exception, item: discord.ui.Item[Any], /
    ) -> None:
        """See `handle_interaction_error`."""
        await handle_interaction_error(interaction, error)
