"""Entry point (`poker-bot` and `python -m bot`): the command line in bot/cli.py."""

from __future__ import annotations

from bot.cli import main

if __name__ == "__main__":
    main()
