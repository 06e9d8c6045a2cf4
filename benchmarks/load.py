"""Load benchmark: N busy tables of simulated players against the real bot process, over the Discord stand-in.

Run from the repository root (loopback only; bounded in time):

    python benchmarks/load.py [--tables 100] [--players 6] [--seconds 30] [--warmup 10] [--next-hand-delay S]

The stand-in (tests/discord_stub) and the simulated players run in this process; the real bot runs in its own
process over a fresh SQLite file (or, with `--database postgresql`, a new database of a throwaway PostgreSQL that
this benchmark starts through pgserver in a temporary folder and removes at the end unless --keep: the bot, and a
cluster's children, get it as DATABASE_URL; the server's CPU is reported beside the bot's), launched as the
end-to-end tests do (`tests.e2e.bot_entry:main`: the shipped
`bot.__main__:main` plus test-only hooks that this benchmark leaves off unless --next-hand-delay is given).
Every table: its host opens it with /poker create, six players sit down with /poker join, /poker start deals.
Each player acts as soon as the table message says it is their turn: mostly with the table's buttons (Check /
Call, sometimes Fold), one decision in five by slash command (/check, /call, /fold); a busted player sits down
again. Hands follow each other after the table's own 5 s pause unless --next-hand-delay says otherwise (test
hook of tests/e2e/bot_entry.py).

The stand-in's process runs without garbage collection once the tables are dealt (its full collections, over
every recorded message, would pause it for 150-300 ms and be counted as the bot's latency). After the
warm-up, for --seconds it measures: actions per second; interaction round trip (from the stand-in
sending INTERACTION_CREATE to the bot's acknowledgement arriving) p50/p95/p99; REST calls per action
(acknowledgements, table-message edits and followups) and per hand (table message, streets, showdown,
notices, hole-card DMs); the bot process's CPU time per action (psutil); its peak memory (RSS) and memory
per table; the warnings and errors in the bot's log. Goals: p99 < 50 ms at 100 busy tables; <= 2 REST calls
per action beyond the street and showdown messages; < 200 KiB per table at 100 tables (with fewer tables the
bot's fixed costs dominate the figure, and no verdict is given). The bot's log and database go to a temporary
folder, removed at the end unless --keep. Needs an otherwise idle machine: the bot and the stand-in each use
most of a core.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import gc
import json
import os
import random
import shutil
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.load_runs import (
    GOAL_KIB_PER_TABLE,
    GOAL_P99_MS,
    GOAL_RATIO,
    GOAL_REST_PER_ACTION,
    GOAL_TABLES,
    Result,
    Run,
    report_lines,
)
from benchmarks.stall_log import stall_record, write_stall_log
from benchmarks.throwaway_pg import ThrowawayPostgres
from bot.runtime import event_loop_options
from tests.discord_stub import BotProcess, DiscordStub, GuildHandle, Interaction, Message, User
from tests.discord_stub.model import Channel
from tests.e2e.spectator import HAND_TITLE, TableView, is_table_embed, parse_table

FLOOR_ENTRY = "benchmarks.floor_bot:main"
PROFILE_ENTRY = "benchmarks.profile_entry:main"
#: Entries told when the measured window starts (SIGUSR1) and ends (SIGUSR2).
WINDOW_ENTRIES = (PROFILE_ENTRY, "benchmarks.gc_entry:main", "benchmarks.loop_entry:main")
CLUSTER_ENTRY = "tests.e2e.bot_entry:cluster_main"
DEFAULT_ENTRY = "tests.e2e.bot_entry:main"
ACK = "POST /interactions/{webhook_id}/{webhook_token}/callback"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
FOLLOWUP = "POST /webhooks/{webhook_id}/{webhook_token}"
POST = "POST /channels/{channel_id}/messages"
#: A player who sees no change for this long looks at the table again (a refused or lost press).
STALL = 5.0
SETUP_CONCURRENCY = 10


class LoadStub(DiscordStub):
    """The stand-in with per-channel wake-ups (a player waits for its own table, not for every change) and
    without the work a load run does not need (message events the bot has no intent for)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(message_events=False, **kwargs)
        self.changed: dict[int, asyncio.Event] = {}
        self.table_message: dict[int, Message] = {}
        #: Edits of public messages by REST call (PATCH), by channel: an interaction answered with UPDATE_MESSAGE
        #: (type 7) edits its message too, but within its acknowledgement: one REST call, counted once, as the
        #: acknowledgement (`updates` counts those edits).
        self.table_edits: Counter[int] = Counter()
        self.updates: Counter[int] = Counter()
        self.edit_bytes: list[int] = []  # JSON size of each table-message edit (the floor bot's payload size)
        self._answering = False  # an interaction's answer is being applied (its edit is not a REST edit)

    def _poke(self, channel_id: int) -> None:
        event = self.changed.get(channel_id)
        if event is not None:
            event.set()

    def create_message(self, channel: Channel, payload: dict[str, Any], **kwargs: Any) -> Message:
        message = super().create_message(channel, payload, **kwargs)
        if message.ephemeral_to is None and is_table_embed(message.versions[0].embeds):
            self.table_message[channel.id] = message
        self._poke(channel.id)
        return message

    def edit_message(self, message: Message, payload: dict[str, Any], **kwargs: Any) -> Message:
        edited = super().edit_message(message, payload, **kwargs)
        if message.ephemeral_to is None and message.guild_id is not None:
            (self.updates if self._answering else self.table_edits)[message.channel_id] += 1
            self.edit_bytes.append(len(json.dumps(payload, ensure_ascii=False).encode()))
        self._poke(message.channel_id)
        return edited

    def acknowledge(self, inter: Interaction, *args: Any) -> None:
        self._answering = True
        try:
            super().acknowledge(inter, *args)
        finally:
            self._answering = False
        self._poke(inter.channel_id)

    def followup(self, inter: Interaction, *args: Any) -> Message:
        message = super().followup(inter, *args)
        self._poke(inter.channel_id)
        return message

    def _ack_deadline_passed(self, inter: Interaction) -> None:
        # The base class also prunes its timer set here (linear in pending interactions): done once a second
        # by `prune_timers` instead, so that the stand-in's own cost stays flat under load.
        if not inter.acked and not inter.timed_out:
            inter.timed_out = True
            self.violation("ack_timeout", f"interaction {inter.id} not acknowledged within {self.ack_deadline} s")

    async def prune_timers(self) -> None:
        """Forget expired acknowledgement timers, once a second."""
        while True:
            await asyncio.sleep(1.0)
            now = asyncio.get_running_loop().time()
            self._timers = {t for t in self._timers if not t.cancelled() and t.when() > now}


