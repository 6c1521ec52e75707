"""The local playground: `python -m bot` with no token serves the real bot in a browser."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import urllib.request

import pytest

from bot import __main__ as entry
from bot import playground
from bot.settings import Settings


def start_playground() -> tuple[subprocess.Popen, str]:
    environment = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "--memory"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=environment,
    )
    for line in process.stdout:
        match = re.search(r"Playground running: open (http://127\.0\.0\.1:\d+/\S*)", line)
        if match:
            return process, match.group(1)
    process.kill()
    raise AssertionError("the playground never printed its address")


@pytest.mark.parametrize("stop_signal", [signal.SIGINT, signal.SIGTERM])
def test_playground_serves_its_page_on_loopback_and_stops_cleanly(stop_signal):
    process, url = start_playground()
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            assert response.status == 200
            assert b"<html" in response.read(4096).lower()
        process.send_signal(stop_signal)
        rest, _ = process.communicate(timeout=60)
        assert process.returncode == 0
        assert "Playground stopped." in rest
    finally:
        if process.poll() is None:
            process.kill()


async def test_a_slash_command_in_the_playground_reaches_the_bot(tmp_path):
    stop = asyncio.Event()
    seen = {}

    async def play(world, preview):
        await world.ada.slash(world.channel, "octego challenge", opponent=world.bo)
        await world.bo.click(world.channel.last_message, label="Accept")
        seen["content"] = world.channel.last_message.content
        seen["attachments"] = [a.filename for a in world.channel.last_message.attachments]
        seen["url"] = preview.url
        stop.set()

    await playground.run_playground(Settings(database_path=str(tmp_path / "pg.db")), ready=play, stop=stop)
    assert "## Octego" in seen["content"]
    assert "It is <@" in seen["content"]
    assert seen["attachments"]
    assert seen["attachments"][0].endswith(".png")
    assert seen["url"].startswith("http://127.0.0.1:")


def test_playground_keeps_its_own_database(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    used = {}

    async def fake_run(settings, **kwargs):
        used["database"] = settings.database_path

    monkeypatch.setattr(playground, "run_playground", fake_run)
    monkeypatch.setenv("DATABASE_PATH", "real-bot.db")
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert entry.main([]) == 0
    assert used["database"] == "playground.db"
    assert entry.main(["--memory"]) == 0
    assert used["database"] == ":memory:"


def test_without_preview_packages_it_explains_the_install(monkeypatch, capsys):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setattr(playground, "preview_available", lambda: False)
    assert entry.main([]) == 2
    assert 'pip install -e ".[playground]"' in capsys.readouterr().out


def test_with_a_token_the_bot_connects_unless_asked_for_the_playground(monkeypatch):
    from bot.app import OctagonBot

    calls = []
    monkeypatch.setenv("DISCORD_TOKEN", "test-token-not-real")
    monkeypatch.setattr(OctagonBot, "run", lambda self, token, **kwargs: calls.append("discord"))
    monkeypatch.setattr(playground, "main", lambda *args, **kwargs: calls.append("playground") or 0)
    assert entry.main([]) == 0
    assert entry.main(["--playground"]) == 0
    assert calls == ["discord", "playground"]
