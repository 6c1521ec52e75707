"""Settings from the environment or a ``.env`` file (``.env.example`` lists every one)."""

from __future__ import annotations

import os
from dataclasses import dataclass

from dotenv import load_dotenv


@dataclass(frozen=True)
class Settings:
    token: str | None = None
    database_path: str = "octagon.db"
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    render_workers: int = 2

    @classmethod
    def from_environment(cls) -> Settings:
        load_dotenv()
        guild = os.environ.get("DEV_GUILD_ID", "").strip()
        return cls(
            token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
            database_path=os.environ.get("DATABASE_PATH", cls.database_path),
            dev_guild_id=int(guild) if guild else None,
            log_level=os.environ.get("LOG_LEVEL", cls.log_level).upper(),
            render_workers=max(1, int(os.environ.get("RENDER_WORKERS", cls.render_workers))),
        )

    def __repr__(self) -> str:  # never print the token
        return (
            f"Settings(token={'set' if self.token else 'unset'}, database_path={self.database_path!r}, "
            f"dev_guild_id={self.dev_guild_id}, log_level={self.log_level!r}, "
            f"render_workers={self.render_workers})"
        )
