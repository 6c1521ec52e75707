"""The store under test: every test of this folder runs on SQLite and on a real PostgreSQL."""

from __future__ import annotations

import pytest

from bot.core.store import Store


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "store.db")
    return request.getfixturevalue("postgres_url")


@pytest.fixture
async def store(database_url):
    store = await Store.open(database_url, pool_size=4)
    yield store
    await store.close()
