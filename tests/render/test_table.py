"""The table message, its buttons and the raise modal: content in both languages and Discord's limits."""

import pytest

from bot.poker import ActionKind, BlindPosted, Hand, HandSettings, HoleCardsDealt, PlayerActed, Street, StreetDealt
from bot.render import (
    EmbedSpec,
    SeatView,
    TableSnapshot,
    render_action_buttons,
    render_raise_modal,
    render_table,
)
from bot.render.embeds import DESCRIPTION_MAX, EMBED_TOTAL_MAX, FIELD_VALUE_MAX
from tests.render.builders import cards, legal_actions, strip_vs

A = ActionKind
# Hand 7 on the flop, one consistent hand: preflop Alice (SB) and Bob (BB) post, Chloé (button) raises to 6, Dan
# goes all-in for 10, Alice raises to 30, Bob folds, Chloé calls: main pot 32 (Dan's 10 from three players and
# Bob's 2), side pot 40. Flop: Alice bets 14, Chloé raises all-in to 34; Alice has 20 to call. Eve sits out.
SEATS = (
    SeatView(1, "Alice", 86, 14, "active", is_actor=True, blind="small_blind"),
    SeatView(3, "Bob", 98, 0, "folded", blind="big_blind"),
    SeatView(4, "Chloé", 0, 34, "all_in", is_button=True),
    SeatView(6, "Dan", 0, 0, "all_in"),
    SeatView(8, "Eve", 200, 0, "sitting_out"),
)
EVENTS = (
    BlindPosted(0, "small_blind", 1),
    BlindPosted(1, "big_blind", 2),
    HoleCardsDealt(0, cards("Kh Kd")),
    PlayerActed(2, A.RAISE, 6, 6, False),
    PlayerActed(3, A.RAISE, 10, 10, True),
    PlayerActed(0, A.RAISE, 30, 29, False),
    PlayerActed(1, A.FOLD, 2, 0, False),
    PlayerActed(2, A.CALL, 30, 24, False),
    StreetDealt(Street.FLOP, cards("Ks 9d 9h"), cards("Ks 9d 9h")),
    PlayerActed(0, A.BET, 14, 14, False),
    PlayerActed(2, A.RAISE, 34, 34, True),
)
VIEW = TableSnapshot(
    hand_number=7,
    seats=SEATS,
    board=cards("Ks 9d 9h"),
    pots=(32, 40),
    street=1,
    deadline=1700000060,
    legal=legal_actions(call_amount=20),
    names=("Alice", "Bob", "Chloé", "Dan"),
    events=EVENTS,
)

TABLE_EN = """\
Blinds 1/2 · Cash game
**Board**: K♠ 9♦ 9♥
**Pots**: Main pot: 32 · Side pot 1: 40

▶ ` 1` **Alice** SB — 86 · bet 14
\u2003 ` 3` Bob BB — 98 · folded
\u2003 ` 4` Chloé Ⓓ — 0 · bet 34 · all-in
\u2003 ` 6` Dan — 0 · all-in
\u2003 ` 8` Eve — 200 · sitting out

▶ **Alice** to act: 20 to call — <t:1700000060:R>"""

TABLE_FR = """\
Petite blind 1, grosse blind 2 · Partie libre
**Tableau**\u00a0: K♠ 9♦ 9♥
**Pots**\u00a0: Pot principal\u00a0: 32 · Pot annexe 1\u00a0: 40

▶ ` 1` **Alice** SB — 86 · mise 14
\u2003 ` 3` Bob BB — 98 · couché
\u2003 ` 4` Chloé Ⓓ — 0 · mise 34 · tapis
\u2003 ` 6` Dan — 0 · tapis
\u2003 ` 8` Eve — 200 · en pause

▶ À **Alice** de parler\u00a0: 20 à suivre — <t:1700000060:R>"""

# The last six lines, each betting line with the pot it left (issue 11 item 15): 120 in the middle at the end
# (pots 32 + 40, bets 14 + 34).
RECENT_EN = """\
Alice raises to 30 · pot 48
Bob folds · pot 48
Chloé calls 24 · pot 72
Flop: K♠ 9♦ 9♥
Alice bets 14 · pot 86
Chloé raises to 34 and is all-in · pot 120"""

RECENT_FR = """\
Alice relance à 30 · pot 48
Bob se couche · pot 48
Chloé suit (24) · pot 72
Flop\u00a0: K♠ 9♦ 9♥
Alice mise 14 · pot 86
Chloé relance à 34 et fait tapis · pot 120"""


