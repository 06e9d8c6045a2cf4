"""Make the decision puzzles' spots (bot/tables/puzzles.json) from public hand histories and the rule book.

    POKER_PHH_DIR=../shared/data/phh python scripts/make_puzzles.py [--per-street 15]

Reads the MIT-licensed PHH hands (tests/data/phh/real-slice.phhs and, when present, ../shared/data/phh/
real-dev.phhs; credits in bot/tables/PUZZLES.md). Each hand is replayed through the engine; a spot is a decision
of a player whose hole cards are known (they reached the showdown), facing a bet, with a raise allowed. One spot per
hand (its last such decision), then up to `--per-street` per street, so that every street is represented, and
as many as `--heads-up-per-street` heads-up spots per street (the button posts the small blind there). The
rule book 001's own spot (big blind with K♣9♦, the button min-raises) comes first. Names never appear: players are
positions.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.poker import ActionKind, Card, Hand, HandSettings, PokerError, Street, full_deck, parse_cards  # noqa: E402
from bot.poker.phh import PhhHand, load_file  # noqa: E402
from bot.poker.players import view_of  # noqa: E402
from bot.poker.puzzles import Spot  # noqa: E402

SLICE = ROOT / "tests/data/phh/real-slice.phhs"
#: The development corpus beside the repository (README: `../shared/data/phh`, or `$POKER_PHH_DIR`).
CORPUS = Path(os.environ.get("POKER_PHH_DIR", ROOT.parent / "shared/data/phh")) / "real-dev.phhs"
OUT = ROOT / "bot/tables/puzzles.json"


def _range_fraction(actions: list[tuple[Street, int, str, int | None]], opponent: int) -> float:
    """The stated range of the opponent: top 20 % for a first raise before the flop, 6 % for a re-raise, 35 % for a
    call of a raise, 70 % otherwise (the solid player's model)."""
    fraction, raises = 1.0, 0
    for street, player, kind, _ in actions:
        if street is not Street.PREFLOP:
            break
        if player == opponent and kind in ("bet", "raise"):
            fraction = min(fraction, 0.2 if raises == 0 else 0.06)
        elif player == opponent and kind == "call":
            fraction = min(fraction, 0.35 if raises else 0.7)
        if kind in ("bet", "raise"):
            raises += 1
    return 0.7 if fraction == 1.0 else fraction


def _deck(n: int, holes: dict[int, tuple[Card, ...]], board: tuple[Card, ...]) -> list[Card]:
    """A deck dealing the known hole cards and board; unknown cards are filled in from the rest."""
    used = {c for cards in holes.values() for c in cards} | set(board)
    rest = [c for c in full_deck() if c not in used]
    deck: list[Card | None] = [None] * (2 * n + 8)
    for player, cards in holes.items():
        deck[player], deck[n + player] = cards
    for slot, card in zip([2 * n + 1, 2 * n + 2, 2 * n + 3, 2 * n + 5, 2 * n + 7], board, strict=False):
        deck[slot] = card
    return [c if c is not None else rest.pop() for c in deck] + rest


def spots_of(phh: PhhHand, key: str, source: str) -> list[Spot]:
    """Every decision of this hand facing a bet by a player whose cards are known."""
    n = len(phh.starting_stacks)
    holes: dict[int, tuple[Card, ...]] = {}
    board: tuple[Card, ...] = ()
    moves: list[tuple[int, str, str | None]] = []
    for action in phh.actions:
        words = action.split()
        if words[:2] == ["d", "dh"] and "?" not in words[3]:
            holes[int(words[2][1:]) - 1] = parse_cards(words[3])
        elif words[:2] == ["d", "db"]:
            board += parse_cards(words[2])
        elif (
            words[0].startswith("p") and words[1] == "sm" and len(words) > 2 and "?" not in words[2] and words[2] != "-"
        ):
            holes[int(words[0][1:]) - 1] = parse_cards(words[2])  # shown at the showdown
        elif words[0].startswith("p") and words[1] in ("f", "cc", "cbr"):
            moves.append((int(words[0][1:]) - 1, words[1], words[2] if len(words) > 2 else None))
    if any(phh.settings.antes or ()) or phh.settings.ante or phh.settings.straddle:
        return []
    blinds = phh.settings.blinds_or_straddles
    if blinds is None or tuple(blinds[:2]) != tuple(sorted(blinds[:2])) or any(blinds[2:]) or not blinds[0]:
        return []  # only the usual small and big blind
    # Heads-up, PHH's p1 is the big blind and p2 the button, who posts the small blind (bot/poker/phh.py), and
    # `blinds_or_straddles` is still written [SB, BB]: our hand player 0 is the big blind and 1 the button too.
    small, big = blinds[0], blinds[1]
    hand = Hand(HandSettings(small_blind=small, big_blind=big), phh.starting_stacks, deck=_deck(n, holes, board))
    found: list[Spot] = []
    public: list[tuple[Street, int, str, int | None]] = []
    for player, verb, amount in moves:
        if hand.is_complete or hand.actor != player:
            return found  # a forfeit or an order the table would not follow: stop here
        view = view_of(hand, player)
        legal = view.legal
        if player in holes and legal.can_call and legal.can_raise and view.street.value <= Street.RIVER.value:
            assert view.hole_cards == holes[player], (key, player)  # the deck dealt the history's cards
            raisers = [a.player for a in view.history if a.raised and a.player != player]
            opponent = raisers[-1] if raisers else view.opponents[0]
            played = {"f": "fold", "cc": "call", "cbr": "raise"}[verb]
            found.append(
                Spot(
                    key=f"{key}-{len(public)}",
                    source=source,
                    players=n,
                    decider=player,
                    opponent=opponent,
                    big_blind=big,
                    stacks=view.stacks,
                    actions=tuple(public),
                    board=view.board,
                    street=view.street,
                    hole=view.hole_cards,
                    pot=view.pot,
                    to_call=legal.call_amount,
                    min_raise_to=legal.min_raise_to,
                    range_fraction=_range_fraction(public, opponent),
                    played=played,
                )
            )
        street, current = hand.street, hand.current_bet
        if verb == "f":
            kind, chips = ActionKind.FOLD, None
        elif verb == "cc":
            kind, chips = (ActionKind.CALL if legal.can_call else ActionKind.CHECK), None
        else:
            chips = round(float(amount or 0) * phh.scale)
            kind = ActionKind.BET if legal.can_bet else ActionKind.RAISE
            if chips >= legal.all_in_to:
                kind = ActionKind.ALL_IN
        try:
            event = hand.act(kind, chips if kind in (ActionKind.BET, ActionKind.RAISE) else None, player=player)
        except PokerError:
            return found  # the history and our rules part ways here (e.g. a short all-in's reopening)
        label = kind.value
        if kind is ActionKind.ALL_IN:
            label = ("bet" if current == 0 else "raise") if event.amount > current else "call"
        amount_shown = event.amount if label in ("bet", "raise") else event.added if label == "call" else None
        public.append((street, player, label, amount_shown))
    return found


def _source_lines(path: Path) -> dict[int, str]:
    """Each section's `# source:` comment (where the hand comes from), by section number."""
    found: dict[int, str] = {}
    section = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        if re.fullmatch(r"\[\d+\]", line.strip()):
            section = int(line.strip()[1:-1])
        elif line.startswith("# source:") and section:
            found[section] = line.removeprefix("# source:").strip().split(" (")[0]
    return found


def rulebook_spot() -> Spot:
    """Rule book 001: "You are in the big blind with K♣9♦. The button raises to 2 big blinds, the smallest raise
    allowed, and the small blind folds. You act last before the flop: fold, call or raise?" (100 BB each)."""
    hand = Hand(HandSettings(small_blind=1, big_blind=2), [200, 200, 200], deck=_deck(3, {1: parse_cards("Kc9d")}, ()))
    hand.act(ActionKind.RAISE, 4, player=2)
    hand.act(ActionKind.FOLD, player=0)
    view = view_of(hand, 1)
    return Spot(
        key="rulebook-001",
        source="rule book 001_8689c21c11a09aad.txt (training guide, first decision puzzle)",
        players=3,
        decider=1,
        opponent=2,
        big_blind=2,
        stacks=view.stacks,
        actions=((Street.PREFLOP, 2, "raise", 4), (Street.PREFLOP, 0, "fold", None)),
        board=(),
        street=Street.PREFLOP,
        hole=view.hole_cards,
        pot=view.pot,
        to_call=view.legal.call_amount,
        min_raise_to=view.legal.min_raise_to,
        range_fraction=0.45,  # a button opening range
        played="call",
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--per-street", type=int, default=15)
    parser.add_argument("--heads-up-per-street", type=int, default=4)
    args = parser.parse_args()
    streets = (Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER)
    by_street: dict[Street, list[Spot]] = {s: [] for s in streets}
    heads_up: dict[Street, list[Spot]] = {s: [] for s in streets}
    for path in (SLICE, CORPUS):
        if not path.exists():
            print(f"{path} not found: skipped")
            continue
        sources = _source_lines(path)
        for number, phh in enumerate(load_file(path), start=1):
            origin = f"{path.name} [{number}]: {sources.get(number, 'uoftcprg/phh-dataset')}"
            spots = spots_of(phh, f"phh-{path.stem}-{number}", origin)
            if spots:
                bucket = heads_up if phh.starting_stacks and len(phh.starting_stacks) == 2 else by_street
                last = spots[-1]
                bucket[last.street].append(last)
                # a hand whose last decision is on the river also gives an earlier street when that one is short
                for spot in spots[:-1]:
                    if len(bucket[spot.street]) < len(bucket[last.street]) // 2:
                        bucket[spot.street].append(spot)
                        break
    spots = [rulebook_spot()]
    for street, found in by_street.items():
        spots += found[: args.per_street]
        print(f"{street.name.lower()}: {len(found)} found, {min(len(found), args.per_street)} kept")
    for street, found in heads_up.items():
        spots += found[: args.heads_up_per_street]
        print(f"{street.name.lower()} heads-up: {len(found)} found, {min(len(found), args.heads_up_per_street)} kept")
    OUT.write_text(json.dumps([s.to_json() for s in spots], ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(spots)} spots written to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
