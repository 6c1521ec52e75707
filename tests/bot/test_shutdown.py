"""Graceful stop: a real bot process under load gets SIGTERM, and a new process starts after it.

``tests.bot.shutdown_driver`` runs the bot against SimCord in its own process: ``play`` clicks
moves in three channels until the test sends SIGTERM (the bot's own handler stops it
gracefully while the clicks go on), ``resume`` starts the bot again on the same file. Checked in
the database afterwards: every move a player was not refused is stored, and only those (none
lost, none made up); every outbox entry was delivered exactly once over both processes (none
lost, none doubled) and none is left; clicks during the stop were answered "restarting".
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.integration  # real processes, stopped and started

REPO = Path(__file__).resolve().parents[2]
LOAD_SECONDS = 3  # of clicking before SIGTERM
PROCESS_LIMIT_SECONDS = 180


def last_json(output: str) -> dict[str, Any]:
    lines = [line for line in output.splitlines() if line.startswith("{")]
    assert lines, f"no JSON line in:\n{output[-3000:]}"
    return json.loads(lines[-1])


def play_and_stop(db: Path) -> dict[str, Any]:
    command = [sys.executable, "-m", "tests.bot.shutdown_driver", str(db), "play"]
    process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = process.stdout.readline()
        assert json.loads(first) == {"phase": "loaded"}, first
        time.sleep(LOAD_SECONDS)  # let moves pile up: the stop comes in the middle of them
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=PROCESS_LIMIT_SECONDS)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, f"status {process.returncode}\n{err[-6000:]}"
    return last_json(out)


def resume(db: Path) -> dict[str, Any]:
    command = [sys.executable, "-m", "tests.bot.shutdown_driver", str(db), "resume"]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=PROCESS_LIMIT_SECONDS)
    assert done.returncode == 0, f"status {done.returncode}\n{done.stderr[-6000:]}"
    return last_json(done.stdout)


def stored(db: Path) -> dict[str, Any]:
    connection = sqlite3.connect(db)
    try:
        actions = dict(connection.execute("SELECT session_id, COUNT(*) FROM actions GROUP BY session_id"))
        outbox_ids = connection.execute("SELECT seq FROM sqlite_sequence WHERE name = 'outbox'").fetchone()
        pending = [row[0] for row in connection.execute("SELECT id FROM outbox")]
        return {"actions": actions, "outbox_created": outbox_ids[0] if outbox_ids else 0, "pending": pending}
    finally:
        connection.close()


def test_sigterm_mid_load_loses_and_doubles_nothing(tmp_path):
    db = tmp_path / "shutdown.db"
    played = play_and_stop(db)
    assert played["bot_errors"] == []
    outcomes = played["outcomes"]
    assert outcomes.count("ok") >= 3, "the load was running when the signal came"
    assert set(outcomes) <= {"ok", "restarting"}, "every click was taken or answered 'restarting'"
    assert outcomes[-1] == "restarting", "clicks during the stop are answered 'restarting'"

    after_stop = stored(db)
    moves = {int(session): count for session, count in played["moves"].items()}
    assert after_stop["actions"] == moves, "every move taken is stored, and nothing else"

    resumed = resume(db)
    assert resumed["bot_errors"] == []
    first, second = played["delivered"], resumed["delivered"]
    assert len(first) == len(set(first)), "no entry sent twice by the first process"
    assert not set(first) & set(second), "no entry sent by both"
    assert sorted(second) == sorted(after_stop["pending"]), "what the stop left pending went out after it"
    after_resume = stored(db)
    assert after_resume["pending"] == []
    assert sorted(first + second) == list(range(1, after_resume["outbox_created"] + 1)), "no entry lost"
