"""Event lines: one public line per engine event, in English and French; hole cards never appear."""

import pytest

from bot.poker import (
    ActionKind,
    BlindPosted,
    HandEnded,
    HandMucked,
    HandShown,
    HoleCardsDealt,
    PlayerActed,
    PotAwarded,
    Street,
    StreetDealt,
    UncalledBetReturned,
)
from bot.render import render_event_line, render_event_lines
from tests.render.builders import cards, strip_vs, value

A = ActionKind
NAMES = ["Alice", "Bob", "Chloé"]
FLOP = cards("Ks 9d 9h")
TURN = cards("2c")
RIVER = cards("Ah")
KINGS_FULL = value("Ks Kh Kd 9d 9h")

# A whole hand (3 players, 100/100/50): raises preflop, a bet and an all-in on the flop, run-out, showdown.
HAND = [
    BlindPosted(0, "small_blind", 1),
    BlindPosted(1, "big_blind", 2),
    HoleCardsDealt(0, cards("Kh Kd")),
    HoleCardsDealt(1, cards("Qs Qc")),
    HoleCardsDealt(2, cards("7c 6c")),
    PlayerActed(2, A.RAISE, 6, 6, False),
    PlayerActed(0, A.RAISE, 14, 13, False),
    PlayerActed(1, A.FOLD, 2, 0, False),
    PlayerActed(2, A.CALL, 14, 8, False),
    StreetDealt(Street.FLOP, FLOP, FLOP),
    PlayerActed(0, A.BET, 20, 20, False),
    PlayerActed(2, A.ALL_IN, 36, 36, True),
    PlayerActed(0, A.CALL, 36, 16, False),
    StreetDealt(Street.TURN, TURN, FLOP + TURN),
    StreetDealt(Street.RIVER, RIVER, FLOP + TURN + RIVER),
    HandShown(2, cards("7c 6c"), value("9d 9h Ah Ks 7c")),
    HandShown(0, cards("Kh Kd"), KINGS_FULL),
    PotAwarded(0, 102, ((0, 102),), KINGS_FULL),
    HandEnded((150, 98, 0)),
]

HAND_EN = """\
Alice posts the small blind (1)
Bob posts the big blind (2)
Chloé raises to 6
Alice raises to 14
Bob folds
Chloé calls 8
Flop: K♠ 9♦ 9♥
Alice bets 20
Chloé is all-in for 36
Alice calls 16
Turn: 2♣
River: A♥
Chloé shows 7♣ 6♣ (Pair of nines)
Alice shows K♥ K♦ (Full house, kings full of nines)
Alice wins the pot (102) with Full house, kings full of nines"""

HAND_FR = """\
Alice pose la petite blind (1)
Bob pose la grosse blind (2)
Chloé relance à 6
Alice relance à 14
Bob se couche
Chloé suit (8)
Flop\u00a0: K♠ 9♦ 9♥
Alice mise 20
Chloé fait tapis (36)
Alice suit (16)
Tournant\u00a0: 2♣
Rivière\u00a0: A♥
Chloé montre 7♣ 6♣ (Paire de neuf)
Alice montre K♥ K♦ (Full aux rois par les neuf)
Alice remporte le pot (102) — Full aux rois par les neuf"""


@pytest.mark.parametrize(("locale", "expected"), [("en", HAND_EN), ("fr", HAND_FR), ("en-GB", HAND_EN)])
def test_a_full_hand_reads_right(locale, expected):
    assert strip_vs("\n".join(render_event_lines(HAND, NAMES, locale))) == expected


def test_hole_cards_dealt_and_hand_end_have_no_public_line():
    assert render_event_line(HoleCardsDealt(1, cards("Qs Qc")), NAMES, "en") is None
    assert render_event_line(HandEnded((1, 2, 3)), NAMES, "fr") is None
    assert render_event_line(object(), NAMES, "fr") is None


def test_unshown_hole_cards_never_appear_in_public_lines():
    text = strip_vs("\n".join(render_event_lines(HAND, NAMES, "en") + render_event_lines(HAND, NAMES, "fr")))
    assert "Q♠" not in text and "Q♣" not in text  # Bob's folded queens
    assert "K♥ K♦" in text  # Alice's, shown at showdown


