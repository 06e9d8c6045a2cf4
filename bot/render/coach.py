"""The coach's private lines for the player to act (issue 17), in English and French, from `bot.poker.coach`.

Lines, in order: the best hand now (from the flop on), the nuts on this board and what it takes (or that the
player holds them), what a call costs against the pot as the share of the time it must win (or that checking is
free), the chance to win against the players still in holding random hands (≈, with its margin), and the rule
book's advice when it applies (000 §09, in its own words in French).
"""

from __future__ import annotations

from bot.poker.coach import CoachFacts
from bot.render.cards import cards_text
from bot.render.embeds import CONTENT_MAX, clamp
from bot.render.hands import hand_name
from bot.render.i18n import Locale, format_chips, format_percent, t, t_uncached

__all__ = ["coach_dm_text", "coach_lines"]

#: Holdings named for the nuts before "(+N more)".
_HOLDINGS_SHOWN = 3


def coach_lines(facts: CoachFacts, locale: Locale) -> list[str]:
    """The coach's lines for `facts` in `locale`'s language (see the module docstring)."""
    lines: list[str] = []
    if facts.best is not None:
        lines.append(t("coach.best", locale, hand=hand_name(facts.best, locale, (facts.nuts,))))
    if facts.nuts is not None:
        nut_name = hand_name(facts.nuts, locale, (facts.best,))
        if facts.has_nuts:
            lines.append(t("coach.nuts_held", locale, hand=nut_name))
        else:
            shown = [cards_text(pair) for pair in facts.nut_holdings[:_HOLDINGS_SHOWN]]
            cards = t("coach.or", locale).join(shown)
            more = len(facts.nut_holdings) - len(shown)
            if more:
                cards += " " + t("coach.more", locale, count=more)
            lines.append(t("coach.nuts", locale, hand=nut_name, cards=cards))
    if facts.pot_odds is None:
        lines.append(t("coach.free_check", locale))
    else:
        lines.append(
            t(
                "coach.pot_odds",
                locale,
                call=format_chips(facts.to_call, locale),
                pot=format_chips(facts.pot, locale),
                percent=format_percent(facts.pot_odds, locale, 0),
            )
        )
    lines.append(
        t(
            "coach.equity",
            locale,
            count=facts.opponents,
            percent=format_percent(facts.odds.share, locale, 0),
            margin=format_percent(facts.odds.margin, locale, 0),
        )
    )
    lines += [t(f"coach.advice.{advice.value}", locale) for advice in facts.advice]
    return lines


def coach_dm_text(facts: CoachFacts, hand_number: int, table: str, locale: Locale) -> str:
    """The coach's DM on the member's turn (`/poker coach mode:dm`): a title naming the hand and the table
    (`table`: a channel mention), then the coach's lines quoted, as "My cards" shows them. Private. The title names
    its hand: not remembered by `t`'s cache (`t_uncached`)."""
    lines = [t_uncached("coach.dm_title", locale, number=hand_number, channel=table)]
    lines += [f"> {line}" for line in coach_lines(facts, locale)]
    return clamp("\n".join(lines), CONTENT_MAX)
