"""The table message, its buttons and the raise modal: content in both languages and Discord's limits."""

import pytest

from bot.render import (
    EmbedSpec,
    SeatView,
    TableView,
    render_action_buttons,
    render_raise_modal,
    render_table,
)
from bot.render.embeds import DESCRIPTION_MAX, EMBED_TOTAL_MAX, FIELD_VALUE_MAX
from tests.render.fakes import ActionKind, BlindPosted, HoleCardsDealt, LegalActions, PlayerActed, cards, strip_vs

A = ActionKind
SEATS = (
    SeatView(1, "Alice", 86, 14, "active", is_actor=True),
    SeatView(3, "Bob", 98, 2, "folded"),
    SeatView(4, "Chloé", 36, 14, "all_in", is_button=True),
    SeatView(6, "Dan", 200, 0, "sitting_out"),
)
EVENTS = (
    BlindPosted(0, "small_blind", 1),
    BlindPosted(1, "big_blind", 2),
    HoleCardsDealt(0, cards("Kh Kd")),
    PlayerActed(2, A.RAISE, 6, 6),
    PlayerActed(0, A.RAISE, 14, 13),
    PlayerActed(1, A.FOLD, 2, 0),
    PlayerActed(2, A.CALL, 14, 8, True),
)
VIEW = TableView(
    hand_number=7,
    seats=SEATS,
    board=cards("Ks 9d 9h"),
    pots=(30, 16),
    street=1,
    deadline=1700000060,
    legal=LegalActions(call_amount=6),
    names=("Alice", "Bob", "Chloé"),
    events=EVENTS,
)

TABLE_EN = """\
Blinds 1/2 · Cash game
**Board**: K♠ 9♦ 9♥
**Pots**: Main pot: 30 · Side pot 1: 16

▶ ` 1` **Alice** — 86 · bet 14
\u2003 ` 3` Bob — 98 · bet 2 · folded
\u2003 ` 4` Chloé Ⓓ — 36 · bet 14 · all-in
\u2003 ` 6` Dan — 200 · sitting out

▶ **Alice** to act: 6 to call — <t:1700000060:R>"""

TABLE_FR = """\
Blinds 1/2 · Cash game
**Plateau**\u00a0: K♠ 9♦ 9♥
**Pots**\u00a0: Pot principal\u00a0: 30 · Pot annexe 1\u00a0: 16

▶ ` 1` **Alice** — 86 · mise 14
\u2003 ` 3` Bob — 98 · mise 2 · couché
\u2003 ` 4` Chloé Ⓓ — 36 · mise 14 · tapis
\u2003 ` 6` Dan — 200 · en pause

▶ À **Alice** de parler\u00a0: 6 à suivre — <t:1700000060:R>"""


@pytest.mark.parametrize(
    ("locale", "title", "description", "recent"),
    [
        (
            "en",
            "#poker — hand #7",
            TABLE_EN,
            "Chloé raises to 6\nAlice raises to 14\nBob folds\nChloé calls 8 and is all-in",
        ),
        (
            "fr",
            "#poker — donne n° 7",
            TABLE_FR,
            "Chloé relance à 6\nAlice relance à 14\nBob se couche\nChloé suit (8) et fait tapis",
        ),
    ],
)
def test_table_message_shows_board_pots_seats_turn_and_last_actions(locale, title, description, recent):
    spec = render_table(VIEW, locale, "#poker")
    assert spec.title == title
    assert strip_vs(spec.description) == description
    assert len(spec.fields) == 1
    assert spec.fields[0].value.endswith(recent)
    assert "K♥" not in strip_vs(str(spec.to_dict()))  # Alice's hole cards are not public


def test_table_without_timer_or_bet_to_call():
    view = TableView(hand_number=3, seats=SEATS, street=0, legal=LegalActions(can_check=True), pots=(3,))
    assert render_table(view, "en").description.endswith("▶ **Alice** to act")
    assert "**Pot**: 3" in render_table(view, "en").description
    assert render_table(view, "fr").description.endswith("▶ À **Alice** de parler")


def test_idle_table_waits_for_players_or_shows_the_next_deal():
    idle = TableView(seats=(SeatView(2, "Alice", 100, state="waiting"),))
    spec = render_table(idle, "fr")
    assert spec.title == "Table de poker"
    assert spec.description.endswith("En attente de joueurs\u00a0: rejoignez la table avec `/poker join`.")
    assert "▶" not in spec.description
    soon = TableView(hand_number=4, seats=idle.seats, next_hand_at=1700000100)
    assert render_table(soon, "en").description.endswith("Next hand <t:1700000100:R>.")


