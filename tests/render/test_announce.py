"""Street, showdown, player, tournament and table-end messages, and the private hole-card texts."""

from dataclasses import dataclass

import pytest

from bot.poker import HandResult, PotResult, ShownHand, Street
from bot.render import (
    render_elimination,
    render_hole_cards_dm,
    render_my_cards,
    render_player_notice,
    render_showdown,
    render_street,
    render_streets,
    render_table_closed,
    render_tournament_result,
)
from bot.render.embeds import EMBED_TOTAL_MAX, FIELD_VALUE_MAX
from bot.tables import StreetAnnouncement
from tests.render.builders import cards, strip_vs, value


@dataclass(frozen=True)
class PlayerAnnouncement:
    kind: str
    user_id: int
    name: str
    place: int | None = None
    action: str | None = None
    sat_out: bool = False
    seat: int | None = None
    chips: int | None = None


@dataclass(frozen=True)
class TableClosedAnnouncement:
    cashed_out: tuple = ()
    placings: tuple = ()
    voided_hand: int | None = None
    tournament_over: bool = False


FLOP = cards("Ks 9d 9h")


def test_streets_as_new_messages():
    flop = StreetAnnouncement(3, Street.FLOP, FLOP, FLOP, (60,))
    turn = StreetAnnouncement(3, Street.TURN, cards("2c"), FLOP + cards("2c"), (60, 1200))
    assert strip_vs(render_street(flop, "en")) == "**Flop**: K♠ 9♦ 9♥ · Pot: 60"
    assert strip_vs(render_street(flop, "fr")) == "**Flop**\u00a0: K♠ 9♦ 9♥ · Pot\u00a0: 60"
    # Side pots read as on the table message (issue 11 item 13: not one "Pot: 1,260" beside "Main pot: 60 · ...").
    assert strip_vs(render_street(turn, "en")) == "**Turn**: 2♣ · Board: K♠ 9♦ 9♥ 2♣ · Main pot: 60 · Side pot 1: 1,200"
    assert strip_vs(render_street(turn, "fr")) == (
        "**Tournant**\u00a0: 2♣ · Tableau\u00a0: K♠ 9♦ 9♥ 2♣ · Pot principal\u00a0: 60 · Pot annexe 1\u00a0: 1\u202f200"
    )
    river = StreetAnnouncement(3, Street.RIVER, cards("Ah"), FLOP + cards("2c Ah"), (60,))
    assert strip_vs(render_streets([flop, turn, river], "en")).splitlines()[2] == (
        "**River**: A♥ · Board: K♠ 9♦ 9♥ 2♣ A♥ · Pot: 60"
    )


SIDE_POTS = HandResult(
    hand_number=12,
    board=cards("Ks 7h 2h 9c 3h"),
    shown=(
        ShownHand(3, "Chloé", cards("Qs Qd"), value("Qs Qd Kh 9c 7d")),
        ShownHand(1, "Alice", cards("Ah 8h"), value("Ah 8h 7h 3h 2h")),
    ),
    mucked=((2, "Bob"),),
    pots=(
        PotResult(0, 60, ((1, "Alice", 60),), value("Ah 8h 7h 3h 2h")),
        PotResult(1, 41, ((3, "Chloé", 21), (2, "Dan", 20)), value("Qs Qd Kh 9c 7d")),
    ),
    returned=((3, "Chloé", 30),),
    showdown=True,
)


def test_showdown_lists_shown_hands_mucks_pots_and_returns():
    en = render_showdown(SIDE_POTS, "en")
    assert en.title == "Showdown — hand #12"
    assert [(f.name, strip_vs(f.value)) for f in en.fields] == [
        ("Hands shown", "Chloé: Q♠ Q♦ — Pair of queens\nAlice: A♥ 8♥ — Flush, ace high\nBob: mucked"),
        (
            "Pots won",
            "Alice wins the main pot (60) with Flush, ace high\n"
            "Chloé (21) and Dan (20) split side pot 1 (41) with Pair of queens",
        ),
        # The field says what the chips are: the line says whose and how many (issue 11 item 13: not "Uncalled bets
        # returned: Uncalled bet (30) returned to Chloé").
        ("Uncalled bets returned", "Chloé: 30"),
    ]
    fr = render_showdown(SIDE_POTS, "fr")
    assert [strip_vs(f.value) for f in fr.fields] == [
        "Chloé\u00a0: Q♠ Q♦ — Paire de dames\nAlice\u00a0: A♥ 8♥ — Couleur à l'as\nBob\u00a0: cartes jetées",
        "Alice remporte le pot principal (60) — Couleur à l'as\n"
        "Chloé (21) et Dan (20) se partagent le pot annexe 1 (41) — Paire de dames",
        "Chloé\u00a0: 30",
    ]


