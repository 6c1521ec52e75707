"""Discord's global rate limit, kept before a request is made rather than learnt from 429s.

Discord allows a bot token 50 requests in any second across all its processes (an interaction's
callback and its webhook are exempt) and answers 429 past it; discord.py then sleeps and tries
again, but every 429 counts towards the ban for 10,000 invalid requests in ten minutes, and a
global 429 pauses every request of the process. So every counted request the bot makes on its own
(what the outbox posts, edits and deletes, threads opened and archived) waits here for its place:
at most ``per_second`` in any second of the event loop's clock, a little under Discord's 50 so
that the few requests made elsewhere (a member looked up) fit beside them. Shard processes split it
by their shards (``RequestBudget.share``): two processes of four shards each take 22 a second.
What can wait (a game's card) takes at most a fifth of it, in turn (``RequestBudget.can_wait``), and
a message that only summarises a game played elsewhere (its card) is edited at most once every so
many seconds per game (``Spacing``).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from typing import TypeVar

PER_SECOND = 45  # of Discord's 50 a second, for this process
WINDOW_SECONDS = 1.0
# One channel's edits of its messages: Discord's bucket for a channel is about 5 in 5 seconds, and
# edits of messages older than an hour have a stricter cap of their own (30046, unpublished).
CHANNEL_EDITS, CHANNEL_WINDOW = 5, 5.0
OLD_MESSAGE_SECONDS = 3600
OLD_EDITS, OLD_WINDOW = 4, 60.0
# What can wait (a game's card in its channel): at most this part of the budget, in turn, so that the
# boards and the pings keep the rest when the token's requests run short; a card that waits is sent
# once, with its newest state, when its turn comes.
CAN_WAIT_SHARE = 0.2
BURST = 4  # cards that go at once after a quiet moment (a game's start, a restart)
FORGOTTEN_AFTER = 60.0  # a turn not taken this long after it came (its entry went): forgotten
# A paced entry's payload key: it shows something that must not wait for its game's spacing (a game's
# start, its thread's link, its end), and does not count in it; it still keeps its channel's pace.
AT_ONCE = "at_once"

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


class Turns:
    """Turns given ``per_second`` a second, in the order asked, the first ``burst`` of a quiet moment
    at once: each key (a session's card) asks once and keeps its turn while it waits, however often
    it asks again; when its turn comes it goes, with whatever it is by then (the newest state)."""

    def __init__(self, per_second: float, burst: int = BURST):
        self.interval = 1.0 / per_second
        self.slack = self.interval * (burst - 1)  # how far ahead of its pace a turn may be given
        self._next = 0.0  # the pace's next turn
        self._turns: dict[Hashable, float] = {}  # key -> its turn

    def wait(self, key: Hashable, now: float) -> float:
        """0 when ``key``'s turn has come (it is used up), else how long until it comes."""
        if self._next - now > self.interval * (len(self._turns) + 1) + self.slack + 1.0:
            self._turns.clear()  # turns of another clock (a simulated one, in the tests): forgotten
            self._next = now
        turn = self._turns.get(key)
        if turn is None:
            turn = self._turns[key] = max(now, self._next - self.slack)
            self._next = max(turn, self._next) + self.interval
            if len(self._turns) > 1000:
                self._forget(now)
        if turn > now:
            return turn - now + 0.001
        del self._turns[key]
        return 0.0

    def _forget(self, now: float) -> None:
        for key in [key for key, turn in self._turns.items() if turn < now - FORGOTTEN_AFTER]:
            del self._turns[key]


class RequestBudget:
    def __init__(self, per_second: int = PER_SECOND):
        self.per_second = per_second
        self._window = Window(per_second, WINDOW_SECONDS)
        self.waited = 0  # how many requests had to wait for their place
        self.can_wait = Turns(max(1.0, per_second * CAN_WAIT_SHARE))  # the cards' part, in turn

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

    def wait(self, channel_id: int, *, old: bool, count: bool = True) -> float:
        """``count=False``: only ask (the caller counts the edit with ``count`` once it goes)."""
        now = asyncio.get_running_loop().time()
        if channel_id not in self._windows:
            self._windows[channel_id] = (Window(CHANNEL_EDITS, CHANNEL_WINDOW), Window(OLD_EDITS, OLD_WINDOW))
        edits, old_edits = self._windows[channel_id]
        wait = max(edits.wait(now), old_edits.wait(now) if old else 0.0)
        if not wait and count:
            self.count(channel_id, old=old)
        return wait

    def count(self, channel_id: int, *, old: bool) -> None:
        now = asyncio.get_running_loop().time()
        edits, old_edits = self._windows[channel_id]
        edits.count(now)
        if old:
            old_edits.count(now)


class Spacing:
    """At most one event per key every ``seconds`` of the event loop's clock (a game's card: edited
    at most that often, the moves meanwhile sharing the next edit): a :class:`Window` of one event
    per key. In memory: after a restart the first edit goes at once."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self._windows: dict[Hashable, Window] = {}  # key -> the window of its last event

    def wait(self, key: Hashable, now: float) -> float:
        """0 when ``key`` may have its next event now, else how long until it may."""
        window = self._windows.get(key)
        return window.wait(now) if window is not None else 0.0

    def count(self, key: Hashable, now: float) -> None:
        if not self.seconds:  # no spacing (UNSPACED): nothing to remember
            return
        self._windows.setdefault(key, Window(1, self.seconds)).count(now)
        if len(self._windows) > 1000:  # keys whose spacing has passed tell nothing: forgotten
            for old in [key for key, window in self._windows.items() if not window.wait(now)]:
                del self._windows[old]


UNSPACED = Spacing(0.0)  # what a message that is not spaced, or goes AT_ONCE, waits for: nothing
