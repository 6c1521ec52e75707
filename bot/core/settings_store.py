"""The store's settings and bookkeeping: per server (turn clock, thread archiving), per channel
(games in threads), per member (turn notices), and the bot's own key-value rows."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.sql_store import DatabaseReads, TransactionWrites

DEFAULT_ARCHIVE_MINUTES = 60  # a finished game's thread is archived this long after the end


class SettingWrites(TransactionWrites):
    """Settings changed by a command, and the bot's own key-value rows."""

    async def set_value(self, key: str, value: str) -> None:
        self.write(
            "INSERT INTO bot_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    async def set_turn_clock_seconds(self, guild_id: int | None, seconds: int) -> None:
        self.write(
            "INSERT INTO guild_settings (guild_id, turn_clock_seconds) VALUES (?, ?)"
            " ON CONFLICT(guild_id) DO UPDATE SET turn_clock_seconds = excluded.turn_clock_seconds",
            (guild_id or 0, seconds),
        )

    async def set_game_threads(self, channel_id: int, guild_id: int | None, enabled: bool) -> None:
        self.write(
            "INSERT INTO channel_settings (channel_id, guild_id, game_threads) VALUES (?, ?, ?)"
            " ON CONFLICT(channel_id) DO UPDATE SET game_threads = excluded.game_threads",
            (channel_id, guild_id, int(enabled)),
        )

    async def set_turn_notices(self, guild_id: int | None, user_id: int, enabled: bool) -> None:
        self.write(
            "INSERT INTO member_settings (guild_id, user_id, turn_notices) VALUES (?, ?, ?)"
            " ON CONFLICT(guild_id, user_id) DO UPDATE SET turn_notices = excluded.turn_notices",
            (guild_id or 0, user_id, int(enabled)),
        )

    async def set_archive_minutes(self, guild_id: int | None, minutes: int) -> None:
        self.write(
            "INSERT INTO guild_settings (guild_id, archive_minutes) VALUES (?, ?)"
            " ON CONFLICT(guild_id) DO UPDATE SET archive_minutes = excluded.archive_minutes",
            (guild_id or 0, minutes),
        )


class SettingReads(DatabaseReads):
    """Settings as the commands and the platform read them (defaults where none is set)."""

    async def get_value(self, key: str) -> str | None:
        row = await self.query_one("SELECT value FROM bot_state WHERE key = ?", (key,))
        return row[0] if row else None

    async def game_threads(self, channel_id: int) -> bool | None:
        """Whether games started in this channel get threads of their own (None: not set here)."""
        row = await self.query_one("SELECT game_threads FROM channel_settings WHERE channel_id = ?", (channel_id,))
        return bool(row[0]) if row else None

    async def turn_notices(self, guild_id: int | None, user_ids: Sequence[int]) -> dict[int, bool]:
        """Whether each member wants "your move" notices in this server (the default: yes)."""
        if not user_ids:
            return {}
        marks = ",".join("?" * len(user_ids))
        sql = f"SELECT user_id, turn_notices FROM member_settings WHERE guild_id = ? AND user_id IN ({marks})"
        chosen = {row[0]: bool(row[1]) for row in await self.query(sql, [guild_id or 0, *user_ids])}
        return {user_id: chosen.get(user_id, True) for user_id in user_ids}

    async def archive_minutes(self, guild_id: int | None) -> int:
        row = await self.query_one("SELECT archive_minutes FROM guild_settings WHERE guild_id = ?", (guild_id or 0,))
        return row[0] if row else DEFAULT_ARCHIVE_MINUTES

    async def turn_clock_seconds(self, guild_id: int | None) -> int:
        row = await self.query_one("SELECT turn_clock_seconds FROM guild_settings WHERE guild_id = ?", (guild_id or 0,))
        return row[0] if row else 0
