"""A real hand played by the engine with a stacked deck (rule book 000 §05 side pots: Alice 20, Bob 50,
Chloé 50 -> main pot 60 + side pot 60), rendered in English and French; engine hand names and errors."""

import random

import pytest

from bot.poker import (
    Hand,
    HandSettings,
    PokerError,
    describe_en,
    evaluate,
    full_deck,
    hand_result_from_events,
    parse_cards,
)
from bot.poker.errors import CODES as ENGINE_CODES
from bot.render import (
    hand_name,
    render_event_lines,
    render_hand_history,
    render_history_line,
    render_poker_error,
    render_showdown,
)
from bot.render.i18n import has_key
from tests.render.builders import strip_vs

NAMES = ["Alice", "Bob", "Chloé"]  # 0 = small blind, 1 = big blind, 2 = button


def side_pot_hand() -> Hand:
    stacked = list(parse_cards("Ah Kc Qs 8h Kd Qd 4c Ks 7h 2h 5c 9c 6c 3h"))  # hole cards, burn, flop, ...
    hand = Hand(HandSettings(), [20, 50, 50], deck=stacked + [c for c in full_deck() if c not in stacked])
    hand.raise_to(6)  # Chloé
    hand.go_all_in()  # Alice, 20
    hand.call()  # Bob
    hand.raise_to(50)  # Chloé, all-in
    hand.call()  # Bob, all-in: the board runs out
    assert hand.is_complete
    return hand


EXPECTED = {
    "en": """\
Alice posts the small blind (1)
Bob posts the big blind (2)
Chloé raises to 6
Alice is all-in for 20
Bob calls 18
Chloé raises to 50 and is all-in
Bob calls 30 and is all-in
Flop: K♠ 7♥ 2♥
Turn: 9♣
River: 3♥
Alice shows A♥ 8♥ (Flush, ace high)
Bob shows K♣ K♦ (Three of a kind, kings)
Chloé shows Q♠ Q♦ (Pair of queens)
Bob wins side pot 1 (60) with Three of a kind, kings
Alice wins the main pot (60) with Flush, ace high""",
    "fr": """\
Alice pose la petite blind (1)
Bob pose la grosse blind (2)
Chloé relance à 6
Alice fait tapis (20)
Bob suit (18)
Chloé relance à 50 et fait tapis
Bob suit (30) et fait tapis
Flop\u00a0: K♠ 7♥ 2♥
Tournant\u00a0: 9♣
Rivière\u00a0: 3♥
Alice montre A♥ 8♥ (Couleur à l'as)
Bob montre K♣ K♦ (Brelan de rois)
Chloé montre Q♠ Q♦ (Paire de dames)
Bob remporte le pot annexe 1 (60) — Brelan de rois
Alice remporte le pot principal (60) — Couleur à l'as""",
}


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_engine_hand_reads_right_line_by_line(locale):
    assert strip_vs("\n".join(render_event_lines(side_pot_hand().events, NAMES, locale))) == EXPECTED[locale]


def test_engine_hand_showdown_message_in_both_languages():
    events = side_pot_hand().events
    en = render_showdown(hand_result_from_events(9, events, NAMES), "en")
    assert en.title == "Showdown — hand #9"
    assert strip_vs(en.description) == "**Board**: K♠ 7♥ 2♥ 9♣ 3♥"
    assert [(f.name, strip_vs(f.value)) for f in en.fields] == [
        (
            "Hands shown",
            "Alice: A♥ 8♥ — Flush, ace high\nBob: K♣ K♦ — Three of a kind, kings\nChloé: Q♠ Q♦ — Pair of queens",
        ),
        (
            "Pots won",
            "Bob wins side pot 1 (60) with Three of a kind, kings\nAlice wins the main pot (60) with Flush, ace high",
        ),
    ]
    fr = render_showdown(hand_result_from_events(9, events, NAMES), "fr")
    assert fr.title == "Abattage — donne n° 9"
    assert strip_vs(fr.description) == "**Tableau**\u00a0: K♠ 7♥ 2♥ 9♣ 3♥"
    assert [(f.name, strip_vs(f.value)) for f in fr.fields] == [
        (
            "Mains montrées",
            "Alice\u00a0: A♥ 8♥ — Couleur à l'as\n"
            "Bob\u00a0: K♣ K♦ — Brelan de rois\n"
            "Chloé\u00a0: Q♠ Q♦ — Paire de dames",
        ),
        (
            "Pots gagnés",
            "Bob remporte le pot annexe 1 (60) — Brelan de rois\nAlice remporte le pot principal (60) — Couleur à l'as",
        ),
    ]


