"""Tournaments' SQL: the pairings' games (``tournament_games``) and a server's events, which are
sessions of their own (``game = 'tournament'``)."""

from __future__ import annotations

from bot.core.sessions import GameSession, Sessions
from bot.core.store import LIVE_SQL, Store, Transaction

KIT = "tournament"  # a tournament's sessions are stored under this game name (engines.registry.KITS)


async def games_of_round(store: Store, tournament_id: int, round_number: int) -> dict[int, int]:
    """The round's games opened so far: table -> game session id."""
    rows = await store.query(
        "SELECT table_no, session_id FROM tournament_games WHERE tournament_id = ? AND round = ?",
        (tournament_id, round_number),
    )
    return {row[0]: row[1] for row in rows}


async def games_of(store: Store, tournament_id: int) -> dict[tuple[int, int], tuple[int, int | None]]:
    """Every game of a tournament: (round, table) -> (session id, its thread id)."""
    rows = await store.query(
        "SELECT g.round, g.table_no, g.session_id, s.thread_id FROM tournament_games g"
        " JOIN sessions s ON s.id = g.session_id WHERE g.tournament_id = ?",
        (tournament_id,),
    )
    return {(row[0], row[1]): (row[2], row[3]) for row in rows}


def link_game(tx: Transaction, tournament_id: int, round_number: int, table: int, session_id: int, event: str) -> None:
    """In the transaction that opens the game: which pairing it plays (the key refuses a second)."""
    tx.write(
        "INSERT INTO tournament_games (tournament_id, round, table_no, session_id, event) VALUES (?,?,?,?,?)",
        (tournament_id, round_number, table, session_id, event),
    )


async def live_in_channel(store: Store, sessions: Sessions, channel_id: int) -> list[GameSession]:
    """The channel's tournaments still open or running, oldest first."""
    rows = await store.query(
        f"SELECT id FROM sessions WHERE channel_id = ? AND game = ? AND {LIVE_SQL} ORDER BY id", (channel_id, KIT)
    )
    return [await sessions.load(row[0]) for row in rows]


async def latest_in_channel(store: Store, sessions: Sessions, channel_id: int) -> GameSession | None:
    row = await store.query_one(
        "SELECT id FROM sessions WHERE channel_id = ? AND game = ? ORDER BY id DESC LIMIT 1", (channel_id, KIT)
    )
    return await sessions.load(row[0]) if row else None


async def past_in_guild(store: Store, sessions: Sessions, guild_id: int, limit: int) -> list[GameSession]:
    """A server's finished tournaments, newest first."""
    rows = await store.query(
        "SELECT id FROM sessions WHERE guild_id = ? AND game = ? AND status = 'finished' ORDER BY id DESC LIMIT ?",
        (guild_id, KIT, limit),
    )
    return [await sessions.load(row[0]) for row in rows]


async def events_of_member(store: Store, guild_id: int, user_id: int, limit: int) -> list[str]:
    """The names of the latest events a member played a game in, newest first."""
    rows = await store.query(
        "SELECT g.event, MAX(r.id) AS latest FROM result_players p JOIN results r ON r.id = p.result_id"
        " JOIN tournament_games g ON g.session_id = r.session_id WHERE p.user_id = ? AND p.guild_id = ?"
        " GROUP BY g.tournament_id, g.event ORDER BY latest DESC LIMIT ?",
        (user_id, guild_id, limit),
    )
    return [row[0] for row in rows]
