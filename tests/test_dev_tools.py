"""The dev extra pins ruff (pyproject.toml): a new ruff release brings new rules, and CI (`.ci/run`, a fresh
virtual environment) would start failing on code that did not change. Raising it is a change of its own."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def dev_requirement(name: str) -> str:
    dev = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["optional-dependencies"]["dev"]
    (requirement,) = [r for r in dev if re.match(rf"{name}\b", r)]
    return str(requirement)


def test_ruff_is_pinned_to_one_version_and_that_is_the_one_installed() -> None:
    pinned = re.fullmatch(r"ruff==(\d+\.\d+\.\d+)", dev_requirement("ruff"))
    assert pinned is not None, dev_requirement("ruff")
    assert metadata.version("ruff") == pinned.group(1)
