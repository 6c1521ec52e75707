"""METRICS_PORT: /healthz and /metrics served on a free loopback port by a bot in a SimCord
world, scraped over real HTTP after a move."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from types import SimpleNamespace

import aiohttp
import discord
import pytest
import simcord

from bot import __version__
from bot.app import create_bot
from bot.core import metrics, workers
from bot.core.outbox import GIVE_UP_AFTER
from bot.core.settings import Settings
from tests.bot.test_outage import install_fault_switch
from tests.bot.tinygame import TinyAdapter, start_game
from tests.store.test_postgres_outage import own_server, start_again, stop_abruptly  # noqa: F401


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


def samples(text: str, name: str) -> dict[str, float]:
    """Every sample of ``name``: its labels as written (``{kind="component"}``, or "") to its value."""
    found = re.findall(rf"^{re.escape(name)}(\{{[^}}]*\}})? (\S+)$", text, re.MULTILINE)
    return {labels: float(number) for labels, number in found}


async def test_every_answer_counts_as_an_acknowledgement_whoever_made_it(world):
    # The user menu's Challenge answers with a select menu, and the select with the challenge,
    # through discord.py's own responses, not the bot's reply helpers.
    result = await world.ada.context_menu(world.channel, "Challenge", world.bo)
    await world.ada.select(result.response, ["tiny"])
    await world.bo.click(world.channel.last_message, label="Accept")
    await world.ada.slash(world.channel, "games")
    status, text = await fetch(world, "/metrics")
    assert status == 200
    received, acknowledged = samples(text, "octagon_interactions_total"), samples(text, "octagon_acks_total")
    assert received == acknowledged, "every interaction received was answered once"
    assert received['{kind="component"}'] == 2
    assert received['{kind="application_command"}'] == 2
    assert samples(text, "octagon_ack_seconds_count") == acknowledged


async def test_what_an_operator_alerts_on_is_exported(world):
    await world.ada.slash(world.channel, "tiny challenge", opponent=world.bo)
    status, text = await fetch(world, "/metrics")
    assert status == 200
    assert value(text, "octagon_loop_lag_seconds") >= 0
    assert value(text, 'octagon_gateway_connected{shard="0"}') == 1
    assert value(text, "octagon_guilds") == len(world.bot.guilds) == 1
    assert value(text, "octagon_database_up") == 1
    assert value(text, 'octagon_worker_queue_depth{pool="replay"}') == 0
    assert value(text, 'octagon_worker_queue_limit{pool="picture"}') == workers.PICTURES.queue_limit
    (build,) = samples(text, "octagon_build_info")
    assert f'version="{__version__}"' in build
    assert f'discord_py="{discord.__version__}"' in build
    assert value(text, "process_resident_memory_bytes") > 0, "the process collector"
    assert value(text, "process_start_time_seconds") > 0
    assert value(text, "process_open_fds") > 0
    assert samples(text, "python_info"), "the platform collector"


async def test_the_database_is_down_in_the_metrics_while_it_does_not_answer(world):
    switch = install_fault_switch(world)
    switch.failing = True
    status, text = await fetch(world, "/metrics")
    assert status == 200
    assert value(text, "octagon_database_up") == 0
    for figure in ("octagon_outbox_backlog", "octagon_outbox_oldest_seconds", "octagon_timers_due"):
        assert not samples(text, figure), f"{figure} is absent while the database is down"
    switch.failing = False
    status, text = await fetch(world, "/metrics")
    assert value(text, "octagon_database_up") == 1
    assert value(text, "octagon_outbox_backlog") == 0


async def test_posts_given_up_are_counted_by_kind(world):
    _, text = await fetch(world, "/metrics")
    before = samples(text, "octagon_posts_given_up_total").get('{kind="round_result"}', 0)
    metrics.posts_given_up("round_result")
    _, text = await fetch(world, "/metrics")
    assert value(text, 'octagon_posts_given_up_total{kind="round_result"}') == before + 1


async def test_an_entry_the_outbox_gives_up_moves_the_counter(world):
    await start_game(world)

    async def refused(session, payload):  # Discord refuses it for good (403), at every try
        raise discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"), "Missing Access")

    world.platform.outbox.register("doomed", None, deliver=refused)

    async def tried_all_but_once(tx) -> None:  # in the same transaction: the next failure gives it up
        tx.write("UPDATE outbox SET attempts = ? WHERE kind = 'doomed'", (GIVE_UP_AFTER - 1,))

    session_id = (await world.session()).id
    with world.env._bot_scope():  # as the bot's own work: its sender is one SimCord waits for
        async with world.platform.sessions.change(session_id) as change:
            change.post("doomed", {})
            change.during_commit(tried_all_but_once)
    await world.env.advance_time(1)
    assert "doomed" not in [e.kind for e in await world.platform.store.outbox()], "given up"
    _, text = await fetch(world, "/metrics")
    assert value(text, 'octagon_posts_given_up_total{kind="doomed"}') == 1


async def scrape(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as client, client.get(f"http://127.0.0.1:{port}{path}") as answer:
        return answer.status, await answer.text()


@pytest.mark.integration  # a PostgreSQL server of its own, stopped and started
async def test_database_up_reads_0_while_a_real_postgresql_is_stopped(own_server):  # noqa: F811 (the fixture)
    own_server.psql("CREATE DATABASE metrics;")
    settings = Settings(token=None, database_url=own_server.get_uri("metrics"), game_threads=False, metrics_port=0)
    bot = create_bot(settings, [TinyAdapter])
    try:
        async with simcord.run(bot):
            port = bot.metrics.port
            _, text = await scrape(port, "/metrics")
            assert value(text, "octagon_database_up") == 1
            stop_abruptly(own_server)
            try:
                status, text = await scrape(port, "/metrics")
                assert status == 200
                assert value(text, "octagon_database_up") == 0
                assert not samples(text, "octagon_outbox_backlog"), "absent while the database is down"
                assert (await scrape(port, "/healthz"))[0] == 503
            finally:
                await asyncio.to_thread(start_again, own_server)
            _, text = await scrape(port, "/metrics")
            assert value(text, "octagon_database_up") == 1
    finally:
        await bot.release()
