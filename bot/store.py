"""The bot's storage: a small async interface with SQLite behind it.

Nothing above this module writes SQL, so another store (PostgreSQL for a sharded
deployment) can replace it without touching sessions or games.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import aiosqlite

# Statuses of a session that occupy its channel.
LIVE_STATUSES = ("challenge", "lobby", "active")

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
)


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat()


def parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text)


class ChannelBusy(Exception):
    """The channel already has a live session."""


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


@dataclass(frozen=True)
class TimerRecord:
    id: int
    session_id: int
    kind: str
    deadline: datetime
    payload: dict[str, Any]


@dataclass(frozen=True)
class Rating:
    user_id: int
    mu: float
    sigma: float
    games: int
    wins: int


class Store:
    """One aiosqlite connection in WAL mode, migrated to the newest schema when opened."""

    def __init__(self, connection: aiosqlite.Connection):
        self._db = connection

    @classmethod
    async def open(cls, path: str) -> Store:
        connection = await aiosqlite.connect(path)
        connection.row_factory = aiosqlite.Row
        for pragma in ("PRAGMA journal_mode=WAL", "PRAGMA foreign_keys=ON"):
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
            await self._db.executescript(f"BEGIN;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")

    # ---------------------------------------------------------------- sessions

    async def create_session(
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
        meta: dict[str, Any] | None = None,
    ) -> int:
        try:
            cursor = await self._db.execute(
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
                    json.dumps(meta or {}),
                ),
            )
        except aiosqlite.IntegrityError as error:
            raise ChannelBusy(channel_id) from error
        await self._db.commit()
        return cursor.lastrowid

    async def get_session(self, session_id: int) -> SessionRecord | None:
        async with self._db.execute("SELECT * FROM sessions WHERE id = ?", (session_id,)) as cursor:
            row = await cursor.fetchone()
        return _session(row) if row else None

    async def live_session(self, channel_id: int) -> SessionRecord | None:
        placeholders = ",".join("?" * len(LIVE_STATUSES))
        async with self._db.execute(
            f"SELECT * FROM sessions WHERE channel_id = ? AND status IN ({placeholders})",
            (channel_id, *LIVE_STATUSES),
        ) as cursor:
            row = await cursor.fetchone()
        return _session(row) if row else None

    async def save_session(
        self, record: SessionRecord, now: datetime, action: tuple[int | None, dict[str, Any]] | None = None
    ) -> int | None:
        """Save a session's state, status, players and meta, with its action, in one transaction.

        Returns the action's sequence number when one was logged.
        """
        seq = None
        try:
            await self._db.execute(
                "UPDATE sessions SET players = ?, status = ?, state = ?, schema_version = ?, updated_at = ?,"
                " message_id = ?, meta = ? WHERE id = ?",
                (
                    json.dumps(record.players),
                    record.status,
                    json.dumps(record.state),
                    record.schema_version,
                    iso(now),
                    record.message_id,
                    json.dumps(record.meta),
                    record.id,
                ),
            )
            if action is not None:
                player_id, payload = action
                async with self._db.execute(
                    "SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE session_id = ?", (record.id,)
                ) as cursor:
                    seq = (await cursor.fetchone())[0]
                await self._db.execute(
                    "INSERT INTO actions (session_id, seq, player_id, action, at) VALUES (?,?,?,?,?)",
                    (record.id, seq, player_id, json.dumps(payload), iso(now)),
                )
            await self._db.commit()
        except BaseException:
            await self._db.rollback()
            raise
        record.updated_at = now
        return seq

    async def actions(self, session_id: int) -> list[tuple[int, int | None, dict[str, Any]]]:
        async with self._db.execute(
            "SELECT seq, player_id, action FROM actions WHERE session_id = ? ORDER BY seq", (session_id,)
        ) as cursor:
            return [(row["seq"], row["player_id"], json.loads(row["action"])) async for row in cursor]

    async def count_actions(self, session_id: int) -> int:
        async with self._db.execute("SELECT COUNT(*) FROM actions WHERE session_id = ?", (session_id,)) as cursor:
            return (await cursor.fetchone())[0]

    # ------------------------------------------------------------------ timers

    async def add_timer(
        self, session_id: int, kind: str, deadline: datetime, payload: dict[str, Any] | None = None
    ) -> TimerRecord:
        cursor = await self._db.execute(
            "INSERT INTO timers (session_id, kind, deadline, payload) VALUES (?,?,?,?)",
            (session_id, kind, iso(deadline), json.dumps(payload or {})),
        )
        await self._db.commit()
        return TimerRecord(cursor.lastrowid, session_id, kind, deadline, payload or {})

    async def delete_timer(self, timer_id: int) -> bool:
        cursor = await self._db.execute("DELETE FROM timers WHERE id = ?", (timer_id,))
        await self._db.commit()
        return cursor.rowcount > 0

    async def delete_timers(self, session_id: int, kinds: Iterable[str] | None = None) -> list[int]:
        query = "SELECT id FROM timers WHERE session_id = ?"
        params: list[Any] = [session_id]
        if kinds is not None:
            kinds = list(kinds)
            query += f" AND kind IN ({','.join('?' * len(kinds))})"
            params += kinds
        async with self._db.execute(query, params) as cursor:
            ids = [row["id"] async for row in cursor]
        if ids:
            await self._db.execute(f"DELETE FROM timers WHERE id IN ({','.join('?' * len(ids))})", ids)
            await self._db.commit()
        return ids

    async def pending_timers(self) -> list[TimerRecord]:
        async with self._db.execute("SELECT * FROM timers ORDER BY deadline") as cursor:
            return [
                TimerRecord(
                    row["id"], row["session_id"], row["kind"], parse_iso(row["deadline"]), json.loads(row["payload"])
                )
                async for row in cursor
            ]

    # ----------------------------------------------------------------- results

    async def record_result(
        self,
        *,
        session_id: int | None,
        game: str,
        guild_id: int | None,
        players: Sequence[int],
        scores: Sequence[float],
        winners: Sequence[int],
        moves: int,
        duration_seconds: float,
        now: datetime,
    ) -> int:
        cursor = await self._db.execute(
            "INSERT INTO results (session_id, game, guild_id, players, scores, winners, moves, duration_seconds,"
            " finished_at) VALUES (?,?,?,?,?,?,?,?,?)",
            (
                session_id,
                game,
                guild_id,
                json.dumps(list(players)),
                json.dumps(list(scores)),
                json.dumps(list(winners)),
                moves,
                duration_seconds,
                iso(now),
            ),
        )
        result_id = cursor.lastrowid
        await self._db.executemany(
            "INSERT OR IGNORE INTO result_players (result_id, user_id, won) VALUES (?,?,?)",
            [(result_id, user, int(user in winners)) for user in players],
        )
        await self._db.commit()
        return result_id

    async def user_stats(self, guild_id: int | None, user_id: int) -> dict[str, tuple[int, int]]:
        """Per game: (games played, games won) by ``user_id`` in this server."""
        async with self._db.execute(
            "SELECT r.game, COUNT(*) AS games, SUM(p.won) AS wins FROM results r"
            " JOIN result_players p ON p.result_id = r.id"
            " WHERE p.user_id = ? AND r.guild_id IS ? GROUP BY r.game ORDER BY r.game",
            (user_id, guild_id),
        ) as cursor:
            return {row["game"]: (row["games"], row["wins"] or 0) async for row in cursor}

    async def ratings(self, guild_id: int | None, game: str, user_ids: Sequence[int] | None = None) -> list[Rating]:
        query = "SELECT * FROM ratings WHERE guild_id IS ? AND game = ?"
        params: list[Any] = [guild_id or 0, game]
        if user_ids is not None:
            query += f" AND user_id IN ({','.join('?' * len(user_ids))})"
            params += list(user_ids)
        async with self._db.execute(query, params) as cursor:
            return [Rating(row["user_id"], row["mu"], row["sigma"], row["games"], row["wins"]) async for row in cursor]

    async def save_ratings(self, guild_id: int | None, game: str, ratings: Sequence[Rating]) -> None:
        await self._db.executemany(
            "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, wins) VALUES (?,?,?,?,?,?,?)"
            " ON CONFLICT(guild_id, game, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
            " games = excluded.games, wins = excluded.wins",
            [(guild_id or 0, game, r.user_id, r.mu, r.sigma, r.games, r.wins) for r in ratings],
        )
        await self._db.commit()

    # ---------------------------------------------------------- bot and server settings

    async def get_value(self, key: str) -> str | None:
        async with self._db.execute("SELECT value FROM bot_state WHERE key = ?", (key,)) as cursor:
            row = await cursor.fetchone()
        return row[0] if row else None

    async def set_value(self, key: str, value: str) -> None:
        await self._db.execute(
            "INSERT INTO bot_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, value),
        )
        await self._db.commit()

    async def turn_clock_seconds(self, guild_id: int | None) -> int:
        async with self._db.execute(
            "SELECT turn_clock_seconds FROM guild_settings WHERE guild_id = ?", (guild_id or 0,)
        ) as cursor:
            row = await cursor.fetchone()
        return row[0] if row else 0

    async def set_turn_clock_seconds(self, guild_id: int | None, seconds: int) -> None:
        await self._db.execute(
            "INSERT INTO guild_settings (guild_id, turn_clock_seconds) VALUES (?, ?)"
            " ON CONFLICT(guild_id) DO UPDATE SET turn_clock_seconds = excluded.turn_clock_seconds",
            (guild_id or 0, seconds),
        )
        await self._db.commit()


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
    )