@dataclass
class Sample:
    """One action: when it was sent, its acknowledgement latency, how it was made, when the table showed it, and
    the REST calls it cost: its acknowledgement(s) and followups, and the public-message edits of its channel
    until the table's next action (None while that has not come)."""

    sent: float
    ack: float
    via: str
    inter: Interaction
    shown: float | None = None
    edits: int | None = None

    @property
    def rest(self) -> int:
        """REST calls of this action (acknowledgement, followups, table-message edits by PATCH; an acknowledgement
        that is the table's edit, UPDATE_MESSAGE, is one call)."""
        return len(self.inter.callbacks) + len(self.inter.followup_ids) + (self.edits or 0)


@dataclass
class Stats:
    """Everything the players measured."""

    samples: list[Sample] = field(default_factory=list)
    refused: int = 0
    stalls: int = 0
    rejoins: int = 0
    hands: set[tuple[int, int]] = field(default_factory=set)
    stall_log: list[dict[str, Any]] = field(default_factory=list)  # each stall's record (--stall-log)


class TableDriver:
    """One table and its players: acts for whoever the table message says is to act."""

    def __init__(self, stub: LoadStub, channel: Channel, players: list[User], stats: Stats, rng: random.Random):
        self.stub = stub
        self.channel = channel
        self.players = players
        self.by_name = {u.name: u for u in players}
        self.stats = stats
        self.rng = rng
        self.event = stub.changed.setdefault(channel.id, asyncio.Event())
        self.stopping = False
        self.rejoined: dict[str, int | None] = {}
        self.last: tuple[Sample, int] | None = None  # the previous action and the channel's edit count then

    async def command(self, user: User, *path: str, **options: object) -> Interaction:
        inter = self.stub.invoke_slash(user, self.channel, *path, options=options)
        await inter.wait_acked(30)
        return inter

    async def setup(self) -> None:
        """Open the table, sit everyone down, deal."""
        host = self.players[0]
        await self.command(host, "poker", "create")
        for seat, user in enumerate(self.players, start=1):
            await self.command(user, "poker", "join", seat=seat)
        await self.command(host, "poker", "start")

    def view(self) -> TableView | None:
        message = self.stub.table_message.get(self.channel.id)
        return parse_table(message) if message is not None else None

    async def changed(self, timeout: float) -> bool:  # noqa: ASYNC109 - a plain timeout
        self.event.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.event.wait(), timeout)
            return True
        return False

    async def play(self) -> None:
        """Act whenever it is someone's turn, until told to stop."""
        acted_on: tuple[int, int] | None = None
        while not self.stopping:
            message = self.stub.table_message.get(self.channel.id)
            view = parse_table(message) if message is not None else None
            if view is None or not view.in_hand or (view.message_id, view.seq) == acted_on:
                if not await self.changed(STALL) and view is not None and view.in_hand:
                    self.stats.stalls += 1
                    self.stats.stall_log.append(stall_record(self.stub, "play", self.channel.id, view, None))
                    acted_on = None  # look again: a refused press changes nothing
                continue
            if view.hand_number is not None:
                self.stats.hands.add((self.channel.id, view.hand_number))
            await self.rejoin_busted(view)
            acted_on = (view.message_id, view.seq)
            await self.act(view)

    async def rejoin_busted(self, view: TableView) -> None:
        """A player who lost every chip sits down again (once per hand seen without them)."""
        for user in self.players:
            if user.name not in view.seats and self.rejoined.get(user.name) != view.hand_number:
                self.rejoined[user.name] = view.hand_number
                self.stats.rejoins += 1
                await self.command(user, "poker", "join")

    async def act(self, view: TableView) -> None:
        user = self.by_name[view.actor or ""]
        facing = view.to_call > 0
        action = "fold" if facing and self.rng.random() < 0.1 else ("call" if facing else "check")
        via = "slash" if self.rng.random() < 0.2 else "button"
        mark = self.stub.mark()
        edits = self.stub.table_edits[self.channel.id]
        if self.last is not None:
            previous, before = self.last
            previous.edits = edits - before
        if via == "button":
            inter = self.stub.press_button(user, view.message_id, view.buttons[action]["custom_id"])
        else:
            inter = self.stub.invoke_slash(user, self.channel, action)
        await inter.wait_acked(30)
        sample = Sample(inter.created_at, inter.ack_latency or 0.0, via, inter)
        self.stats.samples.append(sample)
        self.last = (sample, edits)
        while not self.stopping:
            message = self.stub.table_message.get(self.channel.id)
            if message is not None and message.latest.seq > mark:
                sample.shown = message.latest.at - inter.created_at
                return
            if self.stub.followups(inter) or (via == "slash" and _refused(self.stub, inter, user)):
                self.stats.refused += 1
                return
            if not await self.changed(STALL):
                self.stats.stalls += 1
                self.stats.stall_log.append(stall_record(self.stub, "act", self.channel.id, view, inter))
                return


