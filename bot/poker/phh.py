"""PHH hand histories (uoftcprg/phh-std, variant NT): read, replay exactly, and write.

A `.phh` file holds one hand; a `.phhs` file holds many as TOML sections `[1]`, `[2]`, ... Amounts
may be decimals (real online hands are in dollars and cents): they are read as `Decimal` (never
binary floats) and scaled to integer chips by the smallest power of ten that makes every amount of
the hand whole; results are scaled back exactly.

PHH conventions (../shared/data/phh/README.md): p1 is the first seat left of the button (our hand
player 0); heads-up p1 is the big blind and `blinds_or_straddles` is still written [SB, BB];
`ante_trimming_status = false` means antes are dead money; `????` are unknown hole cards; actions:
`d dh p1 AcAd` (hole cards), `d db Ah8s3h` (board), `p3 cbr 14` (bet or raise to 14), `p1 cc`
(check or call), `p2 f` (fold), `p1 sm AcAd` (show), `p1 sm -` (show the dealt cards), `p1 sm`
(muck).

Two things PHH has no word for are written with its own means, so that PokerKit and other readers still
parse the file: a hand run twice (rule book 002) carries the no-op action `# run it twice` where everyone
agreed, then the first board's run-out, then the second board's `d db` lines (commented `# second board`),
as PokerKit deals several run-outs; cards shown by choice after the hand are `p1 sm Kh # shown by choice`
lines at the end (one or two cards).

This module reads files (the only engine module besides `__main__` that does I/O).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from bot.poker.cards import Card, CardParseError, format_cards, parse_cards
from bot.poker.errors import PokerError
from bot.poker.events import (
    ActionKind,
    HandMucked,
    HandShown,
    HoleCardsDealt,
    PlayerActed,
    RunCountChosen,
    ShownByChoice,
    StreetDealt,
)
from bot.poker.hand import Hand
from bot.poker.settings import HandSettings

__all__ = [
    "PhhError",
    "PhhHand",
    "dump_hand",
    "format_amount",
    "load_file",
    "loads",
    "replay",
]


class PhhError(ValueError):
    """A hand history can't be read or replayed; the message says why and at which action."""


@dataclass(frozen=True, slots=True)
class PhhHand:
    """One hand of a PHH file, with amounts scaled to integer chips.

    Attributes:
        source: "<file>#<section>" (or "<file>" for a single-hand .phh).
        scale: chips per file unit (a power of ten: 100 when amounts have cents).
        settings: forced bets and minimum bet in chips (PHH per-player layout).
        starting_stacks: chips, PHH player order.
        actions: the action strings, comments removed (but for the no-op `RUN_TWICE_NOTE`, kept as is).
        finishing_stacks: the file's `finishing_stacks` in chips, or None if absent.
        fields: the section's raw TOML fields (Decimals for decimal numbers).
    """

    source: str
    scale: int
    settings: HandSettings
    starting_stacks: tuple[int, ...]
    actions: tuple[str, ...]
    finishing_stacks: tuple[int, ...] | None
    fields: dict[str, Any] = field(repr=False)

    def to_units(self, chips: int) -> Decimal:
        """Chips back to the file's units, exactly (e.g. 198750 with scale 100 -> Decimal('1987.5'))."""
        return to_units(chips, self.scale)


def to_units(chips: int, scale: int) -> Decimal:
    """`chips / scale` as an exact, normalized Decimal (scale is a power of ten)."""
    value = Decimal(chips) / Decimal(scale) if scale != 1 else Decimal(chips)
    return value.normalize() if value else Decimal(0)


def format_amount(value: Decimal | int) -> str:
    """The minimal exact decimal text of an amount: 1987.50 -> "1987.5", 2000 -> "2000"."""
    if isinstance(value, int):
        return str(value)
    text = format(value.normalize(), "f")
    return text


