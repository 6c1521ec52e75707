"""SimCord fixtures: the real bot against a simulated Discord, with a fresh database per test."""

from __future__ import annotations

import pytest

from bot.app import create_bot
from bot.settings import Settings
from bot.world import World, build_world


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(token=None, database_path=str(tmp_path / "test.db"))


@pytest.fixture
def games():
    """The games under test (default: every real game)."""
    return None


@pytest.fixture
def simcord_bot(settings, games):
    return create_bot(settings, games)


@pytest.fixture
async def world(simcord_env) -> World:
    world = build_world(simcord_env)
    yield world
    errors = list(world.platform.errors)
    await world.bot.release()
    assert errors == [], "the bot hit unexpected errors"
