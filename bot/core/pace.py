"""Discord's global rate limit, kept before a request is made rather than learnt from 429s.

Discord allows a bot token 50 requests in any second across all its processes (an interaction's
callback and its webhook are exempt) and answers 429 past it; discord.py then sleeps and tries
again, but every 429 counts towards the ban for 10,000 invalid requests in ten minutes, and a
global 429 pauses every request of the process. So every counted request the bot makes on its own
(what the outbox posts, edits and deletes, threads opened and archived) waits here for its place:
at most ``per_second`` in any second of the event loop's clock, a little under Discord's 50 so
that the few requests made elsewhere (a member looked up) fit beside them. Shard processes split it
by their shards (``RequestBudget.share``): two processes of four shards each take 22 a second.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TypeVar

PER_SECOND = 45  # of Discord's 50 a second, for this process
WINDOW_SECONDS = 1.0
# One channel's edits of its messages: Discord's bucket for a channel is about 5 in 5 seconds, and
# edits of messages older than an hour have a stricter cap of their own (30046, unpublished).
CHANNEL_EDITS, CHANNEL_WINDOW = 5, 5.0
OLD_MESSAGE_SECONDS = 3600
OLD_EDITS, OLD_WINDOW = 4, 60.0

T = TypeVar("T")


class Window:
    """At most ``limit`` events in any ``seconds`` of the event loop's clock: the one sliding
    window both paces below are made of."""

    def __init__(self, limit: int, seconds: float):
        self.limit = limit
        self.seconds = seconds
        self._times: deque[float] = deque()  # when each event of the last ``seconds`` took place

    def wait(self, now: float) -> float:
        """0 when one more event fits now, else how long until it does."""
        times = self._times
        if times and times[-1] > now:
            times.clear()  # times of another clock (a simulated one, in the tests): forgotten
        while times and times[0] <= now - self.seconds:
            times.popleft()
        return 0.0 if len(times) < self.limit else times[0] + self.seconds - now + 0.001

    def count(self, now: float) -> None:
        self._times.append(now)


class RequestBudget:
    def __init__(self, per_second: int = PER_SECOND):
        self.per_second = per_second
        self._window = Window(per_second, WINDOW_SECONDS)
        self.waited = 0  # how many requests had to wait for their place

    @classmethod
    def share(cls, owned_shards: int, all_shards: int) -> RequestBudget:
        """This process's part of the token's budget when its shards run in several processes:
        each takes the share of its shards, so that together they stay under Discord's 50."""
        return cls(max(1, PER_SECOND * owned_shards // all_shards))

    async def take(self) -> None:
        """Wait until one more request fits in the last second, and count it."""
        loop = asyncio.get_running_loop()
        waited = False
        while wait := self._window.wait(loop.time()):
            waited = True
            await asyncio.sleep(wait)
        self._window.count(loop.time())
        self.waited += waited

    async def call(self, request: Callable[[], Awaitable[T]]) -> T:
        """Make ``request`` (one call to Discord) once it has its place."""
        await self.take()
        return await request()


class ChannelEdits:
    """How often the messages of one channel may be edited: the cards of many games in one channel
    share it. ``wait`` answers 0 and counts the edit when it may go now, else how long until it
    may (the caller sends the newest state then, so waiting edits coalesce)."""

    def __init__(self) -> None:
        self._windows: dict[int, tuple[Window, Window]] = {}  # channel -> (every edit, old messages' edits)

    def wait(self, channel_id: int, *, old: bool) -> float:
        now = asyncio.get_running_loop().time()
        if channel_id not in self._windows:
            self._windows[channel_id] = (Window(CHANNEL_EDITS, CHANNEL_WINDOW), Window(OLD_EDITS, OLD_WINDOW))
        edits, old_edits = self._windows[channel_id]
        wait = max(edits.wait(now), old_edits.wait(now) if old else 0.0)
        if wait:
            return wait
        edits.count(now)
        if old:
            old_edits.count(now)
        return 0.0
