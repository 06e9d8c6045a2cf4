"""Draw the table picture's golden files again (tests/render/goldens/*.png), after a deliberate change of the
picture: `python scripts/picture_goldens.py`, then look at every file before committing them.
`POKER_UPDATE_GOLDENS=1 python -m pytest tests/render/test_picture.py` does the same from the tests.

With `--palette` it first computes the PNG palette again from the sample tables and writes it to
bot/render/picture/palette.py (after a change of the picture's colours)."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bot.render.picture import compute_palette, draw_table  # noqa: E402
from bot.render.picture.samples import golden_scenes  # noqa: E402

GOLDENS = REPO / "tests" / "render" / "goldens"
PALETTE = REPO / "bot" / "render" / "picture" / "palette.py"


def write_palette() -> None:
    """Compute the palette and write it as bot/render/picture/palette.py."""
    hexed = compute_palette().hex().upper()
    lines = [f'    "{hexed[i : i + 96]}"' for i in range(0, len(hexed), 96)]
    PALETTE.write_text(
        '"""The table picture\'s 256 PNG colours (RGB, 768 bytes), written by `scripts/picture_goldens.py --palette`\n'
        '(Pillow\'s octree quantizer over the pieces the samples draw); `sprites.to_palette` quantizes to it."""\n\n'
        "PALETTE = bytes.fromhex(\n" + "\n".join(lines) + "\n)\n",
        encoding="utf-8",
    )
    print(f"{PALETTE.relative_to(REPO)} written")


def main() -> None:
    """Write one PNG per golden scene and print their names and sizes (the palette first with --palette)."""
    if "--palette" in sys.argv[1:]:
        write_palette()
    GOLDENS.mkdir(parents=True, exist_ok=True)
    for name, scene in golden_scenes().items():
        data = draw_table(scene)
        (GOLDENS / f"{name}.png").write_bytes(data)
        print(f"{name}.png  {len(data):,} bytes")


if __name__ == "__main__":
    main()
