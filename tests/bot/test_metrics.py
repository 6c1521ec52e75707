"""METRICS_PORT: /healthz and /metrics served on a free loopback port by a bot in a SimCord
world, scraped over real HTTP after a move."""

from __future__ import annotations

import re
import sqlite3

import aiohttp
import pytest

from bot.core.settings import Settings
from tests.bot.test_outage import install_fault_switch
from tests.bot.tinygame import TinyAdapter


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(token=None, database_path=str(tmp_path / "test.db"), game_threads=False, metrics_port=0)


@pytest.fixture
def games():
    return [TinyAdapter]


async def fetch(world, path: str) -> tuple[int, str]:
    metrics = world.bot.metrics
    assert metrics.port, "the server took a free port"
    async with aiohttp.ClientSession() as client, client.get(f"http://127.0.0.1:{metrics.port}{path}") as answer:
        return answer.status, await answer.text()


def value(text: str, sample: str) -> float:
    """The value of one sample line (its name and labels exactly as written)."""
    match = re.search(rf"^{re.escape(sample)} (\S+)$", text, re.MULTILINE)
    assert match, f"no sample {sample}"
    return float(match[1])


def test_metrics_are_off_unless_a_port_is_set(monkeypatch):
    monkeypatch.delenv("METRICS_PORT", raising=False)
    assert Settings.from_environment().metrics_port is None
    monkeypatch.setenv("METRICS_PORT", "9464")
    chosen = Settings.from_environment()
    assert (chosen.metrics_port, chosen.metrics_host) == (9464, "127.0.0.1")


async def test_a_move_shows_in_the_metrics_and_the_bot_is_healthy(world):
    await world.ada.slash(world.channel, "tiny challenge", opponent=world.bo)
    await world.bo.click(world.channel.last_message, label="Accept")
    await world.ada.click(world.channel.last_message, label="+2")

    status, health = await fetch(world, "/healthz")
    assert (status, health) == (200, "ok\n")
    status, text = await fetch(world, "/metrics")
    assert status == 200
    assert value(text, 'octagon_interactions_total{kind="application_command"}') == 1
    assert value(text, 'octagon_interactions_total{kind="component"}') == 2
    assert value(text, 'octagon_acks_total{kind="component"}') == 2
    assert value(text, 'octagon_ack_seconds_count{kind="component"}') == 2
    assert value(text, 'octagon_ack_seconds_bucket{kind="component",le="3.0"}') == 2, "acknowledged within 3 s"
    assert value(text, "octagon_picture_seconds_count") >= 2, "the board was drawn for the start and the move"
    assert value(text, "octagon_database_trip_seconds_count") > 0
    assert value(text, 'octagon_worker_queue_depth{pool="picture"}') == 0
    assert value(text, "octagon_outbox_backlog") == 0
    assert value(text, "octagon_outbox_oldest_seconds") == 0
    assert value(text, "octagon_timers_due") == 0
    assert value(text, 'octagon_live_sessions{game="tiny"}') == 1


async def test_health_fails_while_the_database_does_not_answer(world):
    await world.ada.slash(world.channel, "tiny challenge", opponent=world.bo)
    switch = install_fault_switch(world)
    switch.failing = True
    await world.bo.click(world.channel.last_message, label="Accept")  # answered: unavailable
    status, health = await fetch(world, "/healthz")
    assert status == 503
    assert f"database: {sqlite3.OperationalError.__name__}" in health
    status, text = await fetch(world, "/metrics")
    assert status == 200, "what is known without the database is still served"
    assert value(text, 'octagon_errors_total{kind="database"}') == 1

    switch.failing = False
    status, health = await fetch(world, "/healthz")
    assert (status, health) == (200, "ok\n")
