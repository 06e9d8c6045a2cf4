"""`poker-bot cluster --processes P`: P child processes (`poker-bot run --shard-count N --shards a-b`) that split
the shards evenly; a child that dies is started again after a pause that doubles on each quick death (1 s up to
30 s), and takes the dead child's shard leases at once (each start of a child has its own lease holder name, and
the new one is told the names of the dead ones: the cluster reaped them, so nobody else may hold those leases
legitimately; docs/architecture.md, "Shards and processes"); SIGINT/SIGTERM are forwarded to the children, which
stop cleanly (their tables stay open in the database, their shard leases are given back); a child gets SIGTERM
when the cluster process itself dies, even by SIGKILL (Linux: `die_with_parent`). A child that exits with code 2
(a configuration error or a refused token) is not restarted: the cluster stops and exits with 2.

Only the cluster's children may use the lease options it gives them (`--lease-holder`, `--replaces`: a dead
start's live leases taken at once). A child proves it by a Unix socket the cluster made (`socket.socketpair`) and
passes to every child (`pass_fds`, its number as `--supervisor-fd`): the kernel records who made it
(SO_PEERCRED), which must be the cluster that the holder name names. The parent's pid alone did not do: a process
started by hand and orphaned is re-parented to PID 1, which a cluster that is a container's entrypoint is; and a
socket, unlike a pipe, cannot be opened again through /proc by another process (`from_the_supervisor`).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import os
import re
import secrets
import signal
import socket
import stat
import struct
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from bot.render.counted import counted
from bot.tables.shards import format_shards

log = logging.getLogger(__name__)

EXIT_CONFIG = 2
FIRST_PAUSE_S = 1.0
LONGEST_PAUSE_S = 30.0
#: A child that ran this long before dying is restarted after the first pause again (not a crash loop).
STEADY_S = 60.0
#: How long the children have to stop after SIGTERM before they are killed.
STOP_TIMEOUT_S = 30.0
#: The children's shard lease time to live unless told (bot/tables/ownership.py, LEASE_TTL_S; SHARD_LEASE_TTL).
LEASE_TTL_S = 30.0


#: prctl(2) option: the signal a process gets when its parent dies (Linux).
PR_SET_PDEATHSIG = 1


def die_with_parent() -> Callable[[], None] | None:
    """A `preexec_fn` for a child (Linux): the kernel sends it SIGTERM when the cluster process dies, even by
    SIGKILL (the OOM killer, `kill -9`), so that no child outlives its cluster: an orphan would keep running its
    shards' tables and renewing their leases, and the next cluster's children would be refused those shards.
    None elsewhere (the children then outlive a killed cluster)."""
    if not sys.platform.startswith("linux"):
        return None
    prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up in the cluster: the child only calls it
    parent = os.getpid()

    def arm() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:  # the cluster died before the line above: nobody will send the signal
            os.kill(os.getpid(), signal.SIGTERM)

    return arm


@dataclass
class Child:
    """One child process and its shards; `holder`, the lease holder name of its current start; `dead`, the holder
    names of its earlier starts that died, with when (monotonic seconds), while their leases may still be live."""

    index: int
    shards: tuple[int, ...]
    process: asyncio.subprocess.Process | None = None
    starts: int = 0
    holder: str = ""
    dead: list[tuple[str, float]] = field(default_factory=list)


def child_holder(index: int, start: int) -> str:
    """A lease holder name for a child's start, unique like a process's own (host, the cluster's pid, which child
    and start, a random part): a new one at each start, so that the leases it takes are its own."""
    return f"{socket.gethostname()}:cluster{os.getpid()}-child{index}-{start}:{secrets.token_hex(4)}"


#: A name `child_holder` makes: host, the cluster's pid, the child's index and start, a random part.
_CHILD_HOLDER = re.compile(r"(?P<host>[^:]+):cluster(?P<pid>\d+)-child(?P<index>\d+)-(?P<start>\d+):[0-9a-f]{8}")


def supervisor_pid(fd: int | None) -> int | None:
    """The pid of the process that made the Unix socket at file descriptor `fd` (the cluster passes one to each
    child: `Cluster`), read from the kernel (SO_PEERCRED, Linux), then `fd` is closed; None when `fd` is None, not
    open, or not a socket (a pipe, a file, a terminal). Where the kernel does not tell (not Linux), this process's
    parent when `fd` is a socket: the weaker check by the parent's pid alone."""
    if fd is None:
        return None
    try:
        if not stat.S_ISSOCK(os.fstat(fd).st_mode):
            return None
        with socket.socket(fileno=os.dup(fd)) as sock:
            if not hasattr(socket, "SO_PEERCRED"):
                return os.getppid()
            credentials = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        pid, _uid, _gid = struct.unpack("3i", credentials)
        return int(pid)
    except OSError:
        return None
    finally:
        with contextlib.suppress(OSError):
            os.close(fd)


