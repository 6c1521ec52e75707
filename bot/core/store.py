"""The bot's storage: a small async interface over SQLite (the default) or PostgreSQL.

Nothing above this module writes SQL; the SQL here is the same for both databases
(:mod:`bot.core.database` runs it, :mod:`bot.core.migrations` holds each dialect's schema).

Every write runs inside :meth:`Store.transaction`: everything done through it commits together
or not at all, so a failed statement rolls back only its own transaction, never another
channel's.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from bot.core import migrations
from bot.core.database import Database, Statement, StoreBusy, Trips, UniqueViolation, open_database

__all__ = ["LIVE_SQL", "MIGRATIONS", "ChannelBusy", "Store", "StoreBusy", "Transaction"]

# Statuses of a session that occupy its channel (spelled out in the SQL below as well, so that
# SQLite can use the partial index that enforces one live session per channel).
LIVE_STATUSES = ("challenge", "lobby", "active")
LIVE_SQL = "status IN ('challenge', 'lobby', 'active')"

MIGRATIONS = migrations.SQLITE  # the default database's schema
DEFAULT_ARCHIVE_MINUTES = 60  # a finished game's thread is archived this long after the end


@dataclass(frozen=True)
class ShardScope:
    """The guilds one process owns when the bot runs in shards: Discord's rule, shard =
    (guild_id >> 22) % shard_count (direct messages, with no guild, are shard 0's)."""

    count: int
    ids: tuple[int, ...]

    def owns(self, guild_id: int | None) -> bool:
        return ((guild_id or 0) >> 22) % self.count in self.ids

    def sql(self, guild_column: str = "guild_id") -> str:
        """The same rule as SQL (the numbers are ints, not text from outside)."""
        listed = ",".join(str(int(shard)) for shard in self.ids)
        return f"((COALESCE({guild_column}, 0) >> 22) % {int(self.count)}) IN ({listed})"


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
    actions: int = 0  # the action number: how many actions the log holds
    # Games in threads: the session is played in a thread of its own, opened from its card
    # (the challenge or lobby message in ``channel_id``) when it starts.
    in_thread: bool = False
    thread_id: int | None = None
    card_id: int | None = None

    @property
    def play_channel_id(self) -> int:
        """Where the game is played: its thread, or the channel itself."""
        return self.thread_id or self.channel_id

    @property
    def thread_pending(self) -> bool:
        """A game to be played in a thread that is not open yet (its messages wait for it)."""
        return self.in_thread and self.thread_id is None


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


class Transaction:
    """The writes of one transaction. Only :meth:`Store.transaction` makes one.

    Writes whose result nobody needs wait in a buffer; the buffer goes to the database in one
    trip with the next statement that returns something, or with COMMIT. A move's change
    (state, action, outbox) is then one trip, BEGIN to COMMIT, instead of one per statement:
    under load every trip waits for the busy event loop to resume it.
    """

    def __init__(self, trips: Trips):
        self._trips = trips
        self._buffer: list[Statement] = []

    def _later(self, sql: str, params: Any = (), many: bool = False) -> None:
        self._buffer.append(Statement(sql, params, many))

    async def _now(self, sql: str | None = None, params: Any = (), last: bool = False) -> list[Any]:
        """The buffered writes and then ``sql``, in one trip; the rows ``sql`` returns."""
        statements, self._buffer = self._buffer, []
        if sql is not None:
            statements.append(Statement(sql, params))
        return await self._trips.send(statements, rows=sql is not None, last=last) or []

    async def _commit(self) -> None:
        statements, self._buffer = self._buffer, []
        await self._trips.commit(statements)

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
            rows = await self._now(
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
        return rows[0][0]

    async def update_session(self, record: SessionRecord, now: datetime) -> None:
        self._later(
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
        self._later(
            "INSERT INTO actions (session_id, seq, player_id, action, at, seat) VALUES (?,?,?,?,?,?)",
            (session_id, seq, player_id, json.dumps(action), iso(now), seat),
        )

    # ------------------------------------------------------------------ timers
    async def add_timer(
        self, session_id: int, kind: str, deadline: datetime, payload: dict[str, Any] | None = None
    ) -> TimerRecord:
        rows = await self._now(
            "INSERT INTO timers (session_id, kind, deadline, payload) VALUES (?,?,?,?) RETURNING id",
            (session_id, kind, iso(deadline), json.dumps(payload or {})),
        )
        return TimerRecord(rows[0][0], session_id, kind, deadline, payload or {})

    async def delete_timer(self, timer_id: int) -> bool:
        return bool(await self._now("DELETE FROM timers WHERE id = ? RETURNING id", (timer_id,)))

    async def delete_timers(self, session_id: int, kinds: Iterable[str] | None = None) -> list[int]:
        query = "DELETE FROM timers WHERE session_id = ?"
        params: list[Any] = [session_id]
        if kinds is not None:
            kinds = list(kinds)
            query += f" AND kind IN ({','.join('?' * len(kinds))})"
            params += kinds
        return [row[0] for row in await self._now(query + " RETURNING id", params)]

    # ------------------------------------------------------------------ outbox
    async def add_outbox(
        self, session_id: int, kind: str, payload: dict[str, Any], now: datetime, not_before: datetime | None = None
    ) -> None:
        """A message to send after the commit (``not_before``: not earlier, e.g. a card's edit
        that waits a few seconds so that the moves made meanwhile share it)."""
        self._later(
            "INSERT INTO outbox (session_id, kind, payload, next_attempt_at, created_at) VALUES (?,?,?,?,?)",
            (session_id, kind, json.dumps(payload), iso(not_before or now), iso(now)),
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
        rows = await self._now(
            "INSERT INTO results (session_id, game, guild_id, players, scores, winners, moves,"
            " duration_seconds, finished_at) VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING RETURNING id",
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
        if not rows:
            return None
        result_id = rows[0][0]
        self._later(
            "INSERT INTO result_players (result_id, user_id, won, guild_id, game) VALUES (?,?,?,?,?)"
            " ON CONFLICT DO NOTHING",
            [
                (result_id, user, int(user in result.winners), result.guild_id, result.game)
                for user in dict.fromkeys(result.players)
            ],
            many=True,
        )
        return result_id

    async def ratings(self, guild_id: int | None, game: str, user_ids: Sequence[int]) -> list[Rating]:
        sql, params = _ratings_query(guild_id, game, user_ids)  # sees this transaction's writes so far
        return [_rating(row) for row in await self._now(sql, params)]

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

    async def set_game_threads(self, channel_id: int, guild_id: int | None, enabled: bool) -> None:
        self._later(
            "INSERT INTO channel_settings (channel_id, guild_id, game_threads) VALUES (?, ?, ?)"
            " ON CONFLICT(channel_id) DO UPDATE SET game_threads = excluded.game_threads",
            (channel_id, guild_id, int(enabled)),
        )

    async def set_turn_notices(self, guild_id: int | None, user_id: int, enabled: bool) -> None:
        self._later(
            "INSERT INTO member_settings (guild_id, user_id, turn_notices) VALUES (?, ?, ?)"
            " ON CONFLICT(guild_id, user_id) DO UPDATE SET turn_notices = excluded.turn_notices",
            (guild_id or 0, user_id, int(enabled)),
        )

    async def set_archive_minutes(self, guild_id: int | None, minutes: int) -> None:
        self._later(
            "INSERT INTO guild_settings (guild_id, archive_minutes) VALUES (?, ?)"
            " ON CONFLICT(guild_id) DO UPDATE SET archive_minutes = excluded.archive_minutes",
            (guild_id or 0, minutes),
        )

    # ------------------------------------------------------------ Octagion Daily
    async def start_daily_play(self, play: DailyPlay) -> bool:
        """A member's play of a day; False if they already have one (the key refuses a second)."""
        rows = await self._now(
            "INSERT INTO daily_plays (guild_id, day, user_id, session_id, name, started_at, deadline)"
            " VALUES (?,?,?,?,?,?,?) ON CONFLICT DO NOTHING RETURNING user_id",
            (
                play.guild_id,
                play.day.isoformat(),
                play.user_id,
                play.session_id,
                play.name,
                iso(play.started_at),
                iso(play.deadline),
            ),
        )
        return bool(rows)

    async def save_daily_answer(self, play: DailyPlay) -> None:
        """The member's latest answer (``play.cells``): the one scored if the countdown runs out."""
        self._later(
            "UPDATE daily_plays SET cells = ?, answers = answers + 1 WHERE guild_id = ? AND day = ? AND user_id = ?",
            (json.dumps(play.cells), play.guild_id, play.day.isoformat(), play.user_id),
        )

    async def finish_daily_play(self, play: DailyPlay) -> None:
        """The play's score and streaks; a play already finished keeps its first score."""
        self._later(
            "UPDATE daily_plays SET finished_at = ?, score = ?, penalties = ?, bonus = ?, streak = ?, won_streak = ?"
            " WHERE guild_id = ? AND day = ? AND user_id = ? AND finished_at IS NULL",
            (
                iso(play.finished_at),
                play.score,
                play.penalties,
                play.bonus,
                play.streak,
                play.won_streak,
                play.guild_id,
                play.day.isoformat(),
                play.user_id,
            ),
        )

    async def set_daily_session(self, guild_id: int, session_id: int | None) -> None:
        """The session that posts the server's daily boards (None: no daily channel)."""
        self._later(
            "INSERT INTO guild_settings (guild_id, daily_session_id) VALUES (?, ?)"
            " ON CONFLICT(guild_id) DO UPDATE SET daily_session_id = excluded.daily_session_id",
            (guild_id, session_id),
        )


class Store:
    """The bot's data in one database, migrated to the newest schema when opened.

    Reads run directly; writes only inside :meth:`transaction`.
    """

    def __init__(self, database: Database, scope: ShardScope | None = None):
        self.database = database
        self.scope = scope
        # What the process's own sweeps (timers, outbox, shown games) look at: its guilds only.
        self._owned = scope.sql("s.guild_id") if scope else "TRUE"

    @classmethod
    async def open(cls, url: str, pool_size: int = 10, scope: ShardScope | None = None) -> Store:
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
    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """A query's rows in one trip to the database."""
        return await self.database.rows(sql, params)

    async def _fetchone(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = await self._rows(sql, params)
        return rows[0] if rows else None

    async def get_session(self, session_id: int) -> SessionRecord | None:
        row = await self._fetchone("SELECT * FROM sessions WHERE id = ?", (session_id,))
        return _session(row) if row else None

    async def live_session(self, channel_id: int) -> SessionRecord | None:
        """The live session played in a channel: the game of a thread, or the one session a
        channel without game threads has (pending challenges beside threads are not "in" it)."""
        row = await self._fetchone(f"SELECT * FROM sessions WHERE {PLAYED_IN_SQL}", (channel_id, channel_id))
        return _session(row) if row else None

    async def threaded_sessions(self, channel_id: int) -> list[SessionRecord]:
        """The live sessions of a channel that are (or will be) played in threads, oldest first."""
        sql = f"SELECT * FROM sessions WHERE channel_id = ? AND in_thread = 1 AND {LIVE_SQL} ORDER BY id"
        return [_session(row) for row in await self._rows(sql, (channel_id,))]

    async def sessions_in_threads(self, thread_ids: Sequence[int]) -> list[int]:
        """Ids of the live sessions played in these threads (a deleted channel's)."""
        if not thread_ids:
            return []
        marks = ",".join("?" * len(thread_ids))
        sql = f"SELECT id FROM sessions WHERE thread_id IN ({marks}) AND {LIVE_SQL}"
        return [row[0] for row in await self._rows(sql, list(thread_ids))]

    async def shown_live_sessions(self) -> list[int]:
        """Ids of the live sessions that have a message in their channel (or a card, in threads)."""
        shown = "(message_id IS NOT NULL OR card_id IS NOT NULL)"
        sql = f"SELECT id FROM sessions s WHERE {LIVE_SQL} AND {shown} AND {self._owned} ORDER BY id"
        return [row[0] for row in await self._rows(sql)]

    async def live_session_ref(self, channel_id: int) -> tuple[int, str, str] | None:
        """(id, game, status) of the channel's live session, without reading its state."""
        sql = f"SELECT id, game, status FROM sessions WHERE {PLAYED_IN_SQL}"
        row = await self._fetchone(sql, (channel_id, channel_id))
        return (row[0], row[1], row[2]) if row else None

    async def actions(self, session_id: int) -> list[tuple[int, int | None, dict[str, Any]]]:
        rows = await self._rows(
            "SELECT seq, player_id, action FROM actions WHERE session_id = ? ORDER BY seq", (session_id,)
        )
        return [(row["seq"], row["player_id"], json.loads(row["action"])) for row in rows]

    async def logged_moves(self, session_id: int) -> list[LoggedMove]:
        """The session's action log in order, each with the seat it was played for (None in rows
        logged before the seat was kept)."""
        rows = await self._rows(
            "SELECT seat, player_id, action FROM actions WHERE session_id = ? ORDER BY seq", (session_id,)
        )
        return [LoggedMove(row["seat"], row["player_id"], json.loads(row["action"])) for row in rows]

    async def last_finished_session(self, channel_id: int, game: str) -> int | None:
        """The id of the latest finished game of ``game`` in a channel."""
        row = await self._fetchone(LAST_FINISHED_SQL, (channel_id, game))
        return row[0] if row else None

    async def history(self, guild_id: int | None, user_id: int, game: str | None, limit: int) -> list[PastGame]:
        """A member's latest finished games in a server, newest first (from the player's rows of
        ``result_players``, read by their index, then each game's result and session)."""
        sql = (
            "SELECT r.session_id, r.game, r.players, r.winners, r.moves, r.duration_seconds, r.finished_at,"
            " s.channel_id, s.message_id, s.meta"
            " FROM result_players p JOIN results r ON r.id = p.result_id"
            " LEFT JOIN sessions s ON s.id = r.session_id"
            " WHERE p.user_id = ? AND p.guild_id IS NOT DISTINCT FROM ?"
        )
        params: list[Any] = [user_id, guild_id]
        if game is not None:
            sql += " AND p.game = ?"
            params.append(game)
        sql += " ORDER BY r.finished_at DESC, r.id DESC LIMIT ?"
        rows = await self._rows(sql, [*params, limit])
        return [_past_game(row) for row in rows]

    async def count_actions(self, session_id: int) -> int:
        row = await self._fetchone("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE session_id = ?", (session_id,))
        return row[0]

    async def pending_timers(self) -> list[TimerRecord]:
        """Every stored timer of this process's guilds, soonest first."""
        sql = f"SELECT t.* FROM timers t JOIN sessions s ON s.id = t.session_id WHERE {self._owned} ORDER BY t.deadline"
        return [_timer(row) for row in await self._rows(sql)]

    async def timers(self, session_id: int) -> list[TimerRecord]:
        rows = await self._rows("SELECT * FROM timers WHERE session_id = ? ORDER BY deadline", (session_id,))
        return [_timer(row) for row in rows]

    async def outbox(self, session_id: int | None = None) -> list[OutboxEntry]:
        """Pending outbox entries (of one session, or all), oldest first."""
        if session_id is not None:
            rows = await self._rows("SELECT * FROM outbox WHERE session_id = ? ORDER BY id", (session_id,))
        else:  # the sweep: this process's guilds only
            sql = f"SELECT o.* FROM outbox o JOIN sessions s ON s.id = o.session_id WHERE {self._owned} ORDER BY o.id"
            rows = await self._rows(sql)
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
        """Per game: (games played, games won) by ``user_id`` in this server (from the player's
        rows alone, in the order of the index result_players_for_stats)."""
        rows = await self._rows(
            "SELECT game, COUNT(*) AS games, SUM(won) AS wins FROM result_players"
            " WHERE user_id = ? AND guild_id IS NOT DISTINCT FROM ? GROUP BY game ORDER BY game",
            (user_id, guild_id),
        )
        return {row["game"]: (row["games"], row["wins"] or 0) for row in rows}

    async def ratings(self, guild_id: int | None, game: str, user_ids: Sequence[int] | None = None) -> list[Rating]:
        sql, params = _ratings_query(guild_id, game, user_ids)
        return [_rating(row) for row in await self._rows(sql, params)]

    async def leaderboard(self, guild_id: int | None, game: str, limit: int) -> list[Rating]:
        """The server's ``limit`` best ratings for ``game`` by mu - 3 sigma, read in that order
        from the index ratings_by_rank (not every rating of a big server)."""
        sql = "SELECT * FROM ratings WHERE guild_id = ? AND game = ? ORDER BY mu - 3 * sigma DESC, user_id LIMIT ?"
        return [_rating(row) for row in await self._rows(sql, (guild_id or 0, game, limit))]

    async def get_value(self, key: str) -> str | None:
        row = await self._fetchone("SELECT value FROM bot_state WHERE key = ?", (key,))
        return row[0] if row else None

    async def game_threads(self, channel_id: int) -> bool | None:
        """Whether games started in this channel get threads of their own (None: not set here)."""
        row = await self._fetchone("SELECT game_threads FROM channel_settings WHERE channel_id = ?", (channel_id,))
        return bool(row[0]) if row else None

    async def turn_notices(self, guild_id: int | None, user_ids: Sequence[int]) -> dict[int, bool]:
        """Whether each member wants "your move" notices in this server (the default: yes)."""
        if not user_ids:
            return {}
        marks = ",".join("?" * len(user_ids))
        sql = f"SELECT user_id, turn_notices FROM member_settings WHERE guild_id = ? AND user_id IN ({marks})"
        chosen = {row[0]: bool(row[1]) for row in await self._rows(sql, [guild_id or 0, *user_ids])}
        return {user_id: chosen.get(user_id, True) for user_id in user_ids}

    async def archive_minutes(self, guild_id: int | None) -> int:
        row = await self._fetchone("SELECT archive_minutes FROM guild_settings WHERE guild_id = ?", (guild_id or 0,))
        return row[0] if row else DEFAULT_ARCHIVE_MINUTES

    async def turn_clock_seconds(self, guild_id: int | None) -> int:
        row = await self._fetchone("SELECT turn_clock_seconds FROM guild_settings WHERE guild_id = ?", (guild_id or 0,))
        return row[0] if row else 0

    # ------------------------------------------------------------ Octagion Daily
    async def daily_play(self, guild_id: int, day: date, user_id: int) -> DailyPlay | None:
        sql = "SELECT * FROM daily_plays WHERE guild_id = ? AND day = ? AND user_id = ?"
        row = await self._fetchone(sql, (guild_id, day.isoformat(), user_id))
        return _daily_play(row) if row else None

    async def daily_board(self, guild_id: int, day: date) -> list[DailyPlay]:
        """The finished plays of a server's day, highest score first (the engine ranks them)."""
        sql = (
            "SELECT * FROM daily_plays WHERE guild_id = ? AND day = ? AND finished_at IS NOT NULL"
            " ORDER BY score DESC, user_id"
        )
        return [_daily_play(row) for row in await self._rows(sql, (guild_id, day.isoformat()))]

    async def daily_players(self, guild_id: int, day: date) -> int:
        """How many members finished a day's puzzle in a server (no scores: spoiler-free)."""
        sql = "SELECT COUNT(*) FROM daily_plays WHERE guild_id = ? AND day = ? AND finished_at IS NOT NULL"
        return (await self._fetchone(sql, (guild_id, day.isoformat())))[0]

    async def daily_unfinished(self, guild_id: int, day: date) -> int:
        sql = "SELECT COUNT(*) FROM daily_plays WHERE guild_id = ? AND day = ? AND finished_at IS NULL"
        return (await self._fetchone(sql, (guild_id, day.isoformat())))[0]

    async def daily_history(self, guild_id: int, user_id: int) -> list[tuple[date, int]]:
        """(day, score) of every finished play of a member in a server, oldest first."""
        sql = (
            "SELECT day, score FROM daily_plays WHERE guild_id = ? AND user_id = ? AND finished_at IS NOT NULL"
            " ORDER BY day"
        )
        return [(date.fromisoformat(row[0]), row[1]) for row in await self._rows(sql, (guild_id, user_id))]

    async def daily_streak_leaders(self, guild_id: int, limit: int) -> list[tuple[int, int, int]]:
        """(user id, longest streak of days played, longest of days won) of a server's ``limit``
        members with the longest streaks played (then won)."""
        sql = (
            "SELECT user_id, MAX(streak) AS played, MAX(won_streak) AS won FROM daily_plays"
            " WHERE guild_id = ? AND finished_at IS NOT NULL GROUP BY user_id"
            " ORDER BY played DESC, won DESC, user_id LIMIT ?"
        )
        return [(row[0], row[1], row[2]) for row in await self._rows(sql, (guild_id, limit))]

    async def daily_session_id(self, guild_id: int) -> int | None:
        row = await self._fetchone("SELECT daily_session_id FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return row[0] if row else None


def _ratings_query(guild_id: int | None, game: str, user_ids: Sequence[int] | None) -> tuple[str, list[Any]]:
    query = "SELECT * FROM ratings WHERE guild_id = ? AND game = ?"
    params: list[Any] = [guild_id or 0, game]
    if user_ids is not None:
        query += f" AND user_id IN ({','.join('?' * len(user_ids))})" if user_ids else " AND FALSE"
        params += list(user_ids)
    return query, params


def _rating(row: Any) -> Rating:
    return Rating(row["user_id"], row["mu"], row["sigma"], row["games"], row["wins"])


def _timer(row: Any) -> TimerRecord:
    return TimerRecord(
        row["id"], row["session_id"], row["kind"], parse_iso(row["deadline"]), json.loads(row["payload"])
    )


@dataclass(frozen=True)
class LoggedMove:
    """One row of a session's action log."""

    seat: int | None
    player_id: int | None
    action: dict[str, Any]


@dataclass(frozen=True)
class PastGame:
    """A finished game as `/history` lists it."""

    session_id: int | None
    game: str
    players: list[int]
    winners: list[int]
    moves: int
    duration_seconds: float
    finished_at: datetime
    channel_id: int | None
    message_id: int | None
    names: list[str]


def _past_game(row: Any) -> PastGame:
    meta = json.loads(row["meta"]) if row["meta"] else {}
    return PastGame(
        session_id=row["session_id"],
        game=row["game"],
        players=json.loads(row["players"]),
        winners=json.loads(row["winners"]),
        moves=row["moves"],
        duration_seconds=row["duration_seconds"],
        finished_at=parse_iso(row["finished_at"]),
        channel_id=row["channel_id"],
        message_id=row["message_id"],
        names=list(meta.get("names", [])),
    )


def _session(row: Any) -> SessionRecord:
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
        in_thread=bool(row["in_thread"]),
        thread_id=row["thread_id"],
        card_id=row["card_id"],
    )


@dataclass
class DailyPlay:
    """A member's Octagion Daily play in a server (one per day): ``cells`` is the last answer
    saved; the score and the streaks as of that day are set when it finishes."""

    guild_id: int
    day: date
    user_id: int
    session_id: int | None
    name: str
    started_at: datetime
    deadline: datetime
    cells: list[str | None] | None = None
    answers: int = 0
    finished_at: datetime | None = None
    score: int | None = None
    penalties: int | None = None
    bonus: int | None = None
    streak: int | None = None
    won_streak: int | None = None

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


def _daily_play(row: Any) -> DailyPlay:
    finished = row["finished_at"]
    return DailyPlay(
        guild_id=row["guild_id"],
        day=date.fromisoformat(row["day"]),
        user_id=row["user_id"],
        session_id=row["session_id"],
        name=row["name"],
        started_at=parse_iso(row["started_at"]),
        deadline=parse_iso(row["deadline"]),
        cells=json.loads(row["cells"]) if row["cells"] else None,
        answers=row["answers"],
        finished_at=parse_iso(finished) if finished else None,
        score=row["score"],
        penalties=row["penalties"],
        bonus=row["bonus"],
        streak=row["streak"],
        won_streak=row["won_streak"],
    )
