"""The all-in odds as text: each player's face-up cards and chance to win and to tie, per pot (issue 15).

Renders a `bot.poker.equity.Odds` whose `PotOdds.players` are hand player indexes (as `runout_odds` gives
them). Exact figures are plain ("82.4%"); an estimate is marked "≈" and its margin is said once ("≈ ±0.5%").
A tie is named only when it can happen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.poker.cards import Card
from bot.poker.equity import Odds
from bot.render.cards import cards_text
from bot.render.events import Names, player_name, pot_label
from bot.render.i18n import format_percent, t

__all__ = ["render_odds"]


def render_odds(odds: Odds, names: Names, hole_cards: Mapping[int, Sequence[Card]], locale: object) -> list[str]:
    """Lines for a street message or the hand history: a title saying how the figures were obtained, then one
    line per player (one pot) or one line per pot (side pots): "Alice A♠ A♥: 82.4% to win, 0.5% to tie".

    names: display names by hand player index; hole_cards: the face-up cards by hand player index.
    """
    approx = "" if odds.exact else "≈ "
    if odds.exact:
        lines = [t("odds.title.exact", locale)]
    else:
        lines = [t("odds.title.estimate", locale, margin=format_percent(odds.margin, locale))]
    pot_count = len(odds.pots)
    for index, pot in enumerate(odds.pots):
        parts = []
        for player, chances in zip(pot.players, pot.odds, strict=True):
            key = "odds.player_tie" if chances.tie > 0 else "odds.player"
            parts.append(
                t(
                    key,
                    locale,
                    name=player_name(names, player, locale),
                    cards=cards_text(hole_cards.get(player, ())),
                    win=approx + format_percent(chances.win, locale),
                    tie=approx + format_percent(chances.tie, locale),
                )
            )
        if pot_count == 1:
            lines += parts
        elif len(pot.players) > 1:
            label = pot_label(index, pot_count, locale, article=False)
            lines.append(t("odds.pot", locale, pot=label, players=" · ".join(parts)))
    return lines
