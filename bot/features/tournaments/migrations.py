"""Tournaments' own table, numbered on their own (see :class:`bot.core.migrations.FeatureMigrations`).

1: which game session plays which pairing of which tournament (a tournament is a session of its
own, ``game = 'tournament'``): the key makes opening a pairing's game happen once, even when
the opening is tried again after a crash; ``event`` is the tournament's name for /history.
"""

from __future__ import annotations

from bot.core.migrations import FeatureMigrations

_TABLE = """
    CREATE TABLE tournament_games (
        tournament_id BIGINT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        table_no INTEGER NOT NULL,
        session_id BIGINT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        event TEXT NOT NULL,
        PRIMARY KEY (tournament_id, round, table_no)
    );
    CREATE UNIQUE INDEX tournament_games_by_session ON tournament_games(session_id);
    CREATE INDEX sessions_tournaments ON sessions(guild_id, game, id);
    """

MIGRATIONS = FeatureMigrations(feature="tournaments", tables=("tournament_games",), migrations=(_TABLE,))
