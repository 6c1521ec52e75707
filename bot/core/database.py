"""The two databases behind :mod:`bot.core.store`: SQLite (aiosqlite, the default) and PostgreSQL
(asyncpg, for several processes). Both take the store's SQL as written (``?`` placeholders)
and run a transaction as *trips*: a list of statements sent together, the last one's rows
returned.

SQLite (``bot/core/sqlite_database.py``): one connection whose thread runs the trips one after
another, ``BEGIN IMMEDIATE`` in the first; a transaction of several trips holds a gate so no
other trip slips in between. PostgreSQL (``bot/core/postgres_database.py``): a pool; a
transaction holds one connection from its first trip to COMMIT, and the database's own locks
keep transactions apart. This module holds what both share: :func:`open_database`, the
:class:`Database` they both are, statements and trips, the tables, and the copy's helpers.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.core import migrations

# How long a SQLite statement waits for another process's lock before one retry, then StoreBusy.
BUSY_TIMEOUT_MS = 1000
# One transaction at a time may migrate a PostgreSQL database (processes starting together).
MIGRATION_LOCK = 0x0C7A60
POSTGRES_PREFIXES = ("postgresql://", "postgres://")
# The core's tables, each before the tables whose rows refer to it; a migration that adds a
# table adds it here. TABLES (what a copy moves) is these, then each feature's own.
CORE_TABLES = (
    "sessions",
    "actions",
    "timers",
    "outbox",
    "results",
    "result_players",
    "ratings",
    "guild_settings",
    "bot_state",
    "channel_settings",
    "member_settings",
)
# Each database's own bookkeeping, never copied: SQLite's AUTOINCREMENT counters (a copy sets
# them itself), PostgreSQL's migration number and each feature's (a copy's target migrates itself).
INTERNAL_TABLES = ("sqlite_sequence", "schema_version", "feature_versions")
# Tables whose ids the database hands out (AUTOINCREMENT, BIGSERIAL). Session ids live on in
# old messages' buttons, so a copy keeps each table's next id, never handing one out twice.
SERIAL_TABLES = ("sessions", "timers", "outbox", "results")


def all_tables() -> tuple[str, ...]:
    """Every table of the store: the core's, then each feature's (found when first asked)."""
    return CORE_TABLES + migrations.feature_tables()


def __getattr__(name: str) -> Any:
    """``TABLES``, every table of the store (:func:`all_tables`): the features' are found on
    first use, not as the core loads."""
    if name == "TABLES":
        return all_tables()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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


def is_postgres(url: str) -> bool:
    return url.startswith(POSTGRES_PREFIXES)


class Database(Protocol):
    """What the store and the database tool use of either database (``open_database`` opens
    one): :class:`~bot.core.sqlite_database.SqliteDatabase` or
    :class:`~bot.core.postgres_database.PostgresDatabase`."""

    dialect: str

    async def close(self) -> None: ...

    def trips(self) -> Trips:
        """A transaction's trips (see the module's docstring)."""
        ...

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None: ...

    async def schema_version(self) -> int: ...

    async def migrate(self, upto: int | None = None) -> None: ...

    async def integrity_check(self) -> str: ...

    async def table_names(self) -> set[str]: ...

    async def columns(self, table: str) -> list[str]: ...

    async def next_ids(self) -> dict[str, int]: ...

    async def ids_behind(self) -> list[str]: ...

    def next_id_statements(self, next_ids: dict[str, int]) -> list[Statement]: ...

    def snapshot(self) -> contextlib.AbstractAsyncContextManager[Any]:
        """Reads that all see the database as it was at the first one."""
        ...


async def largest_id(database: Database, table: str) -> int:
    return (await database.rows(f"SELECT COALESCE(MAX(id), 0) FROM {table}"))[0][0]


async def count_rows(database: Database, tables: Sequence[str] | None = None) -> dict[str, int]:
    """Rows per table (None: every table of the store)."""
    tables = all_tables() if tables is None else tables
    return {table: (await database.rows(f"SELECT COUNT(*) FROM {table}"))[0][0] for table in tables}


async def copy_table(reader: Any, trips: Trips, table: str, columns: Sequence[str], batch: int) -> int:
    """Every row of ``table`` read through ``reader`` (a snapshot) written through ``trips`` (the
    target's open transaction), ``batch`` rows per executemany, ids and all. Rows copied."""
    listed = ", ".join(columns)
    insert = f"INSERT INTO {table} ({listed}) VALUES ({', '.join('?' * len(columns))})"
    copied = 0
    async for rows in reader.batches(f"SELECT {listed} FROM {table}", batch):
        await trips.send([Statement(insert, rows, many=True)], rows=False, last=False)
        copied += len(rows)
    return copied


async def open_database(url: str, pool_size: int = 10) -> Database:
    """``postgresql://...`` opens a pool; anything else is a SQLite file (``sqlite:`` optional)."""
    if is_postgres(url):
        # Each dialect's module imports this one's names, so it is imported once this one is loaded.
        from bot.core.postgres_database import PostgresDatabase

        return await PostgresDatabase.open(url, pool_size)
    from bot.core.sqlite_database import SqliteDatabase

    return await SqliteDatabase.open(url)