def _refused(stub: DiscordStub, inter: Interaction, user: User) -> bool:
    """A slash command's answer that is not the action's line ("t3p1 calls 2"): a refusal."""
    original = stub.original(inter)
    return original is not None and not original.content.startswith(user.name + " ")


@dataclass
class Probe:
    """The bot's CPU time and memory, sampled: the process and its children (a cluster's shard processes)."""

    process: psutil.Process
    peak_rss: int = 0
    rss: list[tuple[float, int]] = field(default_factory=list)
    #: CPU seconds of child processes that have ended (a restarted child's time is not lost).
    _seen: dict[int, tuple[psutil.Process, float]] = field(default_factory=dict)

    def tree(self) -> list[psutil.Process]:
        with contextlib.suppress(psutil.Error):
            return [self.process, *self.process.children(recursive=True)]
        return [self.process]

    def cpu(self) -> float:
        for proc in self.tree():
            with contextlib.suppress(psutil.Error):
                times = proc.cpu_times()
                self._seen[proc.pid] = (proc, times.user + times.system)
        return sum(cpu for _, cpu in self._seen.values())

    def threads(self) -> dict[int, float]:
        """CPU seconds so far of each thread of the bot's own process (by thread id; the event loop's id is the
        process id)."""
        with contextlib.suppress(psutil.Error):
            return {t.id: t.user_time + t.system_time for t in self.process.threads()}
        return {}

    def sample(self) -> int:
        rss = 0
        for proc in self.tree():
            with contextlib.suppress(psutil.Error):
                rss += proc.memory_info().rss
        self.peak_rss = max(self.peak_rss, rss)
        self.rss.append((time.monotonic(), rss))
        return rss

    async def run(self) -> None:
        while True:
            self.sample()
            await asyncio.sleep(0.25)

    def high_water_mark(self) -> int | None:
        """VmHWM: the peak RSS the kernel saw (Linux), including moments between samples (one process only)."""
        if len(self.tree()) > 1:
            return None
        with contextlib.suppress(OSError, ValueError):
            for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
        return None


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = (len(ordered) - 1) * q / 100
    low, high = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (k - low)


