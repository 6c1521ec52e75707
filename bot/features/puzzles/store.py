"""The puzzles' SQL: ratings, the puzzles each member played, and the daily puzzles' plays."""

from __future__ import annotations

from datetime import date

from bot.core.store import Store
from engines.puzzles import Rating


async def rating(store: Store, user_id: int, game: str) -> tuple[Rating, int, int]:
    """A member's puzzle rating in ``game`` (a new one if none), puzzles played and solved."""
    row = await store.query_one(
        "SELECT rating, deviation, volatility, played, solved FROM puzzle_ratings WHERE user_id = ? AND game = ?",
        (user_id, game),
    )
    if row is None:
        return Rating(), 0, 0
    return Rating(row[0], row[1], row[2]), row[3], row[4]


async def ratings(store: Store, user_id: int) -> list[tuple[str, Rating, int, int]]:
    rows = await store.query(
        "SELECT game, rating, deviation, volatility, played, solved FROM puzzle_ratings"
        " WHERE user_id = ? ORDER BY game",
        (user_id,),
    )
    return [(row[0], Rating(row[1], row[2], row[3]), row[4], row[5]) for row in rows]


async def played(store: Store, user_id: int, game: str) -> set[str]:
    rows = await store.query("SELECT puzzle FROM puzzle_attempts WHERE user_id = ? AND game = ?", (user_id, game))
    return {row[0] for row in rows}


async def attempt(store: Store, user_id: int, game: str, puzzle: str, solved: bool, after: Rating) -> bool:
    """Records a rated attempt and the rating after it, in one transaction; False (nothing
    written) when the member had played this puzzle already: a puzzle moves the rating once."""
    async with store.transaction() as tx:
        rows = await tx.query(
            "SELECT 1 FROM puzzle_attempts WHERE user_id = ? AND game = ? AND puzzle = ?", (user_id, game, puzzle)
        )
        if rows:
            return False
        tx.write(
            "INSERT INTO puzzle_attempts (user_id, game, puzzle, solved) VALUES (?, ?, ?, ?)",
            (user_id, game, puzzle, solved),
        )
        tx.write(
            "INSERT INTO puzzle_ratings (user_id, game, rating, deviation, volatility, played, solved)"
            " VALUES (?, ?, ?, ?, ?, 1, ?) ON CONFLICT (user_id, game) DO UPDATE SET rating = excluded.rating,"
            " deviation = excluded.deviation, volatility = excluded.volatility,"
            " played = puzzle_ratings.played + 1, solved = puzzle_ratings.solved + excluded.solved",
            (user_id, game, after.rating, after.deviation, after.volatility, int(solved)),
        )
    return True


async def daily_play(store: Store, guild_id: int, user_id: int, game: str, day: date) -> bool | None:
    """Whether the member solved ``day``'s puzzle in this server (None: not played)."""
    row = await store.query_one(
        "SELECT solved FROM puzzle_daily WHERE guild_id = ? AND user_id = ? AND game = ? AND day = ?",
        (guild_id, user_id, game, day.isoformat()),
    )
    return None if row is None else bool(row[0])


async def daily_plays(store: Store, guild_id: int, user_id: int, game: str) -> list[tuple[date, bool]]:
    rows = await store.query(
        "SELECT day, solved FROM puzzle_daily WHERE guild_id = ? AND user_id = ? AND game = ?",
        (guild_id, user_id, game),
    )
    return [(date.fromisoformat(row[0]), bool(row[1])) for row in rows]


async def play_daily(
    store: Store, guild_id: int, user_id: int, game: str, day: date, puzzle: str, solved: bool
) -> bool:
    """Records the member's daily play of ``day``; False when they had played it already."""
    async with store.transaction() as tx:
        rows = await tx.query(
            "SELECT 1 FROM puzzle_daily WHERE guild_id = ? AND user_id = ? AND game = ? AND day = ?",
            (guild_id, user_id, game, day.isoformat()),
        )
        if rows:
            return False
        tx.write(
            "INSERT INTO puzzle_daily (guild_id, user_id, game, day, puzzle, solved) VALUES (?, ?, ?, ?, ?, ?)",
            (guild_id, user_id, game, day.isoformat(), puzzle, solved),
        )
    return True
