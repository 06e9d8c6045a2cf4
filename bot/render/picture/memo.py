"""What one table's pictures take from the table's previous picture (`TableMemo`).

A process draws the pictures of all its tables in turn (the flop of one table, the result of another...), so the
process's caches of pieces (`bot.render.picture.sprites`) see each table's own pieces — its players' names, a
seat as it looks at this table — come back only after every other table's: with 100 busy tables, some 600 seats
and 1,200 names later, past the end of any bounded cache. One table's pictures of a hand, though, mostly repeat
each other: the seats of players who folded or only checked look the same from street to street, the names and
the pots line too. A `TableMemo`, one per table (`bot.tables.delivery.Delivery`), keeps exactly what the table's
last picture pasted — each seat's placed pieces, by the seat as drawn, and its texts — and the table's next
picture takes from it whatever is the same, before asking the process's caches; what the next picture does not
use is forgotten with it. So it holds one picture's pieces at most (ten seats, a few dozen texts: references to
arrays, most of them shared with the process's caches, the names its own), and a table's names need not be kept
by the process at all.

The same pieces as drawn without it (a piece depends only on its key; tests/render/test_picture_memo.py draws
random series of scenes with and without one and compares every byte). Not thread-safe: a table's pictures are
drawn one at a time (its delivery waits for each, in the process's one picture thread).
"""

from __future__ import annotations

from typing import Any

__all__ = ["OWN_TEXTS", "TableMemo"]

#: How many of a table's own texts (names, in each look: lit, dimmed; each size) a `TableMemo` keeps: a full
#: table's ten names twice over, and some room for players who come and go.
OWN_TEXTS = 32


class TableMemo:
    """What one table's last picture pasted, for its next picture (see the module's docstring). `begin` before a
    picture, `end` once it is drawn: what the picture looked up or kept is then what the memo holds (a picture
    that fails half-way changes nothing)."""

    __slots__ = ("_next_seats", "_next_texts", "_own", "_seats", "_texts")

    def __init__(self) -> None:
        self._seats: dict[int, tuple[Any, Any]] = {}
        self._texts: dict[Any, Any] = {}
        self._own: dict[Any, Any] = {}
        self._next_seats: dict[int, tuple[Any, Any]] = {}
        self._next_texts: dict[Any, Any] = {}

    def begin(self) -> None:
        """A picture starts: nothing of it is kept yet."""
        self._next_seats = {}
        self._next_texts = {}

    def end(self) -> None:
        """The picture is drawn: keep what it used, and only that (the table's own texts apart: `own_text`)."""
        self._seats, self._texts = self._next_seats, self._next_texts
        self._next_seats, self._next_texts = {}, {}

    def own_text(self, key: Any) -> Any:
        """The table's own text (a name) kept under `key`, else None. The last `OWN_TEXTS` are kept, whether the
        last picture used them or not: a name is dimmed when its player folds and lit again at the next hand."""
        piece = self._own.pop(key, None)
        if piece is not None:
            self._own[key] = piece  # the most recently used last
        return piece

    def keep_own_text(self, key: Any, piece: Any) -> None:
        """The table's own text (a name) drawn under `key`; the least recently used goes past `OWN_TEXTS`."""
        own = self._own
        own[key] = piece
        if len(own) > OWN_TEXTS:
            del own[next(iter(own))]

    def seat(self, number: int, key: Any) -> Any:
        """Seat `number`'s placed pieces at the last picture if it was drawn from `key` then (else None)."""
        kept = self._seats.get(number)
        if kept is not None and kept[0] == key:
            self._next_seats[number] = kept
            return kept[1]
        return None

    def keep_seat(self, number: int, key: Any, placed: Any) -> None:
        """Seat `number`'s placed pieces, drawn from `key`, for the next picture."""
        self._next_seats[number] = (key, placed)

    def text(self, key: Any) -> Any:
        """The text piece kept under `key` (this picture's or the last one's), else None."""
        piece = self._next_texts.get(key)
        if piece is None:
            piece = self._texts.get(key)
            if piece is not None:
                self._next_texts[key] = piece
        return piece

    def keep_text(self, key: Any, piece: Any) -> None:
        """A text piece drawn under `key`, for this picture and the next."""
        self._next_texts[key] = piece

    def __len__(self) -> int:
        """How many seats and texts are kept (for tests and memory figures)."""
        return len(self._seats) + len(self._texts) + len(self._own)
