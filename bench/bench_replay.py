"""Replay benchmark: the animated replay of a 60-move Octego game (issue #18: under 3 s on the
2-core machine, in the one worker process that draws it), its frames alone, and its size in
the chosen format against an animated GIF of the same frames.

The note of the timing row gives the CPU seconds too: wall time on a shared machine includes
waiting for a core.
"""

from __future__ import annotations

import itertools
import time

from bench import Row, measure, value
from engines.octego import ENGINE, choose_action
from render import replay

NAMES = ["Ada", "Bo"]
MOVES = 60
TARGET_SECONDS = 3.0
FIRST_SEED = 36  # medium against medium from this seed ends by itself at move 60


def sixty_move_game() -> tuple[int, list[tuple[int, dict]]]:
    """The seed and actions of the first medium-level game, from FIRST_SEED on, that ends at move 60."""
    for seed in itertools.count(FIRST_SEED):
        state, actions = ENGINE.new_game(2, {}, seed), []
        while not state.over and len(actions) < MOVES:
            seat = ENGINE.to_act(state)[0]
            action = choose_action(state, seat, "medium", seed)
            state = ENGINE.apply(state, seat, action)
            actions.append((seat, action))
        if state.over and len(actions) == MOVES:
            return seed, actions
    raise AssertionError("unreachable")


def run() -> list[Row]:
    seed, actions = sixty_move_game()

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
    name = f"replay of a {MOVES}-move octego game"
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
    ]