def from_the_supervisor(
    holder: str | None,
    replaces: Sequence[str],
    *,
    supervisor: int | None,
    parent_pid: int | None = None,
    host: str | None = None,
) -> bool:
    """May a `poker-bot run` use the cluster's options `--lease-holder holder` and `--replaces` (names of dead
    starts whose live leases it takes at once)? Only as a child of the cluster that named them: `holder` is a
    `child_holder` name of this host whose cluster pid is this process's parent (`parent_pid`, default
    `os.getppid()`) and the maker of the socket the cluster passed it (`supervisor`: `supervisor_pid` of
    `--supervisor-fd`, None without one), and each replaced name is an earlier start of the same child of the same
    cluster. A process started by hand cannot hold that socket, even orphaned and re-parented to a cluster that is
    PID 1, so it can name no live holder's leases as its own. True when neither option is given."""
    if holder is None:
        return not replaces
    parent_pid = os.getppid() if parent_pid is None else parent_pid
    host = socket.gethostname() if host is None else host
    own = _CHILD_HOLDER.fullmatch(holder)
    if own is None or own["host"] != host or int(own["pid"]) != parent_pid or supervisor != parent_pid:
        return False
    for name in replaces:
        dead = _CHILD_HOLDER.fullmatch(name)
        if dead is None or (dead["host"], dead["pid"], dead["index"]) != (own["host"], own["pid"], own["index"]):
            return False
        if int(dead["start"]) >= int(own["start"]):
            return False
    return True