def route_counts(stub: DiscordStub, since: float, until: float) -> Counter[str]:
    """REST calls by kind in a time window; channel posts split into table channels and DMs."""
    dm_channels = {c.id for c in stub.channels.values() if c.guild_id is None}
    counts: Counter[str] = Counter()
    for r in stub.requests:
        if since <= r.at < until:
            route = f"{r.method} {r.route}"
            if route == POST and int(r.path.split("/")[-2]) in dm_channels:
                route = "POST (DM) /channels/{channel_id}/messages"
            counts[route] += 1
    return counts


@dataclass
class Figures:
    """The figures of one report that the repeat mode's medians need (ms, calls per action, KiB)."""

    p99: float
    p99_buttons: float
    p99_slash: float
    rest_per_action: float
    kib_per_table: float


async def measure(
    stub: LoadStub,
    args: argparse.Namespace,
    *,
    label: str,
    entry: str,
    env: dict[str, str],
    channels: list[Channel],
    workdir: Path,
    rng: random.Random,
    bot_args: list[str] | None = None,
    shards: int | None = None,
    server: ThrowawayPostgres | None = None,
) -> Result:
    """Start one bot process (`entry` with `bot_args`; a cluster's children are counted with it), open a table in
    each of `channels`, play them, measure, stop the bot; prints the report and returns its main figures. `shards`:
    wait until that many shards are connected. `server`: the PostgreSQL the bot uses (its CPU is reported too)."""
    drivers: list[TableDriver] = []
    stats = Stats()
    for index, channel in enumerate(channels):
        players = [stub.add_member(name=f"{label[0]}{index}p{k}", guild=channel.guild_id) for k in range(args.players)]
        drivers.append(TableDriver(stub, channel, players, stats, random.Random(rng.random())))
    bot = BotProcess(stub, entry=entry, env=env, log_path=workdir / f"{label}.log", args=bot_args)
    own = psutil.Process()
    tasks: list[asyncio.Task[None]] = []
    ids = {c.id for c in channels}
    print(f"--- {label}: {entry}")
    try:
        await bot.start(timeout=60)
        await stub.wait_connected(60, shards=shards)
        await asyncio.sleep(1.0)
        probe = Probe(psutil.Process(bot.pid))
        baseline = probe.sample()
        sampler = asyncio.create_task(probe.run())
        print(f"bot ready; RSS {baseline / 2**20:.1f} MiB; opening {args.tables} tables of {args.players} players")
        started = time.monotonic()
        gate = asyncio.Semaphore(SETUP_CONCURRENCY)

        async def open_and_play(driver: TableDriver) -> None:
            async with gate:
                await driver.setup()
            await driver.play()

        def dealt() -> bool:
            mine = [m for cid, m in stub.table_message.items() if cid in ids]
            return len(mine) == len(ids) and all(
                HAND_TITLE.match(str(m.versions[0].embeds[0].get("title", ""))) for m in mine
            )

        tasks = [asyncio.create_task(open_and_play(d)) for d in drivers]
        while not dealt():
            await asyncio.sleep(0.2)
            failed = next((t for t in tasks if t.done() and t.exception() is not None), None)
            if failed is not None:
                raise RuntimeError("a table's players failed") from failed.exception()
            if time.monotonic() - started > 300:
                raise TimeoutError("the tables did not all start within 300 s")
        print(f"all tables dealt after {time.monotonic() - started:.1f} s; warming up {args.warmup} s")
        # This process records every request and message: its own full collections grew to 150-300 ms by the
        # end of a run, and each one delayed the reading of every acknowledgement in flight, which the figures
        # then blamed on the bot. No collection here while measuring (the heap only grows for a minute).
        gc.collect()
        gc.freeze()
        gc.disable()
        await asyncio.sleep(args.warmup)

        profiled = entry in WINDOW_ENTRIES
        if profiled:
            os.kill(bot.pid, signal.SIGUSR1)  # profile_entry.py: the loop's profile starts (gc_entry.py: the timing)
        t0, cpu0, own0, threads0 = time.monotonic(), probe.cpu(), own.cpu_times(), probe.threads()
        db0 = server.cpu() if server is not None else 0.0
        hands0, first, edits0 = len(stats.hands), len(stats.samples), len(stub.edit_bytes)
        await asyncio.sleep(args.seconds)
        t1, cpu1, own1, threads1 = time.monotonic(), probe.cpu(), own.cpu_times(), probe.threads()
        db_cpu = server.cpu() - db0 if server is not None else None
        if profiled:
            os.kill(bot.pid, signal.SIGUSR2)  # ... and every thread's profile is written
        window = [s for s in stats.samples[first:] if t0 <= s.sent < t1]
        hands = len(stats.hands) - hands0
        rss_window = [rss for at, rss in probe.rss if t0 <= at <= t1]
        sizes = stub.edit_bytes[edits0:]
        for driver in drivers:
            driver.stopping = True
            driver.event.set()
        sampler.cancel()
        figures = report(
            args,
            window=window,
            seconds=t1 - t0,
            hands=hands,
            stats=stats,
            counts=route_counts(stub, t0, t1),
            bot_cpu=cpu1 - cpu0,
            db_cpu=db_cpu,
            own_cpu=(own1.user + own1.system) - (own0.user + own0.system),
            threads={tid: cpu - threads0.get(tid, 0.0) for tid, cpu in threads1.items()},
            main_thread=bot.pid,
            baseline=baseline,
            steady=statistics.median(rss_window) if rss_window else probe.peak_rss,
            peak=max(probe.peak_rss, probe.high_water_mark() or 0),
            violations=len(stub.violations),
        )
        if stub.violations:
            kinds = Counter(v.kind for v in stub.violations)
            print(f"Discord rule violations: {dict(kinds)}; first: {stub.violations[0]}")
        return Result(
            label=label,
            actions=len(window),
            seconds=t1 - t0,
            hands=hands,
            bot_cpu=cpu1 - cpu0,
            p99=figures.p99,
            edit_bytes=statistics.mean(sizes) if sizes else float("nan"),
            db_cpu=db_cpu,
            p99_buttons=figures.p99_buttons,
            p99_slash=figures.p99_slash,
            rest_per_action=figures.rest_per_action,
            kib_per_table=figures.kib_per_table,
            tables=args.tables,
        )
    finally:
        gc.enable()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await bot.stop(timeout=20)
        report_log(bot.log_path)
        if args.stall_log is not None:
            write_stall_log(stub, stats.stall_log, Path(f"{args.stall_log}.{label.replace(' ', '-')}.json"))


