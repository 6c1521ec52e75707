"""The rows the store reads and writes, as the rest of the bot sees them: a session, a timer, an
outbox entry, a logged move, what waits (for the metrics), and which servers a process owns."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.core.sql_store import parse_iso


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
class Backlog:
    """What waits in the store, for the operator's metrics: outbox entries (and the oldest one's
    time), timers already due, live sessions per game."""

    outbox: int
    oldest_outbox: datetime | None
    timers_due: int
    live: dict[str, int]


@dataclass(frozen=True)
class OutboxEntry:
    id: int
    session_id: int
    kind: str
    payload: dict[str, Any]
    attempts: int
    next_attempt_at: datetime
    created_at: datetime | None = None


def timer_row(row: Any) -> TimerRecord:
    return TimerRecord(
        row["id"], row["session_id"], row["kind"], parse_iso(row["deadline"]), json.loads(row["payload"])
    )


@dataclass(frozen=True)
class LoggedMove:
    """One row of a session's action log."""

    seat: int | None
    player_id: int | None
    action: dict[str, Any]


def session_row(row: Any) -> SessionRecord:
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