@pytest.mark.parametrize(
    ("locale", "title", "description", "recent"),
    [
        ("en", "#poker — hand #7", TABLE_EN, RECENT_EN),
        ("fr", "#poker — donne n° 7", TABLE_FR, RECENT_FR),
    ],
)
def test_table_message_shows_board_pots_seats_turn_and_last_actions(locale, title, description, recent):
    spec = render_table(VIEW, locale, "#poker")
    assert spec.title == title
    assert strip_vs(spec.description) == description
    assert len(spec.fields) == 1
    assert strip_vs(spec.fields[0].value) == recent
    assert "K♥" not in strip_vs(str(spec.to_dict()))  # Alice's hole cards are not public


def test_table_without_timer_or_bet_to_call():
    seats = (SeatView(1, "Alice", 98, 0, "active", is_actor=True), SeatView(3, "Bob", 98, 0, "active"))
    view = TableSnapshot(hand_number=3, seats=seats, street=1, legal=legal_actions(can_check=True), pots=(4,))
    assert render_table(view, "en").description.endswith("▶ **Alice** to act")
    assert "**Pot**: 4" in render_table(view, "en").description.splitlines()
    assert render_table(view, "fr").description.endswith("▶ À **Alice** de parler")


def test_idle_table_waits_for_players_or_shows_the_next_deal():
    idle = TableSnapshot(seats=(SeatView(2, "Alice", 100, state="waiting"),))
    spec = render_table(idle, "fr")
    assert spec.title == "Table de poker"
    assert spec.description.endswith("En attente de joueurs\u00a0: rejoignez la table avec `/poker join`.")
    assert "▶" not in spec.description
    soon = TableSnapshot(hand_number=4, seats=idle.seats, next_hand_at=1700000100)
    assert render_table(soon, "en").description.endswith("Next hand <t:1700000100:R>.")


