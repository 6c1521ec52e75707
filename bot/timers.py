"""Durable timers: rows in the store, one scheduler task that fires them in deadline order.

A deadline that passed while the bot was down fires as soon as the scheduler starts.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

import discord

from bot.store import Store, TimerRecord

log = logging.getLogger(__name__)

TimerHandler = Callable[[TimerRecord], Awaitable[None]]


class Scheduler:
    """Runs only while timers are pending: it sleeps until the earliest deadline, and a new
    earlier timer restarts that sleep. No task sleeps per game."""

    def __init__(self, store: Store, handlers: dict[str, TimerHandler]):
        self._store = store
        self._handlers = handlers
        self._queue: list[tuple[datetime, int, TimerRecord]] = []
        self._task: asyncio.Task[None] | None = None
        self._sleeping = False
        self._started = False

    async def start(self) -> None:
        for timer in await self._store.pending_timers():
            heapq.heappush(self._queue, (timer.deadline, timer.id, timer))
        self._started = True
        self._wake()

    async def stop(self) -> None:
        self._started = False
        if self._task:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None

    async def add(self, session_id: int, kind: str, deadline: datetime, payload: dict[str, Any] | None = None) -> None:
        timer = await self._store.add_timer(session_id, kind, deadline, payload)
        heapq.heappush(self._queue, (timer.deadline, timer.id, timer))
        self._wake()

    async def cancel(self, session_id: int, kinds: list[str] | None = None) -> None:
        removed = set(await self._store.delete_timers(session_id, kinds))
        if removed:
            self._queue = [entry for entry in self._queue if entry[1] not in removed]
            heapq.heapify(self._queue)

    def _wake(self) -> None:
        if not self._started:
            return
        if self._task and not self._task.done():
            if self._sleeping:  # restart the sleep: the earliest deadline may have changed
                self._task.cancel()
            else:
                return  # busy firing; it looks at the queue again afterwards
        self._task = asyncio.create_task(self._run(), name="timer-scheduler")

    async def _run(self) -> None:
        while self._queue:
            deadline, _, timer = self._queue[0]
            delay = (deadline - discord.utils.utcnow()).total_seconds()
            if delay > 0:
                self._sleeping = True
                try:
                    await asyncio.sleep(delay)
                finally:
                    self._sleeping = False
                continue
            heapq.heappop(self._queue)
            await self._fire(timer)

    async def _fire(self, timer: TimerRecord) -> None:
        # Deleting first makes firing at-most-once: a timer cancelled meanwhile is simply gone.
        if not await self._store.delete_timer(timer.id):
            return
        handler = self._handlers.get(timer.kind)
        if handler is None:
            log.error("no handler for timer kind %s (session %s)", timer.kind, timer.session_id)
            return
        try:
            await handler(timer)
        except Exception:
            log.exception("timer %s failed for session %s", timer.kind, timer.session_id)
