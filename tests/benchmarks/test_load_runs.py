"""The repeat mode of benchmarks/load.py (`--repeat N`, benchmarks/load_runs.py): each run's figures, their
medians and min-max, the ratio as the median of the pairs' ratios, and the goals judged on the medians."""

from __future__ import annotations

import math

from benchmarks.load_runs import Result, Run, Spread, report_lines, summarize, table_rows, verdicts


def result(cpu_ms: float, p99: float = 40.0, *, kib: float = 150.0, label: str = "bot") -> Result:
    """A bot's run of 1,000 actions in 10 s using `cpu_ms` of CPU per action."""
    return Result(
        label=label,
        actions=1000,
        seconds=10.0,
        hands=45,
        bot_cpu=cpu_ms,  # 1,000 actions: cpu_ms seconds in all
        p99=p99,
        edit_bytes=1083.0,
        p99_buttons=p99 - 10,
        p99_slash=p99 + 10,
        rest_per_action=2.0,
        kib_per_table=kib,
        tables=100,
    )


def pairs() -> list[Run]:
    # Ratios 2.4, 1.5 (a slow floor) and 2.2: the median of the ratios is 2.2, while the ratio of the medians
    # (2.4 / 1.2) would be 2.0.
    return [
        Run(result(2.4, 62.0, kib=164.0), result(1.0, 30.0, label="floor")),
        Run(result(2.1, 103.0, kib=171.0), result(1.4, 549.0, label="floor")),
        Run(result(2.64, 35.0, kib=236.0), result(1.2, 25.0, label="floor")),
    ]


def test_the_ratio_is_the_median_of_each_pairs_ratio_not_the_ratio_of_the_medians() -> None:
    summary = summarize(pairs())
    assert math.isclose(summary["ratio ours / floor"].median, 2.2)
    assert math.isclose(summary["ratio ours / floor"].low, 1.5)
    assert math.isclose(summary["ratio ours / floor"].high, 2.4)
    assert math.isclose(summary["CPU per action, ours"].median, 2.4)
    assert math.isclose(summary["CPU per action, floor"].median, 1.2)


def test_each_figure_has_its_median_and_its_range_over_the_runs() -> None:
    summary = summarize(pairs())
    assert summary["ack p99, all"] == Spread(62.0, 35.0, 103.0)
    assert summary["ack p99, buttons"] == Spread(52.0, 25.0, 93.0)
    assert summary["ack p99, slash"] == Spread(72.0, 45.0, 113.0)
    assert summary["ack p99, floor"] == Spread(30.0, 25.0, 549.0)
    assert summary["memory per table"] == Spread(171.0, 164.0, 236.0)
    assert summary["REST per action"] == Spread(2.0, 2.0, 2.0)
    assert summary["actions per second"] == Spread(100.0, 100.0, 100.0)


def test_the_goals_are_judged_on_the_medians() -> None:
    judged = verdicts(summarize(pairs()), tables=100)
    # p99 median 62 ms: not met although one run had 35 ms; memory median 171 KiB: met although one run had 236.
    assert judged == {
        "ack p99 < 50 ms": False,
        "REST per action <= 2": True,
        "memory per table < 200 KiB": True,
        "ratio ours / floor <= 2.0": False,
    }


def test_without_a_floor_or_below_100_tables_some_goals_get_no_verdict() -> None:
    runs = [Run(result(2.0, 30.0)), Run(result(2.2, 45.0)), Run(result(2.4, 70.0))]
    summary = summarize(runs)
    assert math.isnan(summary["ratio ours / floor"].median)
    assert math.isnan(summary["CPU per action, floor"].median)
    assert summary["ack p99, all"].median == 45.0
    judged = verdicts(summary, tables=30)
    assert judged["ack p99 < 50 ms"] is True
    assert judged["ratio ours / floor <= 2.0"] is None
    assert judged["memory per table < 200 KiB"] is None


def test_an_even_number_of_runs_takes_the_mean_of_the_middle_two() -> None:
    summary = summarize(pairs()[:2])
    assert math.isclose(summary["ratio ours / floor"].median, (2.4 + 1.5) / 2)
    assert summary["ack p99, all"] == Spread(82.5, 62.0, 103.0)


def test_a_run_without_actions_does_not_hide_the_others() -> None:
    empty = Result(label="bot", actions=0, seconds=10.0, hands=0, bot_cpu=0.5, p99=math.nan, edit_bytes=math.nan)
    summary = summarize([Run(empty), Run(result(2.0, 30.0)), Run(result(3.0, 50.0))])
    assert summary["CPU per action, ours"] == Spread(2.5, 2.0, 3.0)
    assert summary["ack p99, all"] == Spread(40.0, 30.0, 50.0)


def test_the_report_shows_one_line_per_run_then_the_medians_and_verdicts() -> None:
    rows = table_rows(pairs())
    assert len(rows) == 4  # a header and three runs
    assert rows[2].split() == [
        "2",
        "100.0",
        "2.100",
        "1.400",
        "1.50",
        "103.0",
        "93.0",
        "113.0",
        "549.0",
        "2.000",
        "171.0",
    ]
    text = "\n".join(report_lines(pairs(), tables=100))
    assert "ratio ours / floor    : 2.20 (1.50-2.40)" in text
    assert "ack p99, all          : 62.0 ms (35.0-103.0)" in text
    assert "memory per table      : 171.0 KiB (164.0-236.0)" in text
    goals = text.split("goals, on the medians:")[1].splitlines()
    assert [line.split(":")[1].strip() for line in goals[1:]] == ["NOT met", "met", "met", "NOT met"]
    assert goals[-1].startswith("  ratio ours / floor <= 2.0")
