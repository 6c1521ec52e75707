"""/settings: a server's settings for the games (Manage Server), and those of the games' extras."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.store import Store
from bot.features.game_choices import extras_of
from bot.features.tournaments.commands import HOST_ROLE_KEY
from bot.features.turn_clock import LONGEST_CLOCK, TurnClock, clock_words, parse_clock, read_duration
from bot.ui.adapter import GameAdapter
from bot.ui.replies import UserError, acknowledge, reply_private


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class SettingsCommands(commands.GroupCog, group_name="settings", group_description="Server settings for the games."):
    def __init__(self, *, store: Store, turn_clock: TurnClock, games: dict[str, GameAdapter]):
        self.store, self.clock = store, turn_clock  # not self.turn_clock: the /settings turn_clock command
        for extra in extras_of(games).values():  # e.g. /settings daily_channel
            for command in extra.settings_commands():
                self.app_command.add_command(command)

    @app_commands.command(
        name="turn_clock", description="Time per turn for new two-player games (e.g. 30m, 4h, 2d, off)."
    )
    @app_commands.describe(
        clock="Per turn: 30m, 4h, 2d (up to 7d), or off; a warning at half time, a forfeit at the end"
    )
    @app_commands.checks.has_permissions(manage_guild=True)  # default_permissions can be overridden per server
    async def turn_clock(self, interaction: discord.Interaction, clock: str) -> None:
        await acknowledge(interaction)
        seconds = parse_clock(clock)
        await self.clock.set_seconds(interaction.guild_id, seconds)
        text = (
            f"Turn clock set to {clock_words(seconds)} per turn for games that start from now on"
            " (a challenge's `clock:` option still chooses its own)."
            if seconds
            else "Turn clock turned off for games that start from now on."
        )
        await reply_private(interaction, text)

    @app_commands.command(name="game_threads", description="Whether games started in a channel get a thread each.")
    @app_commands.describe(
        enabled="on: each game in its own thread (the default); off: one game at a time, in the channel"
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def game_threads(
        self,
        interaction: discord.Interaction,
        enabled: bool,
        channel: discord.TextChannel | None = None,
    ) -> None:
        await acknowledge(interaction)
        where = channel or interaction.channel
        async with self.store.transaction() as tx:
            await tx.set_game_threads(where.id, interaction.guild_id, enabled)
        if enabled:
            text = f"Games started in {where.mention} now get a thread each; any number can run at once."
        else:
            text = f"Games started in {where.mention} are now played in the channel itself, one at a time."
        await reply_private(interaction, text)

    @app_commands.command(name="thread_archive", description="How long after its end a game's thread is archived.")
    @app_commands.describe(clock="e.g. 1h (the default), 30m, 1d; up to 7d. Threads are archived, never deleted")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def thread_archive(self, interaction: discord.Interaction, clock: str) -> None:
        await acknowledge(interaction)
        seconds = read_duration(clock)
        if seconds is None:
            raise UserError("A finished game's thread is always archived in the end: give a time, e.g. `1h`.")
        if not 60 <= seconds <= LONGEST_CLOCK:
            raise UserError("A finished game's thread is archived 1 minute (`1m`) to 7 days (`7d`) after its end.")
        async with self.store.transaction() as tx:
            await tx.set_archive_minutes(interaction.guild_id, seconds // 60)
        await reply_private(interaction, f"Finished games' threads are archived {clock_words(seconds)} after the end.")

    @app_commands.command(name="tournament_role", description="A role whose members may host tournaments.")
    @app_commands.describe(role="Members with this role may use /tournament create (besides Manage Server)")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def tournament_role(self, interaction: discord.Interaction, role: discord.Role) -> None:
        await acknowledge(interaction)
        async with self.store.transaction() as tx:
            await tx.set_value(HOST_ROLE_KEY.format(guild=interaction.guild_id), str(role.id))
        await reply_private(
            interaction, f"Members with {role.mention} may now host tournaments (`/tournament create`)."
        )
