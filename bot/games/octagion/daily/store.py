"""Octagion Daily's SQL: its own tables (``daily_plays``, and ``guild_settings.daily_session_id``,
made by :mod:`bot.games.octagion.daily.migrations`), read through the context's reads and
written inside a session's change (``change.during_commit``), the same SQL on SQLite and
PostgreSQL."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Protocol

from bot.core.store import Transaction, iso, parse_iso


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

    @property
    def seconds(self) -> float:
        """How long the play took (0 until it finished)."""
        return (self.finished_at - self.started_at).total_seconds() if self.finished_at else 0.0

    @property
    def eight_cells(self) -> tuple[str | None, ...]:
        """The last answer saved, one cell per position (None: empty)."""
        cells = list(self.cells or [])
        return tuple(cells + [None] * (8 - len(cells)))


class Reads(Protocol):
    """What the daily reads of its own tables (:class:`bot.ui.context.StoreReads`)."""

    async def table_rows(self, sql: str, params: Any = ()) -> list[Any]: ...

    async def table_row(self, sql: str, params: Any = ()) -> Any: ...


# ---------------------------------------------------------------------------- writes


async def start_play(tx: Transaction, play: DailyPlay) -> bool:
    """A member's play of a day; False if they already have one (the key refuses a second)."""
    rows = await tx.query(
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


async def save_answer(tx: Transaction, play: DailyPlay) -> None:
    """The member's latest answer (``play.cells``): the one scored if the countdown runs out."""
    tx.write(
        "UPDATE daily_plays SET cells = ?, answers = answers + 1 WHERE guild_id = ? AND day = ? AND user_id = ?",
        (json.dumps(play.cells), play.guild_id, play.day.isoformat(), play.user_id),
    )


async def finish_play(tx: Transaction, play: DailyPlay) -> None:
    """The play's score and streaks; a play already finished keeps its first score."""
    tx.write(
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


async def set_channel_session(tx: Transaction, guild_id: int, session_id: int | None) -> None:
    """The session that posts the server's daily boards (None: no daily channel)."""
    tx.write(
        "INSERT INTO guild_settings (guild_id, daily_session_id) VALUES (?, ?)"
        " ON CONFLICT(guild_id) DO UPDATE SET daily_session_id = excluded.daily_session_id",
        (guild_id, session_id),
    )


# ----------------------------------------------------------------------------- reads


class DailyStore:
    """Reads of the daily's tables."""

    def __init__(self, reads: Reads):
        self.reads = reads

    async def play(self, guild_id: int, day: date, user_id: int) -> DailyPlay | None:
        sql = "SELECT * FROM daily_plays WHERE guild_id = ? AND day = ? AND user_id = ?"
        row = await self.reads.table_row(sql, (guild_id, day.isoformat(), user_id))
        return _daily_play(row) if row else None

    async def board(self, guild_id: int, day: date) -> list[DailyPlay]:
        """The finished plays of a server's day, highest score first (the engine ranks them)."""
        sql = (
            "SELECT * FROM daily_plays WHERE guild_id = ? AND day = ? AND finished_at IS NOT NULL"
            " ORDER BY score DESC, user_id"
        )
        return [_daily_play(row) for row in await self.reads.table_rows(sql, (guild_id, day.isoformat()))]

    async def players(self, guild_id: int, day: date) -> int:
        """How many members finished a day's puzzle in a server (no scores: spoiler-free)."""
        sql = "SELECT COUNT(*) FROM daily_plays WHERE guild_id = ? AND day = ? AND finished_at IS NOT NULL"
        return (await self.reads.table_row(sql, (guild_id, day.isoformat())))[0]

    async def unfinished(self, guild_id: int, day: date) -> int:
        sql = "SELECT COUNT(*) FROM daily_plays WHERE guild_id = ? AND day = ? AND finished_at IS NULL"
        return (await self.reads.table_row(sql, (guild_id, day.isoformat())))[0]

    async def history(self, guild_id: int, user_id: int) -> list[tuple[date, int]]:
        """(day, score) of every finished play of a member in a server, oldest first."""
        sql = (
            "SELECT day, score FROM daily_plays WHERE guild_id = ? AND user_id = ? AND finished_at IS NOT NULL"
            " ORDER BY day"
        )
        return [(date.fromisoformat(row[0]), row[1]) for row in await self.reads.table_rows(sql, (guild_id, user_id))]

    async def streak_leaders(self, guild_id: int, limit: int) -> list[tuple[int, int, int]]:
        """(user id, longest streak of days played, longest of days won) of a server's ``limit``
        members with the longest streaks played (then won)."""
        sql = (
            "SELECT user_id, MAX(streak) AS played, MAX(won_streak) AS won FROM daily_plays"
            " WHERE guild_id = ? AND finished_at IS NOT NULL GROUP BY user_id"
            " ORDER BY played DESC, won DESC, user_id LIMIT ?"
        )
        return [(row[0], row[1], row[2]) for row in await self.reads.table_rows(sql, (guild_id, limit))]

    async def channel_session(self, guild_id: int) -> int | None:
        """The session that posts the server's daily boards, if any."""
        row = await self.reads.table_row("SELECT daily_session_id FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return row[0] if row else None


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
