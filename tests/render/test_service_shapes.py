"""The renderers take the table service's own values (TableSnapshot, announcements, ServiceError) as they are,
and every service refusal code has a message in both languages."""

from bot.poker import Hand, HandResult, HandSettings, PotResult, ShownHand, Street, evaluate, full_deck, parse_cards
from bot.render import (
    render_player_notice,
    render_poker_error,
    render_showdown,
    render_street,
    render_table,
    render_table_closed,
)
from bot.render.i18n import has_key
from bot.tables import (
    PlayerAnnouncement,
    SeatView,
    StreetAnnouncement,
    TableClosedAnnouncement,
    TableSnapshot,
)
from bot.tables.errors import CODES as SERVICE_CODES
from bot.tables.errors import ServiceError
from tests.render.builders import strip_vs


def test_every_service_error_code_has_a_message_in_both_languages():
    for code in SERVICE_CODES:
        assert has_key(f"error.{code}", "en") and has_key(f"error.{code}", "fr"), code


def test_service_errors_render_by_code():
    error = ServiceError("not_your_turn_user", actor=42)
    assert render_poker_error(error, "fr") == "Ce n'est pas à toi de parler\u00a0: c'est à <@42>"
    assert render_poker_error(ServiceError("table_full", seats=6), "en") == "The table is full (6 seats)"


def _snapshot() -> TableSnapshot:
    stacked = list(parse_cards("Ah Kc Qs 8h Kd Qd 4c Ks 7h 2h 5c 9c 6c 3h"))
    hand = Hand(HandSettings(), [100, 100, 100], deck=stacked + [c for c in full_deck() if c not in stacked])
    hand.raise_to(6)
    names = ("Alice", "Bob", "Chloé")
    seats = tuple(
        SeatView(
            seat=i + 1,
            user_id=100 + i,
            name=names[i],
            stack=hand.stacks[i],
            bet=hand.bets[i],
            state="active",
            is_button=i == 2,
            is_actor=hand.actor == i,
            leaving=False,
            player=i,
        )
        for i in range(3)
    )
    return TableSnapshot(
        table_id=1,
        guild_id=2,
        channel_id=3,
        host_id=100,
        kind="cash",
        language="fr",
        hand_number=4,
        small_blind=1,
        big_blind=2,
        ante=0,
        seats=seats,
        board=hand.board,
        pots=hand.pots(),
        street=hand.street,
        actor_user_id=100,
        deadline=1700000000.5,
        legal=hand.legal_actions(),
        names=names,
        events=tuple(e for e in hand.events if type(e).__name__ != "HoleCardsDealt"),
    )


def test_table_snapshot_renders_as_it_is():
    spec = render_table(_snapshot(), "fr", "#poker")
    assert spec.title == "#poker — donne n° 4"
    text = strip_vs(spec.description)
    assert "▶ ` 1` **Alice** — 99 · mise 1" in text
    assert text.endswith("▶ À **Alice** de parler\u00a0: 5 à suivre — <t:1700000000:R>")
    # Each line with the pot it left, from the engine's own pots and bets (issue 11 item 15).
    assert spec.fields[0].value == (
        "Alice pose la petite blind (1) · pot 1\nBob pose la grosse blind (2) · pot 3\nChloé relance à 6 · pot 9"
    )
    assert "A♥" not in strip_vs(str(spec.to_dict()))


def test_service_announcements_render_as_they_are():
    board = parse_cards("Ks 7h 2h")
    street = StreetAnnouncement(hand_number=4, street=Street.FLOP, cards=board, board=board, pots=())
    assert strip_vs(render_street(street, "en")) == "**Flop**: K♠ 7♥ 2♥ · Pot: 0"
    result = HandResult(
        hand_number=4,
        board=board,
        shown=(),
        mucked=(),
        pots=(PotResult(index=0, amount=9, winners=((100, "Alice", 9),), value=None),),
        returned=((100, "Alice", 4),),
        showdown=False,
    )
    assert [f.value for f in render_showdown(result, "en").fields] == [
        "Alice wins the pot (9)",
        "Alice: 4",
    ]
    flush = evaluate(parse_cards("Ah 8h Ks 7h 2h 9c 3h"))
    shown = HandResult(
        hand_number=5,
        board=board,
        shown=(ShownHand(user_id=100, name="Alice", cards=parse_cards("Ah 8h"), value=flush),),
        mucked=((101, "Bob"),),
        pots=(PotResult(index=0, amount=20, winners=((100, "Alice", 20),), value=flush),),
        returned=(),
        showdown=True,
    )
    assert [strip_vs(f.value) for f in render_showdown(shown, "fr").fields] == [
        "Alice\u00a0: A♥ 8♥ — Couleur à l'as\nBob\u00a0: cartes jetées",
        "Alice remporte le pot (20) — Couleur à l'as",
    ]
    notice = PlayerAnnouncement(kind="eliminated", user_id=101, name="Bob", place=2)
    assert render_player_notice(notice, "fr") == "Bob sort à la 2e place."
    closed = TableClosedAnnouncement(cashed_out=((100, "Alice", 150),))
    assert render_table_closed(closed, "en").fields[0].value == "Alice (150)"
