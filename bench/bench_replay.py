"""Replay benchmark: the animated replay of a 60-move Octego game (issue #18: under 3 s on the
2-core machine, in the one worker process that draws it), its frames alone, and its size in
the chosen format against an animated GIF of the same frames.

Then the longest replay of each kind (issue #29: peak memory under 200 MB): the longest of a few
games played to their end by random legal actions (Octagion: 16 rounds between computer
teams), each replayed in a fresh process that reports how far its peak resident memory rose
above where it stood before the replay (``VmHWM``), the CPU and wall time and the file.

The note of the timing row gives the CPU seconds too: wall time on a shared machine includes
waiting for a core.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import bench
from bench import Row, measure, value
from engines.octego import ENGINE, choose_action
from engines.registry import MissingPart, games
from engines.registry import engine as registered_engine
from engines.registry import package as registered_package
from render import replay

NAMES = ["Ada", "Bo"]
MOVES = 60
TARGET_SECONDS = 3.0
FIRST_SEED = 36  # medium against medium from this seed ends by itself at move 60
QUICK_ACTIONS = 6  # quick mode's games: this many random actions, then a resignation ends them


def sixty_move_game() -> tuple[int, list[tuple[int, dict]]]:
    """The seed and actions of the first medium-level game, from FIRST_SEED on, that ends at move 60."""
    for seed in itertools.count(FIRST_SEED):
        state = ENGINE.new_game(2, {}, seed)
        actions: list[tuple[int, dict[str, Any]]] = []
        while not state.over and len(actions) < MOVES:
            seat = ENGINE.to_act(state)[0]
            action = choose_action(state, seat, "medium", seed)
            state = ENGINE.apply(state, seat, action)
            actions.append((seat, action))
        if state.over and len(actions) == MOVES:
            return seed, actions
    raise AssertionError("unreachable")


def run() -> list[Row]:
    seed, actions = sixty_move_game() if not bench.QUICK else (FIRST_SEED, quick_game("octego", 2, {}, FIRST_SEED))

    def whole() -> object:
        return replay.replay_picture("octego", 2, {}, seed, actions, NAMES)

    def frames_only() -> object:
        return replay.replay_frames("octego", 2, {}, seed, actions, NAMES)

    cpu = time.process_time()
    picture = whole()
    cpu = time.process_time() - cpu
    frames = replay.replay_frames("octego", 2, {}, seed, actions, NAMES)
    width, height = frames[0].image.size
    shape = f"{len(frames)} frames {width}x{height}"
    name = f"replay of a {len(actions)}-move octego game"
    fmt = replay.FORMAT.upper()
    gif = replay.encode(frames, "gif")
    return [
        measure(
            f"{name} ({fmt})",
            whole,
            repeat=5,
            warmup=1,
            note=f"{shape}, {cpu:.2f} s CPU, target < {TARGET_SECONDS:.0f} s",
        ),
        measure(f"{name}: frames only", frames_only, repeat=5, warmup=0, note=shape),
        value(f"{name}: {fmt} bytes", len(picture.png), "bytes", note=f"lossless, limit {replay.MAX_BYTES:,}"),
        value(f"{name}: GIF bytes", len(gif), "bytes", baseline=f"{name}: {fmt} bytes", note="per-frame palettes"),
        *longest_rows(),
    ]


# ---------------------------------------------------------------- the longest replay of each kind

PEAK_TARGET_MB = 200
WALK_SEEDS = 12  # random games per kind; the longest is replayed
# (players, options) of a game's longest replay when not its fewest players with default options:
# Octagone with four players (its largest picture), Octagion at its most rounds between four
# computer teams. A game not here is played in its default set-up, so a newly registered game is
# measured with no edit here.
SETUPS: dict[str, tuple[int, dict]] = {
    "octiles": (2, {"scramble": True}),
    "octagone": (4, {}),
    "octagion": (4, {"rounds": 16}),
}
NAMES_4 = ["Ada", "Bo", "Cy", "Di"]


def longest_setups() -> list[tuple[str, int, dict]]:
    """(game, players, options) of every registered game's longest replay, in the registry's order."""
    unknown = set(SETUPS) - set(games())
    if unknown:
        raise MissingPart(f"bench/bench_replay.py SETUPS names games not registered: {sorted(unknown)}")
    return [(game, *SETUPS.get(game, (registered_engine(game).min_players, {}))) for game in games()]


def random_game(game: str, players: int, options: dict, seed: int) -> list[tuple[int, dict]]:
    """A whole game of random legal actions (never a resignation), as (seat, action)."""
    engine = registered_engine(game)
    rng, state = random.Random(seed), engine.new_game(players, options, seed)
    actions: list[tuple[int, dict[str, Any]]] = []
    while not state.over:
        seat = engine.to_act(state)[0]
        action = rng.choice([a for a in engine.legal_actions(state, seat) if a["type"] not in ("resign", "forfeit")])
        state = engine.apply(state, seat, action)
        actions.append((seat, action))
    return actions


def octagion_game(players: int, options: dict, seed: int) -> list[tuple[int, dict]]:
    """Every round: each computer sets its variant, then the timer ends the round."""
    package = registered_package("octagion")
    engine = package.ENGINE
    state, actions = engine.new_game(players, options, seed), []
    while not state.over:
        round_actions = [(seat, package.choose_action(state, seat, "easy", seed)) for seat in range(players)]
        round_actions.append((0, {"type": "end_round", "round": state.round}))
        for seat, action in round_actions:
            state = engine.apply(state, seat, action)
            actions.append((seat, action))
        if not state.over:
            state = engine.apply(state, 0, {"type": "next_round"})
            actions.append((0, {"type": "next_round"}))
    return actions


def longest_game(game: str, players: int, options: dict) -> tuple[int, list[tuple[int, dict]]]:
    if bench.QUICK:
        return 1, quick_game(game, players, options, 1)
    if game == "octagion":
        return 1, octagion_game(players, options, 1)
    walks = [(seed, random_game(game, players, options, seed)) for seed in range(WALK_SEEDS)]
    return max(walks, key=lambda played: len(played[1]))


def quick_game(game: str, players: int, options: dict, seed: int) -> list[tuple[int, dict]]:
    """Quick mode's short game: ``QUICK_ACTIONS`` random legal actions, then the players resign
    one by one (a replay is drawn only for a finished game)."""
    engine = registered_engine(game)
    rng, state = random.Random(seed), engine.new_game(players, options, seed)
    actions: list[tuple[int, dict[str, Any]]] = []
    while not state.over:
        seat = engine.to_act(state)[0]
        resign = {"type": "resign"}  # a game may take it without listing it (Octiles does)
        action = resign if len(actions) >= QUICK_ACTIONS else rng.choice(engine.legal_actions(state, seat))
        state = engine.apply(state, seat, action)
        actions.append((seat, action))
    return actions


def _resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _peak_resident_bytes() -> int:
    """This process's peak resident memory since its exec (VmHWM): ``ru_maxrss`` would also count
    the parent's memory copied by the fork before the exec, so a child of a large benchmark
    process would report the parent's peak."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # not Linux: the best there is


