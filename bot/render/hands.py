"""Hand names in English and French from an engine `HandValue` ("Full house, kings full of nines" /
"Full aux rois par les neuf"), rule book 000 §05 for the French names."""

from __future__ import annotations

from collections.abc import Iterable

from bot.poker import HandCategory, HandValue, deciding_kickers
from bot.render.i18n import Locale, Rank, t

# `HandCategory` values (IntEnum HIGH_CARD=0 .. STRAIGHT_FLUSH=8) -> catalogue key.
CATEGORY_KEYS: tuple[str, ...] = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
)


def hand_name(value: HandValue, locale: Locale, against: Iterable[HandValue | None] = ()) -> str:
    """The spelled-out name of a hand: "Straight, five high" / "Quinte au cinq", "Royal flush" /
    "Quinte flush royale", "Two pair, aces and sixes" / "Deux paires, as et six".

    Uses `value.category` (0..8), `value.ranks` (naming ranks, high to low, as bot.poker documents) and
    `value.is_royal`. `against`: the hands it was compared with (None items ignored); the kickers that tell it
    apart from those of its category are named, as far as needed (`bot.poker.deciding_kickers`): "Two pair,
    tens and threes, jack kicker" / "Deux paires, dix et trois, kicker valet", "Flush, ace-king high" /
    "Couleur as-roi".
    """
    key = CATEGORY_KEYS[int(value.category)]
    if value.is_royal:
        return t("hand.royal_flush", locale)
    ranks = [Rank(r) for r in value.ranks]
    params: dict[str, object] = {"r1": ranks[0]}
    if len(ranks) > 1:
        params["r2"] = ranks[1]
    name = t(f"hand.{key}", locale, **params)
    others = [other for other in against if other is not None and other is not value]
    kickers = deciding_kickers(value, others) if others else ()
    if not kickers:
        return name
    if key == "flush":
        spelled = "-".join(t(f"rank.{r}.name", locale) for r in value.ranks[: len(kickers) + 1])
        return t("hand.flush_kickers", locale, ranks=spelled)
    spelled = "-".join(t(f"rank.{r}.name", locale) for r in kickers)
    return t("hand.with_kickers" if len(kickers) > 1 else "hand.with_kicker", locale, hand=name, kickers=spelled)


def category_name(category: HandCategory | int, locale: Locale) -> str:
    """The name of a category alone: 6 -> "Full house" / "Full"."""
    return t(f"hand.category.{CATEGORY_KEYS[int(category)]}", locale)
