"""The lessons' own table, numbered on its own (see :class:`bot.core.migrations.FeatureMigrations`).

1: the lessons each member has finished, by game and lesson key (a member's progress is theirs
in every server: a lesson is private practice, never a server's game).
2: the game in which a member who had never played a game was offered its lessons ("New to
Octego? /learn it in 5 minutes"), so the offer is made in one game only.
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

_OFFERS = """
    CREATE TABLE learn_offers (
        user_id BIGINT NOT NULL,
        game TEXT NOT NULL,
        session_id BIGINT NOT NULL,
        PRIMARY KEY (user_id, game)
    );
    """

MIGRATIONS = FeatureMigrations(feature="learn", tables=("learn_progress", "learn_offers"), migrations=(_TABLE, _OFFERS))
