"""The store's records of finished games: results (one per game), the players' rows that
/stats counts, ratings and /leaderboard, and /history."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.core.sql_store import DatabaseReads, TransactionWrites, iso, parse_iso


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
    event: str | None = None  # the tournament it was played in


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
        event=(meta.get("tournament") or {}).get("name"),
    )


class RecordWrites(TransactionWrites):
    """A finished game's result row and the ratings it changes, inside its change."""

    async def record_result(self, result: ResultRow) -> int | None:
        """The game's result row, or None if this session already has one (exactly once)."""
        rows = await self.query(
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
        # A draw lists every player among its winners (all ranked first); it is nobody's win.
        draw = len(set(result.players)) > 1 and set(result.winners) >= set(result.players)
        won = set() if draw else set(result.winners)
        self.write(
            "INSERT INTO result_players (result_id, user_id, won, guild_id, game, finished_at) VALUES (?,?,?,?,?,?)"
            " ON CONFLICT DO NOTHING",
            [
                (result_id, user, int(user in won), result.guild_id, result.game, iso(result.finished_at))
                for user in dict.fromkeys(result.players)
            ],
            many=True,
        )
        return result_id

    async def ratings(self, guild_id: int | None, game: str, user_ids: Sequence[int]) -> list[Rating]:
        sql, params = _ratings_query(guild_id, game, user_ids)  # sees this transaction's writes so far
        return [_rating(row) for row in await self.query(sql, params)]

    async def save_ratings(self, guild_id: int | None, game: str, ratings: Sequence[Rating]) -> None:
        self.write(
            "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, wins) VALUES (?,?,?,?,?,?,?)"
            " ON CONFLICT(guild_id, game, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
            " games = excluded.games, wins = excluded.wins",
            [(guild_id or 0, game, r.user_id, r.mu, r.sigma, r.games, r.wins) for r in ratings],
            many=True,
        )


class RecordReads(DatabaseReads):
    """Results, /stats, /leaderboard and /history."""

    async def history(self, guild_id: int | None, user_id: int, game: str | None, limit: int) -> list[PastGame]:
        """A member's latest finished games in a server, newest first: the first ``limit`` of the
        player's rows of ``result_players`` in one range of their history index (migration 9),
        then each game's result and session."""
        sql = (
            "SELECT r.session_id, r.game, r.players, r.winners, r.moves, r.duration_seconds, r.finished_at,"
            " s.channel_id, s.message_id, s.meta"
            " FROM result_players p JOIN results r ON r.id = p.result_id"
            " LEFT JOIN sessions s ON s.id = r.session_id"
            " WHERE p.user_id = ? AND "
        )
        # Equality, not IS NOT DISTINCT FROM, so that PostgreSQL reads the index range (a server's
        # games always have their server; a game without one is matched by IS NULL).
        sql += "p.guild_id IS NULL" if guild_id is None else "p.guild_id = ?"
        params: list[Any] = [user_id] if guild_id is None else [user_id, guild_id]
        if game is not None:
            sql += " AND p.game = ?"
            params.append(game)
        sql += " ORDER BY p.finished_at DESC, p.result_id DESC LIMIT ?"
        rows = await self.query(sql, [*params, limit])
        return [_past_game(row) for row in rows]

    async def results(self, session_id: int) -> list[ResultRow]:
        rows = await self.query("SELECT * FROM results WHERE session_id = ?", (session_id,))
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
        rows = await self.query(
            "SELECT game, COUNT(*) AS games, SUM(won) AS wins FROM result_players"
            " WHERE user_id = ? AND guild_id IS NOT DISTINCT FROM ? GROUP BY game ORDER BY game",
            (user_id, guild_id),
        )
        return {row["game"]: (row["games"], row["wins"] or 0) for row in rows}

    async def ratings(self, guild_id: int | None, game: str, user_ids: Sequence[int] | None = None) -> list[Rating]:
        sql, params = _ratings_query(guild_id, game, user_ids)
        return [_rating(row) for row in await self.query(sql, params)]

    async def leaderboard(self, guild_id: int | None, game: str, limit: int) -> list[Rating]:
        """The server's ``limit`` best ratings for ``game`` by mu - 3 sigma, read in that order
        from the index ratings_by_rank (not every rating of a big server)."""
        sql = "SELECT * FROM ratings WHERE guild_id = ? AND game = ? ORDER BY mu - 3 * sigma DESC, user_id LIMIT ?"
        return [_rating(row) for row in await self.query(sql, (guild_id or 0, game, limit))]


def _ratings_query(guild_id: int | None, game: str, user_ids: Sequence[int] | None) -> tuple[str, list[Any]]:
    query = "SELECT * FROM ratings WHERE guild_id = ? AND game = ?"
    params: list[Any] = [guild_id or 0, game]
    if user_ids is not None:
        query += f" AND user_id IN ({','.join('?' * len(user_ids))})" if user_ids else " AND FALSE"
        params += list(user_ids)
    return query, params


def _rating(row: Any) -> Rating:
    return Rating(row["user_id"], row["mu"], row["sigma"], row["games"], row["wins"])
