"""A member's own commands: /stats, /history, /leaderboard and /notify."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.features.game_choices import board_choices, extras_of, game_choices, offer_choices
from bot.ui.replies import acknowledge, escape, reply_private
from render.narration import with_article

if TYPE_CHECKING:
    from bot.platform import Platform

LEADERBOARD_SIZE = 10


class MemberCommands(commands.Cog):
    def __init__(self, platform: Platform):
        self.platform = platform
        self.extras = extras_of(platform.games)
        self.titles = {a.name: a.title for a in platform.games.values()} | {
            e.name: e.title for e in self.extras.values()
        }
        offer_choices(self.history_command, game=game_choices(platform.games))
        offer_choices(self.leaderboard_command, game=board_choices(platform.games))

    @app_commands.command(name="stats", description="Games played and won, per game, in this server.")
    @app_commands.guild_only()
    @app_commands.describe(user="Whose stats (default: yours)")
    async def stats_command(self, interaction: discord.Interaction, user: discord.Member | None = None) -> None:
        await acknowledge(interaction)
        user = user or interaction.user
        stats = await self.platform.store.user_stats(interaction.guild_id, user.id)
        name = escape(user.display_name, 40)
        if not stats:
            text = f"{name} has not finished a game in this server yet."
        else:
            rows = [f"**{self.titles.get(g, g)}**: {won} won of {played}" for g, (played, won) in stats.items()]
            total_played = sum(p for p, _ in stats.values())
            total_won = sum(w for _, w in stats.values())
            rows.append(f"**All games**: {total_won} won of {total_played}")
            for extra in self.extras.values():
                rows += await extra.stats_lines(interaction.guild_id, user.id)
            text = "\n".join([f"## Stats of {name}", *rows])
        await reply_private(interaction, text)

    @app_commands.command(name="history", description="A member's last 10 finished games here, each with its replay.")
    @app_commands.guild_only()
    @app_commands.describe(member="Whose games (default: yours)", game="Only this game")
    async def history_command(
        self,
        interaction: discord.Interaction,
        member: discord.Member | None = None,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        await acknowledge(interaction)
        member = member or interaction.user
        self.platform.fair_use.check("history", interaction.guild_id, interaction.user.id)
        text, view = await self.platform.replays.history_message(interaction, member, game.value if game else None)
        await reply_private(interaction, text, view=view)
        self.platform.fair_use.used("history", interaction.guild_id, interaction.user.id)

    @app_commands.command(name="leaderboard", description="This server's ranking for a game.")
    @app_commands.guild_only()
    async def leaderboard_command(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        await acknowledge(interaction, private=False)
        if game.value in self.extras:
            text = await self.extras[game.value].leaderboard_text(interaction.guild_id, LEADERBOARD_SIZE)
            await interaction.followup.send(text, allowed_mentions=discord.AllowedMentions.none())
            return
        ranked = await self.platform.store.leaderboard(interaction.guild_id, game.value, LEADERBOARD_SIZE)
        if not ranked:
            text = f"Nobody has finished {with_article(game.name)} game here yet."
        else:
            lines = [f"## {game.name} leaderboard"]
            for place, rating in enumerate(ranked, start=1):
                lines.append(
                    f"{place}. <@{rating.user_id}>: rating {rating.mu - 3 * rating.sigma:.1f} "
                    f"({rating.wins} won of {rating.games})"
                )
            text = "\n".join(lines)
        await interaction.followup.send(text, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="notify", description="Whether I ping you with a new message when it is your turn.")
    @app_commands.guild_only()
    @app_commands.describe(enabled="on (the default) or off; clock warnings still mention you")
    async def notify_command(self, interaction: discord.Interaction, enabled: bool) -> None:
        await acknowledge(interaction)
        await self.platform.threads.set_notices(interaction.guild_id, interaction.user.id, enabled)
        if enabled:
            text = "🔔 I will ping you in a game's thread when it is your move (and when a round starts)."
        else:
            text = '🔕 No more "your move" pings in this server; turn clock warnings still mention you.'
        await reply_private(interaction, text)