def replay_in_this_process(job: dict) -> dict:
    """The child's side: one replay, with the rise of its peak resident memory above the start."""
    actions = [(seat, action) for seat, action in job["actions"]]
    names = NAMES_4[: job["players"]]
    before = _resident_bytes()
    cpu, wall = time.process_time(), time.perf_counter()
    picture = replay.replay_picture(job["game"], job["players"], job["options"], job["seed"], actions, names)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    peak = _peak_resident_bytes()
    length = picture.description.rsplit(", ", 1)[-1].rstrip(".")  # the alt text ends with it: "411 moves"
    return {"rise": peak - before, "peak": peak, "cpu": cpu, "wall": wall, "bytes": len(picture.png), "length": length}


def replay_in_a_child(game: str, players: int, options: dict, seed: int, actions: list) -> dict:
    job = {"game": game, "players": players, "options": options, "seed": seed, "actions": actions}
    code = "import json, sys; from bench.bench_replay import replay_in_this_process as r; "
    code += "print(json.dumps(r(json.load(sys.stdin))))"
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", code],
        input=json.dumps(job),
        capture_output=True,
        text=True,
        cwd=root,
        env=env,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def longest_rows() -> list[Row]:
    rows = []
    for game, players, options in longest_setups():
        seed, actions = longest_game(game, players, options)
        measured = replay_in_a_child(game, players, options, seed, actions)
        name = f"longest {game} replay ({len(actions)} actions, {measured['length']})"
        note = (
            f"peak RSS {measured['peak'] / 2**20:.0f} MB in all, {measured['bytes'] / 2**20:.1f} MB file, "
            f"{measured['cpu']:.1f} s CPU; target < {PEAK_TARGET_MB} MB"
        )
        rows.append(value(f"{name}: peak memory", round(measured["rise"] / 2**20, 1), "MB", note=note))
        rows.append(Row(f"{name}: time", [measured["wall"]], note=f"{measured['cpu']:.1f} s CPU"))
    return rows
