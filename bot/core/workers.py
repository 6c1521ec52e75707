"""Work that would hold the event loop runs in worker processes: drawing pictures and computer
players' searches. Processes, not threads: both hold the interpreter lock for their whole run,
and in threads one busy channel slowed every other channel; in processes they use every core.

Three pools per bot process, so a long search never makes a picture wait and a long replay
never delays a move's picture: ``PICTURES``, ``THINKING`` and ``REPLAYS``. Each is bounded:
``queue_limit`` calls waiting or running at most. When the pictures' or the thinking pool is full
the bot answers a player who starts something "busy" at once, before anything changes (see
``bot.ui.replies``), instead of letting the queue and everyone's waiting grow; a menu already
open is let through, so no steps are wasted. A full ``REPLAYS`` queue turns away only replays
(see ``bot.features.replays``).

The workers run at a lower OS priority than the bot's process (a higher niceness, set as each
worker starts), so on a busy machine the event loop, which acknowledges every interaction, always
wins the CPU over drawing and searching; replays lower still, below moves' pictures.

Work the bot does on its own, not for a player waiting now (what a timer's change sends: a round's
result, the next round's picture), runs in the background (``in_background``, inherited by the
tasks it starts, such as the outbox's sends after its commit). The pictures pool lets at most
``BACKGROUND_PER_WORKER`` such calls per worker into its workers at a time, so a player's picture
waits behind a few of them at most; the others wait their turn outside the pool. None counts
towards ``full``: a thousand round ends due at once never make the bot answer a player "busy".
A send of the outbox started in the background also sends, in the background, what its
session's players do while it runs.

The pools are shared by every bot of a process (tests start many) and started on first use.
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import contextvars
import functools
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

CORES = os.cpu_count() or 1
# The defaults of the PICTURE_QUEUE_LIMIT and THINKING_QUEUE_LIMIT settings: about half a second of
# pictures on 2 cores, and a few hard searches per worker.
PICTURE_QUEUE_LIMIT = 40
THINKING_QUEUE_LIMIT = 40
# The default of the REPLAY_QUEUE_LIMIT setting: a replay takes a worker for up to seconds, so a
# few wait at most; more are told "busy" instead of waiting behind them.
REPLAY_QUEUE_LIMIT = 3
REPLAY_WORKERS = 1  # one process: replays are rare, and each takes a core for a while
# Background pictures (see the module's docstring) let into the pictures' workers at a time, per
# worker: enough that a worker never waits for the next while the event loop is slow to hand it
# over, few enough that a player's picture waits behind some 10 ms of them.
BACKGROUND_PER_WORKER = 8
# How much lower the workers' OS priority is than the bot's (added to the niceness they inherit).
WORKER_NICENESS = 5
REPLAY_NICENESS = 10

# Whether the current task works in the background (for a timer, not for a player waiting now).
_BACKGROUND: contextvars.ContextVar[bool] = contextvars.ContextVar("background_work", default=False)


def in_background() -> None:
    """From now on the current task, and the tasks it starts, work in the background."""
    _BACKGROUND.set(True)


@dataclass(frozen=True)
class Drawing:
    """A picture to draw in a worker: a module-level render function and its arguments, all of
    which cross to the worker by pickling (a cog's bound method or a lambda could not)."""

    draw: Callable[..., Any]
    args: tuple[Any, ...] = ()
    keywords: tuple[tuple[str, Any], ...] = ()

    def with_keywords(self, **keywords: Any) -> Drawing:
        """The same drawing with more keyword arguments (a finished game's ``ending``)."""
        return Drawing(self.draw, self.args, (*self.keywords, *keywords.items()))


def drawing(draw: Callable[..., Any], *args: Any) -> Drawing:
    return Drawing(draw, args)


def _start_worker(niceness: int) -> None:
    """Runs in each worker as it starts: a lower priority than the bot's, and an end with it."""
    _lower_priority(niceness)
    _exit_with_parent()


def _lower_priority(niceness: int) -> None:
    try:
        os.nice(niceness)
    except OSError:  # not allowed here: the worker keeps the bot's priority
        log.warning("could not lower a worker's priority by %d", niceness)


def _exit_with_parent() -> None:
    """End the worker when the bot's process ends, even if it was killed (an orphaned worker
    would otherwise wait for work for ever)."""

    def watch(sentinel: int) -> None:
        multiprocessing.connection.wait([sentinel])
        os._exit(0)

    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=watch, args=(parent.sentinel,), daemon=True).start()


def _timed(func: Callable[..., Any], args: tuple[Any, ...]) -> tuple[Any, float]:
    """Runs in the worker: the result and the CPU seconds it took there."""
    start = time.process_time()
    result = func(*args)
    return result, time.process_time() - start


