"""Opening the board from Discord: the Entry Point command in the command sync, and the game
message's "Open the board" answered with Discord's launch of the Activity.

Discord launches an Activity in answer to an interaction (callback type 12, LAUNCH_ACTIVITY) only
for an application with Activities enabled, which is what ``ACTIVITY_URL`` says; where it cannot
(Activities not enabled, the playground's simulated Discord, or Discord refusing), the member is
answered privately with how to open it: the App Launcher, or in the playground a link to the page.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import discord

from bot.ui.controls import view_of
from bot.ui.game_message import OPEN_BOARD
from bot.ui.replies import reply_private

log = logging.getLogger(__name__)

__all__ = ["OPEN_BOARD", "BoardPlace", "entry_point_command", "open_board"]

OPEN_BOARD_LABEL = "Open the board"
# Discord's Entry Point command (application command type 4, PRIMARY_ENTRY_POINT): Discord creates
# one when Activities are enabled and refuses a bulk overwrite of the global commands that leaves
# it out. Handler 2 (DISCORD_LAUNCH_ACTIVITY): Discord opens the Activity itself.
PRIMARY_ENTRY_POINT = 4
DISCORD_LAUNCH_ACTIVITY = 2
ENTRY_POINT_NAME = "launch"
ENTRY_POINT_DESCRIPTION = "Open the board: play this channel's games by clicking on them"
FROM_THE_LAUNCHER = (
    "Open the board from Discord's App Launcher: the Activities button (🚀) beside this channel's message box, "
    "then **{bot}**. Every game of this channel is there, live."
)
IN_THE_PLAYGROUND = "Open the board in a tab of its own (the playground stands in for Discord's Activity window)."


@dataclass
class BoardPlace:
    """Where the board is served: Discord's Activity (``url``, ACTIVITY_URL), or the playground's
    own page (``page``, known once its server has started, which sets it)."""

    url: str | None = None
    page: str | None = None

    def offered(self) -> bool:
        """Whether running games get "Open the board"."""
        return bool(self.url or self.page)


def entry_point_command() -> dict[str, Any]:
    """The Entry Point command as the global commands' bulk overwrite sends it."""
    return {
        "name": ENTRY_POINT_NAME,
        "description": ENTRY_POINT_DESCRIPTION,
        "type": PRIMARY_ENTRY_POINT,
        "handler": DISCORD_LAUNCH_ACTIVITY,
    }


async def open_board(
    interaction: discord.Interaction, session_id: int, activity_url: str | None, local_page: str | None
) -> None:
    """Discord's launch of the Activity where the application has one (``activity_url``); otherwise,
    or when Discord refuses it, a private answer: the playground's page (``local_page``), or the
    App Launcher's way in."""
    if activity_url:
        try:
            await interaction.response.launch_activity()
            return
        except discord.HTTPException as refused:
            log.info("Discord did not launch the Activity (%s %s): told the way in", refused.status, refused.text)
    if local_page:
        # The page signs in with the SDK's mock as the member it is opened for, in this server and channel.
        where = f"user={interaction.user.id}&guild={interaction.guild_id}&channel={interaction.channel_id}"
        link: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=OPEN_BOARD_LABEL, url=f"{local_page}?session={session_id}&{where}", emoji="🎲"
        )
        await reply_private(interaction, IN_THE_PLAYGROUND, view=view_of([link]))
        return
    name = interaction.client.user.display_name if interaction.client.user else "this bot"
    await reply_private(interaction, FROM_THE_LAUNCHER.format(bot=name))
