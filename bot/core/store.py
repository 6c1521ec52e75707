"""The bot's storage: a small async interface over SQLite (the default) or PostgreSQL.

The SQL here is the same for both databases (:mod:`bot.core.database` runs it,
:mod:`bot.core.migrations` holds each dialect's schema). :class:`Store` and :class:`Transaction`
are the one entry point, composed by subject: sessions, their action log, timers and the outbox
here, finished games' records in :mod:`bot.core.records_store`, settings in
:mod:`bot.core.settings_store`. A feature with tables of its own (Octagion Daily) keeps its SQL
and its numbered migrations in its own package, on the same reads and writes
(:mod:`bot.core.sql_store`).

Every write runs inside :meth:`Store.transaction`: everything done through it commits together
or not at all, so a failed statement rolls back only its own transaction, never another
channel's.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any

from bot.core import migrations
from bot.core.database import Database, StoreBusy, UniqueViolation, open_database
from bot.core.records_store import PastGame, Rating, RecordReads, RecordWrites, ResultRow
from bot.core.rows import (
    Backlog,
    ChannelBusy,
    LoggedMove,
    OutboxEntry,
    SessionRecord,
    ShardScope,
    TimerRecord,
    session_row,
    timer_row,
)
from bot.core.settings_store import SettingReads, SettingWrites
from bot.core.sql_store import iso, parse_iso
from engines.registry import KITS

__all__ = [  # the rows (bot.core.rows) too, where the bot has always found them
    "LIVE_SQL",
    "MIGRATIONS",
    "Backlog",
    "ChannelBusy",
    "LoggedMove",
    "OutboxEntry",
    "PastGame",
    "Rating",
    "ResultRow",
    "SessionRecord",
    "ShardScope",
    "Store",
    "StoreBusy",
    "TimerRecord",
    "Transaction",
    "iso",
    "parse_iso",
]

# Statuses of a session that occupy its channel (spelled out in the SQL below as well, so that
# SQLite can use the partial index that enforces one live session per channel).
LIVE_STATUSES = ("challenge", "lobby", "active")
LIVE_SQL = "status IN ('challenge', 'lobby', 'active')"

MIGRATIONS = migrations.core("sqlite")  # the default database's schema (the core's; features number their own)


# Sessions that are games, not a kit's (a tournament is a session of its own, never "the game here").
GAMES_ONLY = "game NOT IN (" + ", ".join(f"'{kit}'" for kit in KITS) + ")"
# The live session played in a channel (two parameters: the channel's id twice): the game of a
# thread, or the session of a channel played in the channel itself (each side has its index).
PLAYED_IN_SQL = (
    f"id IN (SELECT id FROM sessions WHERE thread_id = ? AND {LIVE_SQL}"
    f" UNION ALL SELECT id FROM sessions WHERE channel_id = ? AND in_thread = 0 AND {LIVE_SQL})"
)

# A channel's latest finished game of a kind (the finished_by_channel index of migration 7).
LAST_FINISHED_SQL = (
    "SELECT id FROM sessions WHERE channel_id = ? AND game = ? AND status = 'finished'"
    " ORDER BY updated_at DESC, id DESC LIMIT 1"
)
LAST_FINISHED_ANY_SQL = (
    "SELECT id FROM sessions WHERE channel_id = ? AND status = 'finished' ORDER BY updated_at DESC, id DESC LIMIT 1"
)
# A game's own thread: its row names the parent channel, and the thread in thread_id.
LAST_FINISHED_IN_THREAD_SQL = (
    "SELECT id FROM sessions WHERE thread_id = ? AND status = 'finished' ORDER BY updated_at DESC, id DESC LIMIT 1"
)


class Transaction(RecordWrites, SettingWrites):
    """The writes of one transaction (see :class:`bot.core.sql_store.TransactionWrites`): sessions,
    their action log, timers and the outbox here; results, ratings and settings from its bases."""

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
        in_thread: bool = False,
    ) -> int:
        try:
            rows = await self.query(
                "INSERT INTO sessions (game, guild_id, channel_id, host_id, players, status, state,"
                " schema_version, created_at, updated_at, meta, in_thread)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id",
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
                    int(in_thread),
                ),
            )
        except UniqueViolation as error:
            raise ChannelBusy(channel_id) from error
        return int(rows[0][0])

    async def update_session(self, record: SessionRecord, now: datetime) -> None:
        self.write(
            "UPDATE sessions SET players = ?, status = ?, state = ?, schema_version = ?, updated_at = ?,"
            " message_id = ?, meta = ?, actions = ?, in_thread = ?, thread_id = ?, card_id = ? WHERE id = ?",
            (
                json.dumps(record.players),
                record.status,
                json.dumps(record.state),
                record.schema_version,
                iso(now),
                record.message_id,
                json.dumps(record.meta),
                record.actions,
                int(record.in_thread),
                record.thread_id,
                record.card_id,
                record.id,
            ),
        )

    async def append_action(
        self,
        session_id: int,
        seq: int,
        player_id: int | None,
        action: dict[str, Any],
        now: datetime,
        seat: int | None = None,
    ) -> None:
        """Log action number ``seq``, played for ``seat``; the primary key refuses a second writer
        of the same number (at the next trip to the database: the change fails as a whole)."""
        self.write(
            "INSERT INTO actions (session_id, seq, player_id, action, at, seat) VALUES (?,?,?,?,?,?)",
            (session_id, seq, player_id, json.dumps(action), iso(now), seat),
        )

    # ------------------------------------------------------------------ timers
    async def add_timer(
        self, session_id: int, kind: str, deadline: datetime, payload: dict[str, Any] | None = None
    ) -> TimerRecord:
        rows = await self.query(
            "INSERT INTO timers (session_id, kind, deadline, payload) VALUES (?,?,?,?) RETURNING id",
            (session_id, kind, iso(deadline), json.dumps(payload or {})),
        )
        return TimerRecord(rows[0][0], session_id, kind, deadline, payload or {})

    async def delete_timer(self, timer_id: int) -> bool:
        return bool(await self.query("DELETE FROM timers WHERE id = ? RETURNING id", (timer_id,)))

    async def delete_timers(self, session_id: int, kinds: Iterable[str] | None = None) -> list[int]:
        query = "DELETE FROM timers WHERE session_id = ?"
        params: list[Any] = [session_id]
        if kinds is not None:
            kinds = list(kinds)
            query += f" AND kind IN ({','.join('?' * len(kinds))})"
            params += kinds
        return [row[0] for row in await self.query(query + " RETURNING id", params)]

    # ------------------------------------------------------------------ outbox
    async def add_outbox(
        self, session_id: int, kind: str, payload: dict[str, Any], now: datetime, not_before: datetime | None = None
    ) -> None:
        """A message to send after the commit (``not_before``: not earlier, e.g. a card's edit
        that waits a few seconds so that the moves made meanwhile share it)."""
        self.write(
            "INSERT INTO outbox (session_id, kind, payload, next_attempt_at, created_at) VALUES (?,?,?,?,?)",
            (session_id, kind, json.dumps(payload), iso(not_before or now), iso(now)),
        )

    async def outbox_done(self, entry_ids: Sequence[int]) -> None:
        if entry_ids:
            marks = ",".join("?" * len(entry_ids))
            self.write(f"DELETE FROM outbox WHERE id IN ({marks})", list(entry_ids))

    async def drop_outbox(self, session_id: int) -> None:
        self.write("DELETE FROM outbox WHERE session_id = ?", (session_id,))

    async def outbox_retry_later(self, entry_id: int, next_attempt_at: datetime) -> None:
        self.write(
            "UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ? WHERE id = ?",
            (iso(next_attempt_at), entry_id),
        )


class Store(RecordReads, SettingReads):
    """The bot's data in one database, migrated to the newest schema when opened.

    Reads run directly (each in one trip); writes only inside :meth:`transaction`.
    """

    def __init__(self, database: Database, scope: ShardScope | None = None):
        self.database = database
        self.scope = scope
        # What the process's own sweeps (timers, outbox, shown games) look at: its guilds only.
        self._owned = scope.sql("s.guild_id") if scope else "TRUE"

    @classmethod
    async def open(cls, url: str, pool_size: int = 20, scope: ShardScope | None = None) -> Store:
        """``url``: a SQLite file path (or ``sqlite:path``), or ``postgresql://...``; ``scope``: the
        guilds of this process's shards (None: all)."""
        store = cls(await open_database(url, pool_size), scope)
        await store.migrate()
        return store

    @property
    def dialect(self) -> str:
        return self.database.dialect

    async def close(self) -> None:
        await self.database.close()

    async def schema_version(self) -> int:
        return await self.database.schema_version()

    async def migrate(self) -> None:
        await self.database.migrate()

    async def integrity_check(self) -> str:
        return await self.database.integrity_check()

    # ------------------------------------------------------------ transactions
    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """One atomic write: everything done through the yielded object commits together or not at all."""
        trips = self.database.trips()
        try:
            yield (tx := Transaction(trips))
            await tx._commit()
        except BaseException:
            await trips.abort()
            raise
        finally:
            await trips.release()

    # ------------------------------------------------------------------- reads
    async def get_session(self, session_id: int) -> SessionRecord | None:
        row = await self.query_one("SELECT * FROM sessions WHERE id = ?", (session_id,))
        return session_row(row) if row else None

    async def live_session(self, channel_id: int) -> SessionRecord | None:
        """The live session played in a channel: the game of a thread, or the one session a
        channel without game threads has (pending challenges beside threads are not "in" it)."""
        row = await self.query_one(f"SELECT * FROM sessions WHERE {PLAYED_IN_SQL}", (channel_id, channel_id))
        return session_row(row) if row else None

    async def threaded_sessions(self, channel_id: int) -> list[SessionRecord]:
        """The live sessions of a channel that are (or will be) played in threads, oldest first."""
        sql = (
            f"SELECT * FROM sessions WHERE channel_id = ? AND in_thread = 1 AND {LIVE_SQL} AND {GAMES_ONLY} ORDER BY id"
        )
        return [session_row(row) for row in await self.query(sql, (channel_id,))]

    async def sessions_in_threads(self, thread_ids: Sequence[int]) -> list[int]:
        """Ids of the live sessions played in these threads (a deleted channel's)."""
        if not thread_ids:
            return []
        marks = ",".join("?" * len(thread_ids))
        sql = f"SELECT id FROM sessions WHERE thread_id IN ({marks}) AND {LIVE_SQL}"
        return [row[0] for row in await self.query(sql, list(thread_ids))]

    async def shown_live_sessions(self) -> list[int]:
        """Ids of the live sessions that have a message in their channel (or a card, in threads)."""
        shown = "(message_id IS NOT NULL OR card_id IS NOT NULL)"
        sql = f"SELECT id FROM sessions s WHERE {LIVE_SQL} AND {shown} AND {self._owned} ORDER BY id"
        return [row[0] for row in await self.query(sql)]

    async def answers(self) -> None:
        """One trivial query: whether the database answers at all (the health check)."""
        await self.query("SELECT 1")

    async def backlog(self, now: datetime) -> Backlog:
        (count, oldest) = tuple(await self.query_one("SELECT COUNT(*), MIN(created_at) FROM outbox"))
        (due,) = tuple(await self.query_one("SELECT COUNT(*) FROM timers WHERE deadline <= ?", (iso(now),)))
        live = await self.query(f"SELECT game, COUNT(*) FROM sessions WHERE {LIVE_SQL} GROUP BY game")
        return Backlog(count, parse_iso(oldest) if oldest else None, due, {row[0]: row[1] for row in live})

    async def shown_finished_sessions(self, per_channel: int) -> list[int]:
        """Ids of each channel's last ``per_channel`` finished sessions that had a message (or a card)."""
        shown = "status = 'finished' AND (message_id IS NOT NULL OR card_id IS NOT NULL)"
        latest = "SELECT id, ROW_NUMBER() OVER (PARTITION BY channel_id ORDER BY id DESC) AS n FROM sessions s"
        sql = f"SELECT id FROM ({latest} WHERE {shown} AND {self._owned}) latest WHERE n <= ? ORDER BY id"
        return [row[0] for row in await self.query(sql, (per_channel,))]

    async def live_session_ref(self, channel_id: int) -> tuple[int, str, str] | None:
        """(id, game, status) of the channel's live session, without reading its state."""
        sql = f"SELECT id, game, status FROM sessions WHERE {PLAYED_IN_SQL}"
        row = await self.query_one(sql, (channel_id, channel_id))
        return (row[0], row[1], row[2]) if row else None

    async def actions(self, session_id: int) -> list[tuple[int, int | None, dict[str, Any]]]:
        rows = await self.query(
            "SELECT seq, player_id, action FROM actions WHERE session_id = ? ORDER BY seq", (session_id,)
        )
        return [(row["seq"], row["player_id"], json.loads(row["action"])) for row in rows]

    async def logged_moves(self, session_id: int) -> list[LoggedMove]:
        """The session's action log in order, each with the seat it was played for (None in rows
        logged before the seat was kept)."""
        rows = await self.query(
            "SELECT seat, player_id, action FROM actions WHERE session_id = ? ORDER BY seq", (session_id,)
        )
        return [LoggedMove(row["seat"], row["player_id"], json.loads(row["action"])) for row in rows]

    async def last_finished_session(self, channel_id: int, game: str | None = None) -> int | None:
        """The id of the latest finished game of ``game`` (by default of any game) in a channel or
        a game's thread."""
        if game is None:
            row = await self.query_one(LAST_FINISHED_ANY_SQL, (channel_id,))
        else:
            row = await self.query_one(LAST_FINISHED_SQL, (channel_id, game))
        if row is None:  # none played in the channel itself: is it a game's thread?
            row = await self.query_one(LAST_FINISHED_IN_THREAD_SQL, (channel_id,))
            if row is not None and game is not None and (await self.get_session(row[0])).game != game:
                row = None
        return row[0] if row else None

    async def count_actions(self, session_id: int) -> int:
        row = await self.query_one("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE session_id = ?", (session_id,))
        return int(row[0])

    async def pending_timers(self) -> list[TimerRecord]:
        """Every stored timer of this process's guilds, soonest first."""
        sql = f"SELECT t.* FROM timers t JOIN sessions s ON s.id = t.session_id WHERE {self._owned} ORDER BY t.deadline"
        return [timer_row(row) for row in await self.query(sql)]

    async def timers(self, session_id: int) -> list[TimerRecord]:
        rows = await self.query("SELECT * FROM timers WHERE session_id = ? ORDER BY deadline", (session_id,))
        return [timer_row(row) for row in rows]

    async def outbox(self, session_id: int | None = None) -> list[OutboxEntry]:
        """Pending outbox entries (of one session, or all), oldest first."""
        if session_id is not None:
            rows = await self.query("SELECT * FROM outbox WHERE session_id = ? ORDER BY id", (session_id,))
        else:  # the sweep: this process's guilds only
            sql = f"SELECT o.* FROM outbox o JOIN sessions s ON s.id = o.session_id WHERE {self._owned} ORDER BY o.id"
            rows = await self.query(sql)
        return [
            OutboxEntry(
                row["id"],
                row["session_id"],
                row["kind"],
                json.loads(row["payload"]),
                row["attempts"],
                parse_iso(row["next_attempt_at"]),
                parse_iso(row["created_at"]),
            )
            for row in rows
        ]