async def run(args: argparse.Namespace) -> int:
    if args.database == "postgresql":
        async with ThrowawayPostgres.start(keep=args.keep) as server:
            print(f"PostgreSQL started in {server.folder} ({server.url})")
            return await run_all(args, server)
    return await run_all(args, None)


async def run_all(args: argparse.Namespace, server: ThrowawayPostgres | None) -> int:
    if args.saturation:
        await saturation(args, server)
        return 0
    processes = args.processes[0] if args.processes else None
    if args.repeat == 1:
        await run_once(args, processes, server)
        return 0
    # --repeat N: N whole runs one after the other (with --baseline each one ours then the floor: ours, floor,
    # ours, floor...), each with its own stand-in and database (on the same PostgreSQL server), then the medians.
    runs = []
    for number in range(1, args.repeat + 1):
        print(f"=== run {number} of {args.repeat}")
        runs.append(await run_once(args, processes, server))
    print()
    print("\n".join(report_lines(runs, args.tables)))
    return 0


async def run_once(args: argparse.Namespace, processes: int | None, server: ThrowawayPostgres | None) -> Run:
    """One stand-in, one bot (one process; or `poker-bot cluster --processes P` over 2 shards or more, a guild on
    each shard, the tables spread over them), `args.tables` tables; with --baseline the floor bot after it. The
    bot's database: a new SQLite file, or a new database on `server` (DATABASE_URL, for every process)."""
    rng = random.Random(args.seed)
    workdir = Path(tempfile.mkdtemp(prefix="poker-load-"))
    shards = max(2, processes) if processes else 1
    stub = LoadStub(shards=shards)
    await stub.start()
    pruner = asyncio.create_task(stub.prune_timers())
    env = {"LOG_LEVEL": "WARNING"}
    if server is not None:
        env["DATABASE_URL"] = await server.new_database()
    else:
        env["DATABASE_PATH"] = str(workdir / "poker.sqlite3")
    if processes:
        guilds = [stub.add_guild(name=f"Load {k}", channels=[], shard=k) for k in range(shards)]
        channels = [stub.add_channel(guilds[i % shards], f"table-{i + 1}") for i in range(args.tables)]
        bot_args = ["cluster", "--processes", str(processes), "--shard-count", str(shards)]
        # Another --bot-entry runs the supervisor (it must run `cluster`: benchmarks/memory_entry.py does).
        entry = CLUSTER_ENTRY if args.bot_entry == DEFAULT_ENTRY else args.bot_entry
        guild = guilds[0]
    else:
        guild = stub.add_guild(name="Load", channels=[f"table-{i}" for i in range(1, args.tables + 1)])
        channels, entry, bot_args = guild.channels, args.bot_entry, None
        env["DEV_GUILD_ID"] = str(guild.id)
        if args.profile is not None:
            entry = PROFILE_ENTRY
            env["LOAD_PROFILE_OUT"] = args.profile
    if args.next_hand_delay is not None:
        env["E2E_NEXT_HAND_DELAY"] = str(args.next_hand_delay)
    label = f"cluster of {processes}" if processes else "bot"
    try:
        ours = await measure(
            stub,
            args,
            label=label,
            entry=entry,
            env=env,
            channels=channels,
            workdir=workdir,
            rng=rng,
            bot_args=bot_args,
            shards=shards,
            server=server,
        )
        floor = await compare_with_floor(stub, args, guild, ours, workdir, rng) if args.baseline else None
        return Run(ours, floor)
    finally:
        pruner.cancel()
        await stub.stop()
        if args.keep:
            print(f"bot logs and database kept in {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


async def saturation(args: argparse.Namespace, server: ThrowawayPostgres | None) -> None:
    """For each process count of --processes (default 1 and 2): one run per table count of --sweep, then the
    action rate at which the acknowledgement p99 crosses the goal (interpolated between the two runs around it)."""
    found: dict[int, list[Result]] = {}
    for processes in args.processes or [1, 2]:
        for tables in args.sweep:
            level = copy.copy(args)
            level.tables = tables
            print(f"=== {processes} process(es), {tables} tables")
            found.setdefault(processes, []).append((await run_once(level, processes, server)).ours)
    print()
    for processes, results in found.items():
        rows = ", ".join(f"{r.actions / r.seconds:.0f}/s -> p99 {r.p99:.0f} ms" for r in results)
        print(f"{processes} process(es): {rows}")
        print(f"  saturation point : {saturation_point(results)}")


def saturation_point(results: list[Result]) -> str:
    """Where the acknowledgement p99 crosses GOAL_P99_MS, in actions per second, from runs of rising load: between
    the busiest run below the goal and the next busier run above it (linear)."""

    def rate(result: Result) -> float:
        return result.actions / result.seconds if result.seconds else 0.0

    ordered = sorted(results, key=rate)
    below = [r for r in ordered if r.p99 < GOAL_P99_MS]
    if not below:
        return f"below {rate(ordered[0]):.0f} actions/s (p99 {ordered[0].p99:.0f} ms at the lightest load)"
    low = below[-1]
    above = [r for r in ordered if r.p99 >= GOAL_P99_MS and rate(r) > rate(low)]
    if not above:
        return f"not reached: p99 < {GOAL_P99_MS:.0f} ms up to {rate(ordered[-1]):.0f} actions/s"
    high = above[0]
    share = (GOAL_P99_MS - low.p99) / (high.p99 - low.p99)
    point = rate(low) + (rate(high) - rate(low)) * share
    return (
        f"about {point:.0f} actions/s (p99 {low.p99:.0f} ms at {rate(low):.0f}/s, "
        f"{high.p99:.0f} ms at {rate(high):.0f}/s)"
    )


async def compare_with_floor(
    stub: LoadStub, args: argparse.Namespace, guild: GuildHandle, ours: Result, workdir: Path, rng: random.Random
) -> Result:
    """The same load against benchmarks/floor_bot.py (acknowledge, edit one message of the real bot's average
    size, a new message per hand of the real bot's average length), then the ratio of CPU per action."""
    channels = [stub.add_channel(guild, f"floor-{i}") for i in range(1, args.tables + 1)]
    per_hand = round(ours.actions / ours.hands) if ours.hands else 22
    env = {
        "FLOOR_EDIT_BYTES": str(round(ours.edit_bytes)) if ours.edit_bytes == ours.edit_bytes else "1500",
        "FLOOR_ACTIONS_PER_HAND": str(per_hand),
        "FLOOR_NEXT_HAND_DELAY": str(args.next_hand_delay if args.next_hand_delay is not None else 5.0),
    }
    floor = await measure(
        stub, args, label="floor", entry=FLOOR_ENTRY, env=env, channels=channels, workdir=workdir, rng=rng
    )
    ratio = ours.cpu_per_action_ms / floor.cpu_per_action_ms
    print()
    print(f"edit payload      : {ours.edit_bytes:8.0f} bytes (ours) / {floor.edit_bytes:.0f} bytes (floor)")
    print(
        f"CPU per action    : {ours.cpu_per_action_ms:8.3f} ms (ours, {ours.actions / ours.seconds:.0f} actions/s) / "
        f"{floor.cpu_per_action_ms:.3f} ms (floor, {floor.actions / floor.seconds:.0f} actions/s)"
    )
    verdict = "met" if ratio <= GOAL_RATIO else "NOT met"
    print(f"ratio ours / floor: {ratio:8.2f}  (goal <= {GOAL_RATIO:.1f}: {verdict})")
    return floor


def report_log(path: Path) -> None:
    """How many warnings and errors the bot logged (a bot that could not keep up says so there), and the first."""
    with contextlib.suppress(OSError):
        text = path.read_text(errors="replace")
        lines = [line for line in text.splitlines() if " WARNING " in line or " ERROR " in line]
        lines = [line for line in lines if "voice will NOT be supported" not in line]  # PyNaCl/davey: no voice here
        first = f"; first: {lines[0].strip()}" if lines else ""
        print(f"bot log           : {len(lines)} warnings or errors{first}")


def report(
    args: argparse.Namespace,
    *,
    window: list[Sample],
    seconds: float,
    hands: int,
    stats: Stats,
    counts: Counter[str],
    bot_cpu: float,
    db_cpu: float | None,
    own_cpu: float,
    threads: dict[int, float],
    main_thread: int,
    baseline: int,
    steady: float,
    peak: int,
    violations: int,
) -> Figures:
    """Print the figures of one bot's run; returns those the repeat mode summarises."""
    actions = len(window)
    acks = [s.ack * 1000 for s in window]
    by_button = [s.ack * 1000 for s in window if s.via == "button"]
    by_slash = [s.ack * 1000 for s in window if s.via == "slash"]
    shown = [s.shown * 1000 for s in window if s.shown is not None]
    counted = [s for s in window if s.edits is not None]
    rest = sum(s.rest for s in counted) / len(counted) if counted else float("nan")
    per_hand = sum(n for route, n in counts.items() if route not in (ACK, EDIT, FOLLOWUP))
    p99 = percentile(acks, 99)
    per_table = (steady - baseline) / args.tables / 1024

    def dist(values: list[float]) -> str:
        q = (percentile(values, p) for p in (50, 95, 99))
        return "p50 {:6.1f}  p95 {:6.1f}  p99 {:6.1f} ms".format(*q) + f"  (n={len(values)})"

    def verdict(ok: bool) -> str:
        return "met" if ok else "NOT met"

    print()
    print(f"tables {args.tables} x {args.players} players; measured {seconds:.1f} s after a {args.warmup} s warm-up")
    if not actions:
        print("no action in the measured window: it fell in the pause between hands; measure longer (--seconds 10)")
    print(f"actions           : {actions / seconds:8.1f} /s  ({actions} actions, {hands} hands started)")
    print(f"ack round trip    : {dist(acks)}  (goal p99 < {GOAL_P99_MS:.0f} ms: {verdict(p99 < GOAL_P99_MS)})")
    print(f"  buttons         : {dist(by_button)}")
    print(f"  slash commands  : {dist(by_slash)}")
    print(f"table updated     : {dist(shown)}  (from the press to the table message's edit)")
    print(
        f"REST per action   : {rest:8.3f}  (acknowledgement + followups + table edits until the table's next action; "
        f"goal <= {GOAL_REST_PER_ACTION:.0f}: {verdict(rest <= GOAL_REST_PER_ACTION)})"
    )
    updates = sum(1 for s in window if any(kind == 7 for kind, _data in s.inter.callbacks))
    print(
        f"  in the window   : acknowledgements {counts[ACK]} (of which {updates} were the table's edit, "
        f"UPDATE_MESSAGE), table edits {counts[EDIT]}, followups {counts[FOLLOWUP]}"
    )
    others = ", ".join(f"{route} {n}" for route, n in sorted(counts.items()) if route not in (ACK, EDIT, FOLLOWUP))
    hand_rate = per_hand / hands if hands else float("nan")
    print(f"REST per hand     : {hand_rate:8.2f}  beyond actions: {others}")
    print(f"REST in all       : {sum(counts.values()) / actions if actions else float('nan'):8.2f} per action")
    print(
        f"bot CPU           : {bot_cpu / actions * 1000 if actions else float('nan'):8.2f} ms per action  "
        f"({bot_cpu / seconds * 100:.0f} % of one core); stand-in + players: {own_cpu / seconds * 100:.0f} %"
    )
    if actions and threads:
        others = sorted((cpu for tid, cpu in threads.items() if tid != main_thread), reverse=True)
        busy = ", ".join(f"{cpu / actions * 1000:.2f}" for cpu in others if cpu / actions >= 0.00001)
        print(
            f"  by thread       : event loop {threads.get(main_thread, 0.0) / actions * 1000:.2f} ms per action; "
            f"other threads (database, pictures...) {busy or '0'} ms per action"
        )
    if db_cpu is not None:
        print(
            f"PostgreSQL CPU    : {db_cpu / actions * 1000 if actions else float('nan'):8.2f} ms per action  "
            f"({db_cpu / seconds * 100:.0f} % of one core: the server's processes, not counted in the bot's)"
        )
    print(
        f"bot memory        : peak RSS {peak / 2**20:.1f} MiB; at start {baseline / 2**20:.1f} MiB; "
        f"steady {steady / 2**20:.1f} MiB"
    )
    goal = f"goal < {GOAL_KIB_PER_TABLE:.0f} KiB at {GOAL_TABLES} tables"
    if args.tables >= GOAL_TABLES:
        goal += f": {verdict(per_table < GOAL_KIB_PER_TABLE)}"
    else:
        goal += ": no verdict, the bot's fixed costs dominate with fewer tables"
    print(f"memory per table  : {per_table:8.1f} KiB  ({goal})")
    after_action = sum(1 for record in stats.stall_log if record["where"] == "act")
    print(
        f"refused {stats.refused}, stalls {stats.stalls} (a player waited {STALL:.0f} s for its table message: "
        f"{after_action} after its acknowledged action, {stats.stalls - after_action} with a turn shown), "
        f"rejoins {stats.rejoins}, rule violations {violations}"
    )
    return Figures(p99, percentile(by_button, 99), percentile(by_slash, 99), rest, per_table)


def numbers(text: str) -> list[int]:
    """A comma-separated list of whole numbers ("1,2")."""
    return [int(n) for n in text.split(",")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").splitlines()[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=100, help="busy tables")
    parser.add_argument("--players", type=int, default=6, help="players per table, 2 to 10")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds before measuring")
    parser.add_argument(
        "--next-hand-delay", type=float, default=None, help="seconds between hands (default: the table's own, 5)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' decisions")
    parser.add_argument(
        "--bot-entry",
        default=DEFAULT_ENTRY,
        help="module:function that runs the bot (e.g. an instrumented wrapper of the default, for profiling)",
    )
    parser.add_argument(
        "--baseline",
        action="store_true",
        help="then run the same load against a minimal discord.py bot (benchmarks/floor_bot.py) and print the ratio",
    )
    parser.add_argument(
        "--processes",
        type=numbers,
        default=None,
        help="run the bot as `poker-bot cluster --processes P` over max(2, P) shards (with --saturation: a list, 1,2)",
    )
    parser.add_argument(
        "--saturation",
        action="store_true",
        help="sweep the table counts of --sweep for each process count and print where the ack p99 crosses 50 ms",
    )
    parser.add_argument(
        "--sweep",
        type=numbers,
        default=[10, 25, 50, 100, 150, 200],
        help="table counts of --saturation",
    )
    parser.add_argument(
        "--profile",
        metavar="FILE",
        default=None,
        help="run the bot under cProfile (benchmarks/profile_entry.py: each thread's CPU time) and write the "
        "measured window's profile to FILE (pstats)",
    )
    parser.add_argument(
        "--database",
        choices=["sqlite", "postgresql"],
        default="sqlite",
        help="the bot's backend: a new SQLite file, or a throwaway PostgreSQL started here (pgserver), a new "
        "database per run",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        metavar="N",
        help="run the configuration N times (with --baseline: ours, floor, ours, floor...) and print each run's key "
        "figures, their medians (min-max) and the goals judged on the medians",
    )
    parser.add_argument("--keep", action="store_true", help="keep the bot's log and database (a temporary folder)")
    parser.add_argument(
        "--stall-log",
        metavar="PREFIX",
        default=None,
        help="write each stall with the channel's history around it to PREFIX.LABEL.json (benchmarks/stall_log.py)",
    )
    args = parser.parse_args(argv)
    if not 2 <= args.players <= 10 or args.tables < 1 or args.seconds < 1 or args.warmup < 0:
        parser.error("--players 2..10, --tables >= 1, --seconds >= 1, --warmup >= 0")
    if args.repeat < 1 or (args.repeat > 1 and (args.saturation or args.profile is not None)):
        parser.error("--repeat N: N >= 1, and neither with --saturation nor with --profile (one profile per file)")
    if args.profile is not None:
        args.profile = os.path.abspath(args.profile)  # the bot process writes it
    # The stand-in and the players are this process's work: on uvloop, as the bot is, so that their own event
    # loop's overhead weighs as little as possible on the round trips they time.
    return asyncio.run(run(args), **event_loop_options())


if __name__ == "__main__":
    raise SystemExit(main())
