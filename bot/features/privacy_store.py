"""Privacy's SQL, the same on SQLite and PostgreSQL: a member's data forgotten (`/privacy delete`)
and a server's data deleted once the bot has been gone from it long enough.

Forgetting a member keeps every finished game replayable: a replay and a record are rebuilt from
a session's seed, options and action log, so the seats and the actions stay, and only who sat
there changes: their id becomes a *former member's* id (one new negative number per deletion,
never a Discord id) and their name "a former member", in sessions, the action log, results,
the players' rows and ratings. Their own preferences and Octagion Daily plays (streaks) go.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.core.store import LIVE_STATUSES, Store, Transaction, iso, parse_iso

FORMER_MEMBER = "a former member"
DEPARTURE_KEY = "guild_departure:"  # bot_state: a server the bot was removed from, and when its data goes
# A session's text that may name a player: the latest line, a stopped game's header, why it closed.
TEXT_FIELDS = ("headline", "final_header", "ended_note")


@dataclass
class MemberSession:
    """A session that names a member: as a player, its host or an invitee."""

    id: int
    game: str
    status: str
    host_id: int
    players: list[int]
    meta: dict[str, Any]

    @property
    def live(self) -> bool:
        return self.status in LIVE_STATUSES


def mention(user_id: int) -> str:
    """A member as a mention, or "a former member" for one who was forgotten."""
    return FORMER_MEMBER if user_id < 0 else f"<@{user_id}>"


# ---------------------------------------------------------------------------- a member


async def member_sessions(store: Store, user_id: int, *, live: bool | None = None) -> list[MemberSession]:
    """Every session that names ``user_id`` (``live``: only those still running, or only the others).
    Rare, so a scan of the players' text, each row checked exactly after."""
    sql = "SELECT id, game, status, host_id, players, meta FROM sessions WHERE (host_id = ? OR players LIKE ?)"
    if live is not None:
        sql += f" AND status {'IN' if live else 'NOT IN'} ({', '.join(repr(s) for s in LIVE_STATUSES)})"
    rows = await store.query(sql + " ORDER BY id", (user_id, f"%{user_id}%"))
    found = [_member_session(row) for row in rows]
    return [s for s in found if user_id in (s.host_id, *s.players, *s.meta.get("pending", []))]


def _member_session(row: Any) -> MemberSession:
    meta = json.loads(row["meta"]) if row["meta"] else {}
    return MemberSession(row["id"], row["game"], row["status"], row["host_id"], json.loads(row["players"]), meta)


async def forget_member_records(tx: Transaction, user_id: int, former_id: int) -> None:
    """The member's id replaced in results, the players' rows and ratings; their preferences and
    daily plays deleted (their sessions are each forgotten in a change of their own)."""
    await _forget_in_results(tx, user_id, former_id)
    tx.write("UPDATE ratings SET user_id = ? WHERE user_id = ?", (former_id, user_id))
    tx.write("DELETE FROM member_settings WHERE user_id = ?", (user_id,))
    tx.write("DELETE FROM daily_plays WHERE user_id = ?", (user_id,))
    tx.write("DELETE FROM learn_progress WHERE user_id = ?", (user_id,))  # the lessons they finished (/learn)
    tx.write("DELETE FROM learn_offers WHERE user_id = ?", (user_id,))  # where /learn was offered to them
    for table in ("puzzle_ratings", "puzzle_attempts", "puzzle_daily"):  # their puzzles (/puzzle)
        tx.write(f"DELETE FROM {table} WHERE user_id = ?", (user_id,))


async def forget_in_log(
    tx: Transaction, session_id: int, user_id: int, former_id: int, seats: list[int] | None
) -> None:
    """In one session: each logged action's seat kept (``seats``, in order, for rows logged before
    seats were: once the member's id is gone, their seat could no longer be worked out), then the
    member's id replaced in its action log and as its host."""
    if seats is not None:
        rows = await tx.query("SELECT seq FROM actions WHERE session_id = ? ORDER BY seq", (session_id,))
        tx.write(
            "UPDATE actions SET seat = ? WHERE session_id = ? AND seq = ? AND seat IS NULL",
            [(seat, session_id, row["seq"]) for row, seat in zip(rows, seats, strict=True)],
            many=True,
        )
    swap = (former_id, session_id, user_id)
    tx.write("UPDATE actions SET player_id = ? WHERE session_id = ? AND player_id = ?", swap)
    tx.write("UPDATE sessions SET host_id = ? WHERE id = ? AND host_id = ?", swap)


async def forget_in_stored_session(tx: Transaction, session: MemberSession, user_id: int, former_id: int) -> None:
    """A session of a game this bot no longer hosts (no change can load it): its row rewritten."""
    players = _swap(session.players, user_id, former_id)
    meta = forget_in_meta(session.meta, session.players, user_id, former_id)
    row = (json.dumps(players), json.dumps(meta), session.id)
    tx.write("UPDATE sessions SET players = ?, meta = ? WHERE id = ?", row)
    await forget_in_log(tx, session.id, user_id, former_id, None)


