"""``python -m bench.review_curve [games]``: fit Octego's review curve (engines/review.json) on
self-play and print its quality.

Medium against medium self-play games from fixed seeds; at every position, the static evaluation
for the side to move against that side's final result (1, 1/2, 0). The logistic scale with the
lowest Brier score on the even-numbered games is kept; the Brier score printed is on the
odd-numbered games (held out).
"""

from __future__ import annotations

import sys

from engines.octego import choose_action
from engines.registry import engine
from engines.review import curve, expected_with, position_points

SCALES = [float(scale) for scale in range(50, 1001, 25)]


def self_play(seed: int, limit: int = 160) -> list[tuple[float, float]]:
    octego = engine("octego")
    state = octego.new_game(2, {}, seed)
    points: list[tuple[float, int]] = []
    while not state.over and state.ply < limit:
        seat = state.to_move
        points.append((position_points("octego", state), seat))
        state = octego.apply(state, seat, choose_action(state, seat, "medium", seed))
    scores = state.outcome.scores if state.outcome is not None else (0.5, 0.5)
    win = curve("octego")["win"]
    return [(score, scores[seat]) for score, seat in points if abs(score) < win]


def brier(points: list[tuple[float, float]], scale: float) -> float:
    return sum((expected_with(score, scale, curve("octego")["win"]) - result) ** 2 for score, result in points) / len(
        points
    )


def main(games: int) -> None:
    played = [self_play(seed) for seed in range(games)]
    fit = [point for index, game in enumerate(played) if index % 2 == 0 for point in game]
    held = [point for index, game in enumerate(played) if index % 2 == 1 for point in game]
    scale = min(SCALES, key=lambda scale: brier(fit, scale))
    print(f"octego: {games} self-play games, {len(fit)} positions fitted, {len(held)} held out")
    print(f"octego: scale {scale:.0f}, Brier {brier(held, scale):.4f} on held-out games (0.25 = a coin)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
