"""Leaderboard, stats and the hand-history list, in both languages and within Discord's limits."""

from dataclasses import dataclass

from bot.poker import ActionKind, PlayerActed, PotAwarded, Street, StreetDealt
from bot.render import (
    LeaderboardEntry,
    format_duration,
    render_audit,
    render_hand_history,
    render_history_line,
    render_history_list,
    render_leaderboard,
    render_settings,
    render_stats,
)
from bot.render.embeds import DESCRIPTION_MAX, EMBED_TOTAL_MAX
from bot.storage import StatsRow
from tests.render.builders import cards, strip_vs

NNBSP = "\u202f"


def test_leaderboard_by_balance_with_the_callers_rank():
    entries = [LeaderboardEntry(1, "Alice", 12_500), LeaderboardEntry(2, "Bob", 900)]
    spec = render_leaderboard(entries, "balance", "en", page=1, pages=3, caller=LeaderboardEntry(27, "Zoé", 40))
    assert spec.title == "Leaderboard — balances"
    assert spec.description == "1. Alice — 12,500\n2. Bob — 900\n\nYour rank: 27 — 40"
    assert spec.footer == "Page 1/3"
    fr = render_leaderboard(entries, "balance", "fr", caller=None)
    assert fr.description == f"1. Alice — 12{NNBSP}500\n2. Bob — 900\n\nTu n'as pas encore de rang."


def test_leaderboard_by_net_winnings_and_tournament_wins():
    net = render_leaderboard([LeaderboardEntry(1, "Alice", 300), LeaderboardEntry(2, "Bob", -1200)], "net", "fr")
    assert net.title == "Classement — gains nets en partie libre"
    assert net.description.startswith(f"1. Alice — +300\n2. Bob — \u22121{NNBSP}200")
    wins = render_leaderboard([LeaderboardEntry(1, "Alice", 1), LeaderboardEntry(2, "Bob", 3)], "wins", "en")
    assert wins.description.startswith("1. Alice — 1 win\n2. Bob — 3 wins")
    # An empty ranking says what it counts, never "nobody played" (issue 11 item 3).
    assert render_leaderboard([], "nonsense", "fr").description.startswith(
        "Personne n'a encore de jetons sur ce serveur."
    )
    assert render_leaderboard([], "wins", "en").description == (
        "No tournament has finished here yet: this ranking counts tournaments won.\n\n"
        "You have no rank here yet: you have not finished a tournament."
    )
    assert render_leaderboard([], "net", "en").description.startswith(
        "No hand has finished at a cash table here yet: net winnings count cash tables only"
    )


def test_a_huge_leaderboard_page_fits_and_keeps_the_callers_rank():
    entries = [LeaderboardEntry(i, "W" * 32, 10**15) for i in range(1, 500)]
    spec = render_leaderboard(entries, "balance", "fr", caller=LeaderboardEntry(1000, "me", 1))
    assert len(spec.description) <= DESCRIPTION_MAX and spec.total_length() <= EMBED_TOTAL_MAX
    assert spec.description.endswith("Ton rang\u00a0: 1000 — 1")
    assert "lignes de plus" in spec.description


def test_stats_in_both_languages():
    stats = StatsRow(
        guild_id=1,
        user_id=2,
        hands_played=1234,
        hands_won=200,
        won_at_showdown=80,
        went_to_showdown=120,
        hands_shown=95,
        biggest_pot=5000,
        net=-150,
        vpip_hands=313,  # 25.4% of the hands with a preflop decision
        pfr_hands=123,  # 10.0%
        preflop_decisions=1230,  # four big blinds walked
        tournaments_played=4,
        tournaments_won=1,
        balance=850,
    )
    en = render_stats("Alice", stats, "en")
    assert en.title == "Stats — Alice"
    assert [(f.name, f.value) for f in en.fields] == [
        ("Hands played", "1,234"),
        ("Hands won", "200"),
        ("Showdowns won / reached", "80 / 120"),
        ("Hands shown", "95"),
        ("Biggest pot", "5,000"),
        ("Net chips (cash tables)", "\u2212150"),
        ("VPIP", "25.4%"),
        ("PFR", "10.0%"),
        ("Tournaments played / won", "4 / 1"),
        ("Balance", "850"),
    ]
    fr = render_stats("Alice", stats, "fr")
    assert fr.title == "Statistiques — Alice"
    assert [f.name for f in fr.fields][3] == "Mains montrées"
    assert [f.value for f in fr.fields][:7] == [
        f"1{NNBSP}234",
        "200",
        "80 / 120",
        "95",
        f"5{NNBSP}000",
        "\u2212150",
        "25,4\u00a0%",
    ]
    empty = render_stats("Bob", StatsRow(1, 3, None, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), "fr")
    assert empty.description == "Aucune donne jouée pour l'instant."
    assert [f.value for f in empty.fields][6:8] == ["—", "—"]


def test_vpip_and_pfr_are_not_rates_of_walks():
    """Two hands, both walks in the big blind: no preflop decision yet, so no rate (not 0%)."""
    walks = StatsRow(1, 3, None, 2, 2, 0, 0, 0, 3, 2, 0, 0, 0, 0, 0)
    for locale in ("en", "fr"):
        spec = render_stats("Bob", walks, locale)
        assert [f.value for f in spec.fields][6:8] == ["—", "—"]


