"""What both databases (bot/core/sqlite_database.py, bot/core/postgres_database.py) and the
store share below :func:`bot.core.database.open_database`: statements and trips, the two
failures a write can meet, and the serial tables whose next ids a copy keeps."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

# How long a SQLite statement waits for another process's lock before one retry, then StoreBusy.
BUSY_TIMEOUT_MS = 1000
# One transaction at a time may migrate a PostgreSQL database (processes starting together).
MIGRATION_LOCK = 0x0C7A60
# Tables whose ids the database hands out (AUTOINCREMENT, BIGSERIAL). Session ids live on in
# old messages' buttons, so a copy keeps each table's next id, never handing one out twice.
SERIAL_TABLES = ("sessions", "timers", "outbox", "results")


class StoreBusy(Exception):
    """Another process holds the database lock; nothing was changed."""


class UniqueViolation(Exception):
    """A row broke a unique rule (a second live session in a channel, an action number twice)."""


@dataclass(frozen=True)
class Statement:
    sql: str
    params: Any = ()
    many: bool = False  # executemany over ``params``


class Trips(Protocol):
    """One transaction's way to its database."""

    async def send(self, statements: list[Statement], rows: bool, last: bool) -> list[Any] | None: ...

    async def commit(self, statements: list[Statement]) -> None: ...

    async def abort(self) -> None: ...

    async def release(self) -> None: ...


async def largest_id(database: Any, table: str) -> int:
    return (await database.rows(f"SELECT COALESCE(MAX(id), 0) FROM {table}"))[0][0]
