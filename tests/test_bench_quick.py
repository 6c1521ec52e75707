"""`python -m bench --quick`: every benchmark module once on a tiny size, which CI runs after the
tests so that no benchmark stops running unseen (`python -m bench` once failed in a module's
set-up for days). The whole run is CI's (about 30 s); here, the sizes quick mode takes and one
module through the real bot. Behaviour only, never times."""

from __future__ import annotations

from pathlib import Path

import bench
from bench import __main__ as bench_main
from engines.octego import ENGINE, choose_action

ROOT = Path(__file__).resolve().parent.parent


def test_quick_mode_times_once_and_plays_two_moves_of_one_game(monkeypatch):
    monkeypatch.setattr(bench, "QUICK", True)
    calls = []
    row = bench.measure("a call", lambda: calls.append(1), repeat=30, warmup=2)
    assert len(calls) == 1
    assert len(row.samples) == 1
    games = [ENGINE.new_game(2, {}, seed) for seed in range(3)]
    moves = bench.game_move_times("moves", ENGINE, lambda state, seat: choose_action(state, seat, "easy"), games)
    assert len(moves.samples) == bench.QUICK_MOVES
    assert moves.note.startswith(f"{bench.QUICK_MOVES} moves in 1 game")


def test_quick_runs_a_module_through_the_real_bot(monkeypatch, capsys):
    monkeypatch.setattr(bench, "QUICK", False)  # set by main; put back after the test
    assert bench_main.main(["--quick", "octa"]) == 0
    table = capsys.readouterr().out
    assert "octa turn-panel step (Pile 1) through SimCord: bot-side" in table  # a game started and played
    assert f"{bench.QUICK_MOVES} moves in 1 game" in table


def test_ci_runs_every_benchmark_quickly_after_the_tests_as_readme_says():
    commands = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    commands = [line for line in commands if line and not line.startswith("#")]
    assert commands.index("python -m bench --quick") > commands.index("python -m pytest")
    assert "`python -m bench --quick`" in (ROOT / "README.md").read_text()
