"""Settings from the environment or a ``.env`` file (``.env.example`` lists every one, README's
settings table explains each; a test keeps both in step with this class).

Each field names the environment variable it is read from and what that variable allows. An
empty variable means the default; anything else that is not allowed is refused at start with
one sentence naming the variable and what it allows (:class:`SettingError`), never a traceback.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dotenv import load_dotenv

from bot.core.store import ShardScope
from bot.core.workers import CORES, PICTURE_QUEUE_LIMIT, REPLAY_QUEUE_LIMIT, THINKING_QUEUE_LIMIT

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOG_FORMATS = ("text", "json")
SWITCH = {"on": True, "true": True, "yes": True, "1": True, "off": False, "false": False, "no": False, "0": False}
POSTGRES_PREFIXES = ("postgresql://", "postgres://")


class SettingError(ValueError):
    """A setting that is not allowed: its message is one sentence naming it and what it allows."""


@dataclass(frozen=True)
class Reader:
    """How one environment variable becomes a value: ``parse`` raises ValueError for what is not
    ``allowed`` (words that finish "VARIABLE must be ..."); ``secret``: never repeat the value."""

    allowed: str
    parse: Callable[[str], Any]
    secret: bool = False


def _whole(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        number = int(text)  # ValueError for "abc", "1.5"
        if number < minimum or (maximum is not None and number > maximum):
            raise ValueError(text)
        return number

    return parse


def _choice(choices: tuple[str, ...], fold: Callable[[str], str]) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if fold(text) not in choices:
            raise ValueError(text)
        return fold(text)

    return parse


def _switch(text: str) -> bool:
    return SWITCH[text.lower()] if text.lower() in SWITCH else _refuse(text)


def _postgres_url(text: str) -> str:
    return text if text.startswith(POSTGRES_PREFIXES) else _refuse(text)


def _shard_ids(text: str) -> tuple[int, ...]:
    """``0-3``, ``0,2,4`` or ``0-1,6``: the shards, sorted, each once."""
    chosen: list[int] = []
    for part in text.replace(" ", "").split(","):
        first, _, last = part.partition("-")
        start, end = _whole(0)(first), _whole(0)(last or first)
        if end < start:
            raise ValueError(part)
        chosen += range(start, end + 1)
    return tuple(sorted(set(chosen)))


def _https_url(text: str) -> str:
    """An address members' clients reach: https, a host, no trailing slash."""
    if not re.fullmatch(r"https://[^\s/?#]+(/[^\s?#]*)?", text):
        raise ValueError(text)
    return text.rstrip("/")


def _refuse(text: str) -> Any:
    raise ValueError(text)


TEXT = Reader("text", str)
COUNT = Reader("a whole number of 1 or more", _whole(1))
SNOWFLAKE = Reader("an id of digits (Developer Mode, then right-click, Copy ID)", _whole(1))
PORT = Reader("a port number from 0 to 65535 (0: any free port)", _whole(0, 65535))
SWITCH_READER = Reader("on or off", _switch)
LEVEL = Reader(f"one of {', '.join(LOG_LEVELS)}", _choice(LOG_LEVELS, str.upper))
FORMAT = Reader(f"one of {', '.join(LOG_FORMATS)}", _choice(LOG_FORMATS, str.lower))
POSTGRES = Reader("a PostgreSQL URL, postgresql://user:password@host/database", _postgres_url, secret=True)
HTTPS_URL = Reader("an https:// address, such as https://octagon.example.org", _https_url)
SHARD_IDS = Reader("shard numbers such as 0-3, 0,2,4 or 0-1,6", _shard_ids)


def setting(default: Any, variable: str, reader: Reader) -> Any:
    """A field read from the environment variable ``variable`` by ``reader``."""
    return field(default=default, metadata={"variable": variable, "reader": reader})


