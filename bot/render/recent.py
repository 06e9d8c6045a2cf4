"""The last actions of one table message, drawn again at every action from what its last drawing drew
(`EventLineMemo`, given to `bot.render.events.render_event_lines` as its `memo`): events are immutable and a hand's
are only ever added to, so only the new events' lines are new.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias, cast

from bot.poker import Event, PotAwarded
from bot.render.events import (
    AWARD_LINE,
    LINE_KINDS,
    NO_LINE,
    POT_LINE,
    SHOWN_LINE,
    Names,
    award_of,
    chips_into_pot,
    item_line,
    line_kind,
    name_in,
    pot_count_of,
    render_awards,
    shown_values,
)

#: What `render_event_lines` drew last for one table message (`EventLineMemo.drawn`): the events, names, language,
#: `last` and `pot_after` it was drawn from, how many events it read from the end, whether they held all the lines
#: it wanted, and the line of each item it kept (in the hand's order).
_Drawn: TypeAlias = tuple[Sequence[Event], Names, str, int | None, int | None, int, bool, tuple[str | None, ...]]


#: How many new events `EventLineMemo.extend` looks for (a showdown of ten players: shown hands, pots, run-out).
_NEW_MAX = 32


class EventLineMemo:
    """One table message's last actions as last drawn (`render_event_lines(memo=...)`): events are immutable and a
    hand's are only ever added to, so at the next action the lines are those of the last drawing and the new events'.

    `extend` draws only the new events' lines when nothing else can have changed: the same names, language and
    `last`; the events read last time the same objects at the end of the ones before the new (also when the oldest
    events left the snapshot's window); the new events' chips are what `pot_after` grew by (so every old line shows
    the pot it showed); and none of the old lines names a pot count or the other hands shown (awards, shown hands:
    those read the whole hand, and a drawing that has one is not extended further).
    """

    __slots__ = ("drawn",)

    def __init__(self) -> None:
        self.drawn: _Drawn | None = None  # set by `render_event_lines`

    def extend(
        self, events: Sequence[Event], names: Names, language: str, last: int, pot_after: int | None
    ) -> list[str] | None:
        """The lines `render_event_lines` would draw, from the last drawing and the new events; None when they
        cannot be had this way (then the caller draws them in full)."""
        drawn = self.drawn
        if drawn is None or last <= 0 or not events:
            return None
        old, old_names, old_language, old_last, old_pot, read, complete, kept = drawn
        if language != old_language or last != old_last or names != old_names:
            return None
        count, tip = len(events), old[-1]
        for new in range(min(count, _NEW_MAX)):  # how many events are new: a few per action, more at a showdown
            if events[count - 1 - new] is tip:
                break
        else:
            return None
        start = count - new
        if complete:  # the lines were within the last `read` events: those must be the same
            if start < read or events[start - read : start] != old[len(old) - read :]:
                return None
        elif start != len(old) or events[:start] != old:
            return None
        # The new items, in the hand's order (a run of pots paid makes one item, as `render_event_lines` reads it).
        fresh: list[tuple[Event, int, list[PotAwarded] | None]] = []
        for event in events[start:]:
            kind = LINE_KINDS.get(event.__class__)
            if kind is None:
                kind = line_kind(event.__class__)
            if kind == NO_LINE:
                continue
            if kind == AWARD_LINE and isinstance(event, PotAwarded):
                run = fresh[-1][2] if fresh else None
                if run is not None:
                    run.append(event)
                else:
                    fresh.append((event, kind, [event]))
                continue
            fresh.append((event, kind, None))
        pots: list[int | None] = []
        running = pot_after
        for event, kind, _run in reversed(fresh):
            if kind == POT_LINE and running is not None:
                pots.append(running)
                running -= chips_into_pot(event)
            else:
                pots.append(None)
        if running != old_pot:
            return None
        pots.reverse()
        # An award or a shown hand reads the whole hand (how many pots, which hands were shown): then this drawing
        # is the last one extended.
        kinds = {kind for _event, kind, _run in fresh}
        pot_count = pot_count_of(events) if AWARD_LINE in kinds else None
        shown = shown_values(events) if SHOWN_LINE in kinds else None
        added: list[str | list[str] | None] = []
        for (event, kind, run), pot in zip(fresh, pots, strict=True):
            if run is not None:
                added.append(render_awards([award_of(e, names, language) for e in run], language, pot_count))
            else:
                added.append(
                    item_line(event, name_in(names, event), language, shown if kind == SHOWN_LINE else None, pot)
                )
        items = [*kept, *added][-last:]
        lines: list[str] = []
        for item in items:
            if isinstance(item, list):
                lines.extend(item)
            elif item is not None:
                lines.append(item)
        if pot_count is None and shown is None:
            plain = cast(tuple[str | None, ...], tuple(items))  # no award among them
            self.drawn = (events, names, language, last, pot_after, read + new, complete or len(items) == last, plain)
        else:
            self.drawn = None
        return lines[-last:]
