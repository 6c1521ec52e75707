"""Fair use: how often one member may ask for the costly things (replays, records, `/history`,
challenges), how many replays may be drawn at once for one member and for one server, and one
review computed at a time per member.

Each kind of request has a limit per member and server over a sliding minute (the settings
``REPLAYS_PER_MINUTE``, ``RECORDS_PER_MINUTE``, ``HISTORY_PER_MINUTE``, ``CHALLENGES_PER_MINUTE``);
a member has one replay in progress at a time, a server ``REPLAYS_PER_SERVER``. A refusal is a
private sentence with the time to wait, and changes nothing. A request is checked and counted in
one step (`counting`), with nothing awaited between, so requests sent at the same instant cannot all
pass a check made before any of them was counted; one refused for another reason ("no such game")
gives its count back, so only a request that was answered counts.

The counts live in memory, per process: a restart forgets them, and with several processes each
counts the servers of its own shards (a server is always served by the same process).
"""

from __future__ import annotations

import math
import time
from collections import defaultdict, deque
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass

from bot.core.errors import UserError

WINDOW_SECONDS = 60.0
# Each kind's refusal, with the time to wait.
REFUSALS = {
    "replay": "You can ask for another replay in {wait}.",
    "record": "You can ask for another game record in {wait}.",
    "history": "You can use `/history` again in {wait}.",
    "challenge": "You can send another challenge in {wait}.",
}
ONE_REPLAY_AT_A_TIME = "Your last replay is still being drawn; you can ask for another once it is posted."
SERVER_REPLAYS_BUSY = "Other replays are being drawn for this server right now; please try again in a minute."
ONE_REVIEW_AT_A_TIME = "Your last review is still being computed; you can ask for another once it is shown."


@dataclass(frozen=True)
class FairUseLimits:
    """Requests per member and server in any minute, by kind, and replays in progress per server."""

    per_minute: dict[str, int]
    replays_per_server: int = 2

    @classmethod
    def from_settings(cls, settings: object) -> FairUseLimits:
        per_minute = {kind: getattr(settings, f"{_plural(kind)}_per_minute") for kind in REFUSALS}
        return cls(per_minute, settings.replays_per_server)


DEFAULT_LIMITS = FairUseLimits({"replay": 3, "record": 6, "history": 6, "challenge": 6}, 2)


class FairUse:
    """The one place that says whether a member may ask for something costly now."""

    def __init__(self, limits: FairUseLimits = DEFAULT_LIMITS):
        self.limits = limits
        self._asked: dict[tuple[str, int | None, int], deque[float]] = {}
        self._replaying: set[tuple[int | None, int]] = set()  # (server, member) with a replay being drawn
        self._server_replays: dict[int | None, int] = defaultdict(int)
        self._reviewing: set[tuple[int | None, int]] = set()  # (server, member) with a review being computed

    @staticmethod
    def now() -> float:
        return time.monotonic()  # read at each call: the simulated Discord moves this clock in tests

    @contextmanager
    def counting(self, kind: str, guild_id: int | None, member_id: int) -> Iterator[None]:
        """Around answering a request of ``kind``: refused when the member used up this minute's,
        otherwise counted at once (before anything is awaited), and given back if the answer fails."""
        stamp = self.take(kind, guild_id, member_id)
        try:
            yield
        except BaseException:
            self.give_back(kind, guild_id, member_id, stamp)
            raise

    def take(self, kind: str, guild_id: int | None, member_id: int) -> float:
        """Check and count one request of ``kind`` in one step: a private refusal with the time to
        wait when the member used up this minute's, otherwise the moment it was counted."""
        asked = self._allowed(kind, guild_id, member_id)
        stamp = self.now()
        asked.append(stamp)
        self._asked[(kind, guild_id, member_id)] = asked
        return stamp

    def give_back(self, kind: str, guild_id: int | None, member_id: int, stamp: float) -> None:
        """Uncount a request that was not answered after all."""
        asked = self._asked.get((kind, guild_id, member_id))
        if asked is not None and stamp in asked:
            asked.remove(stamp)
            if not asked:
                del self._asked[(kind, guild_id, member_id)]

    @asynccontextmanager
    async def replaying(self, guild_id: int | None, member_id: int) -> AsyncIterator[None]:
        """Around drawing a replay: refused while this member's last one, or too many of this
        server's, are still being drawn, or after this minute's replays; counted from the start
        (given back if the drawing fails)."""
        self.begin_replay(guild_id, member_id)
        try:
            with self.counting("replay", guild_id, member_id):
                yield
        finally:
            self.end_replay(guild_id, member_id)

    def begin_replay(self, guild_id: int | None, member_id: int) -> None:
        """A replay starts being drawn for this member, or a private refusal."""
        member = (guild_id, member_id)
        if member in self._replaying:
            raise UserError(ONE_REPLAY_AT_A_TIME)
        if self._server_replays[guild_id] >= self.limits.replays_per_server:
            raise UserError(SERVER_REPLAYS_BUSY)
        self._allowed("replay", guild_id, member_id)
        self._replaying.add(member)
        self._server_replays[guild_id] += 1

    def end_replay(self, guild_id: int | None, member_id: int) -> None:
        self._replaying.discard((guild_id, member_id))
        self._server_replays[guild_id] -= 1
        if not self._server_replays[guild_id]:
            del self._server_replays[guild_id]

    @contextmanager
    def reviewing(self, guild_id: int | None, member_id: int) -> Iterator[None]:
        """Around computing a review (bot/features/review/reviews.py): refused while this member's
        last one is still being computed (checked and marked in one step, nothing awaited between)."""
        member = (guild_id, member_id)
        if member in self._reviewing:
            raise UserError(ONE_REVIEW_AT_A_TIME)
        self._reviewing.add(member)
        try:
            yield
        finally:
            self._reviewing.discard(member)

    def _allowed(self, kind: str, guild_id: int | None, member_id: int) -> deque[float]:
        """This minute's requests of ``kind``, or a private refusal with the time to wait when used up."""
        asked = self._recent(kind, guild_id, member_id)
        if len(asked) >= self.limits.per_minute[kind]:
            wait = asked[0] + WINDOW_SECONDS - self.now()
            raise UserError(REFUSALS[kind].format(wait=wait_text(wait)))
        return asked

    def _recent(self, kind: str, guild_id: int | None, member_id: int) -> deque[float]:
        """This minute's requests of ``kind`` (older ones forgotten, and a member's empty entry)."""
        key = (kind, guild_id, member_id)
        asked = self._asked.pop(key, deque())
        while asked and asked[0] + WINDOW_SECONDS <= self.now():
            asked.popleft()
        if asked:
            self._asked[key] = asked
        return asked


def wait_text(seconds: float) -> str:
    """ "20 seconds", "1 second" (rounded up, never "0 seconds")."""
    whole = max(1, math.ceil(seconds))
    return "1 second" if whole == 1 else f"{whole} seconds"


def _plural(kind: str) -> str:
    return {"history": "history"}.get(kind, f"{kind}s")
