"""Commands shared by every game: /games, /rules, /stop, /stats, /leaderboard, /settings,
and the "Apps > Challenge" user menu."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.components import SessionSelect, view_of
from bot.platform import UserError, escape

if TYPE_CHECKING:
    from bot.app import OctagonBot

LEADERBOARD_SIZE = 10


def add_common_commands(bot: OctagonBot) -> None:
    platform = bot.platform
    tree = bot.tree
    games = platform.games
    game_choices = [app_commands.Choice(name=a.title, value=a.name) for a in games.values()]

    @tree.command(name="games", description="The games I host, one line each.")
    async def games_command(interaction: discord.Interaction) -> None:
        lines = [
            "## Octagon games",
            *(f"**{a.title}** (`/{a.name}`): {a.summary}" for a in games.values()),
            "",
            "`/rules` explains a game; `/stats` and `/leaderboard` keep score.",
        ]
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    @tree.command(name="rules", description="A short summary of a game's rules and how to play it here.")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=game_choices)
    async def rules_command(interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        adapter = games[game.value]
        embed = discord.Embed(
            title=f"{adapter.title}: how to play", description=adapter.rules[:4000], colour=discord.Colour.blurple()
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @tree.command(name="stop", description="End the game, lobby or challenge running in this channel.")
    @app_commands.guild_only()
    async def stop_command(interaction: discord.Interaction) -> None:
        await platform.stop_command(interaction)

    @tree.command(name="stats", description="Games played and won, per game, in this server.")
    @app_commands.guild_only()
    @app_commands.describe(user="Whose stats (default: yours)")
    async def stats_command(interaction: discord.Interaction, user: discord.Member | None = None) -> None:
        user = user or interaction.user
        stats = await platform.store.user_stats(interaction.guild_id, user.id)
        if not stats:
            text = f"{escape(user.display_name)} has not finished a game in this server yet."
        else:
            rows = [
                f"**{games[g].title if g in games else g}**: {won} won of {played}"
                for g, (played, won) in stats.items()
            ]
            total_played = sum(p for p, _ in stats.values())
            total_won = sum(w for _, w in stats.values())
            text = "\n".join(
                [f"## Stats of {escape(user.display_name)}", *rows, f"**All games**: {total_won} won of {total_played}"]
            )
        await interaction.response.send_message(text, ephemeral=True)

    @tree.command(name="leaderboard", description="This server's ranking for a game.")
    @app_commands.guild_only()
    @app_commands.choices(game=game_choices)
    async def leaderboard_command(interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        ratings = await platform.store.ratings(interaction.guild_id, game.value)
        ranked = sorted(ratings, key=lambda r: r.mu - 3 * r.sigma, reverse=True)[:LEADERBOARD_SIZE]
        if not ranked:
            await interaction.response.send_message(f"Nobody has finished a {game.name} game here yet.")
            return
        lines = [f"## {game.name} leaderboard"]
        for place, rating in enumerate(ranked, start=1):
            lines.append(
                f"{place}. <@{rating.user_id}>: rating {rating.mu - 3 * rating.sigma:.1f} "
                f"({rating.wins} won of {rating.games})"
            )
        await interaction.response.send_message("\n".join(lines), allowed_mentions=discord.AllowedMentions.none())

    settings_group = app_commands.Group(
        name="settings",
        description="Server settings for the games.",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    @settings_group.command(name="turn_clock", description="Time per turn in two-player games (0 = off).")
    @app_commands.describe(minutes="Minutes per turn; a warning at half time, a forfeit at the end. 0 turns it off.")
    async def turn_clock(interaction: discord.Interaction, minutes: app_commands.Range[int, 0, 10080]) -> None:
        await platform.store.set_turn_clock_seconds(interaction.guild_id, minutes * 60)
        text = f"Turn clock set to {minutes} minute(s) per turn for new turns." if minutes else "Turn clock turned off."
        await interaction.response.send_message(text, ephemeral=True)

    tree.add_command(settings_group)

    challengeable = [a for a in games.values() if a.challengeable]

    @app_commands.context_menu(name="Challenge")
    @app_commands.guild_only()
    async def challenge_menu(interaction: discord.Interaction, user: discord.Member) -> None:
        if not challengeable:
            raise UserError("No game can be started by a challenge yet.")
        options = [
            discord.SelectOption(label=a.title, value=a.name, description=a.summary[:100]) for a in challengeable
        ]
        select = SessionSelect(user.id, "menu_challenge", options=options, placeholder="Which game?")
        await interaction.response.send_message(
            f"Challenge {user.mention} to which game?", view=view_of([select]), ephemeral=True
        )

    async def on_menu_challenge(interaction: discord.Interaction, user_id: int, _: str, values: list[str]) -> None:
        target = interaction.guild.get_member(user_id) or await interaction.guild.fetch_member(user_id)
        adapter = games[values[0]]
        await platform.challenge(interaction, adapter.name, [target], adapter.default_options())

    platform.register_select("menu_challenge", on_menu_challenge)
    tree.add_command(challenge_menu)
