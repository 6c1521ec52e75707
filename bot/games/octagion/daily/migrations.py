"""Octagion Daily's tables, numbered on their own (see :class:`bot.core.migrations.FeatureMigrations`).

1: one row per member and day (the play's session carries its countdown timer): the last answer
saved, the score and the streaks as of that day, so a day's board and a server's longest streaks
are read from this table alone. A server's daily channel is the session that posts there. The
core's migration 6 made these before the daily had migrations of its own.
"""

from __future__ import annotations

from bot.core.migrations import FeatureMigrations

_MIGRATIONS = (
    """
    CREATE TABLE daily_plays (
        guild_id BIGINT NOT NULL,
        day TEXT NOT NULL,
        user_id BIGINT NOT NULL,
        session_id BIGINT REFERENCES sessions(id) ON DELETE SET NULL,
        name TEXT NOT NULL,
        started_at TEXT NOT NULL,
        deadline TEXT NOT NULL,
        cells TEXT,
        answers INTEGER NOT NULL DEFAULT 0,
        finished_at TEXT,
        score INTEGER,
        penalties INTEGER,
        bonus INTEGER,
        streak INTEGER,
        won_streak INTEGER,
        PRIMARY KEY (guild_id, day, user_id)
    );
    CREATE INDEX daily_plays_by_member ON daily_plays(guild_id, user_id, day);
    ALTER TABLE guild_settings ADD COLUMN daily_session_id BIGINT;
    """,
)

MIGRATIONS = FeatureMigrations(
    feature="octagion_daily",
    tables=("daily_plays",),
    migrations=_MIGRATIONS,
    made_by_core=1,  # the core's migration 6
)
