"""Review benchmark (issue 40): the CPU a review takes per game kind, and how well each game's
review curve (evaluation -> expected result, engines/review.json) predicts results.

For each game whose moves a review judges, the longest of a few medium-against-medium self-play
games is reviewed in this process with the game's own budget per position, for the first player
(what the bot does for one member's review; in a game with hidden information the other
player's moves are only valued, not judged): its CPU seconds against the issue's 30 s. Then the
curve's Brier score on self-play games it was not fitted on (seeds from ``HELD_OUT_SEED``; 0.25 is
a coin). Octagion's race is reviewed by rounds (no search): the CPU of a 16-round race's review.
"""

from __future__ import annotations

import time
from typing import Any

import bench
from bench import Row, value
from bench.review_curve import brier, curve_games, self_play, self_play_game
from engines.octagion import ENGINE as OCTAGION
from engines.octagion import solution
from engines.review import Played, curve, review_game, review_rounds
from render.wording import plural

TARGET_SECONDS = 30.0
HELD_OUT_SEED = 1000  # the curves were fitted on seeds 0 to 19 (python scripts/fit_review_curves.py)


def longest_game(game: str, seeds: range, limit: int) -> tuple[int, list[tuple[int, dict[str, Any]]]]:
    """The seed and actions of the longest self-play game among ``seeds`` (at most ``limit`` plies)."""
    played = [(seed, self_play_game(game, seed, limit)[1]) for seed in seeds]
    return max(played, key=lambda found: len(found[1]))


def race(rounds: int) -> list[tuple[int, dict[str, Any]]]:
    """A two-player Octagion race: the first player answers six right cards a round, the other none."""
    state = OCTAGION.new_game(2, {"rounds": rounds}, 7)
    actions: list[tuple[int, dict[str, Any]]] = []
    while not state.over:
        for action in (
            {"type": "set_variant", "cards": [*(solution(state.words[0]) or [])[:6], None, None]},
            {"type": "end_round", "reason": "timer", "round": state.round},
            {"type": "next_round"},
        ):
            if not state.over:
                actions.append((0, action))
                state = OCTAGION.apply(state, 0, action)
    return actions


def run() -> list[Row]:
    rows = []
    for game in curve_games():
        seed, actions = longest_game(game, range(bench.sized(6, 1)), bench.sized(400, 4))
        start = time.process_time()
        review_game(Played(game, 2, {}, seed, tuple(actions)), seat=0, viewer=0)
        cpu = time.process_time() - start
        note = f"{len(actions)} plies, budget {curve(game)['nodes']} a position; target under {TARGET_SECONDS:.0f} s"
        rows.append(value(f"review {game}: longest self-play game, CPU", cpu, "s", note=note))
        held = [point for s in range(HELD_OUT_SEED, HELD_OUT_SEED + bench.sized(10, 1)) for point in self_play(game, s)]
        if held:
            note = f"{len(held)} positions of held-out self-play games; 0.25 is a coin"
            score = brier(game, held, curve(game)["scale"])
            rows.append(value(f"review {game}: curve's Brier score", score, "", note=note))
    actions = race(bench.sized(16, 1))
    start = time.process_time()
    review_rounds(Played("octagion", 2, {"rounds": bench.sized(16, 1)}, 7, tuple(actions)), seat=0)
    note = f"{plural(bench.sized(16, 1), 'round')} against the solver; target under {TARGET_SECONDS:.0f} s"
    rows.append(value("review octagion: a race's rounds, CPU", time.process_time() - start, "s", note=note))
    return rows
