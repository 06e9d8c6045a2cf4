"""Refusals of the table service, and the one place where storage errors become refusals.

A `ServiceError` has a stable code and parameters; its text is the catalogue's (`bot/render/locales`, key
`error.<code>`: the one catalogue of user-facing texts), in English for `str(error)` and in the reader's
language where the Discord layer answers (`bot.render.render_poker_error`).
"""

from __future__ import annotations

from bot.poker.errors import TableError
from bot.render.embeds import discord_timestamp
from bot.render.errors import render_error
from bot.storage import (
    InsufficientBalance,
    RefillCooldown,
    RefillDisabled,
    RefillNotNeeded,
    StorageUnavailable,
    StorageUnreadable,
    TableExists,
)

#: The codes the table service refuses with (each has its `error.<code>` text in both catalogues).
#: `{actor}` / `{user}` / `{host}` params are Discord user ids, rendered as mentions.
CODES: frozenset[str] = frozenset(
    {
        "no_table",
        "no_run_twice_question",
        "table_exists",
        "not_seated",
        "not_in_hand",
        "no_hand",
        "not_your_turn_user",
        "stale_button",
        "already_seated",
        "seat_taken",
        "seat_out_of_range",
        "table_full",
        "buy_in_range",
        "insufficient_balance",
        "rebuy_cash_only",
        "no_blinds_owed",
        "time_bank_unavailable",
        "pre_action_not_now",
        "rebuy_above_max",
        "tournament_started",
        "tournament_stack",
        "not_host",
        "already_running",
        "not_enough_players",
        "already_sitting_out",
        "not_sitting_out",
        "target_not_seated",
        "table_recovering",
        "bad_option",
        "cash_table_option",
        "table_closed",
        "schedule_after_start",
        "call_changed",
        "all_in_changed",
        "amount_changed",
        "rebuy_at_max",
        "rebuy_leaving",
        "refill_disabled",
        "refill_not_broke",
        "refill_cooldown",
        "computer_level",
        "computer_mid_hand",
        "not_a_computer",
        "puzzle_open",
        "puzzle_over",
        "no_puzzle",
        "show_not_dealt",
        "show_not_over",
        "show_too_late",
        "show_at_showdown",
        "show_already",
        "storage_unavailable",
        "storage_unreadable",
        "leave_pending",
        "tournament_end_pending",
        "action_stands",
    }
)


class ServiceError(TableError):
    """A table-service refusal (docs/architecture.md, Conventions 4: safe to show, says what is allowed).
    Codes: `CODES`; `str()` is the English catalogue text."""

    def __init__(self, code: str, **params: int | str) -> None:
        super().__init__(code, render_error(code, "en", params, fallback=code), **params)


#: Storage errors that are refusals (the member asked for something the ledger or the tables do not allow),
#: as opposed to faults. `refusal` turns each into its `ServiceError`.
StorageRefusal = InsufficientBalance | TableExists | RefillDisabled | RefillNotNeeded | RefillCooldown
STORAGE_REFUSALS: tuple[type[StorageRefusal], ...] = (
    InsufficientBalance,
    TableExists,
    RefillDisabled,
    RefillNotNeeded,
    RefillCooldown,
)


#: The storage faults after which what was stored stands and what follows waits for the table's re-read: the
#: database unavailable, found damaged, or a write timed out (it may still land). `Hands.after_stored` tells the
#: author of a stored decision `action_stands` for each, a leave `leave_pending`, a stand-up `tournament_end_pending`.
STORAGE_FAULTS: tuple[type[Exception], ...] = (StorageUnavailable, StorageUnreadable, TimeoutError)

#: Refusals that storage caused after the decision was stored (it counts; what follows waits for the re-read), and
#: those of a change that storage kept from being stored (nothing changed).
STORED_CODES = frozenset({"action_stands", "leave_pending", "tournament_end_pending"})
UNSTORED_CODES = frozenset({"storage_unavailable", "storage_unreadable", "table_recovering"})


def storage_outcome(error: BaseException) -> str | None:
    """What a failure that storage caused means for the change, for the logs: "stored" (the decision is stored,
    a write after it failed: `STORED_CODES`), "not stored" (a storage fault, `STORAGE_FAULTS`, or its refusal,
    `UNSTORED_CODES`: nothing changed), or None for any other error (a refusal of the rules, or a bug)."""
    code = getattr(error, "code", None)
    if isinstance(error, TableError) and code in STORED_CODES:
        return "stored"
    if isinstance(error, STORAGE_FAULTS) or (isinstance(error, TableError) and code in UNSTORED_CODES):
        return "not stored"
    return None


def storage_cause(error: BaseException) -> str:
    """The storage error behind `error` in one line, for a log line: a refusal's cause (action_stands's storage
    error) when it has one, else `error` itself (`StorageUnavailable`'s text is its cause, with no password)."""
    cause = error.__cause__ if isinstance(error, TableError) and error.__cause__ is not None else error
    return f"{type(cause).__name__}: {cause}"


def refusal(error: StorageRefusal | StorageUnavailable | StorageUnreadable) -> ServiceError:
    """The refusal a storage error means, in the catalogue's words: not enough chips for a buy-in or rebuy
    (`insufficient_balance`), a second table in a channel (`table_exists`), a refill that the server gives
    none of, that the member does not need, or that comes before its cooldown (`refill_*`); the database down,
    locked or unwritable (`storage_unavailable`: nothing was changed, try again; the cause is for the log only);
    the database found damaged while the bot runs (`storage_unreadable`: nothing was changed, no retry helps until
    it is restored). Neither is among `STORAGE_REFUSALS`: they are faults, after which a table reads itself again
    from storage, and the Discord layer refuses with them wherever they come from (bot/discord_ui/errors.py)."""
    match error:
        case StorageUnavailable():
            return ServiceError("storage_unavailable")
        case StorageUnreadable():
            return ServiceError("storage_unreadable")
        case InsufficientBalance(balance=balance, needed=needed):
            return ServiceError("insufficient_balance", balance=balance, needed=needed)
        case TableExists():
            return ServiceError("table_exists")
        case RefillDisabled():
            return ServiceError("refill_disabled")
        case RefillNotNeeded(balance=balance, on_tables=on_tables):
            return ServiceError("refill_not_broke", balance=balance, stack=on_tables)
        case RefillCooldown(retry_at=retry_at):
            return ServiceError("refill_cooldown", when=discord_timestamp(retry_at))
