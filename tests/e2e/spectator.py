"""Reading a poker channel as a spectator does: the table message (seats, board, pots, whose turn), the
showdowns and notices, parsed from what the Discord stand-in recorded. Nothing here looks inside the bot.

The table message is the English rendering of bot/render/table.py: a title "<table> — hand #N" (just
"<table>" between hands; <table> is "#channel" or "Poker table"), then lines such as::

    Blinds 1/2 · Cash game
    **Board**: A♠︎ K♥︎ 7♦︎
    **Pots**: Main pot: 120 · Side pot 1: 40
    ▶ ` 1` **alice** Ⓓ SB — 98 · bet 2
    ▶ **alice** to act: 2 to call — <t:1700000000:R>
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from tests.discord_stub import DiscordStub, Message, MessageVersion
from tests.discord_stub.model import Channel

HAND_TITLE = re.compile(r"^.+ — hand #(\d+)$")
#: The first line of every table message (blinds, ante, kind, level).
#: The table message's first line: "Blinds 1/2", or with the betting structure "Pot-limit 1/2", "Fixed-limit 1/2
#: (bets 2/4)" (issue 16); then the ante and the kind.
INFO_LINE = re.compile(
    r"^(?:Blinds|Pot-limit|Fixed-limit) \d[\d,]*/\d[\d,]*(?: \(bets \d[\d,]*/\d[\d,]*\))?(?: · ante \d[\d,]*)?"
    r" · (?:Cash game|Tournament)"
)
SHOWDOWN_TITLE = re.compile(r"^Showdown — hand #(\d+)$")
RESULT_TITLE = re.compile(r"^(?:Showdown — hand #|Hand #)(\d+)(?: is over)?$")
SEAT_LINE = re.compile(
    r"^(?P<mark>▶|\u2003) `\s*(?P<seat>\d+)` (?P<name>.+?)(?P<button> Ⓓ)?(?: (?P<blind>SB|BB))? — (?P<rest>.+)$"
)
STREET = re.compile(r"^\*\*(Flop|Turn|River)\*\*: ")
TIMESTAMP = re.compile(r"<t:\d+:R>")
CARD = re.compile(r"(10|[2-9TJQKA])([♠♥♦♣])\ufe0e?")
SUITS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}


def chips(text: str) -> int:
    """An English chip count ("1,250") as an int."""
    return int(text.replace(",", "").strip())


def cards_in(text: str) -> list[str]:
    """The cards written in a text ("A♠︎ 10♥︎") as engine strings (["As", "Th"])."""
    return [("T" if rank == "10" else rank) + SUITS[suit] for rank, suit in CARD.findall(text)]


@dataclass(frozen=True)
class SeatLine:
    """One seat of the table message."""

    seat: int
    name: str
    stack: int
    bet: int
    folded: bool
    all_in: bool
    sitting_out: bool
    is_actor: bool
    is_button: bool


@dataclass(frozen=True)
class TableView:
    """The table message as a spectator reads it (one version of it)."""

    message_id: int
    seq: int
    hand_number: int | None
    board: tuple[str, ...]
    pots: tuple[int, ...]
    seats: dict[str, SeatLine]
    actor: str | None
    to_call: int
    recent: tuple[str, ...]
    buttons: dict[str, dict[str, Any]] = field(default_factory=dict)
    description: str = ""

    @property
    def in_hand(self) -> bool:
        """A hand is being played and someone is to act."""
        return self.hand_number is not None and self.actor is not None

    @property
    def stacks(self) -> dict[str, int]:
        """Chips behind by player name."""
        return {name: s.stack for name, s in self.seats.items()}

    def timeless(self) -> tuple[str, tuple[str, ...], tuple[tuple[str, str], ...]]:
        """What must not change across a restart: the description without the deadline's timestamp, the
        last actions and the buttons (label, custom_id)."""
        buttons = tuple((b.get("label", ""), b.get("custom_id", "")) for b in self.buttons.values())
        return TIMESTAMP.sub("<t:…>", self.description), self.recent, buttons


def is_table_embed(embeds: tuple[dict[str, Any], ...] | list[dict[str, Any]]) -> bool:
    """Whether a message's embeds are a table message (its description starts with the blinds line)."""
    return bool(embeds) and bool(INFO_LINE.match(str(embeds[0].get("description", ""))))


def is_table_message(message: Message) -> bool:
    """Whether a message is a table message."""
    return is_table_embed(message.versions[0].embeds)


