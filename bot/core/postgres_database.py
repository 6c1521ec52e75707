"""PostgreSQL behind :func:`bot.core.database.open_database` (asyncpg, for several processes): a
pool; a transaction holds one connection from its first trip to COMMIT, and the database's own
locks keep transactions apart. The store's SQL is written with SQLite's ``?`` placeholders:
:func:`numbered` turns them into ``$1, $2, ...``, and :func:`inline` writes a trip's values in.
"""

from __future__ import annotations

import contextlib
import math
import re
from collections.abc import AsyncIterator, Sequence
from typing import Any

from bot.core import migrations
from bot.core.statements import MIGRATION_LOCK, SERIAL_TABLES, Statement, UniqueViolation, largest_id

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
            table: max(await self._sequence_next(table), await largest_id(self, table) + 1) for table in SERIAL_TABLES
        }

    async def ids_behind(self) -> list[str]:
        """Serial tables whose sequence would hand out an id already taken (rows copied in with
        their ids and no setval): the next insert would fail."""
        return [t for t in SERIAL_TABLES if await self._sequence_next(t) <= await largest_id(self, t)]

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