def forget_in_meta(meta: dict[str, Any], players: list[int], user_id: int, former_id: int) -> dict[str, Any]:
    """A session's details with the member's name (at their seats) and id replaced."""
    meta = dict(meta)
    names = list(meta.get("names", []))
    old_names = {names[seat] for seat, player in enumerate(players) if player == user_id and seat < len(names)}
    meta["names"] = [FORMER_MEMBER if name in old_names else name for name in names]
    meta["seats"] = _swap(meta.get("seats", []), user_id, former_id)
    meta["pending"] = [member for member in meta.get("pending", []) if member != user_id]
    if meta.get("stopped_by") == user_id:
        meta["stopped_by"] = former_id
    teams = meta.get("player_teams") or {}
    meta["player_teams"] = {str(former_id) if key == str(user_id) else key: team for key, team in teams.items()}
    for field in TEXT_FIELDS:
        if meta.get(field):
            meta[field] = _forget_in_text(meta[field], user_id, old_names)
    return meta


def _forget_in_text(text: str, user_id: int, names: set[str]) -> str:
    text = re.sub(rf"<@!?{user_id}>", FORMER_MEMBER, text)
    for name in sorted(names, key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", FORMER_MEMBER, text)
    return text


async def _forget_in_results(tx: Transaction, user_id: int, former_id: int) -> None:
    rows = await tx.query(
        "SELECT r.id, r.players, r.winners FROM results r JOIN result_players p ON p.result_id = r.id"
        " WHERE p.user_id = ?",
        (user_id,),
    )
    for row in rows:
        players, winners = json.loads(row["players"]), json.loads(row["winners"])
        tx.write(
            "UPDATE results SET players = ?, winners = ? WHERE id = ?",
            (json.dumps(_swap(players, user_id, former_id)), json.dumps(_swap(winners, user_id, former_id)), row["id"]),
        )
    tx.write("UPDATE result_players SET user_id = ? WHERE user_id = ?", (former_id, user_id))


def _swap(ids: list[int], user_id: int, former_id: int) -> list[int]:
    return [former_id if member == user_id else member for member in ids]


# ---------------------------------------------------------------------------- a server

# A server's rows, children first (each statement's one parameter: the server's id).
SERVER_ROWS = (
    "DELETE FROM actions WHERE session_id IN (SELECT id FROM sessions WHERE guild_id = ?)",
    "DELETE FROM timers WHERE session_id IN (SELECT id FROM sessions WHERE guild_id = ?)",
    "DELETE FROM outbox WHERE session_id IN (SELECT id FROM sessions WHERE guild_id = ?)",
    "DELETE FROM daily_plays WHERE guild_id = ?",
    "DELETE FROM result_players WHERE result_id IN (SELECT id FROM results WHERE guild_id = ?)",
    "DELETE FROM results WHERE guild_id = ?",
    "DELETE FROM ratings WHERE guild_id = ?",
    "DELETE FROM sessions WHERE guild_id = ?",
    "DELETE FROM member_settings WHERE guild_id = ?",
    "DELETE FROM channel_settings WHERE guild_id = ?",
    "DELETE FROM guild_settings WHERE guild_id = ?",
)


# Every table that names servers: a server the bot keeps anything of is in one of them.
SERVER_TABLES = (
    "sessions",
    "results",
    "ratings",
    "daily_plays",
    "member_settings",
    "channel_settings",
    "guild_settings",
)


async def stored_servers(store: Store) -> set[int]:
    """Every server the bot keeps something of."""
    sql = " UNION ".join(f"SELECT DISTINCT guild_id FROM {table} WHERE guild_id IS NOT NULL" for table in SERVER_TABLES)
    return {int(row[0]) for row in await store.query(sql)}


def plan_server_deletion(tx: Transaction, guild_id: int, after: datetime) -> None:
    """The bot was removed from a server: its data goes at ``after`` unless it comes back."""
    tx.write(
        "INSERT INTO bot_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (f"{DEPARTURE_KEY}{guild_id}", iso(after)),
    )


def cancel_server_deletion(tx: Transaction, guild_id: int) -> None:
    tx.write("DELETE FROM bot_state WHERE key = ?", (f"{DEPARTURE_KEY}{guild_id}",))


async def planned_server_deletions(store: Store) -> dict[int, datetime]:
    """Each server the bot left, and when its data goes."""
    rows = await store.query("SELECT key, value FROM bot_state WHERE key LIKE ?", (f"{DEPARTURE_KEY}%",))
    return {int(row["key"].removeprefix(DEPARTURE_KEY)): parse_iso(row["value"]) for row in rows}


def delete_server(tx: Transaction, guild_id: int) -> None:
    """Everything the bot keeps of a server (its planned deletion too)."""
    for sql in SERVER_ROWS:
        tx.write(sql, (guild_id,))
    cancel_server_deletion(tx, guild_id)
