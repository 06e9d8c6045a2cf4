"""The texts of the table's flow, in both languages: the one-line summary an old table message becomes, the
blind level going up, the tournament line of the table message, the notices of leaving and busting."""

from __future__ import annotations

from bot.poker import HandResult, PotResult, evaluate, parse_cards
from bot.render import render_hand_summary, render_level_up, render_player_notice
from bot.render.table import render_tournament_line
from bot.tables import LevelAnnouncement, PlayerAnnouncement, TableSnapshot

BOARD = tuple(parse_cards("Ks 9d 4c 2h Ac"))
KINGS = evaluate([*parse_cards("Kh Qd"), *BOARD])


def plain(text: str | None) -> str | None:
    """French typography puts no-break spaces before ":"; compare with plain spaces."""
    return None if text is None else text.replace("\u202f", " ").replace("\u00a0", " ")


def result(pots: tuple[PotResult, ...], showdown: bool = True) -> HandResult:
    return HandResult(3, BOARD, (), (), pots, (), showdown)


def test_an_old_table_message_becomes_the_one_line_summary_of_its_hand() -> None:
    won = result((PotResult(0, 24, ((1, "alice", 24),), KINGS),))
    assert render_hand_summary(3, won, "en") == "Hand #3 · alice wins 24 with Pair of kings · K♠︎ 9♦︎ 4♣︎ 2♥︎ A♣︎"
    assert render_hand_summary(3, won, "fr").startswith("Donne n° 3 · alice gagne 24 avec ")


def test_a_summary_adds_up_each_winners_pots_and_names_no_hand_without_a_showdown() -> None:
    split = result(
        (PotResult(0, 30, ((1, "alice", 15), (2, "bob", 15)), KINGS), PotResult(1, 10, ((2, "bob", 10),), KINGS))
    )
    line = render_hand_summary(3, split, "en")
    assert "alice wins 15 with Pair of kings, bob wins 25 with Pair of kings" in line
    folded = HandResult(4, (), (), (), (PotResult(0, 3, ((2, "bob", 3),), None),), (), False)
    assert render_hand_summary(4, folded, "en") == "Hand #4 · bob wins 3"


def test_a_replaced_table_message_points_to_the_new_one() -> None:
    assert render_hand_summary(2, None, "en") == "Hand #2: the table moved to a newer message below."
    assert plain(render_hand_summary(0, None, "fr")) == "La table est passée dans un message plus récent, plus bas."


def test_the_blinds_going_up_say_the_level_and_what_comes_next() -> None:
    up = LevelAnnouncement(2, 2, 4, 0, (5, 10, 1), 2, "hands")
    assert render_level_up(up, "en") == "Blinds go up: level 2, 2/4 (next level in 2 hands)."
    assert plain(render_level_up(up, "fr")) == "Les blinds montent : niveau 2, 2/4 (niveau suivant dans 2 donnes)."
    last = LevelAnnouncement(3, 5, 10, 1, None, None, "hands")
    assert render_level_up(last, "en") == "Blinds go up: level 3, 5/10, ante 1 (the last level)."
    soon = LevelAnnouncement(1, 1, 2, 0, (2, 4, 0), 1, "minutes")
    assert render_level_up(soon, "en").endswith("(next level in 1 minute).")


def test_a_tournament_table_shows_the_next_level_the_players_left_and_the_average_stack() -> None:
    snap = TableSnapshot(
        1,
        2,
        3,
        4,
        "tournament",
        "en",
        5,
        2,
        4,
        0,
        (),
        level=2,
        next_level=(5, 10, 1),
        next_level_in=3,
        players_left=3,
        average_stack=133,
    )
    assert (
        render_tournament_line(snap, "en") == "Next level: 5/10, ante 1 in 3 hands · 3 players left · average stack 133"
    )
    assert plain(render_tournament_line(snap, "fr")) == (
        "Niveau suivant : 5/10, ante 1 dans 3 donnes · 3 joueurs restants · pile moyenne 133"
    )
    closed = TableSnapshot(1, 2, 3, 4, "tournament", "en", 5, 2, 4, 0, (), closed=True, level=2, players_left=1)
    assert render_tournament_line(closed, "en") is None


def test_leaving_and_busting_are_one_clear_notice_each() -> None:
    left = PlayerAnnouncement("forfeited", 1, "chloe", action="fold")
    assert render_player_notice(left, "en") == "chloe leaves the table: their hand is folded."
    assert plain(render_player_notice(left, "fr")) == "chloe quitte la table : sa main est couchée."
    busted = PlayerAnnouncement("busted", 1, "dave", seat=2, chips=0)
    assert "`/poker join`" in render_player_notice(busted, "en") and "`/poker join`" in render_player_notice(
        busted, "fr"
    )
    rebuy = PlayerAnnouncement("rebuy", 1, "dave", seat=2, chips=30, stack=70)
    assert render_player_notice(rebuy, "en") == "dave rebuys 30 (stack 70)."
