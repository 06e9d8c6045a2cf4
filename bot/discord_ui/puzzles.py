"""Decision puzzles on Discord (issue 17): the posted spot with its Fold / Call / Raise buttons, private answers,
and the reveal after a minute or on `/poker puzzle action:reveal` (bot/tables/puzzle_board.py holds the puzzles,
kept in storage: after a restart the open ones are restored with their answers and revealed on time, `restore`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import discord

from bot.discord_ui.components import guarded_component
from bot.discord_ui.errors import NO_MENTIONS, send_private
from bot.poker.puzzles import Answer
from bot.render import t
from bot.render.puzzles import puzzle_text, reveal_text
from bot.tables.puzzle_board import OpenPuzzle, PuzzleBoard

log = logging.getLogger(__name__)

__all__ = ["PuzzleButton", "Puzzles", "puzzle_view"]

_STYLES = {Answer.FOLD: discord.ButtonStyle.danger, Answer.CALL: discord.ButtonStyle.primary}


def puzzle_board(client: discord.Client) -> PuzzleBoard:
    """The bot's puzzle board (kept by the table cog)."""
    puzzles: Puzzles = client.puzzles  # type: ignore[attr-defined]
    return puzzles.board


class PuzzleButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"poker:pz:(?P<channel>[0-9]{1,20}):(?P<puzzle>[0-9a-f]{8}):(?P<answer>fold|call|raise)",
):
    """One answer to a posted puzzle: kept privately for the presser (changeable until the reveal)."""

    def __init__(self, channel_id: int, puzzle_id: str, answer: Answer, *, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=_STYLES.get(answer, discord.ButtonStyle.success),
                custom_id=f"poker:pz:{channel_id}:{puzzle_id}:{answer.value}",
            )
        )
        self.channel_id, self.puzzle_id, self.answer = channel_id, puzzle_id, answer

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> PuzzleButton:
        """Rebuild from the custom_id (after a restart too: the open puzzle was restored with its answers)."""
        return cls(int(match["channel"]), match["puzzle"], Answer(match["answer"]), label=getattr(item, "label", None))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Keep the answer (behind the door: the custom_id's channel first)."""
        await guarded_component(interaction, self.channel_id, lambda: self._press(interaction))

    async def _press(self, interaction: discord.Interaction[Any]) -> None:
        board = puzzle_board(interaction.client)
        await board.answer(self.channel_id, interaction.user.id, self.puzzle_id, self.answer)
        answer = t(f"action.{self.answer.value}", interaction.locale)
        await send_private(interaction, t("puzzle.answered", interaction.locale, answer=answer))


def puzzle_view(channel_id: int, puzzle_id: str, language: str) -> discord.ui.View:
    """Fold / Call / Raise for a posted puzzle."""
    view = discord.ui.View(timeout=None)
    for answer in Answer:
        label = t(f"action.{answer.value}", language).capitalize()
        view.add_item(PuzzleButton(channel_id, puzzle_id, answer, label=label))
    return view


class Puzzles:
    """The board and the reveal timers (kept, cancelled at unload: house style point 5)."""

    def __init__(self, board: PuzzleBoard) -> None:
        self.board = board
        self.timers: dict[int, asyncio.Task[None]] = {}

    async def post(self, interaction: discord.Interaction[Any], language: str, clock: Any) -> None:
        """Post a new puzzle in the interaction's channel and arm its reveal."""
        assert interaction.guild_id is not None and interaction.channel_id is not None
        channel_id = interaction.channel_id
        puzzle = await self.board.post(interaction.guild_id, channel_id, clock.time(), language)
        text = puzzle_text(puzzle.spot, language)
        await interaction.response.send_message(
            text, view=puzzle_view(channel_id, puzzle.puzzle_id, language), allowed_mentions=NO_MENTIONS
        )
        self._arm(puzzle, interaction.channel, clock)

    async def restore(self, client: discord.Client, clock: Any, owns: Callable[[int], bool]) -> int:
        """After a restart: take back the puzzles left open (`PuzzleBoard.restore`) and arm each reveal, at its
        minute, or at once when that passed while the bot was down. Returns how many."""
        restored = await self.board.restore(owns)
        for puzzle in restored:
            channel = client.get_partial_messageable(puzzle.channel_id, guild_id=puzzle.guild_id)
            self._arm(puzzle, channel, clock)
        return len(restored)

    async def follow_shards(self, client: discord.Client, clock: Any, owns: Callable[[int], bool]) -> int:
        """The shards this process holds changed (a lease taken over or lost while running): the puzzles of the
        guilds it no longer `owns` are let go (their reveal timers stopped: the lease holder reveals them), those
        of the guilds it owns now are restored and armed (`restore`). Returns how many were restored."""
        for channel_id in self.board.release(lambda guild_id: not owns(guild_id)):
            timer = self.timers.pop(channel_id, None)
            if timer is not None:
                timer.cancel()
        return await self.restore(client, clock, owns)

    def _arm(self, puzzle: OpenPuzzle, channel: Any, clock: Any) -> None:
        """Reveal `puzzle` in `channel` at its minute (`OpenPuzzle.reveal_at`), in the language it was posted in."""

        async def reveal_later() -> None:
            await clock.sleep_until(puzzle.reveal_at)
            try:
                await self.reveal(channel, puzzle.channel_id, puzzle.language, puzzle.puzzle_id)
            except Exception:
                log.info("puzzle %s in channel %s was already revealed", puzzle.puzzle_id, puzzle.channel_id)

        self.timers[puzzle.channel_id] = asyncio.create_task(reveal_later(), name=f"puzzle-{puzzle.channel_id}")

    async def reveal(self, channel: Any, channel_id: int, language: str, puzzle_id: str | None = None) -> str:
        """Reveal the channel's open puzzle in `channel` (all of it, when `puzzle_id` is None); returns the text."""
        revealed = await self.board.reveal(channel_id, puzzle_id)
        timer = self.timers.pop(channel_id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()
        text = reveal_text(revealed.spot, revealed.assessment, revealed.votes, language)
        await channel.send(text, allowed_mentions=NO_MENTIONS)
        return text

    def stop(self) -> None:
        """Cancel every reveal timer (cog unload)."""
        for task in self.timers.values():
            task.cancel()
        self.timers.clear()