@dataclass(frozen=True)
class GuildSettings:
    guild_id: int
    language: str
    starting_grant: int
    refill_cooldown_s: int
    table_defaults: dict
    chosen_language: str | None = None


@dataclass(frozen=True)
class AuditReport:
    guild_id: int
    ok: bool
    balances: int
    on_tables: int
    issued: int
    problems: tuple


def test_settings_and_durations():
    settings = GuildSettings(
        1, "fr", 1000, 86400, {"small_blind": 1, "big_blind": 2, "buy_in": 100, "turn_timeout": 90}, "fr"
    )
    spec = render_settings(settings, "fr")
    assert [(f.name, f.value) for f in spec.fields] == [
        ("Langue", "Français — choisie dans `/poker-admin settings`"),
        ("Jetons de départ", f"1{NNBSP}000"),
        ("Délai entre deux recharges", "24 heures"),
        ("Blinds par défaut", "Petite blind 1, grosse blind 2"),
        ("Pile ou cave par défaut", "100"),
        ("Temps de jeu par défaut", "90 secondes"),
        ("Images de la table", "activées (messages des tours d'enchères et de l'abattage)"),
    ]
    off = GuildSettings(1, "en", 1000, 86400, {"pictures": False})
    assert (render_settings(off, "en").fields[-1].name, render_settings(off, "en").fields[-1].value) == (
        "Table pictures",
        "off",
    )
    assert render_settings(settings, "en").fields[0].value == "French — chosen in `/poker-admin settings`"
    assert format_duration(60, "en") == "1 minute"
    assert format_duration(1, "fr") == "1 seconde"
    assert format_duration(0, "en") == "0 seconds"


def test_settings_show_the_language_in_force_and_why():
    """Issue 11 item 9: the language a server's tables speak, and where it comes from, in the reader's language."""
    unchosen = GuildSettings(1, "en", 1000, 3600, {})
    french_server = render_settings(unchosen, "en", guild_locale="fr").fields[0]
    assert (french_server.name, french_server.value) == ("Language", "French — the server's Discord language")
    assert render_settings(unchosen, "fr", guild_locale="fr").fields[0].value == (
        "Français — la langue Discord du serveur"
    )
    assert render_settings(unchosen, "en", guild_locale="en-GB").fields[0].value == (
        "English — the server's Discord language"
    )
    assert render_settings(unchosen, "en", guild_locale="de").fields[0].value == (
        "English — the bot's default (the server's Discord language is neither English nor French)"
    )
    chose_english = GuildSettings(1, "en", 1000, 3600, {}, "en")
    assert render_settings(chose_english, "fr", guild_locale="fr").fields[0].value == (
        "Anglais — choisie dans `/poker-admin settings`"
    )


def test_audit_report():
    ok = render_audit(AuditReport(1, True, 900, 100, 1000, ()), "en")
    assert ok.description == "Audit passed: balances 900 + chips on tables 100 = chips issued 1,000."
    bad = render_audit(AuditReport(1, False, 900, 50, 1000, ("ledger row 7 does not chain",)), "fr")
    assert bad.description == (
        f"Audit ÉCHOUÉ\u00a0: soldes 900 + jetons sur les tables 50 ≠ jetons émis 1{NNBSP}000.\n\n"
        "- ledger row 7 does not chain"
    )


HAND = [
    PlayerActed(0, ActionKind.CALL, 2, 1, False),
    PlayerActed(1, ActionKind.CHECK, 2, 0, False),
    StreetDealt(Street.FLOP, cards("Ks 9d 9h"), cards("Ks 9d 9h")),
    PlayerActed(1, ActionKind.BET, 4, 4, False),
    PlayerActed(0, ActionKind.FOLD, 0, 0, False),
    PotAwarded(0, 4, ((1, 4),), None),
]


def test_history_line_and_list():
    line = render_history_line(12, HAND, ["Alice", "Bob"], "en")
    assert strip_vs(line) == "#12 · K♠ 9♦ 9♥ · Bob wins the pot (4)"
    assert (
        strip_vs(render_history_line(12, HAND, ["Alice", "Bob"], "fr")) == "n° 12 · K♠ 9♦ 9♥ · Bob remporte le pot (4)"
    )
    spec = render_history_list([line] * 3, "#poker", "en")
    assert spec.title == "Last hands — #poker"
    assert spec.footer == "`/history hand:<number>` shows one hand and its PHH file"
    empty = render_history_list([], "#poker", "fr")
    assert empty.description == "Aucune donne n'a encore été jouée à cette table."


def test_a_very_long_hand_history_fits():
    events = [PlayerActed(i % 10, ActionKind.RAISE, 10**12 + i, 10**12, False) for i in range(400)]
    names = ["N" * 32] * 10
    spec = render_hand_history(10**7, events, names, "fr", table="t" * 300, starting_stacks=[10**12] * 10)
    assert spec.total_length() <= EMBED_TOTAL_MAX
    assert all(len(f.value) <= 1024 for f in spec.fields)
