"""One line of text per engine event ("Alice raises to 14", "Bob calls 6", "Alice wins the main pot (60)
with Flush, ace high"), for the table message's last actions and the hand history.

Events are the frozen dataclasses of `bot.poker.events`, dispatched with `match`. Hole cards are never rendered
here: `HoleCardsDealt` gives no line (only `HandShown`, the showdown, puts cards in a public line).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, TypeAlias

from bot.poker import (
    ActionKind,
    BlindPosted,
    Event,
    HandMucked,
    HandShown,
    HandValue,
    PlayerActed,
    Pot,
    PotAwarded,
    Street,
    StreetDealt,
    UncalledBetReturned,
)
from bot.poker.events import RunCountChosen, RunTwiceAnswered, ShownByChoice
from bot.render.cards import cards_text
from bot.render.embeds import escape_name
from bot.render.hands import hand_name
from bot.render.i18n import Locale, derived_cache, format_names, normalize_locale, t, t_uncached

if TYPE_CHECKING:
    from bot.render.recent import EventLineMemo

Names = Mapping[int, str] | Sequence[str]
#: How a line's text is rendered from the catalogue: `t`, or `t_uncached`.
Text: TypeAlias = Callable[..., str]

STREET_KEYS: dict[Street, str] = {
    Street.PREFLOP: "preflop",
    Street.FLOP: "flop",
    Street.TURN: "turn",
    Street.RIVER: "river",
    Street.SHOWDOWN: "showdown",
}


def player_name(names: Names, player: int, locale: Locale) -> str:
    """The escaped display name of hand player `player` (index), or "Player N" (1-based) when unknown."""
    try:
        name = names[player]
    except (KeyError, IndexError, TypeError):
        return t("player.fallback", locale, n=player + 1)
    return escape_name(str(name))


def street_key(street: Street | int) -> str:
    """Catalogue suffix of a `Street`: "preflop", "flop", "turn", "river", "showdown" (also for COMPLETE)."""
    return STREET_KEYS.get(Street(street), "showdown")


def street_name(street: Street | int, locale: Locale) -> str:
    """The name of a street: "Turn" / "Tournant"."""
    return t(f"street.{street_key(street)}", locale)


def pot_label(index: int, pot_count: int | None, locale: Locale, *, article: bool = True, half: bool = False) -> str:
    """How to call pot `index` (0 = main) among `pot_count` pots (None: unknown, several assumed):
    "the pot" when it is the only one, else "the main pot" / "side pot 2" (article=False: "Main pot").
    half: the half of it played on one board of a hand run twice: "half the pot" / "la moitié du pot"."""
    if half:
        if pot_count == 1:
            return t("pot.half_single", locale)
        return t("pot.half_main", locale) if index == 0 else t("pot.half_side", locale, n=index)
    if pot_count == 1:
        return t("pot.the_single" if article else "pot.single", locale)
    if index == 0:
        return t("pot.the_main" if article else "pot.main", locale)
    return t("pot.the_side" if article else "pot.side", locale, n=index)


def pot_amount(pot: Pot | int) -> int:
    """Chips of a pot given as an engine `Pot` (its `amount`) or as a plain int."""
    return pot.amount if isinstance(pot, Pot) else int(pot)


def pot_amounts(pots: Iterable[Pot | int], bets: int = 0) -> list[int]:
    """The pots as the channel is shown them, main first, empty ones left out. With one pot, everything in the
    middle (`bets`, this street's bets, included: preflop it shows the blinds); with side pots, each pot as
    collected (the street's bets are on the seat lines). The table message and the street messages both use it,
    so that they always show the same pots."""
    amounts = [amount for amount in map(pot_amount, pots) if amount > 0]
    if len(amounts) <= 1:
        return [sum(amounts) + bets]
    return amounts


def pots_summary(pots: Iterable[Pot | int], locale: Locale, bets: int = 0) -> str:
    """The pots in words: "Pot: 91" with one pot, "Main pot: 79 · Side pot 1: 12" with side pots."""
    amounts = pot_amounts(pots, bets)
    if len(amounts) == 1:
        return t("pot.item", locale, label=t("pot.single", locale), amount=amounts[0])
    return " · ".join(
        t("pot.item", locale, label=pot_label(i, len(amounts), locale, article=False), amount=a)
        for i, a in enumerate(amounts)
    )


def pot_count_of(events: Iterable[Event]) -> int | None:
    """How many pots the awards in `events` pay (None when there is no award yet)."""
    indexes = {e.pot_index for e in events if isinstance(e, PotAwarded)}
    return max(indexes) + 1 if indexes else None


@dataclass(frozen=True)
class _Context:
    """What a line may need beyond its event: how many pots the hand pays, the hands shown at its showdown."""

    pot_count: int | None = None
    shown: tuple[HandValue, ...] = ()


_NO_CONTEXT = _Context()


def _acted(event: PlayerActed, name: str, locale: Locale, tr: Text) -> str:
    match event.action:
        case ActionKind.FOLD | ActionKind.CHECK:
            return tr(f"event.{event.action.value}", locale, name=name)
        case ActionKind.CALL:
            return tr("event.call_all_in" if event.all_in else "event.call", locale, name=name, amount=event.added)
        case ActionKind.BET | ActionKind.RAISE:
            key = f"event.{event.action.value}_all_in" if event.all_in else f"event.{event.action.value}"
            return tr(key, locale, name=name, amount=event.amount)
        case ActionKind.ALL_IN:
            return tr("event.all_in", locale, name=name, amount=event.amount)


def _line(event: Event, names: Names, locale: Locale, ctx: _Context, tr: Text = t) -> str | None:
    """The public line of one event, None for those without one (hole cards, the hand's end); its text rendered
    with `tr` (`t`, or `t_uncached` for a line remembered by its caller)."""
    match event:
        case BlindPosted(player=player, kind=kind, amount=amount):
            return tr(f"event.blind.{kind}", locale, name=player_name(names, player, locale), amount=amount)
        case PlayerActed(player=player):
            return _acted(event, player_name(names, player, locale), locale, tr)
        case StreetDealt(street=street, cards=cards):
            return tr(f"event.street.{street_key(street)}", locale, cards=cards_text(cards))
        case UncalledBetReturned(player=player, amount=amount):
            return tr("event.uncalled", locale, name=player_name(names, player, locale), amount=amount)
        case HandShown(player=player, cards=cards, value=value):
            name, hand = player_name(names, player, locale), hand_name(value, locale, ctx.shown)
            return tr("event.shows", locale, name=name, cards=cards_text(cards), hand=hand)
        case HandMucked(player=player):
            return tr("event.mucks", locale, name=player_name(names, player, locale))
        case PotAwarded():
            return render_awards([award_of(event, names, locale)], locale, ctx.pot_count)[0]
        case ShownByChoice(player=player, cards=cards):
            return tr("event.shows_by_choice", locale, name=player_name(names, player, locale), cards=cards_text(cards))
        case RunTwiceAnswered(player=player, yes=yes):
            key = "event.run_twice_yes" if yes else "event.run_twice_no"
            return tr(key, locale, name=player_name(names, player, locale))
        case RunCountChosen(runs=runs):
            return tr("event.runs_twice" if runs == 2 else "event.runs_once", locale)
        case _:
            return None


@dataclass(frozen=True)
class Award:
    """A pot paid, for `render_awards`: pot index (0 = main), chips, winners as (escaped name, chips won), the
    winning `HandValue` (None: uncontested) and the best hand it was won against (None: nobody shown lost it).
    run: 0 for a pot played on one board; 1 or 2 for the half of it won on the first or second board of a hand
    run twice (`amount`: that half)."""

    pot_index: int
    amount: int
    winners: tuple[tuple[str, int], ...]
    value: HandValue | None = None
    beaten: HandValue | None = None
    run: int = 0


def render_award(
    pot_index: int,
    amount: int,
    winners: Sequence[tuple[str, int]],
    value: HandValue | None,
    locale: Locale,
    pot_count: int | None = None,
    beaten: HandValue | None = None,
) -> str:
    """A pot paid out. winners: (escaped name, chips won) pairs; value: the winning `HandValue` or None
    (uncontested); beaten: the best hand it won against, so that the kicker that decided is named. One winner:
    "Alice wins the main pot (60) with Flush, ace high"; several: "Alice (31) and Bob (30) split the pot (61)
    with Straight, ace high"; against the same category: "... with Two pair, tens and threes, jack kicker"."""
    return render_awards([Award(pot_index, amount, tuple(winners), value, beaten)], locale, pot_count)[0]


def render_awards(awards: Iterable[Award], locale: Locale, pot_count: int | None = None) -> list[str]:
    """The lines of the pots paid, one per winner (or set of winners sharing) and winning hand: pots that
    follow each other with the same winners and the same hand share one line, shares added up ("Alice wins the
    main pot (79) and side pot 1 (12) with Full house, sevens full of kings"), pots from the main one up. The
    halves of a hand run twice say on which board they were won ("Second board: Bob wins half the pot (100)
    with Three of a kind, kings"); halves of different boards never share a line."""
    groups: list[list[Award]] = []
    for award in awards:
        last = groups[-1][0] if groups else None
        same_winners = last is not None and [n for n, _ in last.winners] == [n for n, _ in award.winners]
        if same_winners and last is not None and last.value == award.value and last.run == award.run:
            groups[-1].append(award)
        else:
            groups.append([award])
    return [_award_line(sorted(group, key=lambda a: a.pot_index), locale, pot_count) for group in groups]


def _award_line(group: Sequence[Award], locale: Locale, pot_count: int | None) -> str:
    line = _award_words(group, locale, pot_count)
    run = group[0].run
    if run in (1, 2):
        board = t("street.first_board" if run == 1 else "street.second_board", locale)
        return t("award.on_board", locale, board=board, line=line)
    return line


def _award_words(group: Sequence[Award], locale: Locale, pot_count: int | None) -> str:
    first = group[0]
    value = first.value
    half = first.run in (1, 2)
    hand = hand_name(value, locale, [a.beaten for a in group]) if value is not None else None
    if len(group) == 1:
        pot, amount = pot_label(first.pot_index, pot_count, locale, half=half), first.amount
        params: dict[str, object] = {"pot": pot, "amount": amount}
        key = ""
    else:
        pots = (
            t("pot.with_amount", locale, pot=pot_label(a.pot_index, pot_count, locale, half=half), amount=a.amount)
            for a in group
        )
        params = {"pots": format_names(pots, locale)}
        key = "_pots"
    if hand is not None:
        params["hand"] = hand
    if len(first.winners) == 1:
        base = "event.wins" if hand is not None else "event.wins_uncontested"
        return t(base + key, locale, name=first.winners[0][0], **params)
    shares: dict[str, int] = {}
    for award in group:
        for name, chips in award.winners:
            shares[name] = shares.get(name, 0) + chips
    names = format_names((t("event.share", locale, name=name, amount=chips) for name, chips in shares.items()), locale)
    base = "event.split" if hand is not None else "event.split_uncontested"
    return t(base + key, locale, names=names, **params)


def award_of(event: PotAwarded, names: Names, locale: Locale) -> Award:
    """The `Award` of a pot paid, its winners named from `names` (escaped; "Player N" when unknown)."""
    winners = tuple((player_name(names, player, locale), chips) for player, chips in event.winners)
    return Award(event.pot_index, event.amount, winners, event.value, event.beaten, event.run)


def shown_values(events: Iterable[Event]) -> tuple[HandValue, ...]:
    """The `HandValue`s shown at the showdown among `events` (what each shown hand is compared with)."""
    return tuple(e.value for e in events if isinstance(e, HandShown))


def chips_into_pot(event: Event) -> int:
    """Chips an event puts in the middle (a blind, a bet, a call; a returned uncalled bet takes some back); 0 for
    the others."""
    match event:
        case BlindPosted(amount=amount):
            return amount
        case PlayerActed(added=added):
            return added
        case UncalledBetReturned(amount=amount):
            return -amount
        case _:
            return 0


#: Events whose line ends with the pot they left, on the table message (`render_event_lines(pot_after=...)`).
POT_LINE_EVENTS: tuple[type[Event], ...] = (BlindPosted, PlayerActed, UncalledBetReturned)
#: Events that have a public line.
LINE_EVENTS: tuple[type[Event], ...] = (
    *POT_LINE_EVENTS,
    StreetDealt,
    HandShown,
    HandMucked,
    PotAwarded,
    ShownByChoice,
    RunTwiceAnswered,
    RunCountChosen,
)


def render_event_line(
    event: Event, names: Names, locale: Locale, *, pot_count: int | None = None, shown: Sequence[HandValue] = ()
) -> str | None:
    """One public line for an engine event, or None for events that have no public line (`HoleCardsDealt`
    — hole cards are private —, `HandEnded`, unknown events).

    names: display names by hand player index (raw: they are escaped here). pot_count: how many pots the
    hand has, so that a lone pot is called "the pot" (None: "the main pot" / "side pot N"). shown: the hands
    shown at the showdown (`shown_values`), so that a shown hand names the kickers that tell it apart.
    """
    return _line(event, names, locale, _Context(pot_count, tuple(shown)))


def render_event_lines(
    events: Iterable[Event],
    names: Names,
    locale: Locale,
    *,
    last: int | None = None,
    pot_after: int | None = None,
    memo: EventLineMemo | None = None,
) -> list[str]:
    """The public lines of a sequence of events (those without a line skipped), pots named knowing how many
    the hand paid, shown hands with the kickers that decide, the pots paid together grouped (`render_awards`);
    only the `last` lines when given (only those are rendered: a table message shows the last few actions of
    a hand and is edited at every one).

    pot_after: the chips in the middle after the last event (the pots plus this street's bets); when given,
    each blind, action and returned bet ends with the pot it left ("Bob calls 18 · pot 45").

    The events are read from the last one back, and only as far as the `last` lines need (a hand's table message
    is drawn at every action: its cost stays that of six lines however long the hand). memo: the lines of the
    same table's last drawing (`EventLineMemo`, updated): when only events were added since, only their lines are
    drawn (`EventLineMemo.extend`)."""
    events = events if isinstance(events, tuple | list) else list(events)
    language = normalize_locale(locale)  # a hashable key for the lines' cache
    if not (isinstance(events, tuple) and isinstance(names, tuple)):
        memo = None  # a list may change under the memo: only immutable inputs are remembered
    if memo is not None and last is not None:
        extended = memo.extend(events, names, language, last, pot_after)
        if extended is not None:
            return extended
    # Items, from the last back: (first event, its kind, the run of PotAwarded events that make one line with it);
    # only events with a line count.
    items: list[tuple[Event, int, list[PotAwarded] | None]] = []
    wanted = None if last is None else max(last, 0)
    read = 0
    for event in reversed(events):
        read += 1
        kind = LINE_KINDS.get(event.__class__)
        if kind is None:
            kind = line_kind(event.__class__)
        if kind == NO_LINE:
            continue
        run = items[-1][2] if kind == AWARD_LINE and items else None
        if run is not None and isinstance(event, PotAwarded):
            run.append(event)
            continue
        if wanted is not None and len(items) == wanted:
            break
        items.append((event, kind, [event] if isinstance(event, PotAwarded) else None))
    # The pot each blind, action and returned bet left, from the last back; then the lines in the hand's order.
    pots: list[int | None] = [None] * len(items)
    if pot_after is not None:
        running = pot_after
        for index, (event, kind, _awards) in enumerate(items):
            if kind == POT_LINE:
                pots[index] = running
                running -= chips_into_pot(event)
    # What only some lines need, from every event of the hand: how many pots it pays (the awards), the hands shown
    # at its showdown (a shown hand's kickers). The other lines are remembered without them.
    kinds = {kind for _event, kind, _awards in items}
    pot_count = pot_count_of(events) if AWARD_LINE in kinds else None
    shown = shown_values(events) if SHOWN_LINE in kinds else None
    lines: list[str] = []
    kept: list[str | None] = []  # each item's line, for the memo
    for index in range(len(items) - 1, -1, -1):
        event, kind, awards = items[index]
        if awards is not None:
            awards.reverse()
            lines.extend(render_awards([award_of(e, names, locale) for e in awards], locale, pot_count))
            continue
        line = item_line(event, name_in(names, event), language, shown if kind == SHOWN_LINE else None, pots[index])
        kept.append(line)
        if line is not None:
            lines.append(line)
    if memo is not None:  # a later drawing may extend this one, unless a line read the whole hand
        plain = last is not None and AWARD_LINE not in kinds and SHOWN_LINE not in kinds
        memo.drawn = (
            (events, names, language, last, pot_after, read, len(items) == last, tuple(kept)) if plain else None
        )
    return lines if last is None else lines[-last:]


#: How `render_event_lines` reads each kind of event: no line, a line ending with the pot it left (`POT_LINE_EVENTS`),
#: a shown hand (its line names kickers against the others shown), a pot paid (a run of them makes one line), another
#: line.
NO_LINE, POT_LINE, SHOWN_LINE, AWARD_LINE, PLAIN_LINE = range(5)
#: The kind of each event class met (subclasses included, as `isinstance` reads them), by class.
LINE_KINDS: dict[type, int] = {}


def line_kind(cls: type) -> int:
    """The `render_event_lines` kind of an event class (remembered in `LINE_KINDS`)."""
    if not issubclass(cls, LINE_EVENTS):
        kind = NO_LINE
    elif issubclass(cls, PotAwarded):
        kind = AWARD_LINE
    elif issubclass(cls, POT_LINE_EVENTS):
        kind = POT_LINE
    elif issubclass(cls, HandShown):
        kind = SHOWN_LINE
    else:
        kind = PLAIN_LINE
    LINE_KINDS[cls] = kind
    return kind


def name_in(names: Names, event: Event) -> str | None:
    """The raw name of the player `event` is about (None: no player, or not among `names`)."""
    player = getattr(event, "player", None)
    if player is None:
        return None
    try:
        name = names[player]
    except (KeyError, IndexError, TypeError):
        return None
    return str(name)


#: How many event lines `render_event_lines` remembers: a table message shows its hand's last six, and at an
#: action only the newest is new (benchmarks/table_message.py's hands at 100 tables: 33 % hits at 1,024 as at
#: 2,048, which held 0.3 MB more in each process).
EVENT_LINE_CACHE_SIZE = 1024


@lru_cache(maxsize=EVENT_LINE_CACHE_SIZE)
def item_line(
    event: Event, name: str | None, language: str, shown: tuple[HandValue, ...] | None, pot: int | None
) -> str | None:
    """`_line` of one event whose player (if any) is called `name`, with the pot it left (`pot`, when given);
    remembered by value (`EVENT_LINE_CACHE_SIZE` lines): the same check at the same pot on the next street, or at
    the next table, is the same line. `shown`: the hands shown, for a shown hand's line only (else None)."""
    player = getattr(event, "player", None)
    names: dict[int, str] = {player: name} if player is not None and name is not None else {}
    line = _line(event, names, language, _Context(None, shown) if shown else _NO_CONTEXT, t_uncached)
    if line is None or pot is None:
        return line
    return t_uncached("event.with_pot", language, line=line, amount=pot)


derived_cache(item_line.cache_clear)
