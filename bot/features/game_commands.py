"""/board and /hint: typed the same way for every game, in the game's thread (or in a channel, for
the member's one game started there), so a member's command list has two lines for them instead
of two per game. /hint presses the game message's Hint button (bot/features/hints): one way to a hint.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.ui.adapter import HINT
from bot.ui.replies import UserError, acknowledge, reply_private

if TYPE_CHECKING:
    from bot.core.sessions import Sessions
    from bot.core.store import SessionRecord
    from bot.features.threads import GameThreads
    from bot.ui.adapter import GameAdapter
    from bot.ui.controls import Controls
    from bot.ui.game_message import Table

NOTHING_RUNNING = (
    "There is no game running here. In a channel with game threads, use the command in your game's thread."
)


class GameCommands(commands.Cog):
    def __init__(
        self,
        *,
        sessions: Sessions,
        threads: GameThreads,
        table: Table,
        controls: Controls,
        games: dict[str, GameAdapter],
    ):
        self.sessions, self.threads, self.table, self.controls, self.games = sessions, threads, table, controls, games

    @app_commands.command(name="board", description="Post the current picture of your game again, at the bottom.")
    @app_commands.guild_only()
    async def board_command(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        running = await self._running(interaction)
        async with self.sessions.change(running.id) as change:
            self.table.post_again(change)
        where = change.record.play_channel_id
        if where == interaction.channel_id:
            await reply_private(interaction, "Here is the current board.")
        else:  # typed in the channel of the game's thread: the link to it
            await reply_private(interaction, f"The current board is posted again in <#{where}>.")

    @app_commands.command(name="hint", description="A private hint: the move the computer suggests (friendly games).")
    @app_commands.guild_only()
    async def hint_command(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        running = await self._running(interaction)
        adapter = self.games[running.game]
        if not adapter.hintable:
            raise UserError(adapter.no_hints)
        await self.controls.on_button(interaction, running.id, HINT, "")

    async def _running(self, interaction: discord.Interaction) -> SessionRecord:
        """The running game a command here means (a tournament's own session is not a game)."""
        found = await self.threads.find(interaction)
        if found is None or found.game not in self.games or found.status != "active":
            raise UserError(NOTHING_RUNNING)
        return found
