"""The buttons every game message shares: Resign (with its private confirmation) and the
private view (a hand, a deck). `/<game> resign`, typed on purpose, resigns at once instead
(bot/ui/adapter.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.features.activity.launch import OPEN_BOARD, BoardPlace, open_board
from bot.ui.controls import SessionButton, view_of
from bot.ui.game_message import RESIGN
from bot.ui.replies import UserError, reply_private

if TYPE_CHECKING:
    from bot.core.sessions import Sessions
    from bot.core.workers import WorkerPool
    from bot.ui.adapter import GameAdapter
    from bot.ui.controls import Controls

RESIGN_CONFIRM = "resign_yes"
RESIGN_KEEP = "resign_no"
PRIVATE_VIEW = "private"


class GameButtons(commands.Cog):
    """Registers the shared buttons' handlers with the one dispatcher of controls, by their names
    in the custom ids (restart-proof: the session and action number are in the id)."""

    def __init__(
        self,
        *,
        sessions: Sessions,
        controls: Controls,
        pictures: WorkerPool,
        games: dict[str, GameAdapter],
        board: BoardPlace,
    ):
        self.sessions, self.controls, self.pictures, self.games, self.board = sessions, controls, pictures, games, board

    async def cog_load(self) -> None:
        controls = self.controls
        controls.button(RESIGN, self.ask_to_resign, ack="private")
        controls.button(RESIGN_CONFIRM, self.resign)
        controls.button(RESIGN_KEEP, self.keep_playing)
        controls.button(PRIVATE_VIEW, self.private_view, ack="private")
        controls.button(OPEN_BOARD, self.open_board, ack="modal")  # answered by Discord's launch

    async def ask_to_resign(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        """A private question, built for the current action number, so the one stale check refuses
        it once the game has moved on (it expires with the turn)."""
        sessions = self.sessions
        session = await sessions.load(session_id)
        sessions.check_can_act(session, interaction.user.id, any_time=True)
        title = self.games[session.record.game].title
        view = view_of(
            [
                SessionButton(
                    session_id,
                    RESIGN_CONFIRM,
                    str(session.action_number),
                    label="Resign",
                    style=discord.ButtonStyle.danger,
                ),
                SessionButton(session_id, RESIGN_KEEP, label="Keep playing", style=discord.ButtonStyle.primary),
            ]
        )
        question = f"Resign this game of {title}? You lose it. (This question expires once the game moves on.)"
        await reply_private(interaction, question, view=view)

    async def resign(self, interaction: discord.Interaction, session_id: int, built_for: str) -> None:
        """The confirmation: resigns unless the game has moved on since it was asked (then refused privately)."""
        resignation = {"type": "resign"}
        await self.sessions.act(session_id, interaction.user.id, resignation, built_for=int(built_for))
        await interaction.edit_original_response(content="You resigned.", view=None)

    async def keep_playing(self, interaction: discord.Interaction, _: int, __: str) -> None:
        await interaction.edit_original_response(content="You keep playing.", view=None)

    async def private_view(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        session = await self.sessions.load(session_id)
        seat = session.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("You are not playing in this game.")
        adapter = self.games[session.record.game]
        picture = await self.pictures.draw(adapter.private_picture(session, seat))
        label = adapter.private_view_label or "Your view"
        await reply_private(interaction, f"**{label}** (only you can see this).", picture)

    async def open_board(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        """The Activity launched by Discord for whoever clicks (players and spectators alike)."""
        await open_board(interaction, session_id, self.board.url, self.board.page)
