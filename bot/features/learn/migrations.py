"""The lessons' own table, numbered on its own (see :class:`bot.core.migrations.FeatureMigrations`).

1: the lessons each member has finished, by game and lesson key (a member's progress is theirs
in every server: a lesson is private practice, never a server's game).
"""

from __future__ import annotations

from bot.core.migrations import FeatureMigrations

_TABLE = """
    CREATE TABLE learn_progress (
        user_id BIGINT NOT NULL,
        game TEXT NOT NULL,
        lesson TEXT NOT NULL,
        PRIMARY KEY (user_id, game, lesson)
    );
    """

MIGRATIONS = FeatureMigrations(feature="learn", tables=("learn_progress",), migrations=(_TABLE,))
