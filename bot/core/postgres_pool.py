"""The PostgreSQL store's own pool of asyncpg connections (:class:`Pool`), and the lease by which
one task holds a connection across its consecutive database work (:class:`Lease`); see
:mod:`bot.core.postgres_database` for how a lease is taken and given back."""

from __future__ import annotations

import asyncio
import collections
import contextlib
from typing import Any


class Lease:
    """A pooled connection one task holds across its consecutive database work (see the
    module's docstring)."""

    __slots__ = ("broken", "check_due", "connection", "task", "transaction", "working")

    def __init__(self, connection: Any, task: asyncio.Task[Any] | None, transaction: bool):
        self.connection = connection
        self.task = task
        self.working = not transaction  # a statement of the task's runs on it now
        self.transaction = transaction  # an open transaction holds it until COMMIT or ROLLBACK
        self.check_due = False  # a look, once the task awaits something else, is scheduled
        self.broken = False  # a statement ended other than with the server's answer: never reused

    def note(self, error: BaseException) -> None:
        """A statement on it failed: an error the server answered leaves the connection usable;
        anything else (cancelled halfway, the connection lost) may not have."""
        import asyncpg

        if not isinstance(error, asyncpg.PostgresError):
            self.broken = True


class Pool:
    """At most ``size`` asyncpg connections to one database, each opened when first needed.

    A connection comes back at once, within the step that is done with it, and a waiting taker
    gets it handed over (asyncpg's own pool returns each one through a task or two and a reset,
    a cost every read paid under load). Nothing needs resetting: every use here ends its
    transaction and leaves no session state (no LISTEN, cursors or session locks); a connection
    that is closed, still in a transaction or broken halfway is closed and its place freed.
    """

    def __init__(self, url: str, size: int):
        self._url = url
        self.size = size
        self._idle: list[Any] = []  # the one used last is taken first
        self._waiters: collections.deque[asyncio.Future[Any]] = collections.deque()
        self._open = 0  # connections open or opening
        self._closed = False

    def get_size(self) -> int:
        """Connections open (or opening)."""
        return self._open

    def get_idle_size(self) -> int:
        """Connections open and waiting to be taken."""
        return len(self._idle)

    async def acquire(self) -> Any:
        import asyncpg

        while True:
            if self._closed:
                raise asyncpg.InterfaceError("the pool is closed")
            while self._idle:
                connection = self._idle.pop()
                if not connection.is_closed():
                    return connection
                self._open -= 1
            if self._open < self.size:
                self._open += 1
                try:
                    return await asyncpg.connect(self._url)
                except BaseException:
                    self._open -= 1
                    self._wake()  # a waiter tries in the place freed (and fails fast in an outage)
                    raise
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                connection = await waiter
            except BaseException:
                with contextlib.suppress(ValueError):
                    self._waiters.remove(waiter)
                if waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                    self._pass_on(waiter.result())  # handed over as this taker was cancelled
                raise
            if connection is None:  # a place freed up: open a connection in it
                continue
            if not connection.is_closed():
                return connection
            self._open -= 1

    def release(self, connection: Any, broken: bool = False) -> None:
        if broken or self._closed or connection.is_closed() or connection.is_in_transaction():
            connection.terminate()
            self._open -= 1
            self._wake()
            return
        self._pass_on(connection)

    def _pass_on(self, connection: Any | None) -> None:
        """To the first taker still waiting, or back among the idle (None: a free place)."""
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(connection)
                return
        if connection is not None:
            self._idle.append(connection)

    def _wake(self) -> None:
        self._pass_on(None)

    async def close(self) -> None:
        """Close the idle connections; one still in use closes when it comes back."""
        import asyncpg

        self._closed = True
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_exception(asyncpg.InterfaceError("the pool is closed"))
        idle, self._idle = self._idle, []
        self._open -= len(idle)
        for connection in idle:
            try:
                await connection.close(timeout=5)
            except Exception:
                connection.terminate()
