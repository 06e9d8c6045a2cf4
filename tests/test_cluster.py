"""`poker-bot cluster` (bot/cluster.py) with stand-in children (small Python scripts, no Discord): the shards are
split evenly, a child that dies is started again, SIGTERM is forwarded and every child stops; the command line
refuses what cannot work."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import secrets
import socket
import subprocess
import sys
import textwrap
from importlib import metadata
from pathlib import Path

import psutil
import pytest

from bot.cluster import Cluster, from_the_supervisor
from tests.discord_stub import DiscordStub

ROOT = Path(__file__).resolve().parents[1]

CHILD = textwrap.dedent(
    """
    import pathlib, signal, sys, time
    log = pathlib.Path(sys.argv[1])
    shards = sys.argv[sys.argv.index("--shards") + 1]
    starts = [line for line in (log.read_text().splitlines() if log.exists() else []) if line == "start " + shards]
    with log.open("a") as out:
        out.write("start " + shards + "\\n")
    if shards == "0-1" and not starts:
        sys.exit(3)  # the first start of the first child dies
    def stop(signum, frame):
        with log.open("a") as out:
            out.write("stop " + shards + "\\n")
        sys.exit(0)
    signal.signal(signal.SIGTERM, stop)
    while True:
        time.sleep(0.05)
    """
)


def lines(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


async def test_children_split_the_shards_a_dead_child_is_restarted_and_sigterm_stops_them_all(tmp_path: Path) -> None:
    log = tmp_path / "children.log"
    cluster = Cluster(
        [sys.executable, "-c", CHILD, str(log)], 5, [(0, 1), (2, 3), (4,)], first_pause_s=0.1, longest_pause_s=0.2
    )
    task = asyncio.create_task(cluster.run())
    for _ in range(200):
        if lines(log).count("start 0-1") == 2 and {"start 2-3", "start 4"} <= set(lines(log)):
            break
        await asyncio.sleep(0.05)
    assert sorted(set(lines(log))) == ["start 0-1", "start 2-3", "start 4"]
    assert lines(log).count("start 0-1") == 2  # died once, started again
    assert cluster.argv(cluster.children[0])[-4:] == ["--shard-count", "5", "--shards", "0-1"]
    await asyncio.sleep(0.3)  # the restarted child is up and has its SIGTERM handler
    cluster.stop()
    assert await asyncio.wait_for(task, 10) == 0
    assert sorted(line for line in lines(log) if line.startswith("stop")) == ["stop 0-1", "stop 2-3", "stop 4"]
    assert all(c.process is not None and c.process.returncode == 0 for c in cluster.children)


ARGV_CHILD = textwrap.dedent(
    """
    import json, pathlib, sys, time
    from bot.cluster import supervisor_pid
    log = pathlib.Path(sys.argv[1])
    fd = int(sys.argv[sys.argv.index("--supervisor-fd") + 1]) if "--supervisor-fd" in sys.argv else None
    with log.open("a") as out:  # its command line, then the maker of the socket it was passed
        out.write(json.dumps([*sys.argv[2:], supervisor_pid(fd)]) + "\\n")
    if len(log.read_text().splitlines()) < 3:
        sys.exit(1)  # the first two starts die (a crash)
    while True:
        time.sleep(0.05)
    """
)


def option(argv: list[str], name: str) -> list[str]:
    return [argv[i + 1] for i, word in enumerate(argv) if word == name]


async def test_a_restarted_child_is_told_the_lease_holder_names_of_the_starts_that_died(tmp_path: Path) -> None:
    """Its supervisor reaped them: the new start may take their shard leases at once (bot/tables/ownership.py)."""
    log = tmp_path / "argv.log"
    cluster = Cluster([sys.executable, "-c", ARGV_CHILD, str(log)], 2, [(0, 1)], first_pause_s=0.05)
    task = asyncio.create_task(cluster.run())
    try:
        for _ in range(200):
            if len(lines(log)) == 3:
                break
            await asyncio.sleep(0.05)
        starts = [json.loads(line) for line in lines(log)]
        assert len(starts) == 3
        holders = [option(argv, "--lease-holder") for argv in starts]
        assert all(len(names) == 1 for names in holders) and len({names[0] for names in holders}) == 3
        assert [option(argv, "--replaces") for argv in starts] == [[], holders[0], holders[0] + holders[1]]
        # Each child (whose parent is this process, the cluster's) holds the socket this process made, and is
        # allowed what its cluster told it.
        assert [argv[-1] for argv in starts] == [os.getpid()] * 3
        assert all(
            from_the_supervisor(h[0], option(argv, "--replaces"), supervisor=argv[-1], parent_pid=os.getpid())
            for h, argv in zip(holders, starts, strict=True)
        )
        assert all(argv[-5:-1] == ["--shard-count", "2", "--shards", "0-1"] for argv in starts)
    finally:
        cluster.stop()
        await asyncio.wait_for(task, 10)


async def test_a_dead_childs_name_is_passed_on_only_while_its_leases_may_be_live(tmp_path: Path) -> None:
    log = tmp_path / "argv.log"
    cluster = Cluster([sys.executable, "-c", ARGV_CHILD, str(log)], 1, [(0,)], first_pause_s=0.3, lease_ttl_s=0.1)
    task = asyncio.create_task(cluster.run())
    try:
        for _ in range(200):
            if len(lines(log)) == 3:
                break
            await asyncio.sleep(0.05)
        assert [option(json.loads(line), "--replaces") for line in lines(log)] == [[], [], []]
    finally:
        cluster.stop()
        await asyncio.wait_for(task, 10)


SUPERVISOR = textwrap.dedent(
    """
    import asyncio, sys
    from bot.cluster import Cluster
    child, log = sys.argv[1], sys.argv[2]
    asyncio.run(Cluster([sys.executable, "-c", child, log], 2, [(0,), (1,)]).run())
    """
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the children's parent-death signal is Linux's")
async def test_no_child_outlives_a_cluster_killed_with_sigkill(tmp_path: Path) -> None:
    """An orphan would keep its shards' leases: the next cluster's children would be refused them."""
    log = tmp_path / "children.log"
    supervisor = await asyncio.create_subprocess_exec(sys.executable, "-c", SUPERVISOR, CHILD, str(log), cwd=ROOT)
    for _ in range(200):
        if {"start 0", "start 1"} <= set(lines(log)):
            break
        await asyncio.sleep(0.05)
    children = psutil.Process(supervisor.pid).children()
    assert len(children) == 2
    await asyncio.sleep(0.3)  # the children have their SIGTERM handler
    supervisor.kill()
    await supervisor.wait()
    _gone, alive = await asyncio.to_thread(psutil.wait_procs, children, 10)
    for orphan in alive:
        orphan.kill()
    assert not alive, f"children left running after their cluster was killed: {alive}"
    assert sorted(line for line in lines(log) if line.startswith("stop")) == ["stop 0", "stop 1"]  # a clean stop


async def test_a_child_with_a_configuration_error_stops_the_cluster(tmp_path: Path) -> None:
    cluster = Cluster([sys.executable, "-c", "import sys; sys.exit(2)"], 2, [(0,), (1,)], first_pause_s=0.1)
    assert await asyncio.wait_for(cluster.run(), 10) == 2
    assert all(c.starts <= 1 for c in cluster.children)  # not started again


async def test_the_clusters_log_counts_one_process_and_one_shard_in_the_singular(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="bot.cluster")
    cluster = Cluster([sys.executable, "-c", "import sys; sys.exit(2)"], 1, [(0,)], first_pause_s=0.1)
    assert await asyncio.wait_for(cluster.run(), 10) == 2
    assert "cluster of 1 process over 1 shard: 0" in [r.getMessage() for r in caplog.records]


def poker_bot(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env={"PATH": "/usr/bin:/bin", "DISCORD_TOKEN": "x"},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_command_line_says_the_installed_version() -> None:
    result = poker_bot("--version", cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"poker-bot {metadata.version('poker-bot')}\n"
    assert re.fullmatch(r"\d+\.\d+\.\d+\S*", metadata.version("poker-bot"))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--shards", "0-1"], "--shards needs --shard-count"),
        (["run", "--shard-count", "2", "--shards", "0-2"], "shard 2 does not exist"),
        (["cluster", "--processes", "3", "--shard-count", "2"], "at most one process per shard"),
        (["run", "--shard-count", "x"], "--shard-count: 'x' is not a whole number"),
        (["cluster", "--processes", "two"], "--processes: 'two' is not a whole number"),
    ],
)
def test_the_command_line_refuses_shards_that_cannot_work(tmp_path: Path, args: list[str], message: str) -> None:
    result = poker_bot(*args, cwd=tmp_path)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr and "_shard_count" not in result.stderr


async def cluster_without_a_shard_count(
    token: str | None = None, *, reachable: bool = True
) -> subprocess.CompletedProcess[str]:
    """`poker-bot cluster --processes 2` against a fresh stand-in (recommending 1 shard), with `token` (default:
    the stand-in's), or against nothing listening when not `reachable`."""
    stub = await DiscordStub().start()
    env = {"PATH": "/usr/bin:/bin", "DISCORD_TOKEN": token or stub.token, "STUB_BOT_ENTRY": "bot.__main__:main"}
    env["STUB_URL"] = stub.env()["STUB_URL"] if reachable else "http://127.0.0.1:9"  # port 9: nothing listens
    command = [sys.executable, "-m", "tests.discord_stub.run_bot", "cluster", "--processes", "2"]
    try:
        return await asyncio.to_thread(
            subprocess.run, command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
        )
    finally:
        await stub.stop()


async def test_a_cluster_of_more_processes_than_discord_recommends_shards_says_how_to_choose_more(
    tmp_path: Path,
) -> None:
    result = await cluster_without_a_shard_count()  # 1 shard, as Discord recommends for a bot in few servers
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines()[-1] == (
        "poker-bot: 2 processes for 1 shard: at most one process per shard"
        " (Discord's recommendation for this bot; --shard-count N chooses more)"
    )
    assert any(line.endswith("bot.cli: Discord recommends 1 shard") for line in result.stderr.splitlines()), (
        result.stderr
    )


@pytest.mark.parametrize(
    ("token", "reachable", "code", "message"),
    [
        ("not-the-token", True, 2, "DISCORD_TOKEN was refused by Discord"),
        ("any-token", False, 1, "cannot reach Discord"),
    ],
)
async def test_a_cluster_asking_discord_for_the_shard_count_fails_in_one_line(
    tmp_path: Path, token: str, reachable: bool, code: int, message: str
) -> None:
    """Without --shard-count the cluster asks Discord (GET /gateway/bot): a refused token or no Discord is one
    line on stderr and an exit code (2: not worth restarting), never a traceback, never the token."""
    result = await cluster_without_a_shard_count(token, reachable=reachable)
    assert result.returncode == code, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr
    assert token not in result.stderr + result.stdout


def test_the_clusters_lease_options_are_refused_to_a_process_started_by_hand(tmp_path: Path) -> None:
    """`--replaces NAME` takes NAME's live leases at once: given by hand, next to a live bot, it would run the same
    tables twice. `poker-bot run` accepts `--lease-holder` / `--replaces` only from the cluster that named them (its
    parent); by hand (here the test is the parent, not a cluster) it exits 2 in one line, before reading any
    setting or reaching Discord. On the old code it started and took the leases."""
    host = socket.gethostname()
    live = f"{host}:cluster1-child0-1:0123abcd"  # a live child's name (of a cluster that is not our parent)
    for options in (
        ["--replaces", live],
        ["--lease-holder", live],
        ["--lease-holder", f"{host}:cluster1-child0-2:0123abcd", "--replaces", live],
        ["--lease-holder", f"{host}:cluster{os.getpid()}-child0-2:0123abcd", "--replaces", live],  # another cluster's
    ):
        refused_by_hand(tmp_path, options)


def refused_by_hand(
    tmp_path: Path, options: list[str], pass_fds: tuple[int, ...] = (), own_socket: bool = False
) -> None:
    """`poker-bot run *options`, its parent this test: exit code 2, the one line of a process started by hand.
    `own_socket`: the process makes a socket pair itself and names one end as `--supervisor-fd`, then runs the bot
    (exec: the same process, so the socket's maker is the bot's own pid, not its parent's)."""
    bot = [sys.executable, "-m", "bot", "run", *options]
    command = [sys.executable, "-c", OWN_SOCKET, *bot] if own_socket else bot
    result = subprocess.run(
        command,
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "DISCORD_TOKEN": "secret-token-value", "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
        pass_fds=pass_fds,
    )
    assert result.returncode == 2, (options, result.stderr)
    assert result.stderr.strip().splitlines() == [
        "poker-bot: --lease-holder and --replaces are set by `poker-bot cluster` for its children only"
    ]


OWN_SOCKET = textwrap.dedent(
    """
    import os, socket, sys
    kept, passed = socket.socketpair()
    os.set_inheritable(passed.fileno(), True)
    os.execv(sys.argv[1], [*sys.argv[1:], "--supervisor-fd", str(passed.fileno())])
    """
)


def test_an_orphan_whose_parent_is_the_cluster_is_refused_without_the_clusters_socket(tmp_path: Path) -> None:
    """A cluster that is PID 1 (a container's entrypoint) is the parent of every orphan: a process started by hand
    whose shell exited passed the parent check with the names of that cluster's children. Here the test plays that
    cluster (the parent of the process, named in its holder): names right, but no socket of the cluster's (none, a
    pipe, a socket the process made itself). On the old code the first was accepted (the bot went on to start)."""
    host, pid = socket.gethostname(), os.getpid()
    own, dead = f"{host}:cluster{pid}-child0-2:0123abcd", f"{host}:cluster{pid}-child0-1:89abcdef"
    options = ["--lease-holder", own, "--replaces", dead]
    refused_by_hand(tmp_path, options)
    read, write = os.pipe()
    try:
        refused_by_hand(tmp_path, [*options, "--supervisor-fd", str(read)], pass_fds=(read,))
    finally:
        os.close(read)
        os.close(write)
    refused_by_hand(tmp_path, options, own_socket=True)


def test_a_child_of_the_cluster_may_name_its_own_start_and_its_dead_earlier_starts() -> None:
    """What the supervisor passes (`Cluster.argv`) is accepted by its child, and only that."""
    cluster_pid, host = 4242, socket.gethostname()
    names = [f"{host}:cluster{cluster_pid}-child1-{start}:{secrets.token_hex(4)}" for start in (1, 2, 3)]

    def accepted(
        holder: str | None, replaces: list[str], parent_pid: int = cluster_pid, supervisor: int | None = cluster_pid
    ) -> bool:
        return from_the_supervisor(holder, replaces, supervisor=supervisor, parent_pid=parent_pid, host=host)

    assert accepted(None, []) and accepted(None, [], supervisor=None)  # the options unused: any process
    assert accepted(names[0], []) and accepted(names[2], names[:2])
    assert not accepted(names[2], names[:2], parent_pid=cluster_pid + 1)  # another parent: not that cluster's child
    # The parent is the cluster (an orphan re-parented to a cluster that is PID 1) but the process does not hold the
    # socket that cluster made: none, or one made by another process.
    assert not accepted(names[2], names[:2], supervisor=None)
    assert not accepted(names[0], [], supervisor=cluster_pid + 1)
    assert not accepted(None, names[:1])  # --replaces alone
    assert not accepted(names[1], [names[2]])  # a later start is not dead yet
    other_child = f"{host}:cluster{cluster_pid}-child0-1:{secrets.token_hex(4)}"
    other_cluster = f"{host}:cluster{cluster_pid + 1}-child1-1:{secrets.token_hex(4)}"
    assert not accepted(names[2], [other_child]) and not accepted(names[2], [other_cluster])
    assert not accepted(names[2], [f"{host}:{cluster_pid}:{secrets.token_hex(4)}"])  # a process's own name
    assert not accepted(f"elsewhere:cluster{cluster_pid}-child1-2:0123abcd", [])  # another machine's name
