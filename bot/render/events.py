"""One line of text per engine event ("Alice raises to 14", "Bob calls 6", "Alice wins the main pot (60)
with Flush, ace high"), for the table message's last actions and the hand history.

Events are the frozen dataclasses of `bot.poker.events`, matched by class name so that plain stand-ins
with the same fields render too. Hole cards are never rendered here: `HoleCardsDealt` gives no line
(only `HandShown`, the showdown, puts cards in a public line).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.render.cards import cards_text
from bot.render.embeds import escape_name
from bot.render.hands import hand_name
from bot.render.i18n import format_names, t

Names = Mapping[int, str] | Sequence[str]

STREET_KEYS: dict[int, str] = {0: "preflop", 1: "flop", 2: "turn", 3: "river", 4: "showdown"}


def player_name(names: Names, player: int, locale: object) -> str:
    """The escaped display name of hand player `player` (index), or "Player N" (1-based) when unknown."""
    try:
        name = names[player]
    except (KeyError, IndexError, TypeError):
        return t("player.fallback", locale, n=player + 1)
    return escape_name(str(name))


def street_key(street: object) -> str:
    """Catalogue suffix of a `Street` (IntEnum 0..4): "preflop", "flop", "turn", "river", "showdown"."""
    return STREET_KEYS.get(int(street), "showdown")  # type: ignore[call-overload]


def street_name(street: object, locale: object) -> str:
    """The name of a street: "Turn" / "Tournant"."""
    return t(f"street.{street_key(street)}", locale)


def pot_label(index: int, pot_count: int | None, locale: object, *, article: bool = True) -> str:
    """How to call pot `index` (0 = main) among `pot_count` pots (None: unknown, several assumed):
    "the pot" when it is the only one, else "the main pot" / "side pot 2" (article=False: "Main pot")."""
    if pot_count == 1:
        return t("pot.the_single" if article else "pot.single", locale)
    if index == 0:
        return t("pot.the_main" if article else "pot.main", locale)
    return t("pot.the_side" if article else "pot.side", locale, n=index)


def pot_amount(pot: object) -> int:
    """Chips of a pot given as an engine `Pot` (its `amount`) or as a plain int."""
    amount: Any = getattr(pot, "amount", pot)
    return int(amount)


def pot_amounts(pots: Iterable[object], bets: int = 0) -> list[int]:
    """The pots as the channel is shown them, main first, empty ones left out. With one pot, everything in the
    middle (`bets`, this street's bets, included: preflop it shows the blinds); with side pots, each pot as
    collected (the street's bets are on the seat lines). The table message and the street messages both use it,
    so that they always show the same pots."""
    amounts = [pot_amount(p) for p in pots if pot_amount(p) > 0]
    if len(amounts) <= 1:
        return [sum(amounts) + bets]
    return amounts


def pots_summary(pots: Iterable[object], locale: object, bets: int = 0) -> str:
    """The pots in words: "Pot: 91" with one pot, "Main pot: 79 · Side pot 1: 12" with side pots."""
    amounts = pot_amounts(pots, bets)
    if len(amounts) == 1:
        return t("pot.item", locale, label=t("pot.single", locale), amount=amounts[0])
    return " · ".join(
        t("pot.item", locale, label=pot_label(i, len(amounts), locale, article=False), amount=a)
        for i, a in enumerate(amounts)
    )


def pot_count_of(events: Iterable[object]) -> int | None:
    """How many pots the awards in `events` pay (None when there is no award yet)."""
    indexes = {getattr(e, "pot_index", 0) for e in events if type(e).__name__ == "PotAwarded"}
    return max(indexes) + 1 if indexes else None


def _action_value(action: object) -> str:
    return str(getattr(action, "value", action)).lower()


@dataclass(frozen=True)
class _Context:
    """What a line may need beyond its event: how many pots the hand pays, the hands shown at its showdown."""

    pot_count: int | None = None
    shown: tuple[Any, ...] = ()


def _blind(event: Any, names: Names, locale: object, ctx: _Context) -> str:
    return t(f"event.blind.{event.kind}", locale, name=player_name(names, event.player, locale), amount=event.amount)


def _acted(event: Any, names: Names, locale: object, ctx: _Context) -> str:
    name = player_name(names, event.player, locale)
    action = _action_value(event.action)
    if action in ("fold", "check"):
        return t(f"event.{action}", locale, name=name)
    if action == "call":
        return t("event.call_all_in" if event.all_in else "event.call", locale, name=name, amount=event.added)
    if action in ("bet", "raise"):
        key = f"event.{action}_all_in" if event.all_in else f"event.{action}"
        return t(key, locale, name=name, amount=event.amount)
    return t("event.all_in", locale, name=name, amount=event.amount)


def _street(event: Any, names: Names, locale: object, ctx: _Context) -> str:
    return t(f"event.street.{street_key(event.street)}", locale, cards=cards_text(event.cards))


def _uncalled(event: Any, names: Names, locale: object, ctx: _Context) -> str:
    return t("event.uncalled", locale, name=player_name(names, event.player, locale), amount=event.amount)


def _shown(event: Any, names: Names, locale: object, ctx: _Context) -> str:
    return t(
        "event.shows",
        locale,
        name=player_name(names, event.player, locale),
        cards=cards_text(event.cards),
        hand=hand_name(event.value, locale, ctx.shown),
    )


def _mucked(event: Any, names: Names, locale: object, ctx: _Context) -> str:
    return t("event.mucks", locale, name=player_name(names, event.player, locale))


def _shown_by_choice(event: Any, names: Names, locale: object, ctx: _Context) -> str:
    return t(
        "event.shows_by_choice", locale, name=player_name(names, event.player, locale), cards=cards_text(event.cards)
    )


def _run_twice_answer(event: Any, names: Names, locale: object, ctx: _Context) -> str:
    key = "event.run_twice_yes" if event.yes else "event.run_twice_no"
    return t(key, locale, name=player_name(names, event.player, locale))


def _runs(event: Any, names: Names, locale: object, ctx: _Context) -> str:
    return t("event.runs_twice" if event.runs == 2 else "event.runs_once", locale)


@dataclass(frozen=True)
class Award:
    """A pot paid, for `render_awards`: pot index (0 = main), chips, winners as (escaped name, chips won), the
    winning `HandValue` (None: uncontested) and the best hand it was won against (None: nobody shown lost it)."""

    pot_index: int
    amount: int
    winners: tuple[tuple[str, int], ...]
    value: Any = None
    beaten: Any = None


def render_award(
    pot_index: int,
    amount: int,
    winners: Sequence[tuple[str, int]],
    value: object | None,
    locale: object,
    pot_count: int | None = None,
    beaten: object | None = None,
) -> str:
    """A pot paid out. winners: (escaped name, chips won) pairs; value: the winning `HandValue` or None
    (uncontested); beaten: the best hand it won against, so that the kicker that decided is named. One winner:
    "Alice wins the main pot (60) with Flush, ace high"; several: "Alice (31) and Bob (30) split the pot (61)
    with Straight, ace high"; against the same category: "... with Two pair, tens and threes, jack kicker"."""
    return render_awards([Award(pot_index, amount, tuple(winners), value, beaten)], locale, pot_count)[0]


def render_awards(awards: Iterable[Award], locale: object, pot_count: int | None = None) -> list[str]:
    """The lines of the pots paid, one per winner (or set of winners sharing) and winning hand: pots that
    follow each other with the same winners and the same hand share one line, shares added up ("Alice wins the
    main pot (79) and side pot 1 (12) with Full house, sevens full of kings"), pots from the main one up."""
    groups: list[list[Award]] = []
    for award in awards:
        last = groups[-1][0] if groups else None
        same_winners = last is not None and [n for n, _ in last.winners] == [n for n, _ in award.winners]
        if same_winners and last is not None and last.value == award.value:
            groups[-1].append(award)
        else:
            groups.append([award])
    return [_award_line(sorted(group, key=lambda a: a.pot_index), locale, pot_count) for group in groups]


def _award_line(group: Sequence[Award], locale: object, pot_count: int | None) -> str:
    first = group[0]
    value = first.value
    hand = hand_name(value, locale, [a.beaten for a in group]) if value is not None else None
    if len(group) == 1:
        pot, amount = pot_label(first.pot_index, pot_count, locale), first.amount
        params: dict[str, object] = {"pot": pot, "amount": amount}
        key = ""
    else:
        pots = (
            t("pot.with_amount", locale, pot=pot_label(a.pot_index, pot_count, locale), amount=a.amount) for a in group
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


def _award_of(event: Any, names: Names, locale: object) -> Award:
    winners = tuple((player_name(names, player, locale), chips) for player, chips in event.winners)
    return Award(event.pot_index, event.amount, winners, event.value, getattr(event, "beaten", None))


def _awarded(event: Any, names: Names, locale: object, ctx: _Context) -> str:
    return render_awards([_award_of(event, names, locale)], locale, ctx.pot_count)[0]


_RENDERERS: dict[str, Callable[[Any, Names, object, _Context], str]] = {
    "BlindPosted": _blind,
    "PlayerActed": _acted,
    "StreetDealt": _street,
    "UncalledBetReturned": _uncalled,
    "HandShown": _shown,
    "HandMucked": _mucked,
    "PotAwarded": _awarded,
    "ShownByChoice": _shown_by_choice,
    "RunTwiceAnswered": _run_twice_answer,
    "RunCountChosen": _runs,
}


def shown_values(events: Iterable[object]) -> tuple[Any, ...]:
    """The `HandValue`s shown at the showdown among `events` (what each shown hand is compared with)."""
    return tuple(e.value for e in events if type(e).__name__ == "HandShown")  # type: ignore[attr-defined]


def chips_into_pot(event: Any) -> int:
    """Chips an event puts in the middle (a blind, a bet, a call; a returned uncalled bet takes some back); 0 for
    the others."""
    kind = type(event).__name__
    if kind == "BlindPosted":
        return int(event.amount)
    if kind == "PlayerActed":
        return int(event.added)
    if kind == "UncalledBetReturned":
        return -int(event.amount)
    return 0


#: Events whose line ends with the pot they left, on the table message (`render_event_lines(pot_after=...)`).
POT_LINE_EVENTS = frozenset({"BlindPosted", "PlayerActed", "UncalledBetReturned"})


def render_event_line(
    event: object, names: Names, locale: object, *, pot_count: int | None = None, shown: Sequence[Any] = ()
) -> str | None:
    """One public line for an engine event, or None for events that have no public line (`HoleCardsDealt`
    — hole cards are private —, `HandEnded`, unknown events).

    names: display names by hand player index (raw: they are escaped here). pot_count: how many pots the
    hand has, so that a lone pot is called "the pot" (None: "the main pot" / "side pot N"). shown: the hands
    shown at the showdown (`shown_values`), so that a shown hand names the kickers that tell it apart.
    """
    renderer = _RENDERERS.get(type(event).__name__)
    return renderer(event, names, locale, _Context(pot_count, tuple(shown))) if renderer else None


def render_event_lines(
    events: Iterable[object], names: Names, locale: object, *, last: int | None = None, pot_after: int | None = None
) -> list[str]:
    """The public lines of a sequence of events (those without a line skipped), pots named knowing how many
    the hand paid, shown hands with the kickers that decide, the pots paid together grouped (`render_awards`);
    only the `last` lines when given (only those are rendered: a table message shows the last few actions of
    a hand and is edited at every one).

    pot_after: the chips in the middle after the last event (the pots plus this street's bets); when given,
    each blind, action and returned bet ends with the pot it left ("Bob calls 18 · pot 45")."""
    events = list(events)
    ctx = _Context(pot_count_of(events), shown_values(events))
    # Items: one event, or a run of PotAwarded events that make one line; only items with a line are kept.
    items: list[list[Any]] = []
    for event in events:
        kind = type(event).__name__
        if kind not in _RENDERERS:
            continue
        if kind == "PotAwarded" and items and type(items[-1][0]).__name__ == "PotAwarded":
            items[-1].append(event)
        else:
            items.append([event])
    pots: list[int | None] = [None] * len(items)
    if pot_after is not None:
        running = pot_after
        for index in range(len(items) - 1, -1, -1):
            event = items[index][0]
            if type(event).__name__ in POT_LINE_EVENTS:
                pots[index] = running
                running -= chips_into_pot(event)
    lines: list[str] = []
    start = 0 if last is None else max(0, len(items) - last)
    for item, pot in zip(items[start:], pots[start:], strict=True):
        if type(item[0]).__name__ == "PotAwarded":
            lines.extend(render_awards([_award_of(e, names, locale) for e in item], locale, ctx.pot_count))
            continue
        line = _RENDERERS[type(item[0]).__name__](item[0], names, locale, ctx)
        lines.append(line if pot is None else t("event.with_pot", locale, line=line, amount=pot))
    return lines if last is None else lines[-last:]