def parse_table(message: Message, version: MessageVersion | None = None) -> TableView:
    """Parse a table message (its latest version unless one is given)."""
    version = version or message.latest
    embed = version.embeds[0] if version.embeds else {}
    title = str(embed.get("title", ""))
    match = HAND_TITLE.match(title)
    hand_number = int(match.group(1)) if match else None
    description = str(embed.get("description", ""))
    board: tuple[str, ...] = ()
    pots: tuple[int, ...] = ()
    seats: dict[str, SeatLine] = {}
    actor: str | None = None
    to_call = 0
    for line in description.splitlines():
        if line.startswith("**Board**:"):
            board = tuple(cards_in(line))
        elif line.startswith("**Pot**:"):
            pots = (chips(line.split(":", 1)[1]),)
        elif line.startswith("**Pots**:"):
            pots = tuple(chips(item.rsplit(":", 1)[1]) for item in line.split(":", 1)[1].split(" · "))
        elif line.startswith("▶ **") and " to act" in line:
            turn = re.match(r"^▶ \*\*(.+?)\*\* to act(?:: ([\d,]+) to call)?", line)
            assert turn is not None, line
            actor = turn.group(1)
            to_call = chips(turn.group(2)) if turn.group(2) else 0
        elif seat := SEAT_LINE.match(line):
            parts = seat.group("rest").split(" · ")
            name = seat.group("name").strip("*")
            bet = next((chips(p[4:]) for p in parts if p.startswith("bet ")), 0)
            seats[name] = SeatLine(
                seat=int(seat.group("seat")),
                name=name,
                stack=chips(parts[0]),
                bet=bet,
                folded="folded" in parts,
                all_in="all-in" in parts,
                sitting_out="sitting out" in parts,
                is_actor=seat.group("mark") == "▶",
                is_button=bool(seat.group("button")),
            )
    recent: tuple[str, ...] = ()
    for embed_field in embed.get("fields") or []:
        if embed_field.get("name") == "Last actions":
            recent = tuple(str(embed_field.get("value", "")).splitlines())
    buttons = {}
    for component in _buttons(version.components):
        action = str(component.get("custom_id", "")).split(":")[1] if component.get("custom_id") else ""
        buttons[action] = component
    return TableView(
        message_id=message.id,
        seq=version.seq,
        hand_number=hand_number,
        board=board,
        pots=pots,
        seats=seats,
        actor=actor,
        to_call=to_call,
        recent=recent,
        buttons=buttons,
        description=description,
    )


def hand_log(message: Message) -> list[str]:
    """The hand's public history as a spectator gathered it from a table message's "Last actions": each version
    shows the latest lines, so consecutive versions are stitched where they overlap (the table message shows
    six lines and every action adds at least one, so nothing is lost while one edit follows each action)."""
    log: list[str] = []
    for version in message.versions:
        window = list(parse_table(message, version).recent)
        overlap = next(
            (n for n in range(min(len(log), len(window)), 0, -1) if log[len(log) - n :] == window[:n]),
            0,
        )
        log.extend(window[overlap:])
    return log


def _buttons(components: tuple[dict[str, Any], ...] | list[dict[str, Any]]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for component in components:
        if component.get("type") == 2:
            found.append(component)
        found.extend(_buttons(component.get("components") or []))
    return found


class Spectator:
    """Someone watching one channel: the table messages, the showdowns, the notices."""

    def __init__(self, stub: DiscordStub, channel: Channel) -> None:
        self.stub = stub
        self.channel = channel

    def messages(self) -> list[Message]:
        """Every public message of the channel, oldest first."""
        return self.stub.channel_messages(self.channel)

    def table_messages(self) -> list[Message]:
        """The table messages, oldest first (one when the table opened, then one per hand)."""
        return [m for m in self.messages() if is_table_message(m)]

    def newest_table(self) -> TableView | None:
        """The newest table message as it looks now, or None while the channel has none (a predicate for
        `DiscordStub.wait_for`: the table message is posted by the bot's delivery worker, after the answer to the
        command that opened the table)."""
        tables = self.table_messages()
        return parse_table(tables[-1]) if tables else None

    def table(self) -> TableView:
        """The newest table message as it looks now, for a test that already waited for what it reads (it
        asserts that a table message exists: `Game.table` and `Game.turn` wait for one)."""
        view = self.newest_table()
        assert view is not None, "no table message in the channel"
        return view

    def hand_messages(self) -> dict[int, Message]:
        """The table message of each hand, by hand number."""
        found: dict[int, Message] = {}
        for message in self.table_messages():
            match = HAND_TITLE.match(str(message.versions[0].embeds[0].get("title", "")))
            if match:
                number = int(match.group(1))
                assert number not in found, f"hand #{number} got two table messages"
                found[number] = message
        return found

    def results(self) -> dict[int, list[Message]]:
        """The end-of-hand messages ("Showdown — hand #N" or "Hand #N is over"), by hand number."""
        found: dict[int, list[Message]] = {}
        for message in self.messages():
            if message.embeds and (match := RESULT_TITLE.match(str(message.embeds[0].get("title", "")))):
                found.setdefault(int(match.group(1)), []).append(message)
        return found

    def showdowns(self) -> dict[int, Message]:
        """The showdown messages (hands shown), by hand number."""
        return {
            number: messages[0]
            for number, messages in self.results().items()
            if SHOWDOWN_TITLE.match(str(messages[0].embeds[0].get("title", "")))
        }

    def streets(self) -> dict[int, list[tuple[str, list[str]]]]:
        """The street lines ("**Flop**: …", "**Turn**: … · Board: …") of each hand, in order, as (street, board so
        far); a message belongs to the last hand whose table message came before it."""
        starts = sorted((m.created_seq, number) for number, m in self.hand_messages().items())
        found: dict[int, list[tuple[str, list[str]]]] = {}
        for message in self.messages():
            # A run-out's streets share one message (one line each), with the showdown's embed.
            for line in message.content.splitlines():
                match = STREET.match(line)
                if not match:
                    continue
                number = max((n for seq, n in starts if seq < message.created_seq), default=0)
                board = line.split("Board:", 1)[1] if "Board:" in line else line
                found.setdefault(number, []).append((match.group(1), cards_in(board.split(" · Pot:")[0])))
        return found

    def texts(self) -> list[str]:
        """The plain-content messages (notices, streets), oldest first."""
        return [m.content for m in self.messages() if m.content]


def result_lines(message: Message) -> dict[str, list[str]]:
    """The fields of an end-of-hand message: {"Hands shown": [...], "Pots won": [...], ...}."""
    embed = message.embeds[0]
    return {str(f["name"]): str(f["value"]).splitlines() for f in embed.get("fields") or []}
