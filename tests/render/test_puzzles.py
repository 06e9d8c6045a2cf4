"""The decision puzzle's texts (issue 17): the rule book 001's spot, posted and answered, in English and French."""

from __future__ import annotations

from bot.poker.puzzles import Answer, Assessment
from bot.render.cards import cards_text
from bot.render.puzzles import in_big_blinds, puzzle_text, reveal_text
from bot.tables.puzzles import load_spots
from tests.render.test_coach import NBSP, NNBSP, c

ASSESSMENT = Assessment(pot_odds=2 / 9, equity=0.52, margin=0.016, favoured=(Answer.CALL,))


def test_golden_the_rule_books_spot_as_posted() -> None:
    spot = load_spots()[0]
    kc9d = cards_text(spot.hole)
    assert puzzle_text(spot, "en").splitlines() == [
        "**Decision puzzle** — a real hand, 3 players",
        f"You are **BB** with **{kc9d}**.",
        "Stacks: SB 99.5 BB, BB 99 BB, BTN 98 BB",
        "Preflop: BTN raises to 2 BB, SB folds",
        "Board: — · Pot: 3.5 BB · To call: 1 BB",
        "Fold, call or raise? Answer privately with the buttons: the answer comes in a minute.",
    ]
    assert puzzle_text(spot, "fr").splitlines() == [
        "**À vous : une décision** — une vraie donne, 3 joueurs".replace(" :", f"{NBSP}:"),
        f"Vous êtes **BB** avec **{kc9d}**.",
        f"Tapis{NBSP}: SB 99,5 BB, BB 99 BB, BTN 98 BB",
        f"Avant le flop{NBSP}: BTN relance à 2 BB, SB se couche",
        f"Tableau{NBSP}: — · Pot{NBSP}: 3,5 BB · À suivre{NBSP}: 1 BB",
        f"Vous vous couchez, vous payez ou vous relancez{NNBSP}? Répondez en privé avec les boutons{NBSP}: la réponse "
        "vient dans une minute.",
    ]


def test_golden_the_answer_with_the_vote_the_numbers_and_the_real_hand() -> None:
    spot = load_spots()[0]
    votes = {Answer.FOLD: 1, Answer.CALL: 1}
    assert reveal_text(spot, ASSESSMENT, votes, "en").splitlines() == [
        "**Answer** — the channel voted: fold 1, call 1, raise 0.",
        "Pot odds: a call of 1 BB into 3.5 BB pays if it wins more than 22% of the time.",
        "Against BTN's likely hands (the best 45% of starting hands, those that fit the board), "
        f"{c('Kc9d')} wins about 52% of the pot (±2%).",
        "The numbers favour: **call**. The hand wins more often than the price asks: the call pays.",
        "In the real hand, the player chose to call.",
    ]
    assert reveal_text(spot, ASSESSMENT, votes, "fr").splitlines() == [
        f"**Réponse** — le salon a voté{NBSP}: se coucher 1, suivre 1, relancer 0.",
        f"Cote du pot{NBSP}: suivre 1 BB pour un pot de 3,5 BB est payant si l'on gagne plus de 22{NBSP}% des fois.",
        "Contre les mains probables de BTN (les 45" + NBSP + "% meilleures mains de départ, celles qui vont avec le "
        f"tableau), {c('Kc9d')} gagne environ 52{NBSP}% du pot (±2{NBSP}%).",
        f"Les chiffres donnent{NBSP}: **suivre**. La main gagne plus souvent que le prix ne le demande{NBSP}: suivre "
        "est payant.",
        "Dans la vraie donne, le joueur a choisi de suivre.",
    ]


def test_amounts_are_written_in_big_blinds() -> None:
    assert in_big_blinds(3500, 1000, "en") == "3.5 BB"
    assert in_big_blinds(3500, 1000, "fr") == "3,5 BB"
    assert in_big_blinds(200_000, 2, "en") == "100,000 BB"


def test_golden_a_heads_up_spot_names_the_button_as_the_small_blind() -> None:
    spot = next(s for s in load_spots() if s.key == "phh-real-slice-27-2")
    q6 = cards_text(spot.hole)
    assert puzzle_text(spot, "en").splitlines() == [
        "**Decision puzzle** — a real hand, heads-up: the button (BTN/SB) posts the small blind and acts first "
        "before the flop, last after it",
        f"You are **BTN/SB** with **{q6}**.",
        "Stacks: BB 31 BB, BTN/SB 120 BB",
        "Preflop: BTN/SB raises to 3 BB, BB raises to 8 BB",
        "Board: — · Pot: 11 BB · To call: 5 BB",
        "Fold, call or raise? Answer privately with the buttons: the answer comes in a minute.",
    ]
    assert puzzle_text(spot, "fr").splitlines()[:4] == [
        f"**À vous{NBSP}: une décision** — une vraie donne en heads-up{NBSP}: le donneur (BTN/SB) pose la petite "
        "blind et parle en premier avant le flop, en dernier après",
        f"Vous êtes **BTN/SB** avec **{q6}**.",
        f"Tapis{NBSP}: BB 31 BB, BTN/SB 120 BB",
        f"Avant le flop{NBSP}: BTN/SB relance à 3 BB, BB relance à 8 BB",
    ]
