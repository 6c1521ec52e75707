"""Computer players: after any change, if it is this bot's turn, think in a worker process and
move like any player (through the same session change and turn check).

Thinking happens in a small process pool, not in threads: a deep search holds the interpreter
lock for its whole budget, and in threads ten hard games slowed every other channel's moves.

One move per change: the move's own change is heard here again, so a computer that must move
twice in a row does, and no two thinkers race (the action number refuses a stale move).
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import multiprocessing
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import discord
from discord.ext import commands

from bot.adapter import GameAdapter
from bot.replies import ErrorLog, UserError
from bot.sessions import GameSession, Sessions

log = logging.getLogger(__name__)
ATTEMPTS = 3  # a computer move that fails (not refused) is tried again, so the game never waits for ever
THINKING_WORKERS = 2  # processes; a move's search is bounded by nodes, so two keep up with many games


class ThinkingPool:
    """The worker processes computer players think in: one pool per bot process, started on the
    first computer move, and started afresh if a worker dies (the move is then tried again)."""

    def __init__(self, workers: int = THINKING_WORKERS):
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None

    async def think(self, choose: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
        if self._executor is None:
            # "spawn": a fork of a process running an event loop and threads is not safe.
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(self.workers, mp_context=context)
        executor = self._executor
        try:
            return await asyncio.get_running_loop().run_in_executor(executor, choose, *args)
        except BrokenProcessPool:
            if self._executor is executor:
                self._executor = None
            executor.shutdown(wait=False, cancel_futures=True)
            raise

    def shutdown(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


THINKING = ThinkingPool()
atexit.register(THINKING.shutdown)


class ComputerPlayers(commands.Cog):
    def __init__(
        self,
        sessions: Sessions,
        games: Mapping[str, GameAdapter],
        bot: discord.Client,
        errors: ErrorLog,
        pool: ThinkingPool = THINKING,
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
        adapter = self.games[session.record.game]
        seat = session.seat_of(self.bot.user.id)
        if seat is None or adapter.computer_player is None or seat not in adapter.engine.to_act(session.state):
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
        action = await self.pool.think(choose, session.state, seat, level, seed)
        await self.sessions.act(session.id, self.bot.user.id, action, seat=seat, built_for=session.action_number)
