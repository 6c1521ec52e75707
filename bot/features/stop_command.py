"""/stop: the host, or a member with Manage Messages in the channel, ends what runs there."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.sessions import Sessions
from bot.core.store import LIVE_STATUSES
from bot.features.threads import GameThreads
from bot.ui.adapter import GameAdapter
from bot.ui.game_message import TEXT
from bot.ui.replies import UserError, acknowledge, reply_private
from render.narration import final_header


class StopCommand(commands.Cog):
    def __init__(self, *, sessions: Sessions, threads: GameThreads, games: dict[str, GameAdapter]):
        self.sessions, self.threads, self.games = sessions, threads, games

    @app_commands.command(name="stop", description="End the game, lobby or challenge running in this channel.")
    @app_commands.guild_only()
    async def stop_command(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        await self.stop(interaction)

    async def stop(self, interaction: discord.Interaction) -> None:
        moderator = interaction.permissions.manage_messages
        found = await self.threads.find(interaction, moderator=moderator)
        if found is None:
            raise UserError("Nothing is running in this channel.")
        async with self.sessions.change(found.id) as change:
            if change.record.status not in LIVE_STATUSES:  # it ended while this waited for its turn
                raise UserError("Nothing is running in this channel.")
            host = change.record.host_id
            # The member's permissions in this channel (overwrites included), not server-wide ones.
            if interaction.user.id != host and not interaction.permissions.manage_messages:
                raise UserError(f"Only the host (<@{host}>) or a member with Manage Messages here can stop this.")
            title = self.games[change.record.game].title
            note = f"⏹ {interaction.user.mention} stopped the {title} session."
            change.meta.stopped_by = interaction.user.id
            change.meta.final_header = final_header("stopped", interaction.user.display_name)
            change.end("stopped", note)
            change.post(TEXT, {"content": note})
        await reply_private(interaction, f"⏹ You stopped the {title} session.")
