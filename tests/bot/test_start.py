"""Starting ``python -m bot`` with a token, as an operator does, against a local stand-in for
Discord's HTTP API (tests.bot.fake_discord): what a failed start logs, and with what status."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
from pathlib import Path

import pytest

from tests.bot.fake_discord import GOOD_TOKEN, FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
EXIT_FAILED = 1


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def start_bot(port: int, cwd: Path, **settings: str) -> asyncio.subprocess.Process:
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "RENDER_WORKERS": "1", "THINKING_WORKERS": "1", **settings}
    for unset in ("METRICS_PORT", "DATABASE_URL", "SHARD_COUNT", "SHARD_IDS", "DEV_GUILD_ID"):
        environment.pop(unset, None)
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.bot.start_driver",
        str(port),
        cwd=cwd,
        env=environment,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


@pytest.fixture
async def discord_api():
    fake = FakeDiscord()
    port = free_port()
    await fake.start(port)
    yield fake, port
    await fake.stop()


async def test_a_failed_start_logs_one_json_object_a_line_with_the_traceback_inside(tmp_path, discord_api):
    fake, port = discord_api
    bot = await start_bot(
        port, tmp_path, DISCORD_TOKEN=GOOD_TOKEN, LOG_FORMAT="json", DATABASE_PATH=str(tmp_path / "missing" / "x.db")
    )
    _, err = await asyncio.wait_for(bot.communicate(), 60)
    assert bot.returncode == EXIT_FAILED
    records = [json.loads(line) for line in err.decode().splitlines()]  # every line is JSON
    assert "/api/v10/users/@me" in fake.paths, "the bot logged in to the stand-in"
    (failure,) = [r for r in records if r["message"].startswith("The bot stopped: ")]
    assert failure["level"] == "ERROR"
    assert failure["exception"].startswith("Traceback (most recent call last)")
    assert "unable to open database file" in failure["exception"]
