"""Draw the table picture's golden files again (tests/render/goldens/*.png), after a deliberate change of the
picture: `python scripts/picture_goldens.py`, then look at every file before committing them.
`POKER_UPDATE_GOLDENS=1 python -m pytest tests/render/test_picture.py` does the same from the tests."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bot.render.picture import draw_table  # noqa: E402
from bot.render.picture_samples import golden_scenes  # noqa: E402

GOLDENS = REPO / "tests" / "render" / "goldens"


def main() -> None:
    """Write one PNG per golden scene and print their names and sizes."""
    GOLDENS.mkdir(parents=True, exist_ok=True)
    for name, scene in golden_scenes().items():
        data = draw_table(scene)
        (GOLDENS / f"{name}.png").write_bytes(data)
        print(f"{name}.png  {len(data):,} bytes")


if __name__ == "__main__":
    main()