class _Lane:
    """One event loop's background calls of a pool: how many run, and who waits for a turn."""

    def __init__(self) -> None:
        self.running = 0
        self.turns: collections.deque[asyncio.Future[None]] = collections.deque()

    async def turn(self, limit: int) -> None:
        if self.running < max(1, limit) and not self.turns:
            self.running += 1
            return
        turn = asyncio.get_running_loop().create_future()
        self.turns.append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self.next_turn()  # given the turn as it was cancelled: pass it on
            else:
                self.turns.remove(turn)
            raise

    def next_turn(self) -> None:
        """A call ended: the next one waiting takes its place (the count stays), else one fewer runs."""
        while self.turns:
            turn = self.turns.popleft()
            if not turn.done():
                turn.set_result(None)
                return
        self.running -= 1


class WorkerPool:
    """A bounded pool of spawned worker processes, replaced if a worker dies."""

    def __init__(
        self,
        name: str,
        workers: int = CORES,
        queue_limit: int = 100,
        niceness: int = WORKER_NICENESS,
        background_per_worker: int | None = None,
    ):
        self.name = name
        self.workers = workers
        self.queue_limit = queue_limit
        self.niceness = niceness  # added to the bot's niceness in each worker
        # Background calls let into the workers at a time, per worker (None: like any other call).
        self.background_per_worker = background_per_worker
        self.pending = 0  # calls submitted and not yet answered, background ones excluded (they have a lane)
        # Each event loop's background calls (tests run bots on many loops, one after the other).
        self._lanes: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Lane] = weakref.WeakKeyDictionary()
        self.cpu_seconds = 0.0  # CPU time spent in the workers (for the load benchmark)
        self.calls = 0
        self._executor: ProcessPoolExecutor | None = None

    def configure(self, workers: int, queue_limit: int) -> None:
        """Sizes from the settings; a running pool of another size is replaced on next use."""
        if workers != self.workers:
            self.shutdown()
        self.workers, self.queue_limit = max(1, workers), max(1, queue_limit)

    @property
    def full(self) -> bool:
        return self.pending >= self.queue_limit

    async def run(self, func: Callable[..., Any], *args: Any) -> Any:
        """``func(*args)`` in a worker. A worker that died is replaced and the call tried once more.
        In the background, it first waits for its turn (see the module's docstring)."""
        if self.background_per_worker is None or not _BACKGROUND.get():
            return await self._run(func, args, counted=True)
        lane = self._lane()
        await lane.turn(self.background_per_worker * self.workers)
        try:
            return await self._run(func, args, counted=False)
        finally:
            lane.next_turn()

    def _lane(self) -> _Lane:
        loop = asyncio.get_running_loop()
        lane = self._lanes.get(loop)
        if lane is None:
            lane = self._lanes[loop] = _Lane()
        return lane

    async def _run(self, func: Callable[..., Any], args: tuple[Any, ...], *, counted: bool) -> Any:
        self.pending += counted
        try:
            for attempt in range(2):
                executor = self._started()
                try:
                    result, cpu = await asyncio.get_running_loop().run_in_executor(executor, _timed, func, args)
                except BrokenProcessPool:
                    self._replace(executor)
                    if attempt:
                        raise
                    log.warning("a %s worker died; starting a new one and trying again", self.name)
                    continue
                self.cpu_seconds += cpu
                self.calls += 1
                return result
        finally:
            self.pending -= counted

    async def draw(self, picture: Drawing) -> Any:
        if picture.keywords:
            return await self.run(functools.partial(picture.draw, **dict(picture.keywords)), *picture.args)
        return await self.run(picture.draw, *picture.args)

    def _started(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # "spawn": a fork of a process running an event loop and threads is not safe.
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_start_worker, initargs=(self.niceness,)
            )
        return self._executor

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        if self._executor is broken:
            self._executor = None
        broken.shutdown(wait=False, cancel_futures=True)

    def shutdown(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


PICTURES = WorkerPool("picture", queue_limit=PICTURE_QUEUE_LIMIT, background_per_worker=BACKGROUND_PER_WORKER)
THINKING = WorkerPool("thinking", queue_limit=THINKING_QUEUE_LIMIT)
REPLAYS = WorkerPool("replay", REPLAY_WORKERS, queue_limit=REPLAY_QUEUE_LIMIT, niceness=REPLAY_NICENESS)
atexit.register(PICTURES.shutdown)
atexit.register(THINKING.shutdown)
atexit.register(REPLAYS.shutdown)


def busy() -> bool:
    """Whether a player's action must wait: a move's pool is full (a full replay queue turns
    away only replays)."""
    return PICTURES.full or THINKING.full
