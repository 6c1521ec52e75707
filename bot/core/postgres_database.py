"""PostgreSQL behind :func:`bot.core.database.open_database` (asyncpg, for several processes): a
pool; a transaction holds one connection from its first trip to COMMIT, and the database's own
locks keep transactions apart. The store's SQL is written with SQLite's ``?`` placeholders:
:func:`numbered` turns them into ``$1, $2, ...``, and :func:`inline` writes a trip's values in.

**One pooled connection per stretch of database work** (issue #29). A task keeps the connection
it took (its *lease*) from one statement to the next as long as it awaits nothing but this
database in between; the first time it awaits anything else (Discord, a worker, a lock held by
another task, a sleep) the connection goes back to the pool. So the reads made inside
``sessions.change`` (the session, its timers, a planner's) and the transaction that follows
share one connection, taken once, instead of one each (``python -m bench load``: the bot's
acquisitions per move went from about 6.6 to 4.6, one per change, one per outbox send and one
per outbox bookkeeping). A transaction holds its connection from its first trip to COMMIT as
before, and a read the task makes meanwhile runs on it (and so sees the transaction's writes
sent so far, as SQLite's one connection does). Leases are per task, never shared: a task that
another creates takes its own. The pool (:class:`Pool`) is this module's own: a connection
goes back within the step that is done with it, where asyncpg's pool spent a task or two on
each return, a cost every read paid under load.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import re
from collections.abc import AsyncIterator, Sequence
from typing import Any

from bot.core import migrations
from bot.core.postgres_pool import Lease, Pool
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


class _PostgresTrips:
    def __init__(self, database: PostgresDatabase):
        self._database = database
        self._lease: Lease | None = None
        self._transaction: Any = None
        self._committed = False

    async def _connection(self) -> Any:
        """The transaction's connection: the task's lease (its reads' connection) if it has one."""
        if self._lease is None:
            self._lease = await self._database._take(transaction=True)
        return self._lease.connection

    async def send(self, statements: list[Statement], rows: bool, last: bool) -> list[Any] | None:
        import asyncpg

        connection = await self._connection()
        found = None
        try:
            if self._transaction is None:
                self._transaction = connection.transaction()
                await self._transaction.start()
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
        except BaseException as error:
            self._lease.note(error)
            raise
        return found

    async def commit(self, statements: list[Statement]) -> None:
        if self._transaction is None:  # the usual change: all of it in one round trip
            if statements:
                await self._in_one_trip(statements)
            self._committed = True
            return
        await self.send(statements, rows=False, last=True)
        try:
            await self._transaction.commit()
        except BaseException as error:
            self._lease.note(error)
            raise
        self._committed = True

    async def _in_one_trip(self, statements: list[Statement]) -> None:
        """BEGIN, the statements and COMMIT as one script: one round trip to the server instead of
        one per statement (under load each round trip waits for the busy event loop), values
        written as literals (:func:`literal`). A failure rolls back before the connection goes."""
        import asyncpg

        connection = await self._connection()
        script = ["BEGIN", "SET LOCAL standard_conforming_strings = on"]
        for statement in statements:
            rows = statement.params if statement.many else [statement.params]
            script += [inline(statement.sql, params) for params in rows]
        try:
            await connection.execute(";\n".join([*script, "COMMIT"]))
        except BaseException as error:
            self._lease.note(error)
            if not connection.is_closed() and connection.is_in_transaction():
                with contextlib.suppress(Exception):
                    await connection.execute("ROLLBACK")
            if isinstance(error, asyncpg.UniqueViolationError):
                raise UniqueViolation(str(error)) from error
            raise

    async def abort(self) -> None:
        if self._transaction is not None and not self._lease.connection.is_closed():
            with contextlib.suppress(Exception):  # it already ended (COMMIT failed, or never began)
                await self._transaction.rollback()

    async def release(self) -> None:
        if self._lease is not None:
            lease, self._lease, self._transaction = self._lease, None, None
            lease.transaction = False
            if self._committed:  # the task's reads right after the commit may still use it
                self._database._idle(lease)
            else:  # the pool closes a connection left in a transaction or by a broken trip
                self._database._end(lease)


class PostgresDatabase:
    """A pool of asyncpg connections, lent to one task at a time (see the module's docstring)."""

    dialect = "postgresql"

    def __init__(self, pool: Pool):
        self.pool = pool
        self._leases: dict[asyncio.Task, Lease] = {}

    @classmethod
    async def open(cls, url: str, pool_size: int) -> PostgresDatabase:
        pool = Pool(url, pool_size)
        pool.release(await pool.acquire())  # an unreachable server fails here, as the bot starts
        return cls(pool)

    async def close(self) -> None:
        for lease in list(self._leases.values()):
            if not lease.working and not lease.transaction:
                self._give_back(lease)
        await self.pool.close()

    def trips(self) -> _PostgresTrips:
        return _PostgresTrips(self)

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        lease = await self._take()
        try:
            found = await lease.connection.fetch(numbered(sql), *params)
        except BaseException as error:
            self._failed(lease, error)
            raise
        self._idle(lease)
        return list(found)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        lease = await self._take()
        try:
            await lease.connection.execute(numbered(sql), *params)
        except BaseException as error:
            self._failed(lease, error)
            raise
        self._idle(lease)

    # ------------------------------------------------------------ leases
    async def _take(self, transaction: bool = False) -> Lease:
        """The current task's lease, now working (or held by a transaction); taken from the
        pool if the task holds none. A transaction never joins another one's connection."""
        task = asyncio.current_task()
        lease = self._leases.get(task) if task is not None else None
        if lease is not None and not lease.working and not (transaction and lease.transaction):
            if transaction:
                lease.transaction = True
            else:
                lease.working = True
            return lease
        taken = Lease(await self.pool.acquire(), task, transaction)
        if task is not None and task not in self._leases:
            self._leases[task] = taken
        return taken

    def _idle(self, lease: Lease) -> None:
        """The task's statement is done: the lease stays for its next one, and goes back to the
        pool once the task awaits anything else (a look scheduled now runs only then)."""
        lease.working = False
        if lease.transaction or lease.check_due:
            return
        if self._leases.get(lease.task) is not lease:  # a second connection of the task's: back now
            self._give_back(lease)
            return
        lease.check_due = True
        asyncio.get_running_loop().call_soon(self._look, lease)

    def _look(self, lease: Lease) -> None:
        lease.check_due = False
        if not lease.working and not lease.transaction and self._leases.get(lease.task) is lease:
            self._give_back(lease)

    def _give_back(self, lease: Lease) -> None:
        if self._leases.get(lease.task) is lease:
            del self._leases[lease.task]
        self.pool.release(lease.connection, lease.broken)

    def _failed(self, lease: Lease, error: BaseException) -> None:
        """A statement failed: its connection goes back to the pool at once (closed if it may be
        broken), unless a transaction holds it (its abort rolls back, its release returns it)."""
        lease.note(error)
        lease.working = False
        if not lease.transaction:
            self._end(lease)

    def _end(self, lease: Lease) -> None:
        lease.working = lease.transaction = False
        self._give_back(lease)

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[Any]:
        """A connection of its own for a while (migrations, a snapshot), outside any lease."""
        import asyncpg

        connection, broken = await self.pool.acquire(), False
        try:
            yield connection
        except BaseException as error:
            broken = not isinstance(error, asyncpg.PostgresError)
            raise
        finally:
            self.pool.release(connection, broken)

    async def schema_version(self) -> int:
        async with self._connection() as connection:
            return await self._version(connection)

    @staticmethod
    async def _version(connection: Any) -> int:
        await connection.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        return await connection.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")

    async def migrate(self, upto: int | None = None) -> None:
        async with self._connection() as connection, connection.transaction():
            await connection.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            current = await self._version(connection)
            for number, script in enumerate(migrations.core(self.dialect)[current:upto], start=current + 1):
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
        for script in feature.scripts("postgresql")[current:]:
            await connection.execute(script)
        await connection.execute(feature.record(max(current, len(feature.migrations))))

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
            self._connection() as connection,
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
