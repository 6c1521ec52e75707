"""A second "busy" signal: the event loop's own lag, not only the worker queues' length.

The worker queues say when pictures and searches are behind; they cannot say when the event loop
itself is (gateway parsing, handlers, database answers): then every acknowledgement is late, and
taking on more work makes it later. So a small monitor asks the loop to wake it every
``TICK_SECONDS`` and measures how late it wakes. While the last ``SUSTAINED`` wakes (the one now
overdue counting as the newest) were each more than ``LAG_LIMIT_SECONDS`` late, the loop is busy:
:func:`bot.ui.replies.turned_away` answers a player who starts something "busy" at once. One late
wake alone (a collection of garbage, a slow import) is not overload and turns nobody away.

The monitor is a chain of ``call_later`` callbacks, one per event loop, started on first use;
nothing to stop: it ends with its loop. It runs in an empty context, outside whatever interaction
started it: it carries none of its context variables, and a simulated Discord (SimCord, which
waits for the work an interaction started) does not take it for the bot's work to wait for.
"""

from __future__ import annotations

import asyncio
import collections
import contextvars
import time
import weakref

TICK_SECONDS = 0.05  # how often the monitor asks to be woken
LAG_LIMIT_SECONDS = 0.1  # later than this at every one of the last wakes: busy (0.25 let p99 acks reach 465 ms)
SUSTAINED = 3  # wakes in a row over the limit that make the loop busy


class LagMonitor:
    """How late one event loop wakes a callback that asked to run ``tick`` seconds later."""

    def __init__(self, loop: asyncio.AbstractEventLoop, tick: float = TICK_SECONDS):
        self.loop = loop
        self.tick = tick
        self.lags: collections.deque[float] = collections.deque(maxlen=SUSTAINED)  # newest last
        self.wakes = 0
        self._due = 0.0
        self._schedule()

    def _schedule(self) -> None:
        self._due = time.perf_counter() + self.tick
        outside = contextvars.Context()
        outside.run(self.loop.call_later, self.tick, self._woken, context=outside)

    def _woken(self) -> None:
        self.lags.append(max(0.0, time.perf_counter() - self._due))
        self.wakes += 1
        self._schedule()

    def overdue(self) -> float:
        """How late the pending wake is already (0 while it is not due yet)."""
        return max(0.0, time.perf_counter() - self._due)

    def busy(self, limit: float = LAG_LIMIT_SECONDS) -> bool:
        recent = list(self.lags)
        late_now = self.overdue()
        if late_now > limit:
            recent.append(late_now)
        recent = recent[-SUSTAINED:]
        return len(recent) == SUSTAINED and min(recent) > limit


_monitors: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LagMonitor] = weakref.WeakKeyDictionary()


def monitor() -> LagMonitor:
    """The running loop's monitor, started on first use."""
    loop = asyncio.get_running_loop()
    found = _monitors.get(loop)
    if found is None:
        found = _monitors[loop] = LagMonitor(loop)
    return found


def busy() -> bool:
    """Whether the running event loop has been late for a while (see the module's docstring)."""
    return monitor().busy()
