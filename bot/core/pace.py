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


class RequestBudget:
    def __init__(self, per_second: int = PER_SECOND):
        self.per_second = per_second
        self._sent: deque[float] = deque()  # when each request of the last second went out
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
        while True:
            now = loop.time()
            if self._sent and self._sent[-1] > now:
                self._sent.clear()  # times of another clock (a simulated one, in the tests): forgotten
            while self._sent and self._sent[0] <= now - WINDOW_SECONDS:
                self._sent.popleft()
            if len(self._sent) < self.per_second:
                self._sent.append(now)
                self.waited += waited
                return
            waited = True
            await asyncio.sleep(self._sent[0] + WINDOW_SECONDS - now + 0.001)

    async def call(self, request: Callable[[], Awaitable[T]]) -> T:
        """Make ``request`` (one call to Discord) once it has its place."""
        await self.take()
        return await request()


class ChannelEdits:
    """How often the messages of one channel may be edited: the cards of many games in one channel
    share it. ``wait`` answers 0 and counts the edit when it may go now, else how long until it
    may (the caller sends the newest state then, so waiting edits coalesce)."""

    def __init__(self) -> None:
        self._recent: dict[int, deque[float]] = {}
        self._old: dict[int, deque[float]] = {}

    def wait(self, channel_id: int, *, old: bool) -> float:
        now = asyncio.get_running_loop().time()
        recent = self._free(self._recent, channel_id, now, CHANNEL_WINDOW)
        aged = self._free(self._old, channel_id, now, OLD_WINDOW)
        waits = []
        if len(recent) >= CHANNEL_EDITS:
            waits.append(recent[0] + CHANNEL_WINDOW - now)
        if old and len(aged) >= OLD_EDITS:
            waits.append(aged[0] + OLD_WINDOW - now)
        if waits:
            return max(waits) + 0.001
        recent.append(now)
        if old:
            aged.append(now)
        return 0.0

    @staticmethod
    def _free(times: dict[int, deque[float]], channel_id: int, now: float, window: float) -> deque[float]:
        kept = times.setdefault(channel_id, deque())
        if kept and kept[-1] > now:
            kept.clear()  # times of another clock (a simulated one, in the tests): forgotten
        while kept and kept[0] <= now - window:
            kept.popleft()
        return kept
