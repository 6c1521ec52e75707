"""The database schema as numbered migrations, each written once for both dialects.

A database records how many it has applied (SQLite: ``PRAGMA user_version``; PostgreSQL: the
``schema_version`` table). The SQL the store runs is the same for both (``?`` placeholders,
``ON CONFLICT``, ``RETURNING``, ``IS NOT DISTINCT FROM``); so are the migrations, written in
PostgreSQL's types (ids BIGINT: Discord snowflakes; serial keys BIGSERIAL; reals DOUBLE
PRECISION) and given to SQLite by :func:`in_dialect`, which renames those types and turns a
covering index's ``INCLUDE`` into key columns. Times are ISO-8601 text in UTC in both, so they
sort as text.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

# A core migration whose tables moved to a feature's own migrations: nothing to do any more.
MOVED_TO_A_FEATURE = "SELECT 1;"

CORE: tuple[str, ...] = (
    # 1: sessions, their action log, durable timers, finished-game results.
    """
    CREATE TABLE sessions (
        id BIGSERIAL PRIMARY KEY,
        game TEXT NOT NULL,
        guild_id BIGINT,
        channel_id BIGINT NOT NULL,
        host_id BIGINT NOT NULL,
        players TEXT NOT NULL,
        status TEXT NOT NULL,
        state TEXT NOT NULL,
        schema_version INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE UNIQUE INDEX one_live_session_per_channel
        ON sessions(channel_id) WHERE status IN ('challenge', 'lobby', 'active');
    CREATE TABLE actions (
        session_id BIGINT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        player_id BIGINT,
        action TEXT NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (session_id, seq)
    );
    CREATE TABLE timers (
        id BIGSERIAL PRIMARY KEY,
        session_id BIGINT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        deadline TEXT NOT NULL,
        payload TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX timers_by_deadline ON timers(deadline);
    CREATE TABLE results (
        id BIGSERIAL PRIMARY KEY,
        session_id BIGINT REFERENCES sessions(id) ON DELETE SET NULL,
        game TEXT NOT NULL,
        guild_id BIGINT,
        players TEXT NOT NULL,
        scores TEXT NOT NULL,
        winners TEXT NOT NULL,
        moves INTEGER NOT NULL,
        duration_seconds DOUBLE PRECISION NOT NULL,
        finished_at TEXT NOT NULL
    );
    CREATE INDEX results_by_game ON results(guild_id, game);
    """,
    # 2: the session's public message and bot-side details (names, options, turn clock).
    """
    ALTER TABLE sessions ADD COLUMN message_id BIGINT;
    ALTER TABLE sessions ADD COLUMN meta TEXT NOT NULL DEFAULT '{}';
    """,
    # 3: per-player ratings and per-server settings.
    """
    CREATE TABLE ratings (
        guild_id BIGINT NOT NULL,
        game TEXT NOT NULL,
        user_id BIGINT NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (guild_id, game, user_id)
    );
    CREATE TABLE guild_settings (
        guild_id BIGINT PRIMARY KEY,
        turn_clock_seconds INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE bot_state (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    CREATE TABLE result_players (
        result_id BIGINT NOT NULL REFERENCES results(id) ON DELETE CASCADE,
        user_id BIGINT NOT NULL,
        won INTEGER NOT NULL,
        PRIMARY KEY (result_id, user_id)
    );
    """,
    # 4: public messages as state (the outbox); a game has at most one result; timers by session.
    """
    CREATE TABLE outbox (
        id BIGSERIAL PRIMARY KEY,
        session_id BIGINT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL DEFAULT '{}',
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE INDEX outbox_by_session ON outbox(session_id, id);
    CREATE INDEX timers_by_session ON timers(session_id);
    CREATE UNIQUE INDEX one_result_per_session ON results(session_id) WHERE session_id IS NOT NULL;
    CREATE INDEX result_players_by_user ON result_players(user_id);
    ALTER TABLE sessions ADD COLUMN actions INTEGER NOT NULL DEFAULT 0;
    UPDATE sessions SET actions = (SELECT COALESCE(MAX(seq), 0) FROM actions WHERE actions.session_id = sessions.id);
    """,
    # 5: /stats and /leaderboard at a million results. A player's rows of result_players carry
    # their result's server and game, so /stats reads one index range (it joined every result,
    # and SQLite, which keeps no statistics, read every game of the player's server to do so);
    # a server's leaderboard is read best first. results_by_game and the user_id index go: no
    # query needs them any more.
    """
    ALTER TABLE result_players ADD COLUMN guild_id BIGINT;
    ALTER TABLE result_players ADD COLUMN game TEXT NOT NULL DEFAULT '';
    UPDATE result_players SET
        guild_id = (SELECT r.guild_id FROM results r WHERE r.id = result_players.result_id),
        game = (SELECT r.game FROM results r WHERE r.id = result_players.result_id);
    CREATE INDEX result_players_for_stats ON result_players(user_id, guild_id, game) INCLUDE (won);
    DROP INDEX result_players_by_user;
    DROP INDEX results_by_game;
    CREATE INDEX ratings_by_rank ON ratings(guild_id, game, (mu - 3 * sigma) DESC);
    """,
    # 6: Octagion Daily's tables, made here before features had migrations of their own; now its
    # own migration 1 (bot/games/octagion/daily/migrations.py), which a database that ran this
    # one has already (FeatureMigrations.made_by_core).
    MOVED_TO_A_FEATURE,
    # 7: replays and records. Each logged action keeps the seat it was played for: a timer's
    # action has no member, and several computer seats share the bot's id, so the player alone
    # does not say whose action it was. Older rows keep NULL and are seated by replaying.
    # `/replay` without a number reads a channel's latest finished game by an index.
    """
    ALTER TABLE actions ADD COLUMN seat INTEGER;
    CREATE INDEX finished_by_channel ON sessions(channel_id, game, updated_at) WHERE status = 'finished';
    """,
    # 8: games in threads. A session started in a channel that allows it is played in a thread of
    # its own (``in_thread``), opened from its card (the challenge or lobby message, ``card_id``)
    # once it starts (``thread_id``): any number of those share a channel, while a game played in
    # the channel itself still has the channel to itself. Per-channel settings (``game_threads``),
    # members' own preferences (turn notices) and when a finished game's thread is archived.
    """
    ALTER TABLE sessions ADD COLUMN in_thread INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE sessions ADD COLUMN thread_id BIGINT;
    ALTER TABLE sessions ADD COLUMN card_id BIGINT;
    DROP INDEX one_live_session_per_channel;
    CREATE UNIQUE INDEX one_live_session_per_channel
        ON sessions(channel_id) WHERE in_thread = 0 AND status IN ('challenge', 'lobby', 'active');
    CREATE INDEX live_threaded_by_channel
        ON sessions(channel_id) WHERE in_thread = 1 AND status IN ('challenge', 'lobby', 'active');
    CREATE INDEX sessions_by_thread ON sessions(thread_id) WHERE thread_id IS NOT NULL;
    CREATE TABLE channel_settings (
        channel_id BIGINT PRIMARY KEY,
        guild_id BIGINT,
        game_threads INTEGER NOT NULL DEFAULT 1
    );
    CREATE TABLE member_settings (
        guild_id BIGINT NOT NULL,
        user_id BIGINT NOT NULL,
        turn_notices INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (guild_id, user_id)
    );
    ALTER TABLE guild_settings ADD COLUMN archive_minutes INTEGER NOT NULL DEFAULT 60;
    """,
    # 9: /history reads a member's latest games from an index: each player's row of result_players
    # carries its game's finish time (filled from results), so the newest ten are one index range
    # instead of every game of the member sorted.
    """
    ALTER TABLE result_players ADD COLUMN finished_at TEXT NOT NULL DEFAULT '';
    UPDATE result_players SET
        finished_at = (SELECT r.finished_at FROM results r WHERE r.id = result_players.result_id);
    CREATE INDEX result_players_history ON result_players(user_id, guild_id, finished_at DESC, result_id DESC);
    CREATE INDEX result_players_history_by_game
        ON result_players(user_id, guild_id, game, finished_at DESC, result_id DESC);
    """,
)


DIALECTS = ("sqlite", "postgresql")
# What SQLite calls PostgreSQL's types: INTEGER for BIGINT too, since only a column named exactly
# ``INTEGER PRIMARY KEY`` is SQLite's rowid (and every integer there holds 64 bits); SQLite has no
# INCLUDE, so an included column joins the index's key, which covers the same reads.
_FOR_SQLITE = (
    (re.compile(r"\bBIGSERIAL PRIMARY KEY\b"), "INTEGER PRIMARY KEY AUTOINCREMENT"),
    (re.compile(r"\bBIGINT\b"), "INTEGER"),
    (re.compile(r"\bDOUBLE PRECISION\b"), "REAL"),
    (re.compile(r"\)\s*INCLUDE\s*\(([^)]*)\)"), r", \1)"),
)


def in_dialect(script: str, dialect: str) -> str:
    """A migration as ``dialect`` runs it."""
    if dialect not in DIALECTS:
        raise ValueError(f"unknown SQL dialect: {dialect!r}")
    if dialect == "sqlite":
        for pattern, replacement in _FOR_SQLITE:
            script = pattern.sub(replacement, script)
    return script


def core(dialect: str) -> tuple[str, ...]:
    """The core's migrations as ``dialect`` runs them."""
    return tuple(in_dialect(script, dialect) for script in CORE)


# ------------------------------------------------------------------ a feature's own migrations

# Where each database records how many of each feature's migrations it has applied (the same
# SQL for both dialects; made by the runner, like PostgreSQL's schema_version).
FEATURE_VERSIONS = "CREATE TABLE IF NOT EXISTS feature_versions (feature TEXT PRIMARY KEY, version INTEGER NOT NULL)"
_FEATURE_NAME = re.compile(r"[a-z][a-z0-9_]*")
_BOT = Path(__file__).resolve().parent.parent  # the bot package, where features keep their migrations.py


@dataclass(frozen=True)
class FeatureMigrations:
    """A feature's own numbered migrations (``migrations``, written once as :data:`CORE` is), run by
    the store when it opens a database: after the core's, feature by feature in the order of
    their names. A game with tables of its own adds a module ``migrations.py`` in its package
    exposing ``MIGRATIONS`` (one of these): no edit to the shared store.

    ``tables`` are the feature's tables, each before those whose rows refer to it (what
    ``python -m bot.db copy`` moves, after the core's). ``made_by_core`` counts its first
    migrations that one of the core's made before the feature had migrations of its own: a
    database that holds ``tables[0]`` but has no number for the feature has those already.
    """

    feature: str
    tables: tuple[str, ...]
    migrations: tuple[str, ...]
    made_by_core: int = 0

    def __post_init__(self) -> None:
        if not _FEATURE_NAME.fullmatch(self.feature):
            raise ValueError(f"a feature's name is lower case letters, digits and _: {self.feature!r}")

    def scripts(self, dialect: str) -> tuple[str, ...]:
        """Its migrations as ``dialect`` runs them."""
        return tuple(in_dialect(script, dialect) for script in self.migrations)

    def applied(self, recorded: int | None, tables: set[str]) -> int:
        """How many of its migrations a database has: the number it recorded, else those the core
        made (when the feature's first table is there), else none."""
        if recorded is not None:
            return recorded
        return self.made_by_core if self.tables and self.tables[0] in tables else 0

    def record(self, number: int) -> str:
        """The statement that records ``number`` as applied (the name is checked: no quoting needed)."""
        return (
            f"INSERT INTO feature_versions (feature, version) VALUES ('{self.feature}', {int(number)})"
            " ON CONFLICT(feature) DO UPDATE SET version = excluded.version"
        )


@cache
def features() -> tuple[FeatureMigrations, ...]:
    """Every feature's migrations, in the order they run: each ``migrations.py`` under ``bot/``
    outside the core, found by its file and imported the first time a database is migrated (the
    core imports no feature as it loads)."""
    found = []
    for path in sorted(_BOT.rglob("migrations.py")):
        if path.parent == Path(__file__).resolve().parent:
            continue
        module = ".".join(path.relative_to(_BOT.parent).with_suffix("").parts)
        found.append(importlib.import_module(module).MIGRATIONS)
    names = [feature.feature for feature in found]
    if len(set(names)) != len(names):
        raise ValueError(f"two features share a name: {sorted(names)}")
    return tuple(sorted(found, key=lambda feature: feature.feature))


def feature_tables() -> tuple[str, ...]:
    """The features' tables, feature by feature in the order their migrations run."""
    return tuple(table for feature in features() for table in feature.tables)
