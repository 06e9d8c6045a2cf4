"""Configuration: defaults, parsing, and one clear line with exit code 2 for a missing or malformed setting."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, Settings, load_settings, parse_duration

KEYS = (
    "DISCORD_TOKEN DATABASE_URL DATABASE_PATH DEV_GUILD_ID LOG_LEVEL SMALL_BLIND BIG_BLIND STARTING_STACK TURN_TIMEOUT "
    "MIN_BUY_IN MAX_BUY_IN STARTING_GRANT REFILL_COOLDOWN SHARD_LEASE_TTL"
).split()
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for key in KEYS:
        monkeypatch.delenv(key, raising=False)
    monkeypatch.chdir(tmp_path)  # no stray .env


def run_bot(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot` in a clean environment (only PATH and the given variables), from an empty folder."""
    clean = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **env}
    return subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=clean, capture_output=True, text=True, timeout=60
    )


def test_defaults_follow_the_rule_book_and_the_issue() -> None:
    s = load_settings(discord_token="t")
    assert (s.small_blind, s.big_blind, s.starting_stack, s.turn_timeout) == (1, 2, 100, 60)
    assert (s.starting_grant, s.refill_cooldown) == (1000, 86400)
    assert s.database_path == Path("data/poker.sqlite3")
    assert s.database == "sqlite:///data/poker.sqlite3"
    assert s.dev_guild_id is None and s.log_level == "INFO"


def test_values_come_from_the_environment_and_dotenv(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-dotenv\nBIG_BLIND=4\nDEV_GUILD_ID=\nREFILL_COOLDOWN=90m\n")
    monkeypatch.setenv("SMALL_BLIND", "2")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    s = load_settings()
    assert s.discord_token.get_secret_value() == "from-dotenv"
    assert (s.small_blind, s.big_blind, s.refill_cooldown, s.log_level, s.dev_guild_id) == (2, 4, 5400, "DEBUG", None)


def test_the_token_never_shows_in_repr_or_errors() -> None:
    s = load_settings(discord_token="super-secret-token")
    assert "super-secret-token" not in repr(s) and "super-secret-token" not in str(s)
    with pytest.raises(ConfigError) as caught:
        load_settings(discord_token="   ")
    assert "DISCORD_TOKEN" in str(caught.value)


@pytest.mark.parametrize(
    ("overrides", "named"),
    [
        ({"turn_timeout": "abc"}, "TURN_TIMEOUT"),
        ({"turn_timeout": 601}, "TURN_TIMEOUT"),
        ({"turn_timeout": 9}, "TURN_TIMEOUT"),
        ({"small_blind": 0}, "SMALL_BLIND"),
        ({"small_blind": 3}, "SMALL_BLIND must not exceed BIG_BLIND"),
        ({"min_buy_in": 300}, "MIN_BUY_IN must not exceed MAX_BUY_IN"),
        ({"dev_guild_id": "guild"}, "DEV_GUILD_ID"),
        ({"log_level": "LOUD"}, "LOG_LEVEL"),
        ({"refill_cooldown": "soon"}, "REFILL_COOLDOWN"),
    ],
)
def test_a_malformed_setting_is_named(overrides: dict[str, object], named: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(discord_token="t", **overrides)
    assert named in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(("text", "seconds"), [("3600", 3600), ("90m", 5400), ("24h", 86400), ("1d", 86400), (0, 0)])
def test_durations(text: str, seconds: int) -> None:
    assert parse_duration(text) == seconds


def test_settings_are_not_read_at_import() -> None:
    import bot.app
    import bot.config

    assert not any(isinstance(v, Settings) for v in vars(bot.config).values())
    assert not any(isinstance(v, Settings) for v in vars(bot.app).values())


def test_missing_token_exits_2_with_one_clear_line(tmp_path: Path) -> None:
    result = run_bot(tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "DISCORD_TOKEN is required" in lines[0]
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_malformed_number_exits_2_naming_the_key_without_the_token(tmp_path: Path) -> None:
    result = run_bot(tmp_path, DISCORD_TOKEN="secret-value-123", STARTING_GRANT="lots")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "STARTING_GRANT" in lines[0] and "lots" in lines[0]
    assert "secret-value-123" not in result.stderr


def test_env_example_lists_every_setting() -> None:
    example = (ROOT / ".env.example").read_text()
    listed = {line.split("=", 1)[0].lstrip("# ").strip() for line in example.splitlines() if "=" in line}
    assert set(KEYS) <= listed
    assert {name.upper() for name in Settings.model_fields} == set(KEYS)


def test_the_readme_settings_table_lists_every_setting() -> None:
    readme = (ROOT / "README.md").read_text()
    table = readme[readme.index("## Settings") : readme.index("## Where the data lives")]
    listed = {key for line in table.splitlines() if line.startswith("| `") for key in re.findall(r"`([A-Z_]+)`", line)}
    assert set(KEYS) <= listed, f"missing from the README's settings table: {sorted(set(KEYS) - listed)}"


def test_database_url_selects_the_backend_and_database_path_is_its_shorthand(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_PATH", "/srv/poker/poker.sqlite3")
    assert load_settings(discord_token="t").database == "sqlite:////srv/poker/poker.sqlite3"
    monkeypatch.setenv("DATABASE_URL", "postgresql://poker:hunter2@db.example:5432/poker")
    s = load_settings(discord_token="t")
    assert s.database == "postgresql://poker:hunter2@db.example:5432/poker"
    assert "hunter2" not in repr(s)  # the URL may hold a password: a secret


def test_a_database_url_of_another_scheme_is_one_clear_line_without_its_value(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "mysql://root:hunter2@localhost/poker")
    with pytest.raises(ConfigError) as caught:
        load_settings(discord_token="t")
    assert "DATABASE_URL" in str(caught.value) and "postgresql://" in str(caught.value)
    assert "hunter2" not in str(caught.value)


@pytest.mark.parametrize("url", ["postgresql://poker:hunter2@[::1/poker", "postgresql://poker:hunter2@db:port/poker"])
def test_a_malformed_database_url_exits_2_in_one_line_without_its_password(tmp_path: Path, url: str) -> None:
    result = run_bot(tmp_path, DISCORD_TOKEN="secret-value-123", DATABASE_URL=url)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "DATABASE_URL: a malformed URL" in lines[0], result.stderr
    assert "hunter2" not in result.stderr and "secret-value-123" not in result.stderr


@pytest.mark.parametrize("token", ["Bot secret-value-123", "secret-value-123\nsecret-value-456", "secret value 123"])
def test_a_token_with_a_space_or_a_line_break_exits_2_in_one_line_without_it(tmp_path: Path, token: str) -> None:
    # "Bot xxx" was refused by Discord with no hint; a line break in it ended in a traceback from the HTTP library.
    result = run_bot(tmp_path, DISCORD_TOKEN=token)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN: must be the token alone" in lines[0], result.stderr
    assert "secret" not in result.stderr


def test_spaces_around_the_token_are_dropped() -> None:
    assert load_settings(discord_token="  abc.def-123 \n").discord_token.get_secret_value() == "abc.def-123"