def test_engine_hand_history_street_by_street():
    hand = side_pot_hand()
    spec = render_hand_history(9, hand.events, NAMES, "fr", viewer=1, starting_stacks=hand.starting_stacks)
    assert spec.title == "Donne n° 9"
    assert strip_vs(spec.description) == "Alice (20) · Bob (50) · Chloé (50)\nTes cartes\u00a0: K♣ K♦"
    assert [strip_vs(f.name) for f in spec.fields] == [
        "Avant le flop",
        "Flop K♠ 7♥ 2♥",
        "Tournant K♠ 7♥ 2♥ 9♣",
        "Rivière K♠ 7♥ 2♥ 9♣ 3♥",
        "Résultat",
    ]
    assert spec.fields[1].value == "aucune action"


def test_folded_hole_cards_stay_private_in_every_public_render():
    stacked = list(parse_cards("Ah Kc Qs 8h Kd Qd 4c Ks 7h 2h 5c 9c 6c 3h"))
    hand = Hand(HandSettings(), [100, 100, 100], deck=stacked + [c for c in full_deck() if c not in stacked])
    hand.fold()  # Chloé folds Q♠ Q♦
    hand.call()  # Alice completes
    hand.check()  # Bob: flop
    while not hand.is_complete:
        hand.check()
    for locale in ("en", "fr"):
        texts = render_event_lines(hand.events, NAMES, locale)
        texts.append(str(render_showdown(hand_result_from_events(1, hand.events, NAMES), locale).to_dict()))
        texts.append(str(render_hand_history(1, hand.events, NAMES, locale).to_dict()))
        public = strip_vs("\n".join(texts))
        assert "Q♠" not in public and "Q♦" not in public
        assert "A♥ 8♥" in public  # Alice and Bob went to showdown


def test_english_hand_names_agree_with_the_engine_and_french_ones_exist():
    rng = random.Random(7)
    deck = full_deck()
    seen = set()
    for _ in range(3000):
        value = evaluate(rng.sample(deck, 7))
        # Same names as the engine's English, except that 2s are "deuces" here (the engine says "twos").
        assert hand_name(value, "en") == describe_en(value).replace("twos", "deuces")
        assert "{" not in hand_name(value, "fr")
        seen.add(value.category)
    assert len(seen) >= 8


def test_royal_flush_and_wheel_from_the_engine():
    royal = evaluate(parse_cards("Ah Qh Kh Jh Th 2s 2c"))  # rule book 000 §06
    assert (hand_name(royal, "en"), hand_name(royal, "fr")) == ("Royal flush", "Quinte flush royale")
    wheel = evaluate(parse_cards("Ac 2d 3h 4s 5c Kd 9h"))
    assert (hand_name(wheel, "en"), hand_name(wheel, "fr")) == ("Straight, five high", "Quinte au cinq")


def test_every_engine_error_code_has_a_message_in_both_languages():
    for code in ENGINE_CODES:
        assert has_key(f"error.{code}", "en") and has_key(f"error.{code}", "fr"), code


