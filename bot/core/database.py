"""The two databases behind :mod:`bot.core.store`: SQLite (aiosqlite, the default) and PostgreSQL
(asyncpg, for several processes). Both take the store's SQL as written (``?`` placeholders)
and run a transaction as *trips*: a list of statements sent together, the last one's rows
returned.

SQLite (``bot/core/sqlite_database.py``): one connection whose thread runs the trips one after
another, ``BEGIN IMMEDIATE`` in the first; a transaction of several trips holds a gate so no
other trip slips in between. PostgreSQL (``bot/core/postgres_database.py``): a pool; a
transaction holds one connection from its first trip to COMMIT, and the database's own locks
keep transactions apart; a task keeps the connection it took across its statements until it
awaits anything else, so a change's reads and its transaction take one connection, not one
each. This module is what the store and the database tool use: :func:`open_database`, the
:class:`Database` both are, the tables and the copy's helpers, and the statements, trips and
failures both databases share (from ``bot/core/statements.py``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any, Protocol

from bot.core import migrations
from bot.core.postgres_database import PostgresDatabase
from bot.core.sqlite_database import SqliteDatabase
from bot.core.statements import Statement, StoreBusy, Trips, UniqueViolation

__all__ = [  # and TABLES (see __getattr__)
    "CORE_TABLES",
    "INTERNAL_TABLES",
    "Database",
    "PostgresDatabase",
    "SqliteDatabase",
    "Statement",
    "StoreBusy",
    "Trips",
    "UniqueViolation",
    "all_tables",
    "copy_table",
    "count_rows",
    "is_postgres",
    "open_database",
]

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


def all_tables() -> tuple[str, ...]:
    """Every table of the store: the core's, then each feature's (found when first asked)."""
    return CORE_TABLES + migrations.feature_tables()


def __getattr__(name: str) -> Any:
    """``TABLES``, every table of the store (:func:`all_tables`): the features' are found on
    first use, not as the core loads."""
    if name == "TABLES":
        return all_tables()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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


async def open_database(url: str, pool_size: int = 20) -> Database:
    """``postgresql://...`` opens a pool; anything else is a SQLite file (``sqlite:`` optional)."""
    if is_postgres(url):
        return await PostgresDatabase.open(url, pool_size)
    return await SqliteDatabase.open(url)