def test_table_with_ante_tournament_level():
    view = TableSnapshot(hand_number=1, ante=1, kind="tournament", level=2, street=0, seats=SEATS)
    first = render_table(view, "fr").description.splitlines()[0]
    assert first == "Petite blind 1, grosse blind 2 · ante 1 · Tournoi · niveau 2"


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
    view = TableSnapshot(
        hand_number=123456,
        small_blind=10**9,
        big_blind=2 * 10**9,
        ante=10**8,
        seats=seats,
        board=cards("As Ks Qs Js 10s"),
        pots=tuple(10**12 for _ in range(9)),
        street=3,
        deadline=1700000000,
        legal=legal_actions(call_amount=10**12),
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
    legal = legal_actions(call_amount=1000, can_raise=True, all_in_to=2500)
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
    legal = legal_actions(can_check=True, can_call=False, can_bet=True, can_raise=False, can_fold=False)
    assert [b.label for b in render_action_buttons(legal, "fr")] == ["Parole", "Miser…", "Tapis 100", "Mes cartes"]
    assert [b.action for b in render_action_buttons(None, "en")] == ["cards"]


def test_raise_modal_says_raise_to_with_min_and_max():
    modal = render_raise_modal(legal_actions(min_raise_to=22, max_raise_to=100), "en")
    assert (modal.title, modal.label, modal.default) == ("Raise", "Raise to (min 22, max 100)", "22")
    modal = render_raise_modal(legal_actions(min_raise_to=22, max_raise_to=100), "fr")
    assert (modal.title, modal.label) == ("Relancer", "Relancer à (min 22, max 100)")
    bet = render_raise_modal(legal_actions(can_bet=True, can_raise=False, min_raise_to=2, max_raise_to=98), "fr")
    assert (bet.title, bet.label) == ("Miser", "Mise (min 2, max 98)")


def test_raise_modal_label_fits_45_characters_with_huge_amounts():
    modal = render_raise_modal(legal_actions(min_raise_to=10**12, max_raise_to=10**15), "fr")
    assert len(modal.label) <= 45 and modal.label == "Relancer à"
    assert (
        modal.placeholder == "De 1\u202f000\u202f000\u202f000\u202f000 à 1\u202f000\u202f000\u202f000\u202f000\u202f000"
    )
    assert modal.default == str(10**12)


def _engine_legal(stacks, *actions):
    """The engine's LegalActions after `actions` (method names) in a fresh hand (blinds 1/2)."""
    hand = Hand(HandSettings(), list(stacks))
    for action, *args in actions:
        getattr(hand, action)(*args)
    return hand.legal_actions()


@pytest.mark.parametrize(
    ("stacks", "actions", "en", "fr"),
    [
        # The "Call 8" beside "All-in 8": the call is the whole stack; one button says both.
        ([100, 100, 100, 8], [("raise_to", 20)], ["Fold", "Call 8 (all-in)"], ["Se coucher", "Suivre 8 (tapis)"]),
        # The big blind's 6 behind can only call 20: "Call 6 (all-in)", not also "All-in 8".
        ([100, 8, 100], [("raise_to", 20), ("fold",)], ["Fold", "Call 6 (all-in)"], ["Se coucher", "Suivre 6 (tapis)"]),
        # "Raise to (min 9, max 9)" beside "All-in 9": short of a full raise, the raise is the all-in alone.
        (
            [9, 100, 100],
            [("raise_to", 6)],
            ["Fold", "Call 5", "All-in 9"],
            ["Se coucher", "Suivre 5", "Tapis 9"],
        ),
        # Exactly the minimum raise behind: still one button.
        ([10, 100, 100], [("raise_to", 6)], ["Fold", "Call 5", "All-in 10"], ["Se coucher", "Suivre 5", "Tapis 10"]),
        # A real choice of amounts keeps both: Raise… (to 10 up to 18) and All-in 18.
        (
            [18, 100, 100],
            [("raise_to", 6)],
            ["Fold", "Call 5", "Raise…", "All-in 18"],
            ["Se coucher", "Suivre 5", "Relancer…", "Tapis 18"],
        ),
    ],
)
def test_one_button_per_action(stacks, actions, en, fr):
    """Issue 11 item 12: no two buttons that do the same thing."""
    legal = _engine_legal(stacks, *actions)
    assert [b.label for b in render_action_buttons(legal, "en")] == [*en, "My cards"]
    assert [b.label for b in render_action_buttons(legal, "fr")] == [*fr, "Mes cartes"]
    assert len({b.action for b in render_action_buttons(legal, "en")}) == len(en) + 1


def test_raise_modal_with_one_amount_left_says_it_is_the_all_in():
    legal = _engine_legal([9, 100, 100], ("raise_to", 6))
    assert (legal.min_raise_to, legal.max_raise_to) == (9, 9)
    assert render_raise_modal(legal, "en").label == "Raise to 9 (all-in)"
    assert render_raise_modal(legal, "fr").label == "Relancer à 9 (tapis)"
    assert render_raise_modal(legal, "en").default == "9"


@pytest.mark.parametrize(
    ("waiting", "en", "fr"),
    [
        (
            "players",
            "Waiting for players: join with `/poker join`.",
            "En attente de joueurs\u00a0: rejoignez la table avec `/poker join`.",
        ),
        (
            "second_player",
            "Waiting for a second player — join with `/poker join`.",
            "En attente d'un deuxième joueur — rejoignez la table avec `/poker join`.",
        ),
        (
            "sitting_in",
            "Everyone is sitting out: `/poker sitin` to be dealt in again.",
            "Tout le monde fait une pause\u00a0: `/poker sitin` pour revenir en jeu.",
        ),
        (
            "others_sitting_out",
            "Waiting for a second player: the others are sitting out (`/poker sitin` to be dealt in again).",
            "En attente d'un deuxième joueur\u00a0: les autres font une pause (`/poker sitin` pour revenir en jeu).",
        ),
        (
            "start",
            "Ready to deal: `/poker start` starts the game.",
            "Prêt à distribuer\u00a0: `/poker start` lance la partie.",
        ),
    ],
)
def test_a_table_that_cannot_deal_says_what_it_waits_for_not_a_next_hand_time(waiting, en, fr):
    """Issue 11 item 6: "Next hand <t:…:R>" stayed, in the past, on a table where no hand could start."""
    view = TableSnapshot(hand_number=4, seats=(SeatView(2, "Alice", 100, state="waiting"),), waiting=waiting)
    assert render_table(view, "en").description.endswith("\n" + en)
    assert render_table(view, "fr").description.endswith("\n" + fr)
    stale = TableSnapshot(hand_number=4, seats=view.seats, waiting=waiting, next_hand_at=1700000100)
    assert "<t:" not in render_table(stale, "en").description


def test_a_running_table_between_two_deals_says_a_hand_is_being_dealt():
    view = TableSnapshot(hand_number=4, seats=(SeatView(2, "Alice", 100, state="waiting"),), running=True)
    assert render_table(view, "en").description.endswith("\nDealing the next hand…")
    assert render_table(view, "fr").description.endswith("\nDistribution de la prochaine donne…")