def _amounts(data: dict[str, Any]) -> list[Decimal]:
    values: list[Any] = []
    for key in ("antes", "blinds_or_straddles", "starting_stacks", "finishing_stacks"):
        values += list(data.get(key) or [])
    if "min_bet" in data:
        values.append(data["min_bet"])
    for action in data.get("actions") or []:
        words = _words(action)
        if len(words) == 3 and words[1] == "cbr":
            values.append(_number(words[2]))
    out: list[Decimal] = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int | Decimal):
            raise PhhError(f"not an amount: {v!r}")
        d = Decimal(v)
        if not d.is_finite():
            raise PhhError(f"amount {v!r} is not finite")
        out.append(d)
    return out


def _number(text: str) -> Decimal:
    try:
        value = Decimal(text)
    except ArithmeticError as exc:
        raise PhhError(f"not a number: {text!r}") from exc
    if not value.is_finite():
        raise PhhError(f"amount {text!r} is not finite")
    return value


def _words(action: str) -> list[str]:
    return action.split("#", 1)[0].split()


def _to_chips(value: Any, scale: int, what: str) -> int:
    d = Decimal(value) * scale
    if d != d.to_integral_value():
        raise PhhError(f"{what} {value} is not a whole number of the smallest unit")
    return int(d)


def _hand_from_table(data: dict[str, Any], source: str) -> PhhHand:
    try:
        variant = data.get("variant")
        if variant != "NT":
            raise PhhError(f"variant {variant!r} is not supported (only NT, no-limit Texas hold'em)")
        amounts = _amounts(data)
        places = max((max(0, -int(d.as_tuple().exponent)) for d in amounts), default=0)
        scale = 10**places
        stacks = tuple(_to_chips(v, scale, "starting stack") for v in data["starting_stacks"])
        n = len(stacks)
        antes = tuple(_to_chips(v, scale, "ante") for v in (data.get("antes") or [0] * n))
        blinds = tuple(_to_chips(v, scale, "blind") for v in data["blinds_or_straddles"])
        min_bet = _to_chips(data["min_bet"], scale, "min_bet")
        settings = HandSettings(
            small_blind=blinds[0] if blinds else 0,
            big_blind=blinds[1] if len(blinds) > 1 else 0,
            min_bet=min_bet,
            blinds_or_straddles=blinds,
            antes=antes,
            dead_antes=not data.get("ante_trimming_status", False),
        )
        finishing = data.get("finishing_stacks")
        actions = tuple(
            RUN_TWICE_NOTE if a.strip() == RUN_TWICE_NOTE else " ".join(_words(a)) for a in data.get("actions") or []
        )
        return PhhHand(
            source=source,
            scale=scale,
            settings=settings,
            starting_stacks=stacks,
            actions=tuple(a for a in actions if a),
            finishing_stacks=None
            if finishing is None
            else tuple(_to_chips(v, scale, "finishing stack") for v in finishing),
            fields=data,
        )
    except PokerError as exc:
        raise PhhError(f"{source}: {exc}") from exc
    except (KeyError, TypeError) as exc:
        raise PhhError(f"{source}: missing or malformed field {exc}") from exc


def loads(text: str, name: str = "<string>") -> list[PhhHand]:
    """Read the hands of a `.phh` (one hand) or `.phhs` (sections `[1]`, `[2]`, ...) text.

    Returns the hands in file order; sources are "<name>#<section>", or "<name>" for a single hand.

    Raises:
        PhhError: not TOML, or a hand with bad fields (the message names the section).
    """
    try:
        data = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise PhhError(f"{name}: not a PHH file ({exc})") from exc
    if "variant" in data:
        return [_hand_from_table(data, name)]
    hands = []
    for section, table in data.items():
        if not isinstance(table, dict):
            raise PhhError(f"{name}: top-level field {section!r} is not a hand section")
        hands.append(_hand_from_table(table, f"{name}#{section}"))
    return hands


