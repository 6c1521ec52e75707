"""The two kinds of failure every part of the bot shares: a :class:`UserError`, answered to its
user privately as a sentence, and the :class:`ErrorLog` of unexpected errors (``bot.ui.replies``
turns both into answers)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable


class UserError(Exception):
    """Something a user did that cannot be done; the message is answered privately."""


class ErrorLog(list):
    """Unexpected errors, newest last, at most ``limit`` of them: for tests and diagnostics.

    ``counts``: every failure by kind ("unexpected", "refused", "busy", "database",
    "restarting"), for the metrics; ``watch`` tells a part of the bot when a kind happens (the
    outbox and the timers look again while the database is away)."""

    def __init__(self, limit: int = 100):
        super().__init__()
        self.limit = limit
        self.counts: Counter[str] = Counter()
        self._watchers: defaultdict[str, list[Callable[[], None]]] = defaultdict(list)

    def append(self, error: BaseException) -> None:
        super().append(error)
        del self[: -self.limit]
        self.note("unexpected")

    def note(self, kind: str) -> None:
        self.counts[kind] += 1
        for watcher in self._watchers[kind]:
            watcher()

    def watch(self, kind: str, watcher: Callable[[], None]) -> None:
        self._watchers[kind].append(watcher)
