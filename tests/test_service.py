"""docs/octagon-bot.service: a unit that always brings the bot back, except for what a restart
cannot fix (the exit statuses python -m bot gives them), stops it gracefully, and is hardened:
``systemd-analyze verify`` accepts it and ``systemd-analyze security`` rates it OK (4.0 or less),
when systemd-analyze is on the machine."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import EXIT_BAD_SETTING, EXIT_BAD_TOKEN, EXIT_FAILED

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "docs" / "octagon-bot.service"
INSTALLED = "/opt/octagon-bot"
ANALYZE = shutil.which("systemd-analyze")


def offline_security() -> bool:
    """Whether this systemd-analyze rates a unit file that is not installed (systemd 252 on)."""
    shown = subprocess.run([ANALYZE, "--help"], capture_output=True, text=True, timeout=60) if ANALYZE else None
    return shown is not None and "--offline" in shown.stdout


def directives() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key, []).append(value)
    return found


def test_the_unit_restarts_for_ever_except_for_the_unfixable_statuses():
    unit = directives()
    assert unit["Restart"] == ["always"]
    assert unit["StartLimitIntervalSec"] == ["0"], "no start limit that leaves the unit failed for good"
    assert 1 <= int(unit["RestartSec"][0]) <= 30
    prevented = {int(status) for status in unit["RestartPreventExitStatus"][0].split()}
    assert prevented == {EXIT_BAD_TOKEN, EXIT_BAD_SETTING}
    assert len({EXIT_FAILED, EXIT_BAD_TOKEN, EXIT_BAD_SETTING}) == 3


def test_the_unit_stops_the_bot_alone_and_keeps_its_files_private():
    unit = directives()
    assert unit["KillMode"] == ["mixed"], "SIGTERM to the bot only; its graceful stop ends its workers"
    assert unit["KillSignal"] == ["SIGTERM"]
    assert unit["UMask"] == ["0077"]
    assert unit["ReadWritePaths"] == [INSTALLED]


@pytest.fixture
def unit_here(tmp_path) -> Path:
    """The unit with its folder here: a .venv/bin/python that exists, so verify checks the rest."""
    (tmp_path / "bot" / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / "bot" / ".venv" / "bin" / "python").symlink_to(sys.executable)
    unit = tmp_path / UNIT.name
    unit.write_text(UNIT.read_text().replace(INSTALLED, str(tmp_path / "bot")))
    return unit


@pytest.mark.skipif(not offline_security(), reason="no systemd-analyze with --offline on this machine")
def test_systemd_analyze_verifies_the_unit_and_rates_it_ok(unit_here):
    verified = subprocess.run([ANALYZE, "verify", str(unit_here)], capture_output=True, text=True, timeout=60)
    assert (verified.returncode, verified.stdout, verified.stderr) == (0, "", "")
    rated = subprocess.run(
        [ANALYZE, "security", "--offline=true", "--no-pager", str(unit_here)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert rated.returncode == 0, rated.stderr
    exposure = float(re.search(r"Overall exposure level for [^:]+: ([\d.]+)", rated.stdout)[1])
    assert exposure <= 4.0, rated.stdout


def test_the_hardening_lets_the_workers_lower_their_priority():
    denied = " ".join(value for value in directives()["SystemCallFilter"] if value.startswith("~"))
    for group in ("@resources", "setpriority", "nice"):
        assert group not in denied.split(), f"{group}: the worker processes call os.nice (bot/core/workers.py)"
