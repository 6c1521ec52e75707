"""SQLite behind :func:`bot.core.database.open_database` (aiosqlite, the default): one
connection whose thread runs the trips one after another, ``BEGIN IMMEDIATE`` in the first; a
transaction of several trips holds a gate so no other trip slips in between.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Sequence
from typing import Any

import aiosqlite

from bot.core import migrations
from bot.core.statements import BUSY_TIMEOUT_MS, SERIAL_TABLES, Statement, StoreBusy, UniqueViolation, largest_id


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
        for number, script in enumerate(migrations.core(self.dialect)[current:upto], start=current + 1):
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
        for number, script in enumerate(feature.scripts(self.dialect)[current:], start=current + 1):
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
        return {table: max(handed_out.get(table, 0), await largest_id(self, table)) + 1 for table in SERIAL_TABLES}

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
