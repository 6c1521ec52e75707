"""Each migration is written once, in PostgreSQL's types; SQLite gets its own names for them.
The schema both make is checked by the store's tests, which run on both databases."""

from __future__ import annotations

import re
import sqlite3

import pytest

from bot.core import migrations


def test_sqlite_gets_its_rowid_key_and_its_own_type_names():
    script = """
    CREATE TABLE things (
        id BIGSERIAL PRIMARY KEY,
        owner_id BIGINT NOT NULL,
        weight DOUBLE PRECISION,
        count INTEGER
    );
    CREATE INDEX things_by_owner ON things(owner_id) INCLUDE (weight, count);
    """
    sqlite = migrations.in_dialect(script, "sqlite")
    assert "id INTEGER PRIMARY KEY AUTOINCREMENT" in sqlite
    assert "owner_id INTEGER NOT NULL" in sqlite
    assert "weight REAL" in sqlite
    assert "ON things(owner_id, weight, count);" in sqlite
    assert not re.search(r"BIGINT|BIGSERIAL|DOUBLE|INCLUDE", sqlite)
    assert migrations.in_dialect(script, "postgresql") == script


def test_an_unknown_dialect_is_refused():
    with pytest.raises(ValueError, match="mysql"):
        migrations.in_dialect("SELECT 1", "mysql")


def test_every_migration_runs_on_sqlite_as_translated():
    """The core's and every feature's, in order, on an empty database: the translation leaves no
    PostgreSQL-only SQL behind (PostgreSQL runs the text as written, in the store's tests)."""
    connection = sqlite3.connect(":memory:")
    for script in migrations.core("sqlite"):
        connection.executescript(script)
    for feature in migrations.features():
        for script in feature.scripts("sqlite")[feature.made_by_core :]:
            connection.executescript(script)
    keys = connection.execute("SELECT sql FROM sqlite_master WHERE name = 'sessions'").fetchone()[0]
    assert "id INTEGER PRIMARY KEY AUTOINCREMENT" in keys  # the rowid: ids as SQLite hands them out


def test_a_feature_has_one_text_per_migration():
    for feature in migrations.features():
        assert len(feature.scripts("sqlite")) == len(feature.scripts("postgresql")) == len(feature.migrations)