def load_file(path: str | Path) -> list[PhhHand]:
    """Read the hands of a `.phh`/`.phhs` file (UTF-8). Sources use the path as given.

    Raises:
        PhhError: unreadable file or bad content.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise PhhError(f"{path}: {exc.strerror or exc}") from exc
    return loads(text, str(path))


#: The no-op action (a PHH commentary) that says every player still in agreed to run the board twice.
RUN_TWICE_NOTE = "# run it twice"


def _player(word: str, n: int) -> int:
    if not (word.startswith("p") and word[1:].isdigit()) or not 1 <= int(word[1:]) <= n:
        raise PhhError(f"no player {word!r}")
    return int(word[1:]) - 1


def _cards_or_unknown(text: str) -> tuple[Card, ...] | None:
    if "?" in text:
        return None
    return parse_cards(text)


def replay(phh: PhhHand) -> Hand:
    """Play a PHH hand through the engine with explicit dealing and return the completed `Hand`.

    Raises:
        PhhError: an action is malformed or refused by the rules, cards are inconsistent, a
            showdown needs unknown (????) hole cards, or the actions end before the hand does. The
            message gives the action's number (1-based) and text.
    """
    try:
        hand = Hand(phh.settings, phh.starting_stacks, explicit_dealing=True)
    except PokerError as exc:
        raise PhhError(f"{phh.source}: {exc}") from exc
    n = hand.player_count
    for number, action in enumerate(phh.actions, start=1):
        try:
            _apply(hand, action, n, phh.scale)
        except PokerError as exc:
            raise PhhError(f"action {number} {action!r}: {_player_words(exc)}") from exc
        except (CardParseError, PhhError) as exc:
            raise PhhError(f"action {number} {action!r}: {exc}") from exc
    if not hand.is_complete:
        waiting = hand.awaiting
        if waiting != "showdown":
            raise PhhError(f"the actions end before the hand is over (waiting for {waiting})")
        try:  # no show/muck line for some players: show the hands that are known
            hand.finish_showdown()
        except PokerError as exc:
            raise PhhError(f"at the showdown: {_player_words(exc)}") from exc
    return hand


def _player_words(error: PokerError) -> str:
    """The error's message, naming players the PHH way (p1 = hand player 0)."""
    if error.code == "unknown_hole_cards":
        return f"p{int(error.params['player']) + 1}'s hole cards are unknown (????) but the showdown needs them"
    return str(error)


def _apply(hand: Hand, action: str, n: int, scale: int) -> None:
    words = action.split()
    match words:
        case ["d", "dh", player, cards]:
            hand.deal_hole(_player(player, n), _cards_or_unknown(cards))
        case ["d", "db", cards]:
            hand.deal_board(parse_cards(cards))
        case ["#", "run", "it", "twice"]:
            hand.run_twice_agreed()
        case [player, "sm", cards] if hand.is_complete:
            hand.show_by_choice(_player(player, n), parse_cards(cards))
        case [player, "f"]:
            # A fold the rules refuse (out of turn, or with a free check) is a forfeit: a player who left.
            hand.replay(_player(player, n), ActionKind.FOLD)
        case [player, "cc"]:
            p = _player(player, n)
            kind = ActionKind.CALL if hand.current_bet > hand.bets[p] else ActionKind.CHECK
            hand.act(kind, player=p)
        case [player, "cbr", amount]:
            p = _player(player, n)
            chips = _to_chips(_number(amount), scale, "amount")
            kind = ActionKind.BET if hand.current_bet == 0 else ActionKind.RAISE
            hand.act(kind, chips, player=p)
        case [player, "sm"]:
            hand.muck_hand(_player(player, n))
        case [player, "sm", "-"]:
            hand.show_hand(_player(player, n))
        case [player, "sm", cards]:
            hand.show_hand(_player(player, n), _cards_or_unknown(cards))
        case _:
            raise PhhError("not an NT action this engine knows")


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | Decimal):
        return format_amount(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"can't write {value!r} in PHH")


