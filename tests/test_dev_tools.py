"""The dev extra pins ruff (pyproject.toml): a new ruff release brings new rules, and CI (`.ci/run`, a fresh
virtual environment) would start failing on code that did not change. Raising it is a change of its own."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
CI_RUN = PYPROJECT.parent / ".ci" / "run"


def dev_requirement(name: str) -> str:
    dev = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["optional-dependencies"]["dev"]
    (requirement,) = [r for r in dev if re.match(rf"{name}\b", r)]
    return str(requirement)


def test_ruff_is_pinned_to_one_version_and_that_is_the_one_installed() -> None:
    pinned = re.fullmatch(r"ruff==(\d+\.\d+\.\d+)", dev_requirement("ruff"))
    assert pinned is not None, dev_requirement("ruff")
    assert metadata.version("ruff") == pinned.group(1)


def test_ci_checks_the_lint_and_the_format_with_the_pinned_ruff() -> None:
    """CI runs both ruff checks: the lint alone let code in that `ruff format` would rewrite."""
    script = CI_RUN.read_text(encoding="utf-8")
    commands = [line.strip() for line in script.splitlines() if not line.lstrip().startswith(("#", "echo"))]
    assert '"$VENV/bin/ruff" check .' in commands
    assert '"$VENV/bin/ruff" format --check .' in commands