class Cluster:
    """Supervise one child per group of shards (see the module docstring). `command` starts a child (the
    shard options are added to it); `env` adds to the children's environment; `lease_ttl_s`, the children's lease
    time to live (how long a dead child's name is passed on: its leases have expired after that)."""

    def __init__(
        self,
        command: Sequence[str],
        shard_count: int,
        groups: Sequence[tuple[int, ...]],
        *,
        env: Mapping[str, str] | None = None,
        first_pause_s: float = FIRST_PAUSE_S,
        longest_pause_s: float = LONGEST_PAUSE_S,
        lease_ttl_s: float = LEASE_TTL_S,
    ) -> None:
        self.command = list(command)
        self.shard_count = shard_count
        self.children = [Child(index, tuple(shards)) for index, shards in enumerate(groups)]
        self.env = dict(env or {})
        self.first_pause_s = first_pause_s
        self.longest_pause_s = longest_pause_s
        self.lease_ttl_s = lease_ttl_s
        self.stopping = asyncio.Event()
        self.exit_code = 0
        # The socket whose one end every child gets (`from_the_supervisor`), made by `run` in this process (the
        # maker the kernel tells the children); both ends stay open while the cluster runs.
        self._passed: socket.socket | None = None

    def argv(self, child: Child) -> list[str]:
        """The command line of a child: its lease holder name, the dead ones it replaces, the socket it proves
        itself a child by (`--supervisor-fd`, the same number in the child: `pass_fds`), its shards."""
        holder = ["--lease-holder", child.holder] if child.holder else []
        replaces = [word for name, _died in child.dead for word in ("--replaces", name)]
        proof = ["--supervisor-fd", str(self._passed.fileno())] if child.holder and self._passed else []
        shards = ["--shard-count", str(self.shard_count), "--shards", format_shards(child.shards)]
        return [*self.command, *holder, *replaces, *proof, *shards]

    async def run(self) -> int:
        """Run until SIGINT/SIGTERM (or a child's configuration error), then stop every child; the exit code."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, self.stop)
        log.info(
            "cluster of %s over %s: %s",
            counted(len(self.children), "process", "processes"),
            counted(self.shard_count, "shard"),
            "; ".join(format_shards(c.shards) for c in self.children),
        )
        kept, self._passed = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            await asyncio.gather(*(self.supervise(child) for child in self.children))
        finally:
            kept.close()
            self._passed.close()
            self._passed = None
        return self.exit_code

    def stop(self) -> None:
        """Stop the cluster: every child gets SIGTERM (forwarded) and is not restarted."""
        if not self.stopping.is_set():
            log.info("stopping the cluster")
        self.stopping.set()
        for child in self.children:
            process = child.process
            if process is not None and process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.send_signal(signal.SIGTERM)

    async def supervise(self, child: Child) -> None:
        """Keep one child running until the cluster stops."""
        pause = self.first_pause_s
        while not self.stopping.is_set():
            started = time.monotonic()
            # A dead start's leases were renewed last before it died: after one time to live (and a margin for the
            # clocks) they have expired, and its name need not be passed on.
            child.dead = [(name, died) for name, died in child.dead if started - died < 2 * self.lease_ttl_s]
            child.holder = child_holder(child.index, child.starts + 1)
            child.process = await asyncio.create_subprocess_exec(
                *self.argv(child),
                env={**os.environ, **self.env},
                preexec_fn=die_with_parent(),
                pass_fds=() if self._passed is None else (self._passed.fileno(),),
            )
            child.starts += 1
            log.info(
                "child %d (shards %s) started: pid %d", child.index, format_shards(child.shards), child.process.pid
            )
            if self.stopping.is_set():  # a signal came while it was being started
                with contextlib.suppress(ProcessLookupError):
                    child.process.send_signal(signal.SIGTERM)
            code = await self._wait(child.process)
            child.dead.append((child.holder, time.monotonic()))  # reaped: that holder is gone for good
            if self.stopping.is_set():
                log.info("child %d stopped (exit code %s)", child.index, code)
                return
            if code == EXIT_CONFIG:
                log.error("child %d exited with a configuration error: stopping the cluster", child.index)
                self.exit_code = EXIT_CONFIG
                self.stop()
                return
            if time.monotonic() - started >= STEADY_S:
                pause = self.first_pause_s
            log.warning(
                "child %d (shards %s) exited with code %s; starting it again in %.1f s",
                child.index,
                format_shards(child.shards),
                code,
                pause,
            )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopping.wait(), pause)
            pause = min(pause * 2, self.longest_pause_s)

    async def _wait(self, process: asyncio.subprocess.Process) -> int:
        """Wait for a child to exit; once the cluster stops, kill it if it does not stop in time."""
        waiter = asyncio.ensure_future(process.wait())
        stopper = asyncio.ensure_future(self.stopping.wait())
        await asyncio.wait({waiter, stopper}, return_when=asyncio.FIRST_COMPLETED)
        stopper.cancel()
        if not waiter.done():
            try:
                await asyncio.wait_for(asyncio.shield(waiter), STOP_TIMEOUT_S)
            except TimeoutError:
                log.error("child pid %d did not stop within %.0f s: killing it", process.pid, STOP_TIMEOUT_S)
                process.kill()
        return await waiter
