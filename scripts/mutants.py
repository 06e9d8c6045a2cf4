"""Mutation probe: does the test suite notice when the rules or the table's flow break?

Applies a curated list of small wrong changes ("mutants") to a temporary copy of the repository, one at a
time, runs the tests chosen for each, and prints a table: killed (a test failed, as it should) or survived
(no test noticed: a hole in the suite). Each mutant names its file, an exact source snippet that must occur
exactly once, and its replacement; a snippet not found stops the script before anything runs, so the list
stays honest when code moves (update the snippet then).

    python scripts/mutants.py              # every mutant
    python scripts/mutants.py --list       # names only
    python scripts/mutants.py -k audit     # mutants whose name contains "audit"

Exit code 0 when every non-equivalent mutant was killed; 1 when one survived (or an "equivalent" one was
killed: then it is not equivalent, fix the list); 2 for a snippet not found or a baseline that fails.
Run on demand (a few minutes), not in CI. Uses the current interpreter, which must have the dev extra.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

RUNNER = "bot/tables/runner.py"
CLOCKWORK = "bot/tables/clockwork.py"
HANDS = "bot/tables/hands.py"
SEATING = "bot/tables/seating.py"
HOST = "bot/tables/host.py"
HAND = "bot/poker/hand.py"
POTS = "bot/poker/pots.py"
SETTINGS = "bot/poker/settings.py"
TABLE = "bot/poker/table.py"
BUTTON = "bot/poker/button.py"
STORE_LEDGER = "bot/storage/ledger.py"
STORE_TABLES = "bot/storage/tables.py"
PLACES = "bot/poker/places.py"

SERVICE = "tests/tables/test_service.py"
TURNS = "tests/tables/test_turns_and_places.py"
FLOW = "tests/tables/test_flow.py"
AUDIT = "tests/tables/test_audit.py"
RECOVERY = "tests/tables/test_recovery.py"
RULES = "tests/poker/test_hand_rules.py"
POTS_TESTS = "tests/poker/test_pots.py"
PHH = "tests/poker/test_phh.py"
DIFFERENTIAL = "tests/poker/test_differential_pokerkit.py"
TABLE_TESTS = "tests/poker/test_table.py"
PLACES_TESTS = "tests/poker/test_places.py"
LEDGER = "tests/storage/test_ledger.py"
STORAGE = "tests/storage"


@dataclass(frozen=True)
class Mutant:
    """One wrong change: in `file`, the exact `find` (occurring once) becomes `replace`; `tests` are the
    pytest arguments that should notice. `equivalent`: why no test can tell (the behaviour is the same);
    `pending`: whose coming tests are expected to kill it."""

    name: str
    area: str
    file: str
    find: str
    replace: str
    tests: tuple[str, ...]
    equivalent: str = ""
    pending: str = ""


MUTANTS: tuple[Mutant, ...] = (
    # ------------------------------------------------------------------ the issue's own (issue 18)
    Mutant(
        "leaver-does-not-forfeit",
        "flow",
        HANDS,
        "        if hand.can_forfeit(player):",
        "        if False:",
        (SERVICE, TURNS, FLOW),
    ),
    Mutant(
        "leaver-forfeits-only-at-their-turn",
        "flow",
        HANDS,
        "        if hand.can_forfeit(player):",
        "        if hand.can_forfeit(player) and hand.actor == player:",
        (SERVICE, TURNS, FLOW),
    ),
    Mutant(
        "busts-places-reversed",
        "flow",
        PLACES,
        "players_left + 1 + sum(1 for other in starting_stacks.values() if other > stack)",
        "players_left + 1 + sum(1 for other in starting_stacks.values() if other < stack)",
        (PLACES_TESTS, TURNS, RECOVERY, FLOW),
    ),
    Mutant(
        "busts-equal-stacks-not-shared",
        "flow",
        PLACES,
        "players_left + 1 + sum(1 for other in starting_stacks.values() if other > stack)",
        "players_left + 1 + sum(1 for other in starting_stacks.values() if other >= stack) - 1",
        (PLACES_TESTS, TURNS, RECOVERY, FLOW),
    ),
    Mutant(
        "busts-places-ignore-players-left",
        "flow",
        PLACES,
        "        player: players_left + 1 +",
        "        player: 1 +",
        (PLACES_TESTS, TURNS, FLOW),
    ),
    Mutant(
        "tournament-sit-out-no-auto-action",
        "flow",
        HANDS,
        "        if user in state.away and state.options.kind is TableKind.TOURNAMENT:",
        "        if False:",
        (TURNS, FLOW),
    ),
    Mutant(
        "no-auto-action-when-the-turn-passes",
        "flow",
        HANDS,
        "        else:\n            self._scheduler.start_turn()\n            await self.auto_act_if_needed()\n",
        "        else:\n            self._scheduler.start_turn()\n",
        (TURNS, SERVICE, FLOW),
    ),
    Mutant(
        "cash-sit-out-auto-folds",
        "flow",
        HANDS,
        "        if user in state.away and state.options.kind is TableKind.TOURNAMENT:",
        "        if user in state.away:",
        (TURNS, SERVICE, FLOW),
    ),
    Mutant(
        "audit-equation-weakened",
        "storage",
        STORE_LEDGER,
        "        if balances + on_tables != issued:",
        "        if balances + on_tables > issued:",
        (AUDIT, LEDGER),
    ),
    Mutant(
        "audit-equation-deleted",
        "storage",
        STORE_LEDGER,
        "        if balances + on_tables != issued:\n"
        '            problems.append(f"balances {balances} + on tables {on_tables} != issued {issued}")\n',
        "",
        (AUDIT, LEDGER),
    ),
    Mutant(
        "audit-balance-vs-ledger-deleted",
        "storage",
        STORE_LEDGER,
        '            if r["balance"] != r["ledger_sum"]:',
        "            if False:",
        (AUDIT, LEDGER),
    ),
    Mutant(
        "audit-hand-in-progress-deleted",
        "storage",
        STORE_LEDGER,
        "              AND (s.stack IS NULL OR s.stack != p.starting_stack)",
        "              AND s.stack IS NULL",
        (AUDIT,),
    ),
    # ------------------------------------------------------------------ engine: betting rules
    Mutant(
        "min-raise-increment-not-updated",
        "engine",
        HAND,
        "                if increment >= self._raise_inc:\n                    self._raise_inc = increment",
        "                if increment >= self._raise_inc:\n                    pass",
        (RULES, DIFFERENTIAL),
    ),
    Mutant(
        "min-raise-increment-strictly-greater",
        "engine",
        HAND,
        "                if increment >= self._raise_inc:",
        "                if increment > self._raise_inc:",
        (RULES, DIFFERENTIAL),
        equivalent="an increment equal to the current one sets it to the same value: nothing changes",
    ),
    Mutant(
        "min-raise-is-the-big-blind",
        "engine",
        HAND,
        "        low = current + self._raise_inc",
        "        low = current + self._min_bet",
        (RULES, DIFFERENTIAL),
    ),
    Mutant(
        "min-bet-below-big-blind",
        "engine",
        HAND,
        "        self._current_bet = 0\n        self._raise_inc = self._min_bet",
        "        self._current_bet = 0\n        self._raise_inc = 1",
        (RULES, DIFFERENTIAL),
    ),
    Mutant(
        "short-all-in-reopens",
        "engine",
        HAND,
        "        if acted >= 0 and current - acted < self._raise_inc:\n            return False\n        folded",
        "        folded",
        (RULES, DIFFERENTIAL),
    ),
    Mutant(
        "short-big-blind-called-short",
        "engine",
        HAND,
        "            if amount >= current:\n                current = amount\n                last_blind = player",
        "            if amount >= current:\n                current = max(posted, current)\n"
        "                last_blind = player",
        (DIFFERENTIAL + "::test_short_big_blind_hands_pay_by_the_rule_book",),
    ),
    Mutant(
        "uncalled-bet-not-returned",
        "engine",
        HAND,
        "        if second == top:\n            return\n        self._give_back(holder, top - second)",
        "        if True:\n            return\n        self._give_back(holder, top - second)",
        (RULES, PHH, DIFFERENTIAL),
    ),
    Mutant(
        "odd-chip-to-the-last-winner",
        "engine",
        POTS,
        "    ordered = sorted(winners)\n",
        "    ordered = sorted(winners, reverse=True)\n",
        (POTS_TESTS, RULES, DIFFERENTIAL),
    ),
    Mutant(
        "odd-chips-all-to-the-first-winner",
        "engine",
        POTS,
        "share + (1 if k < odd else 0)",
        "share + (odd if k == 0 else 0)",
        (POTS_TESTS, RULES, DIFFERENTIAL),
    ),
    Mutant(
        "side-pots-not-merged-by-eligibility",
        "engine",
        POTS,
        "            elif pots and pots[-1].eligible == eligible:",
        "            elif False:",
        (POTS_TESTS, RULES, DIFFERENTIAL),
    ),
    Mutant(
        "heads-up-blinds-swapped",
        "engine",
        SETTINGS,
        '                blinds.append((1, self.small_blind, "small_blind"))\n'
        '            blinds.append((0, self.big_blind, "big_blind"))',
        '                blinds.append((0, self.small_blind, "small_blind"))\n'
        '            blinds.append((1, self.big_blind, "big_blind"))',
        (RULES, PHH, DIFFERENTIAL),
    ),
    Mutant(
        "button-skips-a-seat",
        "engine",
        BUTTON,
        "    candidate = after[0] if after else active[0]",
        "    candidate = after[-1] if after else active[0]",
        (TABLE_TESTS, SERVICE),
    ),
    Mutant(
        "button-does-not-move",
        "engine",
        BUTTON,
        "    after = [s for s in active if s > button]",
        "    after = [s for s in active if s >= button]",
        (TABLE_TESTS, SERVICE),
    ),
    # ------------------------------------------------------------------ storage: the ledger
    Mutant(
        "ledger-row-missing",
        "storage",
        STORE_LEDGER,
        '        await tx.execute(\n            """\n            INSERT INTO ledger (guild_id',
        '        0 and await tx.execute(\n            """\n            INSERT INTO ledger (guild_id',
        (LEDGER, AUDIT),
    ),
    Mutant(
        "negative-balance-allowed",
        "storage",
        STORE_LEDGER,
        "WHERE guild_id = ? AND user_id = ? AND balance + ? >= 0",
        "WHERE guild_id = ? AND user_id = ? AND balance + ? >= -1000000",
        (LEDGER, SERVICE),
    ),
    Mutant(
        "cash-out-loses-a-chip",
        "storage",
        STORE_TABLES,
        "                stack,\n                LedgerKind.CASH_OUT,",
        "                stack - 1,\n                LedgerKind.CASH_OUT,",
        (LEDGER, SERVICE),
    ),
    Mutant(
        "seat-stacks-not-conserved",
        "storage",
        STORE_TABLES,
        "        if before != after:\n            raise ChipsNotConserved",
        "        if before < after:\n            raise ChipsNotConserved",
        (STORAGE,),
    ),
    # ------------------------------------------------------------------ flow: timer, sit-out, next hand
    Mutant(
        "timer-always-folds",
        "flow",
        HANDS,
        "        kind = ActionKind.CHECK if hand.can_check() else ActionKind.FOLD\n        count",
        "        kind = ActionKind.FOLD\n        count",
        (TURNS, SERVICE, FLOW),
    ),
    Mutant(
        "timer-always-checks",
        "flow",
        HANDS,
        "        kind = ActionKind.CHECK if hand.can_check() else ActionKind.FOLD\n        count",
        "        kind = ActionKind.CHECK\n        count",
        (TURNS, SERVICE, FLOW),
    ),
    Mutant(
        "sit-out-after-three-expiries",
        "flow",
        HANDS,
        "EXPIRIES_BEFORE_SIT_OUT = 2",
        "EXPIRIES_BEFORE_SIT_OUT = 3",
        (TURNS, SERVICE, FLOW),
    ),
    Mutant(
        "sit-out-after-one-expiry",
        "flow",
        HANDS,
        "        sat_out = count >= EXPIRIES_BEFORE_SIT_OUT and user not in state.away",
        "        sat_out = count >= 1 and user not in state.away",
        (TURNS, SERVICE, FLOW),
    ),
    Mutant(
        "expiries-not-reset-by-an-action",
        "flow",
        HANDS,
        "        self._state.expiries.pop(user_id, None)\n"
        "        return await self.apply(player, kind, amount, by=ActionBy.PLAYER, stored=stored)",
        "        return await self.apply(player, kind, amount, by=ActionBy.PLAYER, stored=stored)",
        (TURNS, SERVICE, FLOW),
    ),
    Mutant(
        "next-hand-not-scheduled",
        "flow",
        HANDS,
        "        if await self._host.end_tournament_if_won():\n"
        "            return\n"
        "        self._scheduler.schedule_next_hand()",
        "        if await self._host.end_tournament_if_won():\n            return",
        (SERVICE, TURNS, FLOW),
    ),
    Mutant(
        "next-hand-delay-ignored",
        "flow",
        CLOCKWORK,
        "        when = clock.time() + delay\n",
        "        when = clock.time() + 10 * delay\n",
        (SERVICE, TURNS, FLOW),
    ),
    Mutant(
        "next-hand-scheduled-twice",
        "flow",
        CLOCKWORK,
        "        if self._next_hand is not None and not self._next_hand.done():\n            return\n        if not",
        "        if not",
        (SERVICE, TURNS, RECOVERY, FLOW),
    ),
    Mutant(
        "refused-action-stored-first",
        "flow",
        HANDS,
        "        else:\n"
        "            hand.verify_action(kind, amount)\n"
        "        hand_id = state.hand_id\n"
        '        action = {"player": player, "kind": kind.value, "amount": amount, "at": core.clock.time(), '
        '"by": by.value}\n'
        "        await core.commit(lambda _data, _rows: core.storage.append_action(hand_id, action), carries=False)\n",
        "        hand_id = state.hand_id\n"
        '        action = {"player": player, "kind": kind.value, "amount": amount, "at": core.clock.time(), '
        '"by": by.value}\n'
        "        await core.commit(lambda _data, _rows: core.storage.append_action(hand_id, action), carries=False)\n"
        "        if not forfeit:\n"
        "            hand.verify_action(kind, amount)\n",
        (SERVICE, FLOW),
    ),
    Mutant(
        "refused-rebuy-adds-chips",
        "flow",
        SEATING,
        "        stack = state.table.seats[seat].stack\n        room = options.max_buy_in - stack\n",
        "        stack = state.table.seats[seat].stack\n"
        "        state.table.add_chips(seat, 1)\n"
        "        room = options.max_buy_in - stack\n",
        (SERVICE, TURNS, FLOW),
    ),
    Mutant(
        "busted-players-stay-seated",
        "flow",
        HANDS,
        "                await self._seating.stand(user, Departure.BUSTED, announce=announce, place=places.get(user))",
        "                pass",
        (TURNS, RECOVERY, FLOW),
    ),
    Mutant(
        "kick-folds-the-live-hand",
        "flow",
        RUNNER,
        "            if not await self._seating.kick(by_user, target, is_admin=is_admin):\n",
        "            if not await self._seating.kick(by_user, target, is_admin=is_admin):\n"
        "                player = self._state.player_of(target)\n"
        "                hand = self._state.hand\n"
        "                if player is not None and hand is not None and hand.can_forfeit(player):\n"
        "                    await self._hands.forfeit(player)\n",
        (SERVICE, FLOW),
    ),
    Mutant(
        "tournament-leaver-takes-a-better-place",
        "flow",
        PLACES,
        "    return players_with_chips\n",
        "    return players_with_chips - 1\n",
        (PLACES_TESTS, RECOVERY, FLOW),
    ),
    Mutant(
        "tournament-not-over-with-one-player",
        "flow",
        HOST,
        "state.hand_number == 0 or len(state.table.seats) > 1:",
        "state.hand_number == 0 or len(state.table.seats) > 0:",
        (RECOVERY, TURNS, FLOW),
    ),
    Mutant(
        "history-shows-every-hole-card",
        "rules",
        "bot/poker/visibility.py",
        "        return player == self.player or player in shown_players(hand)",
        "        return True",
        ("tests/poker/test_visibility.py", "tests/cogs/test_discord_ui.py"),
    ),
    Mutant(
        "pot-raise-forgets-the-call",
        "rules",
        "bot/poker/sizing.py",
        "    after_call = pot + (facing - own_bet)",
        "    after_call = pot",
        ("tests/poker/test_sizing.py", SERVICE),
    ),
    Mutant(
        "vpip-counts-a-free-check",
        "rules",
        "bot/poker/statistics.py",
        "                if added > 0:\n                    vpip.add(player)",
        "                if added >= 0:\n                    vpip.add(player)",
        ("tests/poker/test_statistics.py", "tests/tables/test_standings.py"),
    ),
    Mutant(
        "walks-count-as-preflop-decisions",
        "rules",
        "bot/poker/statistics.py",
        "            preflop_decision=player in decided,",
        "            preflop_decision=True,",
        ("tests/poker/test_statistics.py", "tests/tables/test_standings.py"),
    ),
    Mutant(
        "show-by-choice-not-counted",
        "storage",
        "bot/storage/hands.py",
        '        await tx.execute("UPDATE hand_players SET showed = 1 WHERE hand_id = ? AND player_index = ?", '
        "(hand_id, player))\n",
        "",
        ("tests/storage/test_shows.py", "tests/tables/test_shows.py"),
    ),
)


