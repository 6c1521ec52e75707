"""Fixtures shared by every test folder: a real PostgreSQL server for the stores' tests.

The server comes from the ``pgserver`` package (a PostgreSQL 16 build installed by pip): one
per test process, stopped and deleted at the end; every test gets a database of its own. Nothing
is mocked.

Its folder is its own (``tempfile.mkdtemp``), not under pytest's shared temporary root: that root
keeps only the last three runs, so another pytest run on the same machine deleted a running
server's folder. The server listens on a Unix socket inside its folder (no TCP port), so any
number of test processes, and of copies of the suite, run side by side.
"""

from __future__ import annotations

import itertools
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from bot.dev import discord_rules

# Every SimCord world in the tests plays by Discord's rules where SimCord is lenient (nonces,
# archived threads, the global rate limit, token lifetimes, invalid requests).
discord_rules.use_discord_rules()

_databases = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_server():
    import pgserver

    folder = Path(tempfile.mkdtemp(prefix="octagon-tests-pg-"))
    try:
        server = pgserver.get_server(folder, cleanup_mode="delete")
        yield server
        server.cleanup()
    finally:
        shutil.rmtree(folder, ignore_errors=True)  # also when the server failed to start


@pytest.fixture
def postgres_url(postgres_server) -> str:
    """The URL of a new, empty database on the test process's server."""
    name = f"test_{os.getpid()}_{next(_databases)}"
    postgres_server.psql(f"CREATE DATABASE {name};")
    return postgres_server.get_uri(name)


@pytest.fixture(autouse=True)
def discord_rules_checked(request):
    """Each SimCord world of the test under Discord's rules (a ``discord_rules`` marker turns one
    off), and a bot that broke one (a nonce shared by two posts, too many invalid requests) fails."""
    marker = request.node.get_closest_marker("discord_rules")
    previous = discord_rules.set_defaults(**(marker.kwargs if marker else {}))
    discord_rules.made.clear()
    yield
    discord_rules.restore_defaults(previous)
    seen, discord_rules.made[:] = list(discord_rules.made), []
    for rules in seen:
        rules.check()
