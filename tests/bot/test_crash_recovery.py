"""Crash recovery: a real bot process playing Octagion on a file database is killed by SIGKILL
at a named point, and a new process on the same file finishes the game.

Each point runs ``tests.bot.crash_driver`` twice as a subprocess: ``play`` (killed at the point;
the database it leaves is checked read-only, so the write-ahead log stays for the bot to
recover), then ``resume`` (timers fire, the outbox sends what was pending, rounds go on). Every
round's result reaches the channel exactly once over both processes, the game has exactly one
result row, nothing is left pending, and ``PRAGMA integrity_check`` is ok.

``round_posted`` kills the bot after round 2's message is out but before the change that arms
its clock: that change and the outbox entry's removal commit together, so the entry is still
there and the resumed bot posts the round again and starts its clock (at least once, never
a round without a clock).
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.integration  # real processes, killed and restarted

REPO = Path(__file__).resolve().parents[2]
ROUNDS = 2


def run_phase(db: Path, phase: str, point: str) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """Run one phase of the driver; its one line of JSON (a phase that prints nothing fails here)."""
    command = [sys.executable, "-m", "tests.bot.crash_driver", str(db), phase, point]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=120)
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    detail = f"exit status {done.returncode}\nstdout:\n{done.stdout[-3000:]}\nstderr:\n{done.stderr[-6000:]}"
    assert lines, f"phase {phase!r} at {point!r} printed nothing; {detail}"
    assert len(lines) == 1, f"phase {phase!r} printed more than one line; {detail}"
    try:
        report = json.loads(lines[0])
    except json.JSONDecodeError:
        pytest.fail(f"phase {phase!r} printed something that is not JSON; {detail}")
    assert (report.get("phase"), report.get("point")) == (phase, point), detail
    return done, report


def read_only(db: Path) -> sqlite3.Connection:
    """A connection that neither checkpoints nor removes the write-ahead log the crash left."""
    return sqlite3.connect(db.resolve().as_uri() + "?mode=ro", uri=True)


def at_kill(db: Path) -> dict[str, Any]:
    """The one session as the killed process left it on disk."""
    with_wal = Path(f"{db}-wal")
    assert with_wal.exists(), "a killed process leaves its write-ahead log"
    assert with_wal.stat().st_size > 0
    connection = read_only(db)
    try:
        [(session_id, status, state)] = connection.execute("SELECT id, status, state FROM sessions").fetchall()
        state = json.loads(state)
        return {
            "status": status,
            "phase": "over" if state.get("outcome") else state["phase"],
            "round": state["round"],
            "results": connection.execute(
                "SELECT COUNT(*) FROM results WHERE session_id = ?", (session_id,)
            ).fetchone()[0],
            "timers": [
                (kind, json.loads(payload))
                for kind, payload in connection.execute("SELECT kind, payload FROM timers ORDER BY id")
            ],
            "outbox": [
                (kind, json.loads(payload))
                for kind, payload in connection.execute("SELECT kind, payload FROM outbox ORDER BY id")
            ],
            "integrity": connection.execute("PRAGMA integrity_check").fetchone()[0],
        }
    finally:
        connection.close()


def check_after_timer_fired(db: dict[str, Any], play: dict[str, Any]) -> None:
    """Round 1's end committed (its result queued, the pause timer armed) but nothing sent."""
    assert (db["status"], db["phase"], db["round"]) == ("active", "between", 1)
    assert db["results"] == 0
    assert [kind for kind, _ in db["timers"]] == ["octagion_next_round"]
    assert (db["outbox"][0][0], db["outbox"][0][1]["round"]) == ("octagion_result", 1)
    assert play["posted"] == {"1": 0, "2": 0}, "round 1's result must still be unsent"
    assert play["timeline"][-1] == "round 1"


def check_between_rounds(db: dict[str, Any], play: dict[str, Any]) -> None:
    """Round 2 began in the database; its message (and so its clock) is not out yet."""
    assert (db["status"], db["phase"], db["round"]) == ("active", "playing", 2)
    assert db["results"] == 0
    assert db["timers"] == [], "round 2's clock starts only once its message is posted"
    assert db["outbox"] == [("octagion_round", {"round": 2})]
    assert play["posted"] == {"1": 1, "2": 0}
    assert "round 2" not in play["timeline"]


def check_game_end(db: dict[str, Any], play: dict[str, Any]) -> None:
    """The last round's end committed with the result row; no message of the end is out."""
    assert (db["status"], db["phase"], db["round"]) == ("finished", "over", 2)
    assert db["results"] == 1
    assert db["timers"] == []
    assert (db["outbox"][0][0], db["outbox"][0][1]["round"]) == ("octagion_result", 2)
    assert play["posted"] == {"1": 1, "2": 0}
    assert "scores" not in play["timeline"]


def check_round_posted(db: dict[str, Any], play: dict[str, Any]) -> None:
    """Round 2's message is out, but the change arming its clock (``_round_visible``, the entry's
    ``after``) has not committed, and neither has the entry's removal."""
    assert (db["status"], db["phase"], db["round"]) == ("active", "playing", 2)
    assert db["results"] == 0
    assert db["timers"] == []
    assert db["outbox"] == [("octagion_round", {"round": 2})]
    assert play["posted"] == {"1": 1, "2": 0}
    assert play["timeline"][-1] == "round 2"


CHECKS = {
    "after_timer_fired": check_after_timer_fired,
    "between_rounds": check_between_rounds,
    "game_end": check_game_end,
    "round_posted": check_round_posted,
}


@pytest.mark.parametrize("point", list(CHECKS))
def test_killed_bot_resumes_the_game(tmp_path, point):
    db = tmp_path / "crash.db"

    killed, play = run_phase(db, "play", point)
    assert killed.returncode == -signal.SIGKILL, f"expected death by SIGKILL, got {killed.returncode}: {play}"
    assert "killed_at" in play, play
    state = at_kill(db)
    assert state["integrity"] == "ok"
    CHECKS[point](state, play)

    resumed, after = run_phase(db, "resume", point)
    assert resumed.returncode == 0, resumed.stderr[-6000:]
    assert after["same_ids"], f"the new world's ids differ from the stored session's: {after['ids']}"
    assert after["bot_errors"] == [], after["bot_errors"]
    finished = (after["status"], after["engine_phase"]) == ("finished", "over")
    assert finished, (
        f"the game did not finish after the restart: status {after['status']!r}, phase {after['engine_phase']!r}, "
        f"round {after['after']['engine_round']}, timers pending {after['after']['timer_kinds']}, "
        f"outbox pending {after['after']['outbox_kinds']}, messages posted since the restart {after['timeline']}"
    )

    # Every round's result reached the channel exactly once over both processes.
    for n in range(1, ROUNDS + 1):
        total = play["posted"][str(n)] + after["posted"][str(n)]
        assert total == 1, f"round {n}'s result posted {total} times (before the kill: {play['posted'][str(n)]})"
    # What the new process posted came in order, and the end was announced once.
    timeline = after["timeline"]
    assert timeline.count("scores") == 1, timeline
    assert timeline[-1] == "scores", timeline
    if "round 2" not in play["timeline"]:  # round 2 began here: after round 1's result, before its own
        assert "round 2" in timeline, timeline
        assert timeline.index("round 2") < timeline.index("result 2"), timeline
        if "result 1" in timeline:
            assert timeline.index("result 1") < timeline.index("round 2"), timeline

    assert after["results_rows"] == 1
    assert after["pending_timers"] == 0
    assert after["pending_outbox"] == 0
    assert after["integrity_check"] == "ok"
