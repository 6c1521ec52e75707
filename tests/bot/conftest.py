"""SimCord fixtures: the real bot against a simulated Discord, with a fresh database per test."""

from __future__ import annotations

import pytest

from bot.app import create_bot
from bot.core.settings import Settings
from bot.dev.world import World, build_world
from tests.bot.settle import use_settle_limit
from tests.bot.wording_scan import SCAN

# How long SimCord waits for the bot's work (after an action, `settle()`, `advance_time()`)
# before failing: SIMCORD_SETTLE_SECONDS (default 30), for every world this test process creates,
# the `simcord_env` fixture's and each `simcord.run`; see tests/bot/settle.py.
use_settle_limit()


@pytest.fixture(scope="session", autouse=True)
def leftover_plural_scan():
    """Every member-facing text the bot sends in this process is scanned (tests/bot/wording_scan.py)."""
    SCAN.install()
    return SCAN


@pytest.fixture(autouse=True)
def no_leftover_plurals(leftover_plural_scan):
    """Fails a test whose bot sent a plural left to the reader ("player(s)") or a bracket inside
    another, naming the text."""
    leftover_plural_scan.take()
    yield
    sent = leftover_plural_scan.take()
    assert sent == [], f"the bot sent a '(s)' plural or nested brackets: {sent}"


@pytest.fixture
def settings(tmp_path) -> Settings:
    # The game suites play in #games itself, one game at a time (GAME_THREADS=off);
    # tests/bot/test_threads.py plays each game in a thread of its own, the default.
    return Settings(token=None, database_path=str(tmp_path / "test.db"), game_threads=False)


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