def test_hand_won_without_showdown():
    result = HandResult(5, (), (), (), (PotResult(0, 3, ((0, "Bob", 3),), None),), ((0, "Bob", 4),), False)
    en = render_showdown(result, "en")
    assert en.title == "Hand #5 is over" and en.description == ""
    assert [f.value for f in en.fields] == ["Bob wins the pot (3)", "Bob: 4"]
    assert render_showdown(result, "fr").title == "Fin de la donne n° 5"


def test_showdown_with_ten_long_names_fits_discord_limits():
    name = "[@everyone](x)" * 3
    shown = tuple(ShownHand(i, f"{name}{i}", cards("Ah Kh"), value("As Ks Qs Js Ts")) for i in range(10))
    winners = tuple((i, f"{name}{i}", 10**12) for i in range(10))
    pots = tuple(PotResult(i, 10**13, winners, value("As Ks Qs Js Ts")) for i in range(9))
    returned = tuple((i, f"{name}{i}", 10**12) for i in range(10))
    for locale in ("en", "fr"):
        spec = render_showdown(HandResult(10**6, cards("As Ks Qs Js 10s"), shown, (), pots, returned, True), locale)
        assert spec.total_length() <= EMBED_TOTAL_MAX
        assert all(len(f.value) <= FIELD_VALUE_MAX for f in spec.fields)
        assert "@everyone" not in str(spec.to_dict())


@pytest.mark.parametrize(
    ("announcement", "en", "fr"),
    [
        (
            PlayerAnnouncement("eliminated", 1, "Bob", place=3),
            "Bob is eliminated in 3rd place.",
            "Bob sort à la 3e place.",
        ),
        (
            PlayerAnnouncement("eliminated", 1, "Bob", place=2),
            "Bob is eliminated in 2nd place.",
            "Bob sort à la 2e place.",
        ),
        (PlayerAnnouncement("eliminated", 1, "Bob"), "Bob is out of chips.", "Bob n'a plus de jetons."),
        (
            PlayerAnnouncement("timed_out", 1, "Bob", action="check"),
            "Bob ran out of time and checks.",
            "Bob n'a pas joué à temps et dit parole.",
        ),
        (
            PlayerAnnouncement("timed_out", 1, "Bob", action="fold", sat_out=True),
            "Bob ran out of time and folds.\n"
            "Bob missed two turns in a row and now sits out (`/poker sitin` to come back).",
            "Bob n'a pas joué à temps et se couche.\n"
            "Bob a laissé passer son tour deux fois de suite et fait une pause (`/poker sitin` pour revenir).",
        ),
        (
            PlayerAnnouncement("dm_refused", 1, "Bob"),
            "Bob doesn't accept direct messages: press **My cards** or use `/poker cards` to see your hand.",
            "Bob n'accepte pas les messages privés\u00a0: "
            "appuie sur **Mes cartes** ou utilise `/poker cards` pour voir ta main.",
        ),
        (
            PlayerAnnouncement("joined", 1, "Bob", seat=4, chips=1000),
            "Bob sits down at seat 4 with 1,000.",
            "Bob s'assoit à la place 4 avec 1\u202f000.",
        ),
        (
            PlayerAnnouncement("left", 1, "Bob", chips=80),
            "Bob leaves the table with 80.",
            "Bob quitte la table avec 80.",
        ),
        (PlayerAnnouncement("left", 1, "Bob"), "Bob leaves the table.", "Bob quitte la table."),
        (
            PlayerAnnouncement("kicked", 1, "Bob", chips=80),
            "Bob was removed from the table (stack of 80 back to their balance).",
            "Bob a été retiré de la table (sa pile de 80 revient sur son solde).",
        ),
        (
            PlayerAnnouncement("finished", 1, "Bob", place=3),
            "Bob leaves the tournament and finishes in 3rd place.",
            "Bob quitte le tournoi et termine à la 3e place.",
        ),
        (PlayerAnnouncement("sat_out", 1, "Bob"), "Bob sits out.", "Bob fait une pause."),
        (PlayerAnnouncement("sat_in", 1, "Bob"), "Bob is back in.", "Bob revient en jeu."),
        (PlayerAnnouncement("auto_folded", 1, "Bob"), "Bob's hand is folded.", "La main de Bob est couchée."),
        (PlayerAnnouncement("something_new", 1, "Bob"), "", ""),
    ],
)
def test_player_notices(announcement, en, fr):
    assert render_player_notice(announcement, "en") == en
    assert render_player_notice(announcement, "fr") == fr


