"""Starting ``python -m bot`` with a token, as an operator does, against a local stand-in for
Discord's HTTP API (tests.bot.fake_discord): what a failed start logs, and with what status."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
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


EXIT_BAD_TOKEN = 77  # README: "Exit statuses"


async def test_a_token_discord_refuses_exits_with_its_own_status_in_one_line(tmp_path, discord_api):
    fake, port = discord_api
    bot = await start_bot(port, tmp_path, DISCORD_TOKEN="not.the.token", LOG_FORMAT="json")
    _, err = await asyncio.wait_for(bot.communicate(), 60)
    assert bot.returncode == EXIT_BAD_TOKEN
    records = [json.loads(line) for line in err.decode().splitlines()]
    assert fake.paths == ["/api/v10/users/@me"], "refused at the first answer, never retried"
    (refusal,) = [r for r in records if r["level"] == "ERROR"]
    assert refusal["message"].startswith("Discord refused DISCORD_TOKEN: ")
    assert "exception" not in refusal


async def lines_until(stream: asyncio.StreamReader, wanted, count: int, seen: list[str]) -> None:
    """Read log lines into ``seen`` until ``count`` of them satisfy ``wanted``."""
    while sum(map(wanted, seen)) < count:
        line = await stream.readline()
        assert line, f"the bot ended; it logged:\n{''.join(seen)}"
        seen.append(line.decode())


async def test_a_start_with_discord_unreachable_retries_then_connects_when_it_comes_up(tmp_path):
    port = free_port()  # nothing listens there yet: every attempt is refused
    bot = await start_bot(port, tmp_path, DISCORD_TOKEN=GOOD_TOKEN, LOG_FORMAT="text")
    seen: list[str] = []
    fake = FakeDiscord()
    try:
        retried = lambda line: "could not reach Discord at start (attempt" in line  # noqa: E731
        await asyncio.wait_for(lines_until(bot.stderr, retried, 2, seen), 60)
        await fake.start(port)  # Discord comes back
        await asyncio.wait_for(
            lines_until(bot.stderr, lambda line: "logged in to Discord at attempt" in line, 1, seen), 60
        )
        await asyncio.wait_for(fake.gateway_reached.wait(), 60)  # then it opens the gateway connection
        bot.send_signal(signal.SIGTERM)
        _, rest = await asyncio.wait_for(bot.communicate(), 60)
        seen += rest.decode().splitlines(keepends=True)
    finally:
        if bot.returncode is None:
            bot.kill()
            await bot.wait()
        await fake.stop()
    assert bot.returncode == 0
    attempts = [int(re.search(r"attempt (\d+):", line)[1]) for line in seen if retried(line)]
    assert attempts == list(range(1, len(attempts) + 1)), "one line an attempt"
    assert re.search(r"trying again in 1 s$", seen[[retried(line) for line in seen].index(True)].rstrip())
    assert fake.paths[:2] == ["/api/v10/users/@me", "/api/v10/oauth2/applications/@me"]
