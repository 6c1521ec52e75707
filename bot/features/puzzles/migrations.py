"""The puzzles' own tables, numbered on their own (see :class:`bot.core.migrations.FeatureMigrations`).

1: ``puzzle_ratings``, each member's Glicko-2 puzzle rating per game (theirs in every server, like
the lessons: a puzzle is private practice); ``puzzle_attempts``, the puzzles a member has played
and whether they solved them (a puzzle moves the rating once); ``puzzle_daily``, each member's
daily puzzle of a day in a server (its streaks; a day's answer stays private until it is over).
"""

from __future__ import annotations

from bot.core.migrations import FeatureMigrations

_TABLES = """
    CREATE TABLE puzzle_ratings (
        user_id BIGINT NOT NULL,
        game TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        played INTEGER NOT NULL,
        solved INTEGER NOT NULL,
        PRIMARY KEY (user_id, game)
    );
    CREATE TABLE puzzle_attempts (
        user_id BIGINT NOT NULL,
        game TEXT NOT NULL,
        puzzle TEXT NOT NULL,
        solved BOOLEAN NOT NULL,
        PRIMARY KEY (user_id, game, puzzle)
    );
    CREATE TABLE puzzle_daily (
        guild_id BIGINT NOT NULL,
        user_id BIGINT NOT NULL,
        game TEXT NOT NULL,
        day TEXT NOT NULL,
        puzzle TEXT NOT NULL,
        solved BOOLEAN NOT NULL,
        PRIMARY KEY (guild_id, user_id, game, day)
    );
    """

MIGRATIONS = FeatureMigrations(
    feature="puzzles",
    tables=("puzzle_ratings", "puzzle_attempts", "puzzle_daily"),
    migrations=(_TABLES,),
)
