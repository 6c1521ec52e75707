"""/help, /games and /rules: what the bot hosts, how to start each game and how each is played."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import __version__
from bot.features.game_choices import game_choices, offer_choices

if TYPE_CHECKING:
    from bot.ui.adapter import GameAdapter

FOOTER = f"Octagon Games Bot {__version__}"


class HelpCommands(commands.Cog):
    def __init__(self, *, games: dict[str, GameAdapter]):
        self.games = games
        offer_choices(self.rules_command, game=game_choices(self.games))

    @app_commands.command(name="games", description="The games I host, one line each.")
    async def games_command(self, interaction: discord.Interaction) -> None:
        lines = [
            "## Octagon games",
            *(f"**{a.title}** (`/{a.name}`): {a.summary}" for a in self.games.values()),
            "",
            "New to a game? `/learn` teaches it in a few minutes, privately.",
            "`/rules` explains a game; `/stats` and `/leaderboard` keep score.",
            f"-# {FOOTER}",
        ]
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    @app_commands.command(name="help", description="How to start each game, and where to learn one.")
    async def help_command(self, interaction: discord.Interaction) -> None:
        lines = [
            "## Octagon games: help",
            *(f"**{a.title}**: {how_to_start(a)}" for a in self.games.values()),
            "",
            "New to a game? `/learn` teaches any of them in five minutes, privately, with the game's own controls.",
            "`/rules game:` a game's rules · `/games` the games, one line each · `/stats` your games and wins here",
            f"-# {FOOTER}",
        ]
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    @app_commands.command(name="rules", description="A short summary of a game's rules and how to play it here.")
    @app_commands.describe(game="Which game")
    async def rules_command(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        adapter = self.games[game.value]
        embed = discord.Embed(
            title=f"{adapter.title}: how to play", description=adapter.rules[:4000], colour=discord.Colour.blurple()
        )
        embed.set_footer(text=FOOTER)
        await interaction.response.send_message(embed=embed, ephemeral=True)


def how_to_start(adapter: GameAdapter) -> str:
    """How a game starts, from what it declares: its generated challenge (with the computer when it
    has one), else its own `start` command as that command describes itself."""
    if adapter.challengeable:
        computer = " (mention me instead to play the computer)" if adapter.has_computer else ""
        return f"`/{adapter.name} challenge opponent:@someone`{computer}"
    group = adapter.app_command
    start = group.get_command("start") if group is not None else None
    if start is None:
        return f"`/{adapter.name}`"
    description = start.description.rstrip(".")
    return f"`/{adapter.name} start`: {description[:1].lower()}{description[1:]}"
