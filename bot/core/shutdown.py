"""A graceful stop on SIGTERM or SIGINT (a host's restart, a deploy, Ctrl+C).

In order:

1. new interactions are answered privately "I am restarting; try again in a moment." and
   change nothing (:func:`is_stopping`, asked by ``bot.ui.replies``);
2. timers fire nothing new, and the changes in progress (a move, a timer's firing, a
   computer's move) are let commit, for up to ``CHANGES_GRACE_SECONDS``;
3. the outbox keeps sending for up to ``FLUSH_SECONDS``; a send in progress then finishes,
   and what is left stays pending for the next start (never sent twice, never lost);
4. the worker processes stop, the database is closed, and the gateway connection ends.

A second signal while this runs changes nothing: the stop is already bounded in time.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import weakref
from typing import Any

from bot.core import startup, workers

log = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
CHANGES_GRACE_SECONDS = 10.0
FLUSH_SECONDS = 5.0

_stopping: weakref.WeakSet[Any] = weakref.WeakSet()
_stops: weakref.WeakKeyDictionary[Any, asyncio.Task[None]] = weakref.WeakKeyDictionary()


def is_stopping(client: Any) -> bool:
    """Whether this bot is stopping: it takes no new interaction."""
    return client in _stopping


async def stop_gracefully(
    bot: Any, *, grace_seconds: float = CHANGES_GRACE_SECONDS, flush_seconds: float = FLUSH_SECONDS
) -> None:
    """The stop described in the module's docstring; then ``bot.close()``."""
    _stopping.add(bot)
    platform = getattr(bot, "platform", None)
    if platform is not None:
        await platform.timers.pause()
        sessions = platform.sessions
        if not await sessions.settled(grace_seconds):
            log.warning("stopping: %d changes still in progress after %ss", sessions.in_progress, grace_seconds)
        if not await platform.outbox.finish(flush_seconds):
            log.warning("stopping: messages still pending after %ss; they go out at the next start", flush_seconds)
    await bot.release()  # timers and outbox stopped, database closed
    workers.PICTURES.shutdown()
    workers.THINKING.shutdown()
    log.info("stopped gracefully")
    await bot.close()


def request_stop(bot: Any, signum: int | None = None) -> asyncio.Task[None]:
    """Start the graceful stop (once; a second request returns the same task)."""
    if bot in _stops:
        log.info("stopping already (signal %s)", signum)
        return _stops[bot]
    log.info("signal %s: stopping gracefully", signum)
    _stops[bot] = task = asyncio.get_running_loop().create_task(stop_gracefully(bot), name="graceful-stop")
    return task


def install_signal_handlers(bot: Any) -> None:
    loop = asyncio.get_running_loop()
    for signum in STOP_SIGNALS:
        loop.add_signal_handler(signum, request_stop, bot, signum)


async def stopped(bot: Any) -> None:
    """Wait for a graceful stop that was requested to end."""
    task = _stops.get(bot)
    if task is not None:
        await task


async def serve(bot: Any, token: str) -> None:
    """Run the bot until it is closed; SIGTERM and SIGINT stop it gracefully."""
    install_signal_handlers(bot)
    async with bot:
        await startup.start(bot, token)  # login and first connection retried while Discord is unreachable
    await stopped(bot)