def test_the_last_player_wins_the_tournament():
    assert render_elimination("Alice", "en", place=1) == "Alice wins the tournament!"
    assert render_elimination("Alice", "fr", place=1) == "Alice remporte le tournoi\u202f!"


def test_tournament_placings_last_standing_and_by_stack():
    spec = render_tournament_result([(1, 10, "Alice", 300), (2, 11, "Bob", 0), (3, 12, "Chloé", 0)], "en")
    assert spec.title == "Tournament results"
    assert spec.description == "The last player with chips wins.\n\n1st — Alice\n2nd — Bob\n3rd — Chloé"
    by_stack = render_tournament_result([(1, 10, "Alice", 180), (2, 11, "Bob", 120)], "fr", by_stack=True)
    assert by_stack.title == "Résultats du tournoi"
    assert by_stack.description == (
        "Arrêt à l'heure convenue\u00a0: classement selon les piles.\n\n1re — Alice (180)\n2e — Bob (120)"
    )


def test_table_closed_cash_with_a_refunded_hand():
    spec = render_table_closed(
        TableClosedAnnouncement(cashed_out=((1, "Alice", 120), (2, "Bob", 80)), voided_hand=7), "en"
    )
    assert spec.title == "Table closed"
    assert spec.description == (
        "Hand #7 was cancelled and every bet returned.\n"
        "The table is closed; every stack went back to its owner's balance."
    )
    assert [(f.name, f.value) for f in spec.fields] == [("Back to balances", "Alice (120)\nBob (80)")]


def test_table_closed_tournament_over():
    spec = render_table_closed(
        TableClosedAnnouncement(placings=((1, 1, "Alice", 200), (2, 2, "Bob", 0)), tournament_over=True), "fr"
    )
    assert spec.title == "Résultats du tournoi"
    assert spec.description.endswith("1re — Alice\n2e — Bob")


def test_private_hole_card_texts():
    dm = render_hole_cards_dm(cards("Ah Kd"), 12, "<#42>", "en")
    assert strip_vs(dm) == "Your cards for hand #12 at <#42>: **A♥ K♦**"
    assert strip_vs(render_hole_cards_dm(cards("Ah Kd"), 12, "<#42>", "fr")) == (
        "Tes cartes pour la donne n° 12 à <#42>\u00a0: **A♥ K♦**"
    )
    assert strip_vs(render_my_cards(cards("Ah Kd"), "en")) == "Your cards: **A♥ K♦**"
    assert strip_vs(render_my_cards(cards("Ah Kd"), "fr", value("Ah Ad Kd 9c 2s"))) == (
        "Tes cartes\u00a0: **A♥ K♦** — Paire d'as"
    )
    assert render_my_cards((), "fr") == "Tu n'as pas de cartes dans la donne en cours."


def test_hole_card_dms_and_coach_titles_do_not_fill_the_render_cache() -> None:
    """A DM names its hand and carries new proofs at every deal: remembered by `t`'s cache, each (about 1.5 KB
    with its key) would only push out texts that come back (issue 14). Same texts as `t` renders them."""
    from bot.poker import parse_cards
    from bot.poker.coach import coach_facts
    from bot.poker.seal import DeckSeal
    from bot.render import i18n
    from bot.render.cards import cards_text
    from bot.render.coach import coach_dm_text

    facts = coach_facts(parse_cards("Ah Qh"), parse_cards("Kh 8h 5h"), to_call=0, pot=40, opponents=2, trials=50)
    i18n.clear_render_cache()
    render_hole_cards_dm(cards("Ah Kd"), 1, "<#42>", "fr")  # the card texts and labels, remembered once
    coach_dm_text(facts, 1, "<#42>", "en")
    before = i18n._render_cached.cache_info().currsize
    texts = []
    for number in range(2, 60):
        seal = DeckSeal.seal(cards("Ah Kd Qs Jc Th 9d"))
        proofs = tuple(p.token() for p in seal.hole_proofs(3, 0))
        texts.append((number, proofs, render_hole_cards_dm(cards("Ah Kd"), number, "<#42>", "fr", proofs)))
        coach_dm_text(facts, number, "<#42>", "en")
    assert i18n._render_cached.cache_info().currsize == before
    for number, proofs, text in texts[:3]:
        assert text == (
            i18n.t("dm.hole_cards", "fr", number=number, table="<#42>", cards=cards_text(tuple(cards("Ah Kd"))))
            + "\n"
            + i18n.t("dm.seal_proofs", "fr", tokens="\n".join(f"`{token}`" for token in proofs))
        )