def hand_actions(hand: Hand, scale: int = 1) -> list[str]:
    """The PHH action strings of a hand, from its events (hole cards, decisions, board, showdown).

    When the betting ended with an all-in before the river, the showdown lines come before the
    run-out board cards, as PHH (and PokerKit) expect.
    """
    forced = hand.settings.forced_bets(hand.player_count)
    facing = max((amount for _player, amount, _kind in forced.blinds), default=0)
    actions: list[str] = []
    shows: list[str] = []
    after: list[str] = []
    last_decision = -1
    for event in hand.events_since(0):
        if isinstance(event, HoleCardsDealt):
            actions.append(f"d dh p{event.player + 1} {format_cards(event.cards) if event.cards else '????'}")
        elif isinstance(event, PlayerActed):
            if event.action is ActionKind.FOLD:
                word = "f"
            elif event.amount > facing:  # a bet or raise, including an all-in that is one
                word = f"cbr {format_amount(to_units(event.amount, scale))}"
                facing = event.amount
            else:
                word = "cc"
            actions.append(f"p{event.player + 1} {word}")
            last_decision = len(actions)
        elif isinstance(event, StreetDealt):
            actions.append(f"d db {format_cards(event.cards)}" + (" # second board" if event.run == 2 else ""))
            facing = 0
        elif isinstance(event, RunCountChosen) and event.runs == 2:
            actions.append(RUN_TWICE_NOTE)
        elif isinstance(event, ShownByChoice):
            after.append(f"p{event.player + 1} sm {format_cards(event.cards)} # shown by choice")
        elif isinstance(event, HandShown):
            shows.append(f"p{event.player + 1} sm {format_cards(event.cards)}")
        elif isinstance(event, HandMucked):
            shows.append(f"p{event.player + 1} sm")
    if shows:
        if last_decision >= 0 and any(a.startswith("d db") for a in actions[last_decision:]):
            actions[last_decision:last_decision] = shows
        else:
            actions += shows
    return actions + after


def dump_hand(hand: Hand, *, scale: int = 1, extra: dict[str, Any] | None = None) -> str:
    """Write a hand as PHH text (variant NT), amounts divided by `scale`.

    Fields: variant, ante_trimming_status, antes, blinds_or_straddles, min_bet, starting_stacks,
    actions, and finishing_stacks when the hand is complete; `extra` fields (e.g. players, table)
    are appended as given.
    """
    n = hand.player_count
    forced = hand.settings.forced_bets(n)
    blinds = [0] * n
    for player, amount, _kind in forced.blinds:
        blinds[(1 - player) if n == 2 else player] = amount
    antes = list(forced.antes[::-1] if n == 2 else forced.antes)
    dead = any(forced.dead[i] for i in range(n) if forced.antes[i])

    def units(values: Iterable[int]) -> list[Decimal]:
        """Chips to file units."""
        return [to_units(v, scale) for v in values]

    lines = [
        'variant = "NT"',
        f"ante_trimming_status = {_toml_value(not dead)}",
        f"antes = {_toml_value(units(antes))}",
        f"blinds_or_straddles = {_toml_value(units(blinds))}",
        f"min_bet = {_toml_value(to_units(forced.min_bet, scale))}",
        f"starting_stacks = {_toml_value(units(hand.starting_stacks))}",
        f"actions = {_toml_value(hand_actions(hand, scale))}",
    ]
    if hand.finishing_stacks is not None:
        lines.append(f"finishing_stacks = {_toml_value(units(hand.finishing_stacks))}")
    for key, value in (extra or {}).items():
        lines.append(f"{key} = {_toml_value(value)}")
    return "\n".join(lines) + "\n"


def dump_all(hands: Sequence[Hand], *, scale: int = 1) -> str:
    """Several hands as one `.phhs` text with sections [1], [2], ..."""
    return "\n".join(f"[{k}]\n{dump_hand(h, scale=scale)}" for k, h in enumerate(hands, start=1))
