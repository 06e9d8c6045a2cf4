"""One line of text per engine event ("Alice raises to 14", "Bob calls 6", "Alice wins the main pot (60)
with Flush, ace high"), for the table message's last actions and the hand history.

Events are the frozen dataclasses of `bot.poker.events`, matched by class name so that plain stand-ins
with the same fields render too. Hole cards are never rendered here: `HoleCardsDealt` gives no line
(only `HandShown`, the showdown, puts cards in a public line).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
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


def pot_count_of(events: Iterable[object]) -> int | None:
    """How many pots the awards in `events` pay (None when there is no award yet)."""
    indexes = {getattr(e, "pot_index", 0) for e in events if type(e).__name__ == "PotAwarded"}
    return max(indexes) + 1 if indexes else None


def _action_value(action: object) -> str:
    return str(getattr(action, "value", action)).lower()


def _blind(event: Any, names: Names, locale: object, pot_count: int | None) -> str:
    return t(f"event.blind.{event.kind}", locale, name=player_name(names, event.player, locale), amount=event.amount)


def _acted(event: Any, names: Names, locale: object, pot_count: int | None) -> str:
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


def _street(event: Any, names: Names, locale: object, pot_count: int | None) -> str:
    return t(f"event.street.{street_key(event.street)}", locale, cards=cards_text(event.cards))


def _uncalled(event: Any, names: Names, locale: object, pot_count: int | None) -> str:
    return t("event.uncalled", locale, name=player_name(names, event.player, locale), amount=event.amount)


def _shown(event: Any, names: Names, locale: object, pot_count: int | None) -> str:
    return t(
        "event.shows",
        locale,
        name=player_name(names, event.player, locale),
        cards=cards_text(event.cards),
        hand=hand_name(event.value, locale),
    )


def _mucked(event: Any, names: Names, locale: object, pot_count: int | None) -> str:
    return t("event.mucks", locale, name=player_name(names, event.player, locale))


def render_award(
    pot_index: int,
    amount: int,
    winners: Sequence[tuple[str, int]],
    value: object | None,
    locale: object,
    pot_count: int | None = None,
) -> str:
    """A pot paid out. winners: (escaped name, chips won) pairs; value: the winning `HandValue` or None
    (uncontested). One winner: "Alice wins the main pot (60) with Flush, ace high"; several: "Alice (31)
    and Bob (30) split the pot (61) with Straight, ace high"."""
    pot = pot_label(pot_index, pot_count, locale)
    if len(winners) == 1:
        name = winners[0][0]
        if value is None:
            return t("event.wins_uncontested", locale, name=name, pot=pot, amount=amount)
        return t("event.wins", locale, name=name, pot=pot, amount=amount, hand=hand_name(value, locale))  # type: ignore[arg-type]
    shares = format_names((t("event.share", locale, name=name, amount=chips) for name, chips in winners), locale)
    if value is None:
        return t("event.split_uncontested", locale, names=shares, pot=pot, amount=amount)
    return t("event.split", locale, names=shares, pot=pot, amount=amount, hand=hand_name(value, locale))  # type: ignore[arg-type]


def _awarded(event: Any, names: Names, locale: object, pot_count: int | None) -> str:
    winners = [(player_name(names, player, locale), chips) for player, chips in event.winners]
    return render_award(event.pot_index, event.amount, winners, event.value, locale, pot_count)


_RENDERERS: dict[str, Callable[[Any, Names, object, int | None], str]] = {
    "BlindPosted": _blind,
    "PlayerActed": _acted,
    "StreetDealt": _street,
    "UncalledBetReturned": _uncalled,
    "HandShown": _shown,
    "HandMucked": _mucked,
    "PotAwarded": _awarded,
}


def render_event_line(event: object, names: Names, locale: object, *, pot_count: int | None = None) -> str | None:
    """One public line for an engine event, or None for events that have no public line (`HoleCardsDealt`
    — hole cards are private —, `HandEnded`, unknown events).

    names: display names by hand player index (raw: they are escaped here). pot_count: how many pots the
    hand has, so that a lone pot is called "the pot" (None: "the main pot" / "side pot N").
    """
    renderer = _RENDERERS.get(type(event).__name__)
    return renderer(event, names, locale, pot_count) if renderer else None


def render_event_lines(events: Iterable[object], names: Names, locale: object, *, last: int | None = None) -> list[str]:
    """The public lines of a sequence of events (those without a line skipped), pots named knowing how many
    the hand paid; only the `last` lines when given (rendered from the end: a table message shows the last
    few actions of a hand and is edited at every one)."""
    events = list(events)
    pot_count = pot_count_of(events)
    if last is None:
        lines = (render_event_line(event, names, locale, pot_count=pot_count) for event in events)
        return [line for line in lines if line is not None]
    recent: list[str] = []
    for event in reversed(events):
        if len(recent) >= last:
            break
        line = render_event_line(event, names, locale, pot_count=pot_count)
        if line is not None:
            recent.append(line)
    recent.reverse()
    return recent
