"""Fixtures shared by every test folder: a real PostgreSQL server for the stores' tests.

The server comes from the ``pgserver`` package (a PostgreSQL 16 build installed by pip): one
per test process, in a temporary folder, stopped at the end; every test gets a database of its
own. Nothing is mocked.
"""

from __future__ import annotations

import itertools
import os

import pytest

_databases = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory):
    import pgserver

    server = pgserver.get_server(tmp_path_factory.mktemp("pg"), cleanup_mode="stop")
    yield server
    server.cleanup()


@pytest.fixture
def postgres_url(postgres_server) -> str:
    """The URL of a new, empty database on the test process's server."""
    name = f"test_{os.getpid()}_{next(_databases)}"
    postgres_server.psql(f"CREATE DATABASE {name};")
    return postgres_server.get_uri(name)
