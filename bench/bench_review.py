"""Review benchmark (issue 40): the CPU a review takes per game kind, and how well the review's
curve (evaluation -> expected result, engines/review.json) predicts results.

For each reviewable game, the longest of a few medium-against-medium self-play games is reviewed
in this process with the review's own node budget, every move of both sides judged (what the bot
does for one member's review): its CPU seconds against the issue's 30 s. Then the curve's Brier
score on self-play games it was not fitted on (seeds from ``HELD_OUT_SEED``; 0.25 is a coin).
"""

from __future__ import annotations

import time
from typing import Any

import bench
from bench import Row, value
from bench.review_curve import brier, self_play
from engines.registry import engine
from engines.review import REVIEWABLE, curve, review_game

TARGET_SECONDS = 30.0
HELD_OUT_SEED = 1000  # the curve was fitted on seeds 0 to 39 (python -m bench.review_curve)


def longest_game(game: str, seeds: range, limit: int) -> tuple[int, list[tuple[int, dict[str, Any]]]]:
    """The seed and actions of the longest self-play game among ``seeds`` (at most ``limit`` plies)."""
    from engines.octego import choose_action

    played = engine(game)
    longest: tuple[int, list[tuple[int, dict[str, Any]]]] = (seeds[0], [])
    for seed in seeds:
        state = played.new_game(2, {}, seed)
        actions: list[tuple[int, dict[str, Any]]] = []
        while not state.over and len(actions) < limit:
            seat = played.to_act(state)[0]
            action = choose_action(state, seat, "medium", seed)
            actions.append((seat, action))
            state = played.apply(state, seat, action)
        if len(actions) > len(longest[1]):
            longest = (seed, actions)
    return longest


def run() -> list[Row]:
    rows = []
    for game in REVIEWABLE:
        seed, actions = longest_game(game, range(bench.sized(8, 1)), bench.sized(400, 4))
        start = time.process_time()
        review_game(game, 2, {}, seed, actions, seat=0)
        cpu = time.process_time() - start
        note = f"{len(actions)} plies, {curve(game)['nodes']} nodes a search; target under {TARGET_SECONDS:.0f} s"
        rows.append(value(f"review {game}: longest self-play game, CPU", cpu, "s", note=note))
        held = [point for s in range(HELD_OUT_SEED, HELD_OUT_SEED + bench.sized(20, 1)) for point in self_play(s)]
        if held:
            score = brier(held, curve(game)["scale"])
            note = f"{len(held)} positions of held-out self-play games; 0.25 is a coin"
            rows.append(value(f"review {game}: curve's Brier score", score, "", note=note))
    return rows
