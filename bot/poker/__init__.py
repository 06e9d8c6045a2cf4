"""The poker engine: cards, hand evaluation, the no-limit hold'em hand state machine, pots, the table.

Pure: standard library and phevaluator only; no discord, no asyncio, no I/O (PHH file reading
lives in `bot.poker.phh`, imported on demand, and the `python -m bot.poker replay` command).
The public API is re-exported here; its contract is in docs/architecture.md ("Layers", "The hand is its history").
"""

from bot.poker.cards import CARDS, Card, CardParseError, format_cards, full_deck, parse_card, parse_cards, shuffled_deck
from bot.poker.errors import (
    DealingError,
    HandOverError,
    IllegalActionError,
    InvalidAmountError,
    InvalidSetupError,
    NotYourTurnError,
    PokerError,
    TableError,
)
from bot.poker.evaluation import HandCategory, HandValue, deciding_kickers, describe_en, evaluate
from bot.poker.events import (
    ActionKind,
    BlindPosted,
    Event,
    HandEnded,
    HandMucked,
    HandShown,
    HoleCardsDealt,
    PlayerActed,
    PotAwarded,
    Street,
    StreetDealt,
    UncalledBetReturned,
)
from bot.poker.hand import Action, Hand, HandRecord, LegalActions
from bot.poker.places import place_of_leaver, places_by_stack, places_of_busts
from bot.poker.pots import Pot, build_pots, split_pot
from bot.poker.result import HandResult, PotResult, ShownHand, hand_result_from_events
from bot.poker.settings import Betting, ForcedBets, HandSettings
from bot.poker.sizing import pot_raise_to, raise_of_pot
from bot.poker.statistics import HandStatistics, hand_statistics
from bot.poker.table import Seat, Table
from bot.poker.table_config import BlindLevel, BlindSchedule, LevelBy, TableConfig, TableKind
from bot.poker.visibility import Viewer

__all__ = [
    "CARDS",
    "Action",
    "ActionKind",
    "Betting",
    "BlindLevel",
    "BlindPosted",
    "BlindSchedule",
    "Card",
    "CardParseError",
    "DealingError",
    "Event",
    "ForcedBets",
    "Hand",
    "HandCategory",
    "HandEnded",
    "HandMucked",
    "HandOverError",
    "HandRecord",
    "HandResult",
    "HandSettings",
    "HandShown",
    "HandStatistics",
    "HandValue",
    "HoleCardsDealt",
    "IllegalActionError",
    "InvalidAmountError",
    "InvalidSetupError",
    "LegalActions",
    "LevelBy",
    "NotYourTurnError",
    "PlayerActed",
    "PokerError",
    "Pot",
    "PotAwarded",
    "PotResult",
    "Seat",
    "ShownHand",
    "Street",
    "StreetDealt",
    "Table",
    "TableConfig",
    "TableError",
    "TableKind",
    "UncalledBetReturned",
    "Viewer",
    "build_pots",
    "deciding_kickers",
    "describe_en",
    "evaluate",
    "format_cards",
    "full_deck",
    "hand_result_from_events",
    "hand_statistics",
    "parse_card",
    "parse_cards",
    "place_of_leaver",
    "places_by_stack",
    "places_of_busts",
    "pot_raise_to",
    "raise_of_pot",
    "shuffled_deck",
    "split_pot",
]
