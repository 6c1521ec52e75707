"""Durable timers: rows in the store, one scheduler that fires them when due.

A timer is written in the same transaction as the change it belongs to, and fired inside a
session change that deletes it in its own transaction: if the handler fails or the process
dies, the row is still there and the timer fires again (at least once; handlers check the
round or action number, so a second firing does nothing). Timers due together fire
concurrently, up to a limit, each given a turn of the event loop after the last (clicks are
answered between two firings), and in the background (``bot.core.workers.in_background``): the
pictures their changes send wait their turn behind the players' pictures and never fill the
picture queue that answers players "busy", even when a thousand round ends fall due at the same
moment. A deadline that passed while the bot was down fires at start.

While the database is unavailable a timer whose firing failed is tried again every few seconds
(not after a growing pause), and the stored timers are read again every few seconds until the
database answers: one that was committed while the bot could not hear of it (a commit whose
answer was lost) is armed then. Stopping gracefully (``pause``) fires nothing new and lets the
firings in progress finish.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from bot.core.errors import ErrorLog, UserError
from bot.core.outage import SWEEP_SECONDS, database_unavailable, note_unreachable
from bot.core.sessions import Change, GameSession, Sessions, TimerGone
from bot.core.store import Store, TimerRecord
from bot.core.workers import in_background

log = logging.getLogger(__name__)

TimerHandler = Callable[[Change, TimerRecord], Awaitable[None]]
CONCURRENT_FIRINGS = 16
FIRST_RETRY_SECONDS = 5
LONGEST_RETRY_SECONDS = 300


class Scheduler:
    """Sleeps only until the earliest deadline; a new earlier timer restarts that sleep."""

    def __init__(self, store: Store, sessions: Sessions, errors: ErrorLog):
        self._store = store
        self._sessions = sessions
        self._errors = errors
        self._handlers: dict[str, TimerHandler] = {}
        self._queue: list[tuple[datetime, int]] = []
        self._timers: dict[int, TimerRecord] = {}
        self._failures: dict[int, int] = {}
        self._slots = asyncio.Semaphore(CONCURRENT_FIRINGS)
        self._firing: set[asyncio.Task[None]] = set()
        self._task: asyncio.Task[None] | None = None
        self._sleeping = False
        self._started = False
        self._sweeper: asyncio.Task[None] | None = None
        sessions.committed.append(self._on_commit)
        errors.watch("database", self._sweep_soon)

    def register(self, kind: str, handler: TimerHandler) -> None:
        self._handlers[kind] = handler

    @property
    def kinds(self) -> frozenset[str]:
        """The kinds of timer with a handler."""
        return frozenset(self._handlers)

    async def start(self) -> None:
        """Arm every stored timer. Calling it again (a gateway reconnect) adds nothing twice."""
        if self._started:
            return
        self._started = True
        try:
            await self._read_stored()
        except Exception as error:
            self._unreachable("reading the timers at start", error)
        self._wake()

    async def _read_stored(self) -> None:
        for timer in await self._store.pending_timers():
            self._track(timer)

    async def pause(self) -> None:
        """Fire nothing new; the firings in progress go on to their end (a graceful stop)."""
        self._started = False
        background = [t for t in (self._task, self._sweeper) if t is not None]
        for task in background:
            task.cancel()
        await asyncio.gather(*background, return_exceptions=True)
        self._task = self._sweeper = None

    async def stop(self) -> None:
        await self.pause()
        tasks = list(self._firing)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # ------------------------------------------------------------- outages
    def _unreachable(self, doing: str, error: Exception) -> None:
        note_unreachable(log, self._errors, doing, error)
        self._sweep_soon()

    def _sweep_soon(self) -> None:
        """Read the stored timers again every few seconds until the database answers."""
        if self._started and (self._sweeper is None or self._sweeper.done()):
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep(), name="timer-sweep")

    async def _sweep(self) -> None:
        while self._started:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self._read_stored()
            except Exception as error:
                log.warning("timer sweep: %s; trying again in %ss", error, SWEEP_SECONDS)
                continue
            self._wake()
            return

    # ------------------------------------------------------------ bookkeeping
    def _on_commit(self, _: GameSession, added: list[TimerRecord], removed: list[int]) -> None:
        for timer_id in removed:
            self._timers.pop(timer_id, None)  # its queue entry is skipped when it comes up
            self._failures.pop(timer_id, None)
        for timer in added:
            self._track(timer)
        if added:
            self._wake()

    def _track(self, timer: TimerRecord) -> None:
        if timer.id not in self._timers:
            self._timers[timer.id] = timer
            heapq.heappush(self._queue, (timer.deadline, timer.id))

    def _wake(self) -> None:
        if not self._started:
            return
        if self._task and not self._task.done():
            if self._sleeping:  # restart the sleep: the earliest deadline may have changed
                self._task.cancel()
            else:
                return  # busy; it looks at the queue again afterwards
        self._task = asyncio.get_running_loop().create_task(self._run(), name="timer-scheduler")

    async def _run(self) -> None:
        while self._queue:
            deadline, timer_id = self._queue[0]
            if timer_id not in self._timers or self._timers[timer_id].deadline != deadline:
                heapq.heappop(self._queue)  # cancelled, or moved to a later retry
                continue
            delay = (deadline - self._sessions.clock()).total_seconds()
            if delay > 0:
                self._sleeping = True
                try:
                    await asyncio.sleep(delay)
                finally:
                    self._sleeping = False
                continue
            await self._slots.acquire()
            # Looked at again: the queue may have changed while this waited for a slot.
            timer = self._timers.get(timer_id)
            if not self._queue or self._queue[0] != (deadline, timer_id) or timer is None or timer.deadline != deadline:
                self._slots.release()
                continue
            heapq.heappop(self._queue)
            task = asyncio.get_running_loop().create_task(self._fire(timer))
            self._firing.add(task)
            task.add_done_callback(self._firing.discard)
            await asyncio.sleep(0)  # a turn for the clicks between two firings

    # ------------------------------------------------------------------ firing
    async def _fire(self, timer: TimerRecord) -> None:
        in_background()  # this task's own context: its pictures, and those its change sends
        try:
            handler = self._handlers.get(timer.kind)
            if handler is None:
                log.error("no handler for timer kind %s (session %s)", timer.kind, timer.session_id)
                return
            async with self._sessions.change(timer.session_id, timer=timer) as change:
                await handler(change, timer)
        except TimerGone:
            self._timers.pop(timer.id, None)
        except UserError as error:  # e.g. the session is gone: nothing left to do
            log.info("timer %s of session %s: %s", timer.kind, timer.session_id, error)
            self._timers.pop(timer.id, None)
        except Exception as error:
            self._retry_later(timer, error)
        finally:
            self._slots.release()

    def _retry_later(self, timer: TimerRecord, error: Exception) -> None:
        """The row is still stored: try again after a pause (and, if the bot stops, at the next start).
        While the database is unavailable, every few seconds, so that it fires soon after it returns."""
        if database_unavailable(error):
            delay = SWEEP_SECONDS
            log.warning(
                "timer %s of session %s: the database is unavailable; retrying in %ss",
                timer.kind,
                timer.session_id,
                delay,
            )
            self._sweep_soon()
        else:
            failures = self._failures.get(timer.id, 0) + 1
            self._failures[timer.id] = failures
            delay = min(FIRST_RETRY_SECONDS * 2 ** (failures - 1), LONGEST_RETRY_SECONDS)
            self._errors.append(error)
            log.error(
                "timer %s failed for session %s; retrying in %ss", timer.kind, timer.session_id, delay, exc_info=error
            )
        retry = TimerRecord(
            timer.id, timer.session_id, timer.kind, self._sessions.clock() + timedelta(seconds=delay), timer.payload
        )
        self._timers[timer.id] = retry
        heapq.heappush(self._queue, (retry.deadline, retry.id))
        self._wake()
