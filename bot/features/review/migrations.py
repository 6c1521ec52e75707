"""Reviews' own table, numbered on their own (see :class:`bot.core.migrations.FeatureMigrations`).

1: a finished game's review, one per seat, stored once computed so a second request is instant
and identical. Keyed by seat, not member: a review judges a seat's moves and names nobody, so it
holds nothing about a member to forget.
"""

from __future__ import annotations

from bot.core.migrations import FeatureMigrations

_TABLE = """
    CREATE TABLE reviews (
        session_id BIGINT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        review TEXT NOT NULL,
        PRIMARY KEY (session_id, seat)
    );
    """

MIGRATIONS = FeatureMigrations(feature="reviews", tables=("reviews",), migrations=(_TABLE,))