def test_table_with_ante_tournament_level():
    view = TableView(hand_number=1, ante=1, kind="tournament", level=2, street=0, seats=SEATS)
    first = render_table(view, "fr").description.splitlines()[0]
    assert first == "Blinds 1/2 · ante 1 · Tournoi · niveau 2"


def _assert_within_limits(spec: EmbedSpec):
    assert spec.total_length() <= EMBED_TOTAL_MAX
    assert len(spec.description) <= DESCRIPTION_MAX
    assert len(spec.fields) <= 25
    assert all(len(f.value) <= FIELD_VALUE_MAX and len(f.name) <= 256 for f in spec.fields)
    assert len(spec.title) <= 256


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_ten_players_with_long_names_fit_discord_limits(locale):
    long_names = [f"{'*_~`|>' * 6}{i}" for i in range(10)]  # escaped: every char doubles
    seats = tuple(
        SeatView(i + 1, long_names[i], 9_999_999_999, 9_999_999_999, "all_in", is_button=i == 0, is_actor=i == 1)
        for i in range(10)
    )
    events = tuple(PlayerActed(i % 10, A.RAISE, 10**12 + i, 10**12, True) for i in range(200))
    view = TableView(
        hand_number=123456,
        small_blind=10**9,
        big_blind=2 * 10**9,
        ante=10**8,
        seats=seats,
        board=cards("As Ks Qs Js 10s"),
        pots=tuple(10**12 for _ in range(9)),
        street=3,
        deadline=1700000000,
        legal=LegalActions(call_amount=10**12),
        names=tuple(long_names),
        events=events,
        kind="tournament",
        level=99,
    )
    spec = render_table(view, locale, "x" * 500)
    _assert_within_limits(spec)
    for name in long_names:
        assert name[:10].replace("*", "\\*").replace("_", "\\_")[:4] in spec.description


def test_action_buttons_facing_a_bet():
    legal = LegalActions(call_amount=1000, can_raise=True, all_in_to=2500)
    en = render_action_buttons(legal, "en")
    assert [(b.action, b.label) for b in en] == [
        ("fold", "Fold"),
        ("call", "Call 1,000"),
        ("raise", "Raise…"),
        ("all_in", "All-in 2,500"),
        ("cards", "My cards"),
    ]
    fr = render_action_buttons(legal, "fr")
    assert [b.label for b in fr] == ["Se coucher", "Suivre 1\u202f000", "Relancer…", "Tapis 2\u202f500", "Mes cartes"]


def test_action_buttons_with_no_bet_and_between_hands():
    legal = LegalActions(can_check=True, can_call=False, can_bet=True, can_raise=False, can_fold=False)
    assert [b.label for b in render_action_buttons(legal, "fr")] == ["Parole", "Miser…", "Tapis 100", "Mes cartes"]
    assert [b.action for b in render_action_buttons(None, "en")] == ["cards"]


def test_raise_modal_says_raise_to_with_min_and_max():
    modal = render_raise_modal(LegalActions(min_raise_to=22, max_raise_to=100), "en")
    assert (modal.title, modal.label, modal.default) == ("Raise", "Raise to (min 22, max 100)", "22")
    modal = render_raise_modal(LegalActions(min_raise_to=22, max_raise_to=100), "fr")
    assert (modal.title, modal.label) == ("Relancer", "Relancer à (min 22, max 100)")
    bet = render_raise_modal(LegalActions(can_bet=True, can_raise=False, min_raise_to=2, max_raise_to=98), "fr")
    assert (bet.title, bet.label) == ("Miser", "Mise (min 2, max 98)")


def test_raise_modal_label_fits_45_characters_with_huge_amounts():
    modal = render_raise_modal(LegalActions(min_raise_to=10**12, max_raise_to=10**15), "fr")
    assert len(modal.label) <= 45 and modal.label == "Relancer à"
    assert (
        modal.placeholder == "De 1\u202f000\u202f000\u202f000\u202f000 à 1\u202f000\u202f000\u202f000\u202f000\u202f000"
    )
    assert modal.default == str(10**12)
