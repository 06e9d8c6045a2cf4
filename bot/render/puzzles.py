"""The decision puzzle's public texts (issue 17), in English and French: the spot as posted, and the answer.

Amounts are written in big blinds (real hands come in many currencies and scales). Actions reuse the hand's own
event texts ("BTN raises to 2 BB"), players are named by their positions (rule book 002's names).
"""

from __future__ import annotations

from collections.abc import Mapping

from babel.numbers import format_decimal

from bot.poker.events import Street
from bot.poker.puzzles import Answer, Assessment, Spot, position_names
from bot.render.cards import cards_text
from bot.render.i18n import Locale, format_names, format_percent, normalize_locale, t

__all__ = ["in_big_blinds", "puzzle_text", "reveal_text"]


def in_big_blinds(chips: int, big_blind: int, locale: Locale) -> str:
    """Chips as big blinds with at most one decimal: 3500 at 1000 -> "3.5 BB" / "3,5 BB"."""
    value = format_decimal(round(chips / big_blind, 1), format="#,##0.#", locale=normalize_locale(locale))
    return t("puzzle.bb", locale, amount=str(value))


def _action(spot: Spot, player: int, kind: str, amount: int | None, locale: Locale) -> str:
    name = position_names(spot.players)[player]
    if amount is None:
        return t(f"event.{kind}", locale, name=name, amount="")
    return t(f"event.{kind}", locale, name=name, amount=in_big_blinds(amount, spot.big_blind, locale))


def puzzle_text(spot: Spot, locale: Locale) -> str:
    """The spot as posted in the channel: table, position and cards, stacks, the action street by street, board,
    pot and call, the question."""
    names = position_names(spot.players)
    bb = spot.big_blind
    lines = [
        t("puzzle.title_heads_up" if spot.players == 2 else "puzzle.title", locale, players=spot.players),
        t("puzzle.you", locale, position=names[spot.decider], cards=cards_text(spot.hole)),
        t(
            "puzzle.stacks",
            locale,
            stacks=", ".join(f"{names[i]} {in_big_blinds(s, bb, locale)}" for i, s in enumerate(spot.stacks)),
        ),
    ]
    for street in (Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER):
        moves = [_action(spot, p, kind, amount, locale) for s, p, kind, amount in spot.actions if s is street]
        if street is spot.street or moves:
            label = t(f"street.{street.name.lower()}", locale)
            lines.append(t("puzzle.street", locale, street=label, moves=", ".join(moves) if moves else "…"))
        if street is spot.street:
            break
    lines.append(
        t(
            "puzzle.spot",
            locale,
            board=cards_text(spot.board),
            pot=in_big_blinds(spot.pot, bb, locale),
            call=in_big_blinds(spot.to_call, bb, locale),
        )
    )
    lines.append(t("puzzle.question", locale))
    return "\n".join(lines)


def reveal_text(spot: Spot, assessment: Assessment, votes: Mapping[Answer, int], locale: Locale) -> str:
    """The answer: the channel's vote, the pot odds, the equity against the stated range, the favoured answers
    with a short explanation, and what the player did in the real hand."""
    names = position_names(spot.players)
    bb = spot.big_blind
    favoured = assessment.favoured
    answers = format_names([t(f"action.{answer.value}", locale) for answer in favoured], locale)
    explanation = "raise" if Answer.RAISE in favoured else favoured[0].value
    return "\n".join(
        [
            t(
                "puzzle.votes",
                locale,
                fold=votes.get(Answer.FOLD, 0),
                call=votes.get(Answer.CALL, 0),
                raise_=votes.get(Answer.RAISE, 0),
            ),
            t(
                "puzzle.pot_odds",
                locale,
                call=in_big_blinds(spot.to_call, bb, locale),
                pot=in_big_blinds(spot.pot, bb, locale),
                percent=format_percent(assessment.pot_odds, locale, 0),
            ),
            t(
                "puzzle.equity",
                locale,
                position=names[spot.opponent],
                range=format_percent(spot.range_fraction, locale, 0),
                cards=cards_text(spot.hole),
                equity=format_percent(assessment.equity, locale, 0),
                margin=format_percent(assessment.margin, locale, 0),
            ),
            t("puzzle.favoured", locale, answers=answers) + " " + t(f"puzzle.why.{explanation}", locale),
            t("puzzle.played", locale, action=t(f"action.{spot.played}", locale)),
        ]
    )
