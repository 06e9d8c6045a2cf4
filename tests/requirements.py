"""Tests that need something outside the repository (a package, the shared hand corpus): skipped on a
developer's machine that lacks it, but a failure in CI (`CI=true`), so that CI never passes by skipping
an oracle silently."""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from types import ModuleType

import pytest


def in_ci() -> bool:
    """True when the environment says CI (`CI=true`, as GitHub Actions, GitLab and `.ci/run` set it)."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def missing(reason: str) -> None:
    """The input or dependency of the calling test module is missing: fail in CI, else skip the module."""
    if in_ci():
        pytest.fail(f"CI=true and {reason}: this oracle must run in CI", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


def require_module(name: str) -> ModuleType:
    """Import `name` for a test module (e.g. "pokerkit"); see `missing` when it is not installed."""
    try:
        return importlib.import_module(name)
    except ImportError:
        missing(f"the package {name!r} is not installed (pip install -e '.[dev]')")
        raise  # not reached: missing() always raises


def require_files(folder: Path, pattern: str) -> list[Path]:
    """The files matching `pattern` in `folder`, sorted; see `missing` when there are none."""
    files = sorted(folder.glob(pattern)) if folder.is_dir() else []
    if not files:
        missing(f"no {pattern} files at {folder}")
    return files