@dataclass(frozen=True)
class Settings:
    token: str | None = setting(None, "DISCORD_TOKEN", Reader("the bot's token", str, secret=True))
    client_id: int | None = setting(None, "DISCORD_CLIENT_ID", SNOWFLAKE)  # python -m bot invite
    database_path: str = setting("octagon.db", "DATABASE_PATH", TEXT)  # SQLite, the default
    # postgresql://... : PostgreSQL instead, shared by several processes
    database_url: str | None = setting(None, "DATABASE_URL", POSTGRES)
    # PostgreSQL connections per process. A task holds one only across its consecutive statements
    # (a change's reads and its transaction share one), so at the rated load (100 moves/s, ~1,000
    # sessions: about 6 stretches a move) a few are in use at once and bursts reach 15-20; 20 covers
    # them, and four processes stay under PostgreSQL's default max_connections (100).
    database_pool_size: int = setting(20, "DATABASE_POOL_SIZE", COUNT)
    shard_count: int | None = setting(None, "SHARD_COUNT", COUNT)  # sharded: Discord shards in all
    shard_ids: tuple[int, ...] | None = setting(None, "SHARD_IDS", SHARD_IDS)  # the shards this process runs
    dev_guild_id: int | None = setting(None, "DEV_GUILD_ID", SNOWFLAKE)
    log_level: str = setting("INFO", "LOG_LEVEL", LEVEL)
    log_format: str = setting("text", "LOG_FORMAT", FORMAT)
    render_workers: int = setting(CORES, "RENDER_WORKERS", COUNT)  # processes drawing pictures
    thinking_workers: int = setting(CORES, "THINKING_WORKERS", COUNT)  # processes where computer players think
    # Pictures waiting or drawing before a player starting a move is told "busy" (about 0.5 s on 2 cores).
    picture_queue_limit: int = setting(PICTURE_QUEUE_LIMIT, "PICTURE_QUEUE_LIMIT", COUNT)
    # Computer moves waiting or thinking before a player starting a move is told "busy".
    thinking_queue_limit: int = setting(THINKING_QUEUE_LIMIT, "THINKING_QUEUE_LIMIT", COUNT)
    # Replays waiting or drawing (in their own worker) before a member asking for one is told "busy".
    replay_queue_limit: int = setting(REPLAY_QUEUE_LIMIT, "REPLAY_QUEUE_LIMIT", COUNT)
    # Fair use (bot/features/fair_use.py): what one member may ask for in any minute in a server,
    # and replays being drawn at once for one server (a member has one at a time).
    replays_per_minute: int = setting(3, "REPLAYS_PER_MINUTE", COUNT)
    records_per_minute: int = setting(6, "RECORDS_PER_MINUTE", COUNT)
    history_per_minute: int = setting(6, "HISTORY_PER_MINUTE", COUNT)
    challenges_per_minute: int = setting(6, "CHALLENGES_PER_MINUTE", COUNT)
    replays_per_server: int = setting(2, "REPLAYS_PER_SERVER", COUNT)
    # Days a server's data is kept after the bot is removed from it (deleted then, unless it is added back).
    removed_server_days: int = setting(30, "REMOVED_SERVER_DAYS", COUNT)
    # Each game in a thread of its own where a channel allows it (GAME_THREADS=off: every game in
    # its channel, one at a time, unless `/settings game_threads` turns threads on for a channel).
    game_threads: bool = setting(True, "GAME_THREADS", SWITCH_READER)
    # /healthz and /metrics (Prometheus) on this port (None: off; 0: any free port, for tests),
    # served on METRICS_HOST, the loopback interface unless told otherwise.
    metrics_port: int | None = setting(None, "METRICS_PORT", PORT)
    metrics_host: str = setting("127.0.0.1", "METRICS_HOST", TEXT)
    # The Activity (bot/features/activity/): the board played in Discord's own window. Its page and
    # API on ACTIVITY_PORT (None: off) behind the operator's HTTPS proxy at ACTIVITY_URL; the client
    # secret exchanges a member's sign-in code at Discord's OAuth2 endpoint (never logged or shown).
    client_secret: str | None = setting(
        None, "DISCORD_CLIENT_SECRET", Reader("the application's client secret", str, secret=True)
    )
    activity_port: int | None = setting(None, "ACTIVITY_PORT", PORT)
    activity_url: str | None = setting(None, "ACTIVITY_URL", HTTPS_URL)

    @classmethod
    def from_environment(cls) -> Settings:
        """The settings the environment gives (after reading ``.env`` into it); SettingError
        for the first one that is not allowed."""
        load_dotenv()
        given = {}
        for name, variable, reader in variables():
            text = os.environ.get(variable, "").strip()
            if text:
                given[name] = read(variable, reader, text)
        return cls(**given)

    def __post_init__(self) -> None:
        if self.shard_ids is not None and self.shard_count is None:
            raise SettingError("SHARD_IDS needs SHARD_COUNT, the number of shards over every process.")
        if self.shard_count is not None and not all(0 <= shard < self.shard_count for shard in self.shard_ids or ()):
            raise SettingError(f"SHARD_IDS must be between 0 and SHARD_COUNT - 1 ({self.shard_count - 1}).")

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

    def __repr__(self) -> str:  # never print the token, the client secret or the database password
        hidden = ("token", "client_secret")
        shown = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name not in hidden}
        if self.database_url:
            shown["database_url"] = re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", self.database_url)
        listed = ", ".join(f"{name}={value!r}" for name, value in shown.items())
        secret = "set" if self.client_secret else "unset"
        return f"Settings(token={'set' if self.token else 'unset'}, client_secret={secret}, {listed})"


def variables() -> list[tuple[str, str, Reader]]:
    """Every setting as (field name, environment variable, reader), in the class's order."""
    return [(f.name, f.metadata["variable"], f.metadata["reader"]) for f in dataclasses.fields(Settings)]


def read(variable: str, reader: Reader, text: str) -> Any:
    """``text`` as the value of ``variable``, or SettingError saying what it allows."""
    try:
        return reader.parse(text)
    except (ValueError, KeyError):
        shown = "" if reader.secret else f", not {text!r}"
        raise SettingError(f"{variable} must be {reader.allowed}{shown}.") from None
