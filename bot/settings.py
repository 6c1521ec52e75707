"""Settings from the environment or a ``.env`` file (``.env.example`` lists every one)."""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass

from dotenv import load_dotenv

from bot.workers import CORES, PICTURE_QUEUE_LIMIT, THINKING_QUEUE_LIMIT


@dataclass(frozen=True)
class Settings:
    token: str | None = None
    database_path: str = "octagon.db"
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    render_workers: int = CORES  # processes drawing pictures
    thinking_workers: int = CORES  # processes where computer players think
    # Pictures waiting or drawing before a player starting a move is told "busy" (about 0.5 s on 2 cores).
    picture_queue_limit: int = PICTURE_QUEUE_LIMIT
    # Computer moves waiting or thinking before a player starting a move is told "busy".
    thinking_queue_limit: int = THINKING_QUEUE_LIMIT

    @classmethod
    def from_environment(cls) -> Settings:
        load_dotenv()
        guild = os.environ.get("DEV_GUILD_ID", "").strip()
        return cls(
            token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
            database_path=os.environ.get("DATABASE_PATH", cls.database_path),
            dev_guild_id=int(guild) if guild else None,
            log_level=os.environ.get("LOG_LEVEL", cls.log_level).upper(),
            **{name: _count(name, getattr(cls, name)) for name in _COUNTS},
        )

    def __repr__(self) -> str:  # never print the token
        shown = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "token"}
        listed = ", ".join(f"{name}={value!r}" for name, value in shown.items())
        return f"Settings(token={'set' if self.token else 'unset'}, {listed})"


_COUNTS = ("render_workers", "thinking_workers", "picture_queue_limit", "thinking_queue_limit")


def _count(name: str, default: int) -> int:
    """A positive whole number from the environment variable of the same name in capitals."""
    return max(1, int(os.environ.get(name.upper(), "").strip() or default))
