"""Logging: text or JSON lines (``LOG_FORMAT=json``), and a start without discord.py's warnings
that do not concern the bot (voice support; the token line once; in the playground, the Guilds
intent of SimCord's probe client)."""

from __future__ import annotations

import io
import json
import logging
import os
import signal
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from bot.core import logs

REPOSITORY = Path(__file__).resolve().parents[1]
QUIETED = ("discord.client", "discord.state")


@pytest.fixture
def stream():
    """Where the logs go during the test; the logging set-up as it was afterwards."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    filters = {name: logging.getLogger(name).filters[:] for name in QUIETED}
    yield io.StringIO()
    root.handlers[:] = handlers
    root.setLevel(level)
    for name, kept in filters.items():
        logging.getLogger(name).filters[:] = kept


def test_json_lines_carry_time_level_logger_message_and_exception(stream):
    logs.configure("INFO", "json", stream=stream)
    logging.getLogger("bot.test").info("moved %s to %s", "a8", "b7")
    try:
        raise ValueError("no such square")
    except ValueError:
        logging.getLogger("bot.test").exception("could not move, said %r", "Ada")
    logging.getLogger("bot.test").debug("below the level")
    first, second = (json.loads(line) for line in stream.getvalue().splitlines())
    assert {key: first[key] for key in ("level", "logger", "message")} == {
        "level": "INFO",
        "logger": "bot.test",
        "message": "moved a8 to b7",
    }
    assert "exception" not in first
    time = datetime.fromisoformat(first["time"])
    assert time.utcoffset() == timedelta(0)
    assert abs(datetime.now(time.tzinfo) - time) < timedelta(minutes=1)
    assert (second["level"], second["message"]) == ("ERROR", "could not move, said 'Ada'")
    assert second["exception"].startswith("Traceback (most recent call last)")
    assert second["exception"].endswith("ValueError: no such square")


def test_text_lines_and_an_unknown_format(stream):
    logs.configure("WARNING", "text", stream=stream)
    logging.getLogger("bot.test").info("not shown")
    logging.getLogger("bot.test").warning("shown")
    assert stream.getvalue().endswith(" WARNING bot.test: shown\n")
    with pytest.raises(ValueError, match="LOG_FORMAT must be one of text, json"):
        logs.configure("INFO", "yaml", stream=stream)


@pytest.mark.parametrize("playground", [False, True])
def test_only_the_warnings_that_do_not_concern_the_bot_are_dropped(stream, playground):
    logs.configure("INFO", "text", playground=playground, stream=stream)
    client, state = logging.getLogger("discord.client"), logging.getLogger("discord.state")
    client.warning("PyNaCl is not installed, voice will NOT be supported")
    client.warning("davey is not installed, voice will NOT be supported")
    for _ in range(3):
        client.info("logging in using static token")
    client.warning("Application has an interaction endpoint URL set")  # a real problem: kept
    state.warning("Guilds intent seems to be disabled. This may cause state related issues.")
    lines = stream.getvalue().splitlines()
    assert not any("voice" in line for line in lines)
    assert sum("logging in using static token" in line for line in lines) == 1
    assert any("interaction endpoint URL" in line for line in lines)
    # Only the playground's comes from SimCord's probe client; the bot asks for the Guilds intent.
    assert any("Guilds intent" in line for line in lines) is not playground
    # Configured again (another start in the same process): still one filter each.
    logs.configure("INFO", "text", playground=playground, stream=stream)
    assert len([f for f in client.filters if isinstance(f, logs.Quiet)]) == 1


def test_the_playground_starts_without_warnings_and_logs_json(tmp_path):
    """README's command 1 with no token: the playground, its stderr only JSON lines, none a warning."""
    environment = {
        **os.environ,
        "DISCORD_TOKEN": "",
        "LOG_FORMAT": "json",
        "LOG_LEVEL": "INFO",
        "RENDER_WORKERS": "1",
        "THINKING_WORKERS": "1",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "--memory"],
        cwd=REPOSITORY,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for line in process.stdout:
            if line.startswith("Playground running"):
                break
        process.send_signal(signal.SIGINT)
        _, errors = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    records = [json.loads(line) for line in errors.splitlines()]
    assert records, "the playground logged nothing"
    assert [r for r in records if r["level"] not in ("DEBUG", "INFO")] == []
    assert [r["message"] for r in records].count("logging in using static token") == 1
    assert any(r["logger"] == "bot.app" and r["message"].startswith("ready as ") for r in records)
