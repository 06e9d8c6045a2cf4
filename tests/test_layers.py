"""The layers import only the layers below them (docs/architecture.md, "Layers"): engine -> render -> storage ->
tables -> discord_ui -> cogs -> the app (bot/app.py, bot/__main__.py, bot/config.py,
and the process around it: bot/cli.py, bot/runtime.py, bot/cluster.py)."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("bot.poker", "bot.render", "bot.storage", "bot.tables", "bot.discord_ui", "cogs", "app")
APP = ("bot.app", "bot.__main__", "bot.config", "bot.cli", "bot.runtime", "bot.cluster", "bot")


def layer_of(module: str) -> int | None:
    """The layer index of a module of ours, None for the standard library and packages."""
    for index, prefix in enumerate(LAYERS[:-1]):
        if module == prefix or module.startswith(prefix + "."):
            return index
    if module in APP:
        return len(LAYERS) - 1
    return None


def modules() -> list[tuple[str, Path]]:
    found = []
    for path in sorted([*ROOT.joinpath("bot").rglob("*.py"), *ROOT.joinpath("cogs").rglob("*.py")]):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found.append((name, path))
    return found


def imports_of(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize(("name", "path"), modules(), ids=[name for name, _ in modules()])
def test_a_module_imports_no_layer_above_its_own(name: str, path: Path) -> None:
    own = layer_of(name)
    assert own is not None, name
    above = sorted(m for m in imports_of(path) if (layer := layer_of(m)) is not None and layer > own)
    assert not above, f"{name} (layer {LAYERS[own]}) imports {above}"
