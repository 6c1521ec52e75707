"""What a game's Discord side may use of the platform: a narrow context, not the platform.

A game reads and changes its sessions, registers its controls, timers and message kinds,
draws pictures off the event loop and answers privately; everything else (challenges,
results, the turn clock, computer players) happens around it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.core.outbox import Outbox
from bot.core.sessions import GameSession, Sessions
from bot.core.timers import Scheduler
from bot.core.workers import WorkerPool
from bot.ui.controls import Controls
from bot.ui.menus import Menus
from bot.ui.replies import UserError, reply_private
from render.theme import Picture

Challenge = Callable[..., Awaitable[None]]  # (interaction, game, invitees, options, level, *, clock, where)


@dataclass
class GameContext:
    sessions: Sessions
    controls: Controls
    timers: Scheduler
    outbox: Outbox
    pictures: WorkerPool  # draws pictures in worker processes
    bot: discord.Client
    table: Any  # bot.ui.game_message.Table: the game message's content and controls
    challenge: Challenge  # the shared challenge-by-mention flow
    busy_text: Callable[[Any], str]  # "There is already a game of ... in this channel"
    first_message_or_close: Callable[[discord.Interaction, Any], Awaitable[None]]
    new_seed: Callable[[], int]
    menus: Menus  # the one menu mechanism: a game's declared ActionMenus, their button and autocomplete
    replays: Any = None  # bot.features.replays.Replays: finished games' replays and records
    threads: Any = None  # bot.features.threads.GameThreads: games in threads, and which game a command means

    @property
    def me(self) -> int:
        """The bot's own user id (the computer player's seat)."""
        return self.bot.user.id

    async def render(self, draw: Callable[..., Picture], *args: Any) -> Picture:
        return await self.pictures.run(draw, *args)

    reply_private = staticmethod(reply_private)

    async def act(self, session_id: int, user_id: int, action: dict[str, Any], **how: Any) -> GameSession:
        return await self.sessions.act(session_id, user_id, action, **how)

    async def session_for(self, interaction: discord.Interaction, game: str) -> GameSession:
        """The running game of ``game`` a command here means (this thread's or channel's, or the
        caller's own started here), or a clear error."""
        found = await self.threads.find(interaction, game)
        self._check_running(game, found and (found.game, found.status))
        return self.sessions.loaded(found)

    async def running_id(self, interaction: discord.Interaction, game: str) -> int:
        """The id of the running game of ``game`` a command here means (or a clear error), for a
        command that acts at once: the action's own change loads the session."""
        found = await self.threads.find(interaction, game)
        self._check_running(game, found and (found.game, found.status))
        return found.id

    def _check_running(self, game: str, found: tuple[str, str] | None) -> None:
        if found != (game, "active"):
            raise UserError(f"There is no {self.sessions.game(game).title} game running in this channel.")