def copy_repo(target: Path) -> None:
    """The repository's files (tracked and new, not ignored) copied to `target`."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, listed):
        source = REPO / name.decode()
        if source.is_file():
            destination = target / name.decode()
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination)


def check_snippets(mutants: tuple[Mutant, ...]) -> list[str]:
    """Every snippet occurs exactly once in its file (else the list is stale): the problems found."""
    problems = []
    for m in mutants:
        text = (REPO / m.file).read_text(encoding="utf-8")
        count = text.count(m.find)
        if count != 1:
            problems.append(f"{m.name}: its snippet occurs {count} times in {m.file} (exactly once expected)")
    return problems


def run_tests(copy: Path, tests: tuple[str, ...], timeout: float) -> tuple[str, float, str]:
    """Run pytest in the copy: ("passed" | "failed" | "timeout" | "error", seconds, last output line)."""
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("CI", None)  # a missing oracle skips here, as on a developer's machine
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests]
    start = time.monotonic()
    try:
        done = subprocess.run(command, cwd=copy, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", time.monotonic() - start, ""
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    failed = [line for line in lines if line.startswith(("FAILED", "ERROR"))]
    last = (failed or lines or [""])[-1]
    outcome = {0: "passed", 1: "failed"}.get(done.returncode, "error")
    return outcome, time.monotonic() - start, last


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-k", dest="pattern", default="", help="only mutants whose name contains this")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per mutant (default 600)")
    args = parser.parse_args(argv)

    problems = check_snippets(MUTANTS)
    if problems:
        print("The mutant list is stale (the code moved): update these snippets.", file=sys.stderr)
        print("\n".join(problems), file=sys.stderr)
        return 2
    chosen = tuple(m for m in MUTANTS if args.pattern in m.name)
    if args.list:
        for m in chosen:
            note = " (equivalent)" if m.equivalent else ""
            print(f"{m.name:42} {m.area:8} {m.file}{note}")
        return 0

    with tempfile.TemporaryDirectory(prefix="poker-mutants-") as folder:
        copy = Path(folder) / "repo"
        copy_repo(copy)
        where = subprocess.run(
            [sys.executable, "-c", "import bot; print(bot.__file__)"],
            cwd=copy,
            env={**os.environ, "PYTHONPATH": str(copy)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        if not where.startswith(str(copy)):
            print(f"the tests would import the bot from {where}, not from the copy", file=sys.stderr)
            return 2
        selections = sorted({t for m in chosen for t in m.tests})
        outcome, seconds, last = run_tests(copy, tuple(selections), args.timeout * 2)
        if outcome != "passed":
            print(f"baseline: the chosen tests do not pass unmutated ({outcome}: {last})", file=sys.stderr)
            return 2
        print(f"baseline: {len(selections)} test selections pass unmutated ({seconds:.0f} s)\n")
        print(f"{'mutant':42} {'area':8} {'result':10} {'s':>5}  note")
        rows = []
        for m in chosen:
            target = copy / m.file
            original = target.read_text(encoding="utf-8")
            target.write_text(original.replace(m.find, m.replace, 1), encoding="utf-8")
            try:
                outcome, seconds, last = run_tests(copy, m.tests, args.timeout)
            finally:
                target.write_text(original, encoding="utf-8")
            killed = outcome in ("failed", "error", "timeout")
            result = ("killed" if outcome == "failed" else f"killed:{outcome}") if killed else "SURVIVED"
            if m.equivalent:
                note = f"equivalent: {m.equivalent}" if not killed else "listed as equivalent but killed: fix the list"
            elif not killed and m.pending:
                note = f"expected to be killed by {m.pending}"
            else:
                note = last if killed else "no test noticed"
            rows.append((m, killed))
            print(f"{m.name:42} {m.area:8} {result:10} {seconds:5.0f}  {note[:110]}", flush=True)

    survivors = [m for m, killed in rows if not killed and not m.equivalent]
    wrong_equivalents = [m for m, killed in rows if killed and m.equivalent]
    total = len(rows)
    killed_count = sum(1 for _, killed in rows if killed)
    equivalents = sum(1 for m, _ in rows if m.equivalent)
    print(
        f"\n{killed_count}/{total} killed; {len(survivors)} non-equivalent survived; {equivalents} listed as equivalent"
    )
    for m in survivors:
        print(f"  survived: {m.name} ({m.file})" + (f" - expected: {m.pending}" if m.pending else ""))
    return 1 if survivors or wrong_equivalents else 0


if __name__ == "__main__":
    sys.exit(main())