def test_engine_refusals_are_translated():
    hand = Hand(HandSettings(), [100, 100, 100])
    hand.raise_to(6)
    hand.raise_to(14)  # rule book 000 §05: 6 then 14, next raise at least to 22
    with pytest.raises(PokerError) as refused:
        hand.raise_to(20)
    assert render_poker_error(refused.value, "en") == "Minimum raise is to 22"
    assert render_poker_error(refused.value, "fr") == "Relance minimum\u00a0: 22"
    with pytest.raises(PokerError) as refused:
        hand.check()
    assert render_poker_error(refused.value, "fr") == "Tu ne peux pas dire parole\u00a0: 12 à suivre"


def kicker_hand() -> Hand:
    """Heads-up (issue 11's evening): tens and threes for both; bob's jack beats alice's nine. Bob, the button,
    is the small blind (rule book 000 §04); alice bets the river and shows first."""
    stacked = list(parse_cards("9c Jc Ts Td 4h Th 3c 3d 5h 6s 7h 2h"))
    hand = Hand(HandSettings(), [100, 100], deck=stacked + [c for c in full_deck() if c not in stacked])
    hand.call()  # bob completes
    for _ in range(5):  # alice's option, then both check the flop and the turn
        hand.check()
    assert len(hand.board) == 5 and hand.actor == 0
    hand.bet(2)  # alice, on the river
    hand.call()  # bob
    assert hand.is_complete
    return hand


KICKER = {
    "en": (
        "alice: 9♣ 10♠ — Two pair, tens and threes, nine kicker\nbob: J♣ 10♦ — Two pair, tens and threes, jack kicker",
        "bob wins the pot (8) with Two pair, tens and threes, jack kicker",
    ),
    "fr": (
        "alice\u00a0: 9♣ 10♠ — Deux paires, dix et trois, kicker neuf\n"
        "bob\u00a0: J♣ 10♦ — Deux paires, dix et trois, kicker valet",
        "bob remporte le pot (8) — Deux paires, dix et trois, kicker valet",
    ),
}


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_the_showdown_names_the_kicker_that_decides_and_the_winner_says_what_beat_the_other(locale):
    """Issue 11 item 5: "Two pair, tens and threes" for both players said nothing of why bob won."""
    hand = kicker_hand()
    spec = render_showdown(hand_result_from_events(3, hand.events, ["alice", "bob"]), locale)
    assert [strip_vs(f.value) for f in spec.fields] == list(KICKER[locale])
    lines = strip_vs("\n".join(render_event_lines(hand.events, ["alice", "bob"], locale)))
    assert lines.endswith(KICKER[locale][1])
    # The hand history reads the same (street by street, and in the /history list).
    history = render_hand_history(3, hand.events, ["alice", "bob"], locale)
    assert strip_vs(history.fields[-1].value).endswith(KICKER[locale][1])
    assert strip_vs(render_history_line(3, hand.events, ["alice", "bob"], locale)).endswith(KICKER[locale][1])


def four_pot_hand() -> Hand:
    """Five all-ins of 10, 20, 30, 40 and a call of 40 from 100: four pots, all won by eve's full house."""
    stacked = list(parse_cards("As Qs Js Ts 7s 2c 3c 4c 5c 7h 2d 7d Kc Kd 3d 8s 5d 9h"))
    hand = Hand(HandSettings(), [10, 20, 30, 40, 100], deck=stacked + [c for c in full_deck() if c not in stacked])
    hand.go_all_in()  # chloe, 30
    hand.go_all_in()  # dave, 40
    hand.call()  # eve
    hand.go_all_in()  # alice, the small blind, 10
    hand.go_all_in()  # bob, the big blind, 20
    assert hand.is_complete
    return hand


