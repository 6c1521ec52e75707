"""Settings from the environment or a ``.env`` file (``.env.example`` lists every one)."""

from __future__ import annotations

import dataclasses
import os
import re
from dataclasses import dataclass

from dotenv import load_dotenv

from bot.core.store import ShardScope
from bot.core.workers import CORES, PICTURE_QUEUE_LIMIT, REPLAY_QUEUE_LIMIT, THINKING_QUEUE_LIMIT


@dataclass(frozen=True)
class Settings:
    token: str | None = None
    database_path: str = "octagon.db"  # SQLite, the default
    database_url: str | None = None  # postgresql://... : PostgreSQL instead, shared by several processes
    # PostgreSQL connections per process. A task holds one only across its consecutive statements
    # (a change's reads and its transaction share one), so at the rated load (100 moves/s, ~1,000
    # sessions: about 6 stretches a move) a few are in use at once and bursts reach 15-20; 20 covers
    # them, and four processes stay under PostgreSQL's default max_connections (100).
    database_pool_size: int = 20
    shard_count: int | None = None  # sharded: Discord shards in all, over every process
    shard_ids: tuple[int, ...] | None = None  # sharded: the shards this process runs (default all)
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    render_workers: int = CORES  # processes drawing pictures
    thinking_workers: int = CORES  # processes where computer players think
    # Pictures waiting or drawing before a player starting a move is told "busy" (about 0.5 s on 2 cores).
    picture_queue_limit: int = PICTURE_QUEUE_LIMIT
    # Computer moves waiting or thinking before a player starting a move is told "busy".
    thinking_queue_limit: int = THINKING_QUEUE_LIMIT
    # Replays waiting or drawing (in their own worker) before a member asking for one is told "busy".
    replay_queue_limit: int = REPLAY_QUEUE_LIMIT
    # Fair use (bot/features/fair_use.py): what one member may ask for in any minute in a server,
    # and replays being drawn at once for one server (a member has one at a time).
    replays_per_minute: int = 3
    records_per_minute: int = 6
    history_per_minute: int = 6
    challenges_per_minute: int = 6
    replays_per_server: int = 2
    # Days a server's data is kept after the bot is removed from it (deleted then, unless it is added back).
    removed_server_days: int = 30
    # Each game in a thread of its own where a channel allows it (GAME_THREADS=off: every game in
    # its channel, one at a time, unless `/settings game_threads` turns threads on for a channel).
    game_threads: bool = True
    # /healthz and /metrics (Prometheus) on this port (None: off; 0: any free port, for tests),
    # served on METRICS_HOST, the loopback interface unless told otherwise.
    metrics_port: int | None = None
    metrics_host: str = "127.0.0.1"

    @classmethod
    def from_environment(cls) -> Settings:
        load_dotenv()
        guild = os.environ.get("DEV_GUILD_ID", "").strip()
        metrics_port = os.environ.get("METRICS_PORT", "").strip()
        return cls(
            token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
            database_path=os.environ.get("DATABASE_PATH", cls.database_path),
            dev_guild_id=int(guild) if guild else None,
            log_level=os.environ.get("LOG_LEVEL", cls.log_level).upper(),
            database_url=os.environ.get("DATABASE_URL", "").strip() or None,
            game_threads=os.environ.get("GAME_THREADS", "on").strip().lower() not in ("off", "0", "false", "no"),
            metrics_port=int(metrics_port) if metrics_port else None,
            metrics_host=os.environ.get("METRICS_HOST", "").strip() or cls.metrics_host,
            **_shards(os.environ.get("SHARD_COUNT", ""), os.environ.get("SHARD_IDS", "")),
            **{name: _count(name, getattr(cls, name)) for name in _COUNTS},
        )

    def __post_init__(self) -> None:
        if self.shard_ids is not None and self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT (the number of shards over every process)")
        if self.shard_count is not None and not all(0 <= shard < self.shard_count for shard in self.shard_ids or ()):
            raise ValueError(f"SHARD_IDS must be between 0 and SHARD_COUNT - 1 ({self.shard_count - 1})")

    @property
    def database(self) -> str:
        """Where the store lives: DATABASE_URL if set, else the SQLite file."""
        return self.database_url or self.database_path

    @property
    def shards(self) -> ShardScope | None:
        """The guilds this process owns, when sharded (None: every guild)."""
        if self.shard_count is None:
            return None
        return ShardScope(self.shard_count, self.shard_ids or tuple(range(self.shard_count)))

    def __repr__(self) -> str:  # never print the token or the database password
        shown = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "token"}
        if self.database_url:
            shown["database_url"] = re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", self.database_url)
        listed = ", ".join(f"{name}={value!r}" for name, value in shown.items())
        return f"Settings(token={'set' if self.token else 'unset'}, {listed})"


_COUNTS = (
    "render_workers",
    "thinking_workers",
    "picture_queue_limit",
    "thinking_queue_limit",
    "replay_queue_limit",
    "database_pool_size",
    "replays_per_minute",
    "records_per_minute",
    "history_per_minute",
    "challenges_per_minute",
    "replays_per_server",
    "removed_server_days",
)


def _shards(count: str, ids: str) -> dict[str, object]:
    """SHARD_COUNT=8 and SHARD_IDS=0-3 (or 0,2,4 or 0-1,6): this process runs shards 0 to 3 of 8."""
    found: dict[str, object] = {}
    if count.strip():
        found["shard_count"] = int(count)
    if ids.strip():
        chosen: list[int] = []
        for part in ids.replace(" ", "").split(","):
            first, _, last = part.partition("-")
            chosen += range(int(first), int(last or first) + 1)
        found["shard_ids"] = tuple(sorted(set(chosen)))
    return found


def _count(name: str, default: int) -> int:
    """A positive whole number from the environment variable of the same name in capitals."""
    return max(1, int(os.environ.get(name.upper(), "").strip() or default))
