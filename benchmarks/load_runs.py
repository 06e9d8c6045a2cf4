"""The figures of `benchmarks/load.py`'s runs, and their medians over `--repeat N` runs.

A run's figures swing on this 2-core machine (the two-process ack p99 moved 34-103 ms between identical runs, the
floor bot's CPU per action 1.11-1.42 ms): a goal is judged on the median of several runs, with the min-max beside
it. With `--baseline` each run is a pair, ours then the floor in the same stand-in, and the pairs follow each other
(ours, floor, ours, floor...), so that the machine's drift weighs on both; the ratio is the median of the pairs'
ratios, not the ratio of the medians.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

GOAL_P99_MS = 50.0
GOAL_REST_PER_ACTION = 2.0
GOAL_KIB_PER_TABLE = 200.0
GOAL_TABLES = 100
GOAL_RATIO = 2.0


@dataclass
class Result:
    """What one bot did under the load: the figures of its report that the comparison and the medians need."""

    label: str
    actions: int
    seconds: float
    hands: int
    bot_cpu: float
    p99: float
    edit_bytes: float
    #: CPU seconds of the database server's processes in the window (PostgreSQL only; None on SQLite).
    db_cpu: float | None = None
    p99_buttons: float = math.nan
    p99_slash: float = math.nan
    rest_per_action: float = math.nan
    kib_per_table: float = math.nan
    tables: int = 0

    @property
    def cpu_per_action_ms(self) -> float:
        """The bot's CPU (its process tree) per action in the measured window, in ms."""
        return self.bot_cpu / self.actions * 1000 if self.actions else math.nan

    @property
    def rate(self) -> float:
        """Actions per second in the measured window."""
        return self.actions / self.seconds if self.seconds else math.nan


@dataclass
class Run:
    """One run of load.py's configuration: our bot, and the floor bot after it with --baseline."""

    ours: Result
    floor: Result | None = None

    @property
    def ratio(self) -> float:
        """Our CPU per action over the floor's, in this run (nan without a floor)."""
        if self.floor is None or not self.floor.cpu_per_action_ms:
            return math.nan
        return self.ours.cpu_per_action_ms / self.floor.cpu_per_action_ms


@dataclass(frozen=True)
class Spread:
    """The median of one figure over the runs, and its smallest and largest value (runs without it left out)."""

    median: float
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        """The spread of `values`, nan left out (all nan if nothing is left)."""
        known = [v for v in values if not math.isnan(v)]
        if not known:
            return cls(math.nan, math.nan, math.nan)
        return cls(statistics.median(known), min(known), max(known))

    def show(self, digits: int = 2, unit: str = "") -> str:
        """`2.46 ms (2.40-2.52)`."""
        if math.isnan(self.median):
            return "-"
        return f"{self.median:.{digits}f}{unit} ({self.low:.{digits}f}-{self.high:.{digits}f})"


#: The figures summarised over the runs: name -> (how to read it from a run, digits, unit).
FIGURES: dict[str, tuple[Callable[[Run], float], int, str]] = {
    "CPU per action, ours": (lambda r: r.ours.cpu_per_action_ms, 3, " ms"),
    "CPU per action, floor": (lambda r: r.floor.cpu_per_action_ms if r.floor else math.nan, 3, " ms"),
    "ratio ours / floor": (lambda r: r.ratio, 2, ""),
    "ack p99, all": (lambda r: r.ours.p99, 1, " ms"),
    "ack p99, buttons": (lambda r: r.ours.p99_buttons, 1, " ms"),
    "ack p99, slash": (lambda r: r.ours.p99_slash, 1, " ms"),
    "ack p99, floor": (lambda r: r.floor.p99 if r.floor else math.nan, 1, " ms"),
    "REST per action": (lambda r: r.ours.rest_per_action, 3, ""),
    "memory per table": (lambda r: r.ours.kib_per_table, 1, " KiB"),
    "actions per second": (lambda r: r.ours.rate, 1, ""),
}


def summarize(runs: Sequence[Run]) -> dict[str, Spread]:
    """Each figure of FIGURES over the runs (median, min, max); the ratio is the median of the runs' ratios."""
    return {name: Spread.of([read(run) for run in runs]) for name, (read, _, _) in FIGURES.items()}


def verdicts(summary: dict[str, Spread], tables: int) -> dict[str, bool | None]:
    """The goals judged on the medians: True met, False not met, None not judged (no figure: no floor run; or the
    memory per table with fewer than GOAL_TABLES tables, where the bot's fixed costs dominate it)."""

    def judged(name: str, ok: Callable[[float], bool], applies: bool = True) -> bool | None:
        median = summary[name].median
        return None if not applies or math.isnan(median) else ok(median)

    return {
        f"ack p99 < {GOAL_P99_MS:.0f} ms": judged("ack p99, all", lambda v: v < GOAL_P99_MS),
        f"REST per action <= {GOAL_REST_PER_ACTION:.0f}": judged(
            "REST per action", lambda v: v <= GOAL_REST_PER_ACTION
        ),
        f"memory per table < {GOAL_KIB_PER_TABLE:.0f} KiB": judged(
            "memory per table", lambda v: v < GOAL_KIB_PER_TABLE, tables >= GOAL_TABLES
        ),
        f"ratio ours / floor <= {GOAL_RATIO:.1f}": judged("ratio ours / floor", lambda v: v <= GOAL_RATIO),
    }


def table_rows(runs: Sequence[Run]) -> list[str]:
    """One line per run of its key figures (a header first), in the order they ran."""
    rows = [
        f"{'run':>3}  {'act/s':>6}  {'CPU ms':>6}  {'floor':>6}  {'ratio':>5}  {'p99':>6}  {'btn':>6}  {'slash':>6}"
        f"  {'fl.p99':>6}  {'REST':>5}  {'KiB/t':>6}"
    ]

    def cell(value: float, width: int, digits: int) -> str:
        return f"{'-':>{width}}" if math.isnan(value) else f"{value:{width}.{digits}f}"

    for number, run in enumerate(runs, start=1):
        ours, floor = run.ours, run.floor
        rows.append(
            f"{number:>3}  {cell(ours.rate, 6, 1)}  {cell(ours.cpu_per_action_ms, 6, 3)}  "
            f"{cell(floor.cpu_per_action_ms if floor else math.nan, 6, 3)}  {cell(run.ratio, 5, 2)}  "
            f"{cell(ours.p99, 6, 1)}  {cell(ours.p99_buttons, 6, 1)}  {cell(ours.p99_slash, 6, 1)}  "
            f"{cell(floor.p99 if floor else math.nan, 6, 1)}  {cell(ours.rest_per_action, 5, 3)}  "
            f"{cell(ours.kib_per_table, 6, 1)}"
        )
    return rows


def report_lines(runs: Sequence[Run], tables: int) -> list[str]:
    """The repeat mode's closing report: the runs' table, each figure's median (min-max), the verdicts."""
    summary = summarize(runs)
    lines = [f"=== {len(runs)} runs", *table_rows(runs), "", "median (min-max) over the runs:"]
    for name, (_, digits, unit) in FIGURES.items():
        if not math.isnan(summary[name].median):
            lines.append(f"  {name:<22}: {summary[name].show(digits, unit)}")
    lines.append("goals, on the medians:")
    for goal, ok in verdicts(summary, tables).items():
        if ok is not None:
            lines.append(f"  {goal:<28}: {'met' if ok else 'NOT met'}")
        elif goal.startswith("memory"):
            lines.append(f"  {goal:<28}: no verdict below {GOAL_TABLES} tables")
    return lines