FOUR_POTS = {
    "en": "eve wins the main pot (50), side pot 1 (40), side pot 2 (30), and side pot 3 (20) "
    "with Full house, sevens full of kings",
    "fr": "eve remporte le pot principal (50), le pot annexe 1 (40), le pot annexe 2 (30) et le pot annexe 3 (20) "
    "— Full aux sept par les rois",
}


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_one_winner_of_four_pots_gets_one_line(locale):
    """Issue 11 item 13: four lines each ending "with Full house, sevens full of kings" become one."""
    hand = four_pot_hand()
    names = ["alice", "bob", "chloe", "dave", "eve"]
    spec = render_showdown(hand_result_from_events(3, hand.events, names), locale)
    assert strip_vs(spec.fields[1].value) == FOUR_POTS[locale]
    assert strip_vs(render_event_lines(hand.events, names, locale)[-1]) == FOUR_POTS[locale]
    assert strip_vs(render_history_line(3, hand.events, names, locale)).endswith(FOUR_POTS[locale])
    # The losers' pairs of kings differ by their first kicker: each names it, and no more.
    # (Shown from the first player left of the button: nobody bet on the river, rule book 002.)
    assert [line for line in strip_vs(spec.fields[0].value).splitlines() if "kicker" in line] == {
        "en": ["alice: A♠ 2♣ — Pair of kings, ace kicker", "bob: Q♠ 3♣ — Pair of kings, queen kicker",
               "chloe: J♠ 4♣ — Pair of kings, jack kicker",
               "dave: 10♠ 5♣ — Pair of kings, ten kicker"],
        "fr": ["alice\u00a0: A♠ 2♣ — Paire de rois, kicker as", "bob\u00a0: Q♠ 3♣ — Paire de rois, kicker dame",
               "chloe\u00a0: J♠ 4♣ — Paire de rois, kicker valet",
               "dave\u00a0: 10♠ 5♣ — Paire de rois, kicker dix"],
    }[locale]  # fmt: skip


@pytest.mark.parametrize(
    ("locale", "line"),
    [
        ("en", "#19 · 4♦ 10♠ 5♥ · cancelled, every bet returned"),
        ("fr", "n° 19 · 4♦ 10♠ 5♥ · annulée, toutes les mises rendues"),
    ],
)
def test_a_cancelled_hand_is_listed_as_cancelled(locale, line):
    """Issue 11 item 13: `/history` listed a hand cancelled by /poker end as "#19 · 4♦ 10♠ 5♥ · —"."""
    stacked = list(parse_cards("Ah Kc Qs 8h Kd Qd 2c 4d Ts 5h"))
    hand = Hand(HandSettings(), [100, 100, 100], deck=stacked + [c for c in full_deck() if c not in stacked])
    hand.call()
    hand.call()
    hand.check()  # the flop 4♦ 10♠ 5♥ is dealt, then the table is closed
    assert strip_vs(render_history_line(19, hand.events, NAMES, locale, cancelled=True)) == line


@pytest.mark.parametrize(
    ("winner", "loser", "en", "fr"),
    [
        ("AhKh9h7h2h 3c4d", "AhQhJhTh8h 3c4d", "Flush, ace-king high", "Couleur as-roi"),
        ("9c9d9h9s Ah 3c2d", "9c9d9h9s Kh 3c4d", "Four of a kind, nines, ace kicker", "Carré de neuf, kicker as"),
        ("KcKd AsQh9c 3d2h", "KhKs AdJh8c 3d2h", "Pair of kings, ace-queen kickers", "Paire de rois, kickers as-dame"),
        ("AcKdQh9s7c 2d4h", "AsKhQc9d6c 2h3s", "High card, ace, king-queen-nine-seven kickers",
         "Carte haute, as, kickers roi-dame-neuf-sept"),
        ("7c7d7h Kc2d 3s4h", "7c7d7h Qc2d 3s4h", "Three of a kind, sevens, king kicker", "Brelan de sept, kicker roi"),
    ],
)  # fmt: skip
def test_kicker_words_in_both_languages(winner, loser, en, fr):
    win, lose = evaluate(parse_cards(winner)), evaluate(parse_cards(loser))
    assert (hand_name(win, "en", [lose]), hand_name(win, "fr", [lose])) == (en, fr)
    assert hand_name(win, "en", [lose]) == describe_en(win, [lose])  # one rule: the engine's
