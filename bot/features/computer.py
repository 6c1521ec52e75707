"""Computer players: after any change, if it is this bot's turn, think in a worker process
(``bot.core.workers.THINKING``) and move like any player (through the same session change and turn
check). A deep search holds the interpreter lock for its whole budget, so it never runs on the
event loop or in its threads.

One move per change: the move's own change is heard here again, so a computer that must move
twice in a row does, and no two thinkers race (the action number refuses a stale move).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping

import discord
from discord.ext import commands

from bot.core.sessions import GameSession, Sessions
from bot.core.workers import WorkerPool
from bot.ui.adapter import GameAdapter
from bot.ui.replies import ErrorLog, UserError

log = logging.getLogger(__name__)
ATTEMPTS = 3  # a computer move that fails (not refused) is tried again, so the game never waits for ever


class ComputerPlayers(commands.Cog):
    def __init__(
        self,
        sessions: Sessions,
        games: Mapping[str, GameAdapter],
        bot: discord.Client,
        errors: ErrorLog,
        pool: WorkerPool,
    ):
        self.sessions = sessions
        self.games = games
        self.bot = bot
        self.errors = errors
        self.pool = pool

    @commands.Cog.listener()
    async def on_session_changed(self, session: GameSession) -> None:
        if session.status != "active":
            return
        adapter = self.games.get(session.record.game)  # None: not a game (a tournament)
        seat = session.seat_of(self.bot.user.id)
        if (
            adapter is None
            or seat is None
            or adapter.computer_player is None
            or seat not in adapter.engine.to_act(session.state)
        ):
            return
        for attempt in range(ATTEMPTS):
            try:
                await self._move(session, adapter, seat)
                return
            except UserError as error:
                log.info("computer move in session %s was overtaken: %s", session.id, error)
                return
            except Exception as error:  # e.g. the database was busy: think and try again shortly
                if attempt == ATTEMPTS - 1:
                    self.errors.append(error)
                log.warning(
                    "the computer player failed in session %s (attempt %d)", session.id, attempt + 1, exc_info=error
                )
                await asyncio.sleep(2**attempt)

    async def _move(self, session: GameSession, adapter: GameAdapter, seat: int) -> None:
        level = session.meta.computer_level
        seed = session.meta.seed + session.action_number
        choose = type(adapter).computer_player  # a plain function, not a method
        action = await self.pool.run(choose, session.state, seat, level, seed)
        await self.sessions.act(session.id, self.bot.user.id, action, seat=seat, built_for=session.action_number)
