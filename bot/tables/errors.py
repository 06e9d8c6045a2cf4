"""Errors of the table service: refused commands with a stable code and parameters for the message catalogues."""

from __future__ import annotations

from bot.poker.errors import TableError

#: English messages by code (the render catalogues translate by code; this is the fallback text).
#: `{actor}` / `{user}` params are Discord user ids, rendered as mentions.
MESSAGES: dict[str, str] = {
    "no_table": "There is no table in this channel: start one with /poker create",
    "table_exists": "This channel already has a table: join it with /poker join",
    "not_seated": "You are not seated at this table: join with /poker join",
    "not_in_hand": "You are not in the current hand",
    "no_hand": "No hand is being played right now",
    "not_your_turn_user": "It is not your turn: it is <@{actor}>'s turn",
    "stale_button": "That button belongs to an earlier hand: use the latest table message",
    "already_seated": "You are already seated at this table (seat {seat})",
    "seat_taken": "Seat {seat} is taken: free seats are {free}",
    "seat_out_of_range": "Seats go from 1 to {seats}",
    "table_full": "The table is full ({seats} seats)",
    "buy_in_range": "The buy-in must be between {min} and {max}",
    "insufficient_balance": "Not enough chips: your balance is {balance}, you need {needed}",
    "rebuy_cash_only": "Rebuys are for cash tables only",
    "rebuy_mid_hand": "You can rebuy only between hands",
    "rebuy_above_max": "You can add at most {max} (the maximum stack here is {limit})",
    "tournament_started": "The tournament has started: no more entries",
    "tournament_stack": "Everyone starts this tournament with {stack}: join without a buy-in",
    "not_host": "Only the host (<@{host}>) or a member with Manage Server can do that",
    "already_running": "The game is already running",
    "not_enough_players": "At least two seated players with chips are needed to deal",
    "already_sitting_out": "You are already sitting out",
    "not_sitting_out": "You are not sitting out",
    "target_not_seated": "<@{user}> is not seated at this table",
    "table_recovering": "The table is catching up after a storage problem: try again in a few seconds",
    "bad_option": "Invalid setting {option}: allowed is {allowed}",
    "table_closed": "This table has been closed",
    "schedule_after_start": "The blind schedule must be agreed before the first hand",
    "call_changed": "The call is now {amount}: nothing was played, press again",
    "all_in_changed": "All-in is now {amount}: nothing was played, press again",
    "amount_changed": "That button was for another amount: nothing was played",
    "rebuy_at_max": "Your stack is already at the table's maximum ({limit}): nothing to add",
    "rebuy_leaving": "You leave this table when this hand ends: no rebuy (`/poker join` to sit down again later)",
    "computer_level": "Computer players come in these levels: {levels}",
    "computer_mid_hand": "Computer players are seated and taken away between hands: wait for this hand to end",
    "not_a_computer": "Seat {seat} holds no computer player",
    "puzzle_open": "A puzzle is already open in this channel: answer it, or reveal it with /poker puzzle action:reveal",
    "puzzle_over": "That puzzle is over: its answer has been shown",
    "no_puzzle": "There is no open puzzle in this channel: post one with /poker puzzle",
}


class ServiceError(TableError):
    """A table-service refusal (house style 4: safe to show, says what is allowed). Codes: see MESSAGES."""

    def __init__(self, code: str, **params: int | str) -> None:
        template = MESSAGES.get(code, code)
        try:
            message = template.format(**params)
        except (KeyError, IndexError):
            message = template
        super().__init__(code, message, **params)
