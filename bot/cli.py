"""The command line: `poker-bot [run] [--shard-count N --shards 0-3]`, `poker-bot cluster --processes P`,
`poker-bot db copy --from URL --to URL` (bot/storage/copy.py), `poker-bot --version`.

Subcommands are argparse subparsers made in `build_parser`; each sets `handler`, a function of the parsed
arguments that returns the exit code. A new subcommand is added there (one `add_parser` and its handler).
Without a subcommand, `run` is meant (`poker-bot` alone runs every shard in one process).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Mapping, Sequence
from importlib import metadata

from bot.render.counted import counted
from bot.tables.shards import parse_shards, split_evenly

log = logging.getLogger(__name__)

EXIT_USAGE = 2
#: The distribution this command line ships in (pyproject.toml's project name).
DISTRIBUTION = "poker-bot"


def installed_version() -> str:
    """The installed distribution's version (importlib.metadata: pyproject.toml's `version` when the package was
    installed); "unknown (not installed)" for code run from a checkout that was never installed."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


def _shard_count(text: str) -> int:
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if count < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return count


def build_parser(
    child_command: Sequence[str] | None = None, child_env: Mapping[str, str] | None = None
) -> argparse.ArgumentParser:
    """The parser of every subcommand. `child_command` / `child_env`: how `cluster` starts a child (default:
    this interpreter running `python -m bot run`; the tests start children against the Discord stand-in)."""
    parser = argparse.ArgumentParser(prog="poker-bot", description="A Discord bot that runs Texas hold'em tables.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {installed_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    run = commands.add_parser(
        "run",
        help="run the bot (the default): every shard in this process, or the shards named",
        description="Run the bot. Settings come from the environment and .env (see .env.example).",
    )
    run.add_argument(
        "--shard-count",
        type=_shard_count,
        help="how many shards the bot has in all (default: Discord's recommendation, GET /gateway/bot)",
    )
    run.add_argument("--shards", help="the shards this process runs, e.g. 0-3 or 0,2,5-7 (needs --shard-count)")
    # Set by `poker-bot cluster` for its children (bot/cluster.py), not for people: this process's lease holder
    # name, and that of the dead child it replaces, whose leases it takes at once (docs/architecture.md).
    run.add_argument("--lease-holder", help=argparse.SUPPRESS)
    run.add_argument("--replaces", action="append", default=[], help=argparse.SUPPRESS)
    run.add_argument("--supervisor-fd", type=int, help=argparse.SUPPRESS)  # the cluster's socket: its proof
    run.set_defaults(handler=run_command)

    cluster = commands.add_parser(
        "cluster",
        help="run P processes that split the shards evenly, restart one that dies, stop all on SIGINT/SIGTERM",
    )
    cluster.add_argument("--processes", type=_shard_count, required=True, help="how many processes")
    cluster.add_argument("--shard-count", type=_shard_count, help="how many shards (default: Discord's recommendation)")
    cluster.set_defaults(
        handler=cluster_command,
        child_command=list(child_command or [sys.executable, "-m", "bot", "run"]),
        child_env=dict(child_env or {}),
    )
    from bot.storage.copy import add_db_parser

    add_db_parser(commands)  # `poker-bot db copy --from URL --to URL`
    return parser


def run_command(args: argparse.Namespace) -> int:
    """`poker-bot run`: one bot process (bot/runtime.py). The cluster's options (`--lease-holder`, `--replaces`)
    are refused unless this process is a child of the cluster that named them (`cluster.from_the_supervisor`: the
    socket it passed, `--supervisor-fd`)."""
    from bot.cluster import from_the_supervisor, supervisor_pid
    from bot.runtime import run_bot

    if not from_the_supervisor(args.lease_holder, args.replaces, supervisor=supervisor_pid(args.supervisor_fd)):
        return _usage("--lease-holder and --replaces are set by `poker-bot cluster` for its children only")

    shard_ids = None
    if args.shards is not None:
        if args.shard_count is None:
            return _usage("--shards needs --shard-count (how many shards in all)")
        try:
            shard_ids = parse_shards(args.shards, args.shard_count)
        except ValueError as exc:
            return _usage(f"--shards: {exc}")
    return run_bot(
        shard_count=args.shard_count,
        shard_ids=shard_ids,
        lease_holder=args.lease_holder,
        replaces=tuple(args.replaces),
    )


def cluster_command(args: argparse.Namespace) -> int:
    """`poker-bot cluster`: P children over the shards (bot/cluster.py)."""
    from bot.cluster import Cluster
    from bot.config import ConfigError, load_settings
    from bot.runtime import DISCORD_START_ERRORS, EXIT_CONFIG, discord_failure, event_loop_options, fail

    try:
        settings = load_settings()
    except ConfigError as exc:
        return fail(f"configuration error: {exc}", EXIT_CONFIG)
    logging.basicConfig(level=settings.log_level_number, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    count = args.shard_count
    if count is None:
        import discord

        try:
            count = asyncio.run(recommended_shard_count(settings.discord_token.get_secret_value()))
        except (*DISCORD_START_ERRORS, discord.HTTPException) as exc:  # an HTTP error: Discord could not answer
            return discord_failure(exc)
    try:
        groups = split_evenly(count, args.processes)
    except ValueError as exc:
        hint = "" if args.shard_count else " (Discord's recommendation for this bot; --shard-count N chooses more)"
        return _usage(f"{exc}{hint}")

    async def supervise() -> int:
        cluster = Cluster(args.child_command, count, groups, env=args.child_env, lease_ttl_s=settings.shard_lease_ttl)
        return await cluster.run()

    return asyncio.run(supervise(), **event_loop_options())


async def recommended_shard_count(token: str) -> int:
    """Discord's recommended shard count for this bot (GET /gateway/bot)."""
    import discord.http

    http = discord.http.HTTPClient(asyncio.get_running_loop())
    try:
        await http.static_login(token)
        shards, _url, _limits = await http.get_bot_gateway()
    finally:
        await http.close()
    log.info("Discord recommends %s", counted(shards, "shard"))
    return int(shards)


def _usage(message: str) -> int:
    sys.stderr.write(f"poker-bot: {message}\n")
    return EXIT_USAGE


def main(
    argv: Sequence[str] | None = None,
    *,
    child_command: Sequence[str] | None = None,
    child_env: Mapping[str, str] | None = None,
) -> None:
    """Parse the command line (`run` when no subcommand is named) and exit with the subcommand's code."""
    words = list(sys.argv[1:] if argv is None else argv)
    if not words or (words[0].startswith("-") and words[0] not in ("-h", "--help", "--version")):
        words.insert(0, "run")
    args = build_parser(child_command, child_env).parse_args(words)
    raise SystemExit(args.handler(args))
