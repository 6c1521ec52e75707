"""What every part of the store shares: a transaction's buffered writes and one-trip reads,
and times as ISO-8601 text in UTC. A feature with tables of its own writes its SQL on these
(``Transaction.write`` and ``query`` inside a change, ``query`` and ``query_one`` to read)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from bot.core.database import Database, Statement, Trips


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat()


def parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text)


class TransactionWrites:
    """The writes of one transaction. Only :meth:`bot.core.store.Store.transaction` makes one.

    Writes whose result nobody needs wait in a buffer; the buffer goes to the database in one
    trip with the next statement that returns something, or with COMMIT. A move's change
    (state, action, outbox) is then one trip, BEGIN to COMMIT, instead of one per statement:
    under load every trip waits for the busy event loop to resume it.
    """

    def __init__(self, trips: Trips):
        self._trips = trips
        self._buffer: list[Statement] = []

    def write(self, sql: str, params: Any = (), many: bool = False) -> None:
        """A statement whose result nobody needs (``many``: executemany over ``params``), sent
        with the next query or with COMMIT."""
        self._buffer.append(Statement(sql, params, many))

    async def query(self, sql: str | None = None, params: Any = ()) -> list[Any]:
        """The buffered writes and then ``sql``, in one trip; the rows ``sql`` returns (it sees
        this transaction's writes so far)."""
        statements, self._buffer = self._buffer, []
        if sql is not None:
            statements.append(Statement(sql, params))
        return await self._trips.send(statements, rows=sql is not None, last=False) or []

    async def _commit(self) -> None:
        statements, self._buffer = self._buffer, []
        await self._trips.commit(statements)


class DatabaseReads:
    """Reads outside any transaction, each in one trip to the database (the store's parts build
    on it; a game reads through ``bot.ui.context.StoreReads``, which is not this)."""

    database: Database

    async def query(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """A query's rows in one trip to the database."""
        return await self.database.rows(sql, params)

    async def query_one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """A query's first row (None: no rows)."""
        rows = await self.query(sql, params)
        return rows[0] if rows else None
