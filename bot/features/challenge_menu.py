"""The "Apps > Challenge" menu on a member: a private list of the games to challenge them to."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.features.challenges import Challenges
from bot.ui.adapter import GameAdapter
from bot.ui.controls import Controls, SessionSelect, view_of
from bot.ui.replies import UserError

MENU_CHALLENGE = "menu_challenge"  # the game picked in the private list


class ChallengeMenu(commands.Cog):
    """discord.py cannot declare a context menu inside a cog: the cog builds it and adds it to
    the tree itself when it is loaded, and takes it out when it is unloaded (as discord.py's
    maintainers advise), so the menu is registered and synced with the cogs' commands."""

    def __init__(self, *, bot: commands.Bot, controls: Controls, challenges: Challenges, games: dict[str, GameAdapter]):
        self.bot, self.controls, self.challenges, self.games = bot, controls, challenges, games
        self.challenge_menu = app_commands.ContextMenu(name="Challenge", callback=self.offer_games)
        app_commands.guild_only(self.challenge_menu)

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.challenge_menu)
        self.controls.select(MENU_CHALLENGE, self.challenge_to, ack="private")

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.challenge_menu.name, type=self.challenge_menu.type)

    def challengeable(self) -> list[GameAdapter]:
        return [adapter for adapter in self.games.values() if adapter.challengeable]

    async def offer_games(self, interaction: discord.Interaction, user: discord.Member) -> None:
        challengeable = self.challengeable()
        if not challengeable:
            raise UserError("No game can be started by a challenge yet.")
        options = [
            discord.SelectOption(label=a.title, value=a.name, description=a.summary[:100]) for a in challengeable
        ]
        select = SessionSelect(user.id, MENU_CHALLENGE, options=options, placeholder="Which game?")
        await interaction.response.send_message(
            f"Challenge {user.mention} to which game?", view=view_of([select]), ephemeral=True
        )

    async def challenge_to(self, interaction: discord.Interaction, user_id: int, _: str, values: list[str]) -> None:
        adapter = self.games.get(values[0] if values else "")
        if adapter is None or not adapter.challengeable:
            raise UserError("Pick one of the games in the list.")
        target = interaction.guild.get_member(user_id) or await interaction.guild.fetch_member(user_id)
        seats = {"challenger": interaction.user.id, "opponent": target.id}
        options = adapter.challenge_options({}, seats)  # what the command gives when nothing is chosen
        await self.challenges.challenge(interaction, adapter.name, [target], options)
