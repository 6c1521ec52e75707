"""The two databases behind :mod:`bot.core.store`: SQLite (aiosqlite, the default) and PostgreSQL
(asyncpg, for several processes). Both take the store's SQL as written (``?`` placeholders)
and run a transaction as *trips*: a list of statements sent together, the last one's rows
returned.

SQLite: one connection whose thread runs the trips one after another, ``BEGIN IMMEDIATE`` in
the first; a transaction of several trips holds a gate so no other trip slips in between.
PostgreSQL: a pool; a transaction holds one connection from its first trip to COMMIT, and the
database's own locks keep transactions apart.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import re
import sqlite3
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import aiosqlite

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


# ---------------------------------------------------------------------------------- SQLite


def _is_busy(error: sqlite3.OperationalError) -> bool:
    return "locked" in str(error) or "busy" in str(error)


def _run_in_thread(connection: sqlite3.Connection, begin: bool, statements: list[Statement], rows: bool) -> Any:
    """Runs in the database thread: BEGIN (the first time), then the statements; with ``rows``
    the last statement's rows. A failure rolls back here, in the same trip, so the next job on
    the connection never finds a broken transaction open."""
    if begin:
        _begin_immediate(connection)
    try:
        cursor = None
        for statement in statements:
            run = connection.executemany if statement.many else connection.execute
            cursor = run(statement.sql, statement.params)
        return cursor.fetchall() if rows and cursor is not None else None
    except BaseException as error:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        if isinstance(error, sqlite3.IntegrityError) and "UNIQUE" in str(error):
            raise UniqueViolation(str(error)) from error
        raise


def _begin_immediate(connection: sqlite3.Connection) -> None:
    for attempt in (1, 2):  # the busy timeout waits first; then one more try
        try:
            connection.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as error:
            if not _is_busy(error):
                raise
            if attempt == 2:
                raise StoreBusy() from error


class _WriteGate:
    """When a transaction may send its trips to the database thread. One of several trips holds
    the gate through all of them; one of a single trip only waits until none is open, holding
    nothing (the database thread runs trips one after another, so it cannot interleave). Were
    single trips to take turns on a lock, each would hold it for a loop iteration under load."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._free = asyncio.Event()
        self._free.set()

    async def hold(self) -> None:
        await self._lock.acquire()
        self._free.clear()

    def release(self) -> None:
        self._free.set()
        self._lock.release()

    async def wait_until_free(self) -> None:
        # The caller sends its trip right after this returns, with no await in between.
        while self._lock.locked():
            await self._free.wait()


class _SqliteTrips:
    def __init__(self, connection: aiosqlite.Connection, gate: _WriteGate):
        self._db = connection
        self._gate = gate
        self.begun = False
        self.holding = False  # this transaction holds the gate

    async def send(self, statements: list[Statement], rows: bool, last: bool) -> list[Any] | None:
        if not self.holding and last and not self.begun:
            await self._gate.wait_until_free()
        elif not self.holding:
            await self._gate.hold()
            self.holding = True
        begin, self.begun = not self.begun, True
        connection = self._db
        # aiosqlite runs each call in its one database thread; a batch is one such call.
        return await connection._execute(lambda: _run_in_thread(connection._conn, begin, statements, rows))

    async def commit(self, statements: list[Statement]) -> None:
        await self.send([*statements, Statement("COMMIT")], rows=False, last=True)

    async def abort(self) -> None:
        # Only a transaction of several trips can be left open (a failed trip rolls back in the
        # database thread); nothing to undo if COMMIT went through while its caller was cancelled.
        if self.holding and self._db.in_transaction:
            await self._db.execute("ROLLBACK")

    async def release(self) -> None:
        if self.holding:
            self.holding = False
            self._gate.release()


