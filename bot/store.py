"""The bot's storage: a small async interface with SQLite behind it.

Nothing above this module writes SQL, so another store (PostgreSQL for a sharded
deployment) can replace it without touching sessions or games.

Every write runs inside :meth:`Store.transaction`: one writer lock for the shared
connection, ``BEGIN IMMEDIATE`` under it, ``COMMIT`` or ``ROLLBACK`` at the end. A failed
statement therefore rolls back only its own transaction, never another channel's.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import aiosqlite

# Statuses of a session that occupy its channel (spelled out in the SQL below as well, so that
# SQLite can use the partial index that enforces one live session per channel).
LIVE_STATUSES = ("challenge", "lobby", "active")
LIVE_SQL = "status IN ('challenge', 'lobby', 'active')"

# How long a statement waits for another process's lock before one retry, then StoreBusy.
BUSY_TIMEOUT_MS = 1000

# Numbered migrations; a database records how many it has applied (PRAGMA user_version).
MIGRATIONS: tuple[str, ...] = (
    # 1: sessions, their action log, durable timers, finished-game results.
    """
    CREATE TABLE sessions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game TEXT NOT NULL,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        host_id INTEGER NOT NULL,
        players TEXT NOT NULL,
        status TEXT NOT NULL,
        state TEXT NOT NULL,
        schema_version INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE UNIQUE INDEX one_live_session_per_channel
        ON sessions(channel_id) WHERE status IN ('challenge', 'lobby', 'active');
    CREATE TABLE actions (
        session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        player_id INTEGER,
        action TEXT NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (session_id, seq)
    );
    CREATE TABLE timers (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        deadline TEXT NOT NULL,
        payload TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX timers_by_deadline ON timers(deadline);
    CREATE TABLE results (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id INTEGER REFERENCES sessions(id) ON DELETE SET NULL,
        game TEXT NOT NULL,
        guild_id INTEGER,
        players TEXT NOT NULL,
        scores TEXT NOT NULL,
        winners TEXT NOT NULL,
        moves INTEGER NOT NULL,
        duration_seconds REAL NOT NULL,
        finished_at TEXT NOT NULL
    );
    CREATE INDEX results_by_game ON results(guild_id, game);
    """,
    # 2: the session's public message and bot-side details (names, options, turn clock).
    """
    ALTER TABLE sessions ADD COLUMN message_id INTEGER;
    ALTER TABLE sessions ADD COLUMN meta TEXT NOT NULL DEFAULT '{}';
    """,
    # 3: per-player ratings and per-server settings.
    """
    CREATE TABLE ratings (
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (guild_id, game, user_id)
    );
    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        turn_clock_seconds INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE bot_state (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    CREATE TABLE result_players (
        result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        won INTEGER NOT NULL,
        PRIMARY KEY (result_id, user_id)
    );
    """,
    # 4: public messages as state (the outbox); a game has at most one result; timers by session.
    """
    CREATE TABLE outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL DEFAULT '{}',
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE INDEX outbox_by_session ON outbox(session_id, id);
    CREATE INDEX timers_by_session ON timers(session_id);
    CREATE UNIQUE INDEX one_result_per_session ON results(session_id) WHERE session_id IS NOT NULL;
    CREATE INDEX result_players_by_user ON result_players(user_id);
    ALTER TABLE sessions ADD COLUMN actions INTEGER NOT NULL DEFAULT 0;
    UPDATE sessions SET actions = (SELECT COALESCE(MAX(seq), 0) FROM actions WHERE actions.session_id = sessions.id);
    """,
)


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat()


def parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text)


class ChannelBusy(Exception):
    """The channel already has a live session."""


class StoreBusy(Exception):
    """Another process holds the database lock; nothing was changed."""


@dataclass
class SessionRecord:
    id: int
    game: str
    guild_id: int | None
    channel_id: int
    host_id: int
    players: list[int]
    status: str
    state: dict[str, Any]
    schema_version: int
    created_at: datetime
    updated_at: datetime
    message_id: int | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    actions: int = 0  # the action number: how many actions the log holds


@dataclass(frozen=True)
class TimerRecord:
    id: int
    session_id: int
    kind: str
    deadline: datetime
    payload: dict[str, Any]


@dataclass(frozen=True)
class OutboxEntry:
    id: int
    session_id: int
    kind: str
    payload: dict[str, Any]
    attempts: int
    next_attempt_at: datetime


@dataclass(frozen=True)
class Rating:
    user_id: int
    mu: float
    sigma: float
    games: int
    wins: int


@dataclass(frozen=True)
class ResultRow:
    session_id: int
    game: str
    guild_id: int | None
    players: Sequence[int]
    scores: Sequence[float]
    winners: Sequence[int]
    moves: int
    duration_seconds: float
    finished_at: datetime


def _is_busy(error: sqlite3.OperationalError) -> bool:
    return "locked" in str(error) or "busy" in str(error)


@dataclass(frozen=True)
class _Statement:
    sql: str
    params: Any = ()
    many: bool = False  # executemany over ``params``


def _run_in_thread(connection: sqlite3.Connection, begin: bool, statements: list[_Statement], rows: bool) -> Any:
    """Runs in the database thread: BEGIN (the first time), then the statements; the last
    statement's cursor, or with ``rows`` its rows. A failure rolls back here, in the same trip,
    so the next job on the connection never finds a broken transaction open."""
    if begin:
        _begin_immediate(connection)
    try:
        cursor = None
        for statement in statements:
            run = connection.executemany if statement.many else connection.execute
            cursor = run(statement.sql, statement.params)
        return cursor.fetchall() if rows and cursor is not None else cursor
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
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


class Transaction:
    """The writes of one transaction. Only :meth:`Store.transaction` makes one.

    Writes whose result nobody needs wait in a buffer; the buffer goes to the database thread
    in one trip with the next statement that returns something, or with COMMIT. A move's
    change (state, action, outbox) is then one trip, BEGIN to COMMIT, instead of one per
    statement: under load every trip waits for the busy event loop to resume it.

    The gate (:class:`_WriteGate`) keeps a transaction of several trips whole.
    """

    def __init__(self, db: aiosqlite.Connection, gate: _WriteGate):
        self._db = db
        self._gate = gate
        self._buffer: list[_Statement] = []
        self.begun = False
        self.holding = False  # this transaction holds the gate

    def _later(self, sql: str, params: Any = (), many: bool = False) -> None:
        self._buffer.append(_Statement(sql, params, many))

    async def _now(self, sql: str | None = None, params: Any = (), rows: bool = False, last: bool = False) -> Any:
        """The buffered writes and then ``sql``, in one trip; the cursor of the last one (or its rows)."""
        if not self.holding and last and not self.begun:
            await self._gate.wait_until_free()
        elif not self.holding:
            await self._gate.hold()
            self.holding = True
        statements, self._buffer = self._buffer, []
        if sql is not None:
            statements.append(_Statement(sql, params))
        begin, self.begun = not self.begun, True
        connection = self._db
        # aiosqlite runs each call in its one database thread; a batch is one such call.
        return await connection._execute(lambda: _run_in_thread(connection._conn, begin, statements, rows))

    async def _commit(self) -> None:
        await self._now("COMMIT", last=True)

    def _release(self) -> None:
        if self.holding:
            self.holding = False
            self._gate.release()

    # ---------------------------------------------------------------- sessions
    async def insert_session(
        self,
        *,
        game: str,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        players: Sequence[int],
        status: str,
        state: dict[str, Any],
        schema_version: int,
        now: datetime,
        meta: dict[str, Any],
    ) -> int:
        try:
            cursor = await self._now(
                "INSERT INTO sessions (game, guild_id, channel_id, host_id, players, status, state,"
                " schema_version, created_at, updated_at, meta) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (
                    game,
                    guild_id,
                    channel_id,
                    host_id,
                    json.dumps(list(players)),
                    status,
                    json.dumps(state),
                    schema_version,
                    iso(now),
                    iso(now),
                    json.dumps(meta),
                ),
            )
        except sqlite3.IntegrityError as error:
            raise ChannelBusy(channel_id) from error
        return cursor.lastrowid

    async def update_session(self, record: SessionRecord, now: datetime) -> None:
        self._later(
            "UPDATE sessions SET players = ?, status = ?, state = ?, schema_version = ?, updated_at = ?,"
            " message_id = ?, meta = ?, actions = ? WHERE id = ?",
            (
                json.dumps(record.players),
                record.status,
                json.dumps(record.state),
                record.schema_version,
                iso(now),
                record.message_id,
                json.dumps(record.meta),
                record.actions,
                record.id,
            ),
        )

    async def append_action(
        self, session_id: int, seq: int, player_id: int | None, action: dict[str, Any], now: datetime
    ) -> None:
        """Log action number ``seq``; the primary key refuses a second writer of the same number
        (at the next trip to the database: the change fails as a whole)."""
        self._later(
            "INSERT INTO actions (session_id, seq, player_id, action, at) VALUES (?,?,?,?,?)",
            (session_id, seq, player_id, json.dumps(action), iso(now)),
        )

    # ------------------------------------------------------------------ timers
    async def add_timer(
        self, session_id: int, kind: str, deadline: datetime, payload: dict[str, Any] | None = None
    ) -> TimerRecord:
        cursor = await self._now(
            "INSERT INTO timers (session_id, kind, deadline, payload) VALUES (?,?,?,?)",
            (session_id, kind, iso(deadline), json.dumps(payload or {})),
        )
        return TimerRecord(cursor.lastrowid, session_id, kind, deadline, payload or {})

    async def delete_timer(self, timer_id: int) -> bool:
        cursor = await self._now("DELETE FROM timers WHERE id = ?", (timer_id,))
        return cursor.rowcount > 0

    async def delete_timers(self, session_id: int, kinds: Iterable[str] | None = None) -> list[int]:
        query = "DELETE FROM timers WHERE session_id = ?"
        params: list[Any] = [session_id]
        if kinds is not None:
            kinds = list(kinds)
            query += f" AND kind IN ({','.join('?' * len(kinds))})"
            params += kinds
        return [row[0] for row in await self._now(query + " RETURNING id", params, rows=True)]

    # ------------------------------------------------------------------ outbox
    async def add_outbox(self, session_id: int, kind: str, payload: dict[str, Any], now: datetime) -> None:
        self._later(
            "INSERT INTO outbox (session_id, kind, payload, next_attempt_at, created_at) VALUES (?,?,?,?,?)",
            (session_id, kind, json.dumps(payload), iso(now), iso(now)),
        )

    async def outbox_done(self, entry_ids: Sequence[int]) -> None:
        if entry_ids:
            marks = ",".join("?" * len(entry_ids))
            self._later(f"DELETE FROM outbox WHERE id IN ({marks})", list(entry_ids))

    async def drop_outbox(self, session_id: int) -> None:
        self._later("DELETE FROM outbox WHERE session_id = ?", (session_id,))

    async def outbox_retry_later(self, entry_id: int, next_attempt_at: datetime) -> None:
        self._later(
            "UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ? WHERE id = ?",
            (iso(next_attempt_at), entry_id),
        )

    # ----------------------------------------------------------------- results
    async def record_result(self, result: ResultRow) -> int | None:
        """The game's result row, or None if this session already has one (exactly once)."""
        cursor = await self._now(
            "INSERT OR IGNORE INTO results (session_id, game, guild_id, players, scores, winners, moves,"
            " duration_seconds, finished_at) VALUES (?,?,?,?,?,?,?,?,?)",
            (
                result.session_id,
                result.game,
                result.guild_id,
                json.dumps(list(result.players)),
                json.dumps(list(result.scores)),
                json.dumps(list(result.winners)),
                result.moves,
                result.duration_seconds,
                iso(result.finished_at),
            ),
        )
        if cursor.rowcount == 0:
            return None
        result_id = cursor.lastrowid
        self._later(
            "INSERT OR IGNORE INTO result_players (result_id, user_id, won) VALUES (?,?,?)",
            [(result_id, user, int(user in result.winners)) for user in result.players],
            many=True,
        )
        return result_id

    async def ratings(self, guild_id: int | None, game: str, user_ids: Sequence[int]) -> list[Rating]:
        await self._now()  # reads see this transaction's writes so far
        return await _ratings(self._db, guild_id, game, user_ids)

    async def save_ratings(self, guild_id: int | None, game: str, ratings: Sequence[Rating]) -> None:
        self._later(
            "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, wins) VALUES (?,?,?,?,?,?,?)"
            " ON CONFLICT(guild_id, game, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
            " games = excluded.games, wins = excluded.wins",
            [(guild_id or 0, game, r.user_id, r.mu, r.sigma, r.games, r.wins) for r in ratings],
            many=True,
        )

    # ---------------------------------------------------------- settings
    async def set_value(self, key: str, value: str) -> None:
        self._later(
            "INSERT INTO bot_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    async def set_turn_clock_seconds(self, guild_id: int | None, seconds: int) -> None:
        self._later(
            "INSERT INTO guild_settings (guild_id, turn_clock_seconds) VALUES (?, ?)"
            " ON CONFLICT(guild_id) DO UPDATE SET turn_clock_seconds = excluded.turn_clock_seconds",
            (guild_id or 0, seconds),
        )


class Store:
    """One aiosqlite connection in WAL mode, migrated to the newest schema when opened.

    Reads run directly; writes only inside :meth:`transaction`, one at a time.
    """

    def __init__(self, connection: aiosqlite.Connection):
        self._db = connection
        self._gate = _WriteGate()

    @classmethod
    async def open(cls, path: str) -> Store:
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
        store = cls(connection)
        await store.migrate()
        return store

    async def close(self) -> None:
        await self._db.close()

    async def schema_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
            return (await cursor.fetchone())[0]

    async def migrate(self) -> None:
        current = await self.schema_version()
        for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
            await self._db.executescript(f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")

    async def integrity_check(self) -> str:
        async with self._db.execute("PRAGMA integrity_check") as cursor:
            return (await cursor.fetchone())[0]

    # ------------------------------------------------------------ transactions
    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """One atomic write: everything done through the yielded object commits together or not at all."""
        tx = Transaction(self._db, self._gate)
        try:
            yield tx
            await tx._commit()
        except BaseException:
            # Only a transaction of several trips can be left open (a failed trip rolls back in
            # the database thread); nothing to undo if COMMIT went through while its caller was
            # cancelled.
            if tx.holding and self._db.in_transaction:
                await self._db.execute("ROLLBACK")
            raise
        finally:
            tx._release()

    # ------------------------------------------------------------------- reads
    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        """A query's rows in one trip to the database thread."""
        try:
            return list(await self._db.execute_fetchall(sql, params))
        except sqlite3.OperationalError as error:
            if _is_busy(error):
                raise StoreBusy() from error
            raise

    async def _fetchone(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Row | None:
        rows = await self._rows(sql, params)
        return rows[0] if rows else None

    async def get_session(self, session_id: int) -> SessionRecord | None:
        row = await self._fetchone("SELECT * FROM sessions WHERE id = ?", (session_id,))
        return _session(row) if row else None

    async def live_session(self, channel_id: int) -> SessionRecord | None:
        row = await self._fetchone(f"SELECT * FROM sessions WHERE channel_id = ? AND {LIVE_SQL}", (channel_id,))
        return _session(row) if row else None

    async def shown_live_sessions(self) -> list[int]:
        """Ids of the live sessions that have a message in their channel."""
        sql = f"SELECT id FROM sessions WHERE {LIVE_SQL} AND message_id IS NOT NULL ORDER BY id"
        return [row[0] for row in await self._rows(sql)]

    async def live_session_ref(self, channel_id: int) -> tuple[int, str, str] | None:
        """(id, game, status) of the channel's live session, without reading its state."""
        sql = f"SELECT id, game, status FROM sessions WHERE channel_id = ? AND {LIVE_SQL}"
        row = await self._fetchone(sql, (channel_id,))
        return (row[0], row[1], row[2]) if row else None

    async def actions(self, session_id: int) -> list[tuple[int, int | None, dict[str, Any]]]:
        rows = await self._rows(
            "SELECT seq, player_id, action FROM actions WHERE session_id = ? ORDER BY seq", (session_id,)
        )
        return [(row["seq"], row["player_id"], json.loads(row["action"])) for row in rows]

    async def count_actions(self, session_id: int) -> int:
        row = await self._fetchone("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE session_id = ?", (session_id,))
        return row[0]

    async def pending_timers(self) -> list[TimerRecord]:
        return [_timer(row) for row in await self._rows("SELECT * FROM timers ORDER BY deadline")]

    async def timers(self, session_id: int) -> list[TimerRecord]:
        rows = await self._rows("SELECT * FROM timers WHERE session_id = ? ORDER BY deadline", (session_id,))
        return [_timer(row) for row in rows]

    async def outbox(self, session_id: int | None = None) -> list[OutboxEntry]:
        """Pending outbox entries (of one session, or all), oldest first."""
        where, params = ("WHERE session_id = ?", (session_id,)) if session_id is not None else ("", ())
        rows = await self._rows(f"SELECT * FROM outbox {where} ORDER BY id", params)
        return [
            OutboxEntry(
                row["id"],
                row["session_id"],
                row["kind"],
                json.loads(row["payload"]),
                row["attempts"],
                parse_iso(row["next_attempt_at"]),
            )
            for row in rows
        ]

    async def results(self, session_id: int) -> list[ResultRow]:
        rows = await self._rows("SELECT * FROM results WHERE session_id = ?", (session_id,))
        return [
            ResultRow(
                row["session_id"],
                row["game"],
                row["guild_id"],
                json.loads(row["players"]),
                json.loads(row["scores"]),
                json.loads(row["winners"]),
                row["moves"],
                row["duration_seconds"],
                parse_iso(row["finished_at"]),
            )
            for row in rows
        ]

    async def user_stats(self, guild_id: int | None, user_id: int) -> dict[str, tuple[int, int]]:
        """Per game: (games played, games won) by ``user_id`` in this server."""
        rows = await self._rows(
            "SELECT r.game, COUNT(*) AS games, SUM(p.won) AS wins FROM results r"
            " JOIN result_players p ON p.result_id = r.id"
            " WHERE p.user_id = ? AND r.guild_id IS ? GROUP BY r.game ORDER BY r.game",
            (user_id, guild_id),
        )
        return {row["game"]: (row["games"], row["wins"] or 0) for row in rows}

    async def ratings(self, guild_id: int | None, game: str, user_ids: Sequence[int] | None = None) -> list[Rating]:
        return await _ratings(self._db, guild_id, game, user_ids)

    async def get_value(self, key: str) -> str | None:
        row = await self._fetchone("SELECT value FROM bot_state WHERE key = ?", (key,))
        return row[0] if row else None

    async def turn_clock_seconds(self, guild_id: int | None) -> int:
        row = await self._fetchone("SELECT turn_clock_seconds FROM guild_settings WHERE guild_id = ?", (guild_id or 0,))
        return row[0] if row else 0


async def _ratings(
    db: aiosqlite.Connection, guild_id: int | None, game: str, user_ids: Sequence[int] | None
) -> list[Rating]:
    query = "SELECT * FROM ratings WHERE guild_id IS ? AND game = ?"
    params: list[Any] = [guild_id or 0, game]
    if user_ids is not None:
        query += f" AND user_id IN ({','.join('?' * len(user_ids))})"
        params += list(user_ids)
    rows = await db.execute_fetchall(query, params)
    return [Rating(row["user_id"], row["mu"], row["sigma"], row["games"], row["wins"]) for row in rows]


def _timer(row: aiosqlite.Row) -> TimerRecord:
    return TimerRecord(
        row["id"], row["session_id"], row["kind"], parse_iso(row["deadline"]), json.loads(row["payload"])
    )


def _session(row: aiosqlite.Row) -> SessionRecord:
    return SessionRecord(
        id=row["id"],
        game=row["game"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        host_id=row["host_id"],
        players=json.loads(row["players"]),
        status=row["status"],
        state=json.loads(row["state"]),
        schema_version=row["schema_version"],
        created_at=parse_iso(row["created_at"]),
        updated_at=parse_iso(row["updated_at"]),
        message_id=row["message_id"],
        meta=json.loads(row["meta"]),
        actions=row["actions"],
    )