@pytest.mark.parametrize(
    ("event", "en", "fr"),
    [
        (BlindPosted(2, "ante", 1), "Chloé posts an ante (1)", "Chloé pose une ante (1)"),
        (BlindPosted(1, "bb_ante", 2), "Bob posts the big blind ante (2)", "Bob pose l'ante de grosse blind (2)"),
        (BlindPosted(2, "straddle", 4), "Chloé straddles (4)", "Chloé pose un straddle (4)"),
        (PlayerActed(0, A.CHECK, 0, 0, False), "Alice checks", "Alice dit parole"),
        (PlayerActed(1, A.CALL, 50, 48, True), "Bob calls 48 and is all-in", "Bob suit (48) et fait tapis"),
        (PlayerActed(1, A.BET, 98, 98, True), "Bob bets 98 and is all-in", "Bob mise 98 et fait tapis"),
        (
            PlayerActed(1, A.RAISE, 1500, 1400, True),
            "Bob raises to 1,500 and is all-in",
            "Bob relance à 1\u202f500 et fait tapis",
        ),
        (PlayerActed(2, A.ALL_IN, 50, 50, True), "Chloé is all-in for 50", "Chloé fait tapis (50)"),
        (UncalledBetReturned(0, 30), "Uncalled bet (30) returned to Alice", "Mise non suivie (30) rendue à Alice"),
        (HandMucked(1), "Bob mucks", "Bob jette ses cartes"),
        (PotAwarded(0, 12, ((2, 12),), None), "Chloé wins the main pot (12)", "Chloé remporte le pot principal (12)"),
        (
            PotAwarded(1, 60, ((1, 60),), value("Ac 9c 7c 5c 2c")),
            "Bob wins side pot 1 (60) with Flush, ace high",
            "Bob remporte le pot annexe 1 (60) — Couleur à l'as",
        ),
        (
            PotAwarded(0, 61, ((0, 31), (2, 30)), value("Ah Kd Qc Js Th")),
            "Alice (31) and Chloé (30) split the main pot (61) with Straight, ace high",
            "Alice (31) et Chloé (30) se partagent le pot principal (61) — Quinte à l'as",
        ),
        (
            PotAwarded(0, 90, ((0, 30), (1, 30), (2, 30)), value("5h 4d 3c 2s Ah")),
            "Alice (30), Bob (30), and Chloé (30) split the main pot (90) with Straight, five high",
            "Alice (30), Bob (30) et Chloé (30) se partagent le pot principal (90) — Quinte au cinq",
        ),
    ],
)
def test_event_lines(event, en, fr):
    assert render_event_line(event, NAMES, "en") == en
    assert render_event_line(event, NAMES, "fr") == fr


def test_a_lone_pot_is_the_pot_and_several_are_main_and_side():
    award = PotAwarded(0, 60, ((0, 60),), None)
    assert render_event_line(award, NAMES, "en", pot_count=1) == "Alice wins the pot (60)"
    assert render_event_line(award, NAMES, "en", pot_count=2) == "Alice wins the main pot (60)"
    side = [PotAwarded(0, 60, ((2, 60),), KINGS_FULL), PotAwarded(1, 60, ((1, 60),), KINGS_FULL)]
    assert render_event_lines(side, NAMES, "fr") == [
        "Chloé remporte le pot principal (60) — Full aux rois par les neuf",
        "Bob remporte le pot annexe 1 (60) — Full aux rois par les neuf",
    ]


def test_names_are_escaped_and_cannot_mention():
    names = ["**Al*", "@everyone", "x" * 50]
    assert render_event_line(PlayerActed(0, A.FOLD, 0, 0, False), names, "en") == "\\*\\*Al\\* folds"
    assert render_event_line(PlayerActed(1, A.FOLD, 0, 0, False), names, "en") == "@\u200beveryone folds"
    line = render_event_line(PlayerActed(2, A.FOLD, 0, 0, False), names, "en")
    assert line == "x" * 31 + "… folds"


def test_unknown_player_gets_a_numbered_name():
    assert render_event_line(PlayerActed(5, A.FOLD, 0, 0, False), NAMES, "en") == "Player 6 folds"
    assert render_event_line(PlayerActed(5, A.FOLD, 0, 0, False), {0: "A"}, "fr") == "Joueur 6 se couche"


@pytest.mark.parametrize("last", [0, 1, 3, 6, 100])
def test_the_last_lines_are_the_tail_of_all_lines(last: int) -> None:
    """A table message renders only its last few lines: the same lines as the tail of the whole hand."""
    every = render_event_lines(HAND, NAMES, "en")
    assert render_event_lines(HAND, NAMES, "en", last=last) == (every[-last:] if last else [])