class SqliteDatabase:
    """One aiosqlite connection in WAL mode."""

    dialect = "sqlite"

    def __init__(self, connection: aiosqlite.Connection):
        self._db = connection
        self._gate = _WriteGate()

    @classmethod
    async def open(cls, path: str) -> SqliteDatabase:
        path = path.removeprefix("sqlite:")
        # isolation_level=None: the store issues BEGIN/COMMIT itself, nothing is implicit.
        connection = await aiosqlite.connect(path, isolation_level=None)
        connection.row_factory = aiosqlite.Row
        for pragma in (
            "PRAGMA journal_mode=WAL",
            "PRAGMA synchronous=NORMAL",
            "PRAGMA foreign_keys=ON",
            f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}",
        ):
            cursor = await connection.execute(pragma)
            await cursor.close()
        return cls(connection)

    async def close(self) -> None:
        await self._db.close()

    def trips(self) -> _SqliteTrips:
        return _SqliteTrips(self._db, self._gate)

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        try:
            return list(await self._db.execute_fetchall(sql, params))
        except sqlite3.OperationalError as error:
            if _is_busy(error):
                raise StoreBusy() from error
            raise

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        """One statement on its own (tests and tools), outside any transaction of the store's."""
        await self._db.execute(sql, params)

    async def schema_version(self) -> int:
        return (await self.rows("PRAGMA user_version"))[0][0]

    async def migrate(self, upto: int | None = None) -> None:
        """Apply the migrations not applied yet: the core's, then each feature's (``upto``: the
        core's up to that number and no feature's, for benchmarks and tests of older schemas)."""
        current = await self.schema_version()
        for number, script in enumerate(migrations.SQLITE[current:upto], start=current + 1):
            await self._db.executescript(f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")
        if upto is None:
            await self._db.execute(migrations.FEATURE_VERSIONS)
            for feature in migrations.features():
                await self._migrate_feature(feature)

    async def _migrate_feature(self, feature: migrations.FeatureMigrations) -> None:
        rows = await self.rows("SELECT version FROM feature_versions WHERE feature = ?", (feature.feature,))
        recorded = rows[0][0] if rows else None
        current = feature.applied(recorded, await self.table_names())
        if recorded is None:
            await self._db.execute(feature.record(current))
        for number, script in enumerate(feature.sqlite[current:], start=current + 1):
            await self._db.executescript(f"BEGIN IMMEDIATE;\n{script}\n{feature.record(number)};\nCOMMIT;")

    async def integrity_check(self) -> str:
        return (await self.rows("PRAGMA integrity_check"))[0][0]

    # ------------------------------------------------------------ tools (python -m bot.db)
    async def table_names(self) -> set[str]:
        return {row[0] for row in await self.rows("SELECT name FROM sqlite_master WHERE type = 'table'")}

    async def columns(self, table: str) -> list[str]:
        return [row[1] for row in await self.rows(f"PRAGMA table_info({table})")]

    async def next_ids(self) -> dict[str, int]:
        """Per serial table, the id its next row gets: past every id ever handed out."""
        handed_out = {row[0]: row[1] for row in await self.rows("SELECT name, seq FROM sqlite_sequence")}
        return {table: max(handed_out.get(table, 0), await _largest_id(self, table)) + 1 for table in SERIAL_TABLES}

    async def ids_behind(self) -> list[str]:
        return []  # AUTOINCREMENT takes the largest id into account itself

    @staticmethod
    def next_id_statements(next_ids: dict[str, int]) -> list[Statement]:
        statements = []
        for table, next_id in next_ids.items():
            statements.append(Statement("DELETE FROM sqlite_sequence WHERE name = ?", (table,)))
            statements.append(Statement("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", (table, next_id - 1)))
        return statements

    @contextlib.asynccontextmanager
    async def snapshot(self) -> AsyncIterator[_SqliteReader]:
        """Reads that all see the database as it was at the first one (WAL keeps that snapshot)."""
        await self._db.execute("BEGIN")
        try:
            yield _SqliteReader(self._db)
        finally:
            await self._db.execute("ROLLBACK")


class _SqliteReader:
    def __init__(self, connection: aiosqlite.Connection):
        self._db = connection

    async def rows(self, sql: str) -> list[Any]:
        return list(await self._db.execute_fetchall(sql))

    async def batches(self, sql: str, size: int) -> AsyncIterator[list[tuple[Any, ...]]]:
        cursor = await self._db.execute(sql)
        try:
            while rows := await cursor.fetchmany(size):
                yield [tuple(row) for row in rows]
        finally:
            await cursor.close()


# ------------------------------------------------------------------------------ PostgreSQL

_PLACEHOLDER = re.compile(r"\?")


def numbered(sql: str) -> str:
    """The store's ``?`` placeholders as PostgreSQL's ``$1, $2, ...`` (the store's SQL has no
    question mark inside a literal)."""
    count = iter(range(1, 10_000))
    return _PLACEHOLDER.sub(lambda _: f"${next(count)}", sql)


def literal(value: Any) -> str:
    """A value as a PostgreSQL literal, for the one-trip script: the store's values are numbers,
    text (JSON, names) and None. Text doubles its quotes, which is the whole escaping with
    standard_conforming_strings on (the script sets it)."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float) and math.isfinite(value):
        return repr(value)
    if isinstance(value, str):
        if "\x00" in value:
            raise ValueError("PostgreSQL text cannot hold a NUL character")
        return "'" + value.replace("'", "''") + "'"
    raise TypeError(f"no PostgreSQL literal for {type(value).__name__}")


def inline(sql: str, params: Sequence[Any]) -> str:
    """``sql`` with each ``?`` replaced by its value as a literal."""
    values = iter(params)
    text = _PLACEHOLDER.sub(lambda _: literal(next(values)), sql)
    if next(values, _END) is not _END:
        raise ValueError("more values than placeholders")
    return text


_END = object()


async def _nothing_to_reset(connection: Any) -> None:
    return None


class _PostgresTrips:
    def __init__(self, database: PostgresDatabase):
        self._database = database
        self._connection: Any = None
        self._transaction: Any = None

    async def send(self, statements: list[Statement], rows: bool, last: bool) -> list[Any] | None:
        import asyncpg

        if self._connection is None:
            self._connection = await self._database.pool.acquire()
            self._transaction = self._connection.transaction()
            await self._transaction.start()
        connection, found = self._connection, None
        try:
            for index, statement in enumerate(statements):
                sql = numbered(statement.sql)
                if statement.many:
                    await connection.executemany(sql, statement.params)
                elif rows and index == len(statements) - 1:
                    found = await connection.fetch(sql, *statement.params)
                else:
                    await connection.execute(sql, *statement.params)
        except asyncpg.UniqueViolationError as error:
            raise UniqueViolation(str(error)) from error
        return found

    async def commit(self, statements: list[Statement]) -> None:
        if self._transaction is None:  # the usual change: all of it in one round trip
            if statements:
                await self._in_one_trip(statements)
            return
        await self.send(statements, rows=False, last=True)
        await self._transaction.commit()

    async def _in_one_trip(self, statements: list[Statement]) -> None:
        """BEGIN, the statements and COMMIT as one script: one round trip to the server instead of
        one per statement (under load each round trip waits for the busy event loop), values
        written as literals (:func:`literal`). A failure rolls back before the connection goes."""
        import asyncpg

        self._connection = connection = await self._database.pool.acquire()
        script = ["BEGIN", "SET LOCAL standard_conforming_strings = on"]
        for statement in statements:
            rows = statement.params if statement.many else [statement.params]
            script += [inline(statement.sql, params) for params in rows]
        try:
            await connection.execute(";\n".join([*script, "COMMIT"]))
        except BaseException as error:
            if not connection.is_closed() and connection.is_in_transaction():
                with contextlib.suppress(Exception):
                    await connection.execute("ROLLBACK")
            if isinstance(error, asyncpg.UniqueViolationError):
                raise UniqueViolation(str(error)) from error
            raise

    async def abort(self) -> None:
        if self._transaction is not None and not self._connection.is_closed():
            with contextlib.suppress(Exception):  # it already ended (COMMIT failed, or never began)
                await self._transaction.rollback()

    async def release(self) -> None:
        if self._connection is not None:
            connection, self._connection, self._transaction = self._connection, None, None
            await self._database.pool.release(connection)


class PostgresDatabase:
    """A pool of asyncpg connections."""

    dialect = "postgresql"

    def __init__(self, pool: Any):
        self.pool = pool

    @classmethod
    async def open(cls, url: str, pool_size: int) -> PostgresDatabase:
        import asyncpg  # only a PostgreSQL deployment needs it loaded

        # No reset query when a connection goes back: every transaction here ends with COMMIT or
        # ROLLBACK and none leaves session state (no LISTEN, cursors or session locks).
        pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size, reset=_nothing_to_reset)
        return cls(pool)

    async def close(self) -> None:
        await self.pool.close()

    def trips(self) -> _PostgresTrips:
        return _PostgresTrips(self)

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return list(await self.pool.fetch(numbered(sql), *params))

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        await self.pool.execute(numbered(sql), *params)

    async def schema_version(self) -> int:
        async with self.pool.acquire() as connection:
            return await self._version(connection)

    @staticmethod
    async def _version(connection: Any) -> int:
        await connection.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        return await connection.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")

    async def migrate(self, upto: int | None = None) -> None:
        async with self.pool.acquire() as connection, connection.transaction():
            await connection.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            current = await self._version(connection)
            for number, script in enumerate(migrations.POSTGRESQL[current:upto], start=current + 1):
                await connection.execute(script)
                await connection.execute("DELETE FROM schema_version")
                await connection.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
            if upto is None:  # the features' in the same locked transaction, after the core's
                await connection.execute(migrations.FEATURE_VERSIONS)
                for feature in migrations.features():
                    await self._migrate_feature(connection, feature)

    @staticmethod
    async def _migrate_feature(connection: Any, feature: migrations.FeatureMigrations) -> None:
        sql = "SELECT version FROM feature_versions WHERE feature = $1"
        recorded = await connection.fetchval(sql, feature.feature)
        rows = await connection.fetch("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        current = feature.applied(recorded, {row[0] for row in rows})
        for script in feature.postgresql[current:]:
            await connection.execute(script)
        await connection.execute(feature.record(max(current, len(feature.postgresql))))

    async def integrity_check(self) -> str:
        """PostgreSQL keeps its own pages whole; what can go wrong is ours: rows left behind."""
        return "ok"

    # ------------------------------------------------------------ tools (python -m bot.db)
    async def table_names(self) -> set[str]:
        rows = await self.rows("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        return {row[0] for row in rows}

    async def columns(self, table: str) -> list[str]:
        sql = (
            "SELECT column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position"
        )
        return [row[0] for row in await self.rows(sql, (table,))]

    async def _sequence_next(self, table: str) -> int:
        """What nextval() of the table's id sequence returns next."""
        (sequence,) = (await self.rows("SELECT pg_get_serial_sequence(?, 'id')", (table,)))[0]
        last, called = (await self.rows(f"SELECT last_value, is_called FROM {sequence}"))[0]
        return last + 1 if called else last

    async def next_ids(self) -> dict[str, int]:
        """Per serial table, the id its next row gets (the sequence's next value, and past every id)."""
        return {
            table: max(await self._sequence_next(table), await _largest_id(self, table) + 1) for table in SERIAL_TABLES
        }

    async def ids_behind(self) -> list[str]:
        """Serial tables whose sequence would hand out an id already taken (rows copied in with
        their ids and no setval): the next insert would fail."""
        return [t for t in SERIAL_TABLES if await self._sequence_next(t) <= await _largest_id(self, t)]

    @staticmethod
    def next_id_statements(next_ids: dict[str, int]) -> list[Statement]:
        sql = "SELECT setval(pg_get_serial_sequence(?, 'id'), ?, false)"  # false: nextval() returns it
        return [Statement(sql, (table, next_id)) for table, next_id in next_ids.items()]

    @contextlib.asynccontextmanager
    async def snapshot(self) -> AsyncIterator[_PostgresReader]:
        """Reads that all see the database as it was at the first one."""
        async with (
            self.pool.acquire() as connection,
            connection.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield _PostgresReader(connection)


class _PostgresReader:
    def __init__(self, connection: Any):
        self._connection = connection

    async def rows(self, sql: str) -> list[Any]:
        return list(await self._connection.fetch(sql))

    async def batches(self, sql: str, size: int) -> AsyncIterator[list[tuple[Any, ...]]]:
        cursor = await self._connection.cursor(sql)
        while rows := await cursor.fetch(size):
            yield [tuple(row) for row in rows]


Database = SqliteDatabase | PostgresDatabase


async def _largest_id(database: Database, table: str) -> int:
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
        return await PostgresDatabase.open(url, pool_size)
    return await SqliteDatabase.open(url)
