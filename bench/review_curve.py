"""The review curve's self-play (engines/review.json): ``python scripts/fit_review_curves.py``
fits it, ``python -m bench review`` measures it; ``python -m bench.review_curve [games] [game ...]``
prints the fit without writing it.

Medium against medium self-play games from fixed seeds; at every position, the static evaluation
for the side to act (the reviewer's ``points``) against that side's final result (1, 1/2, 0).
The logistic scale with the lowest Brier score on the even-numbered games is kept; the Brier
score printed is on the odd-numbered games (held out).
"""

from __future__ import annotations

import sys
from typing import Any

from engines.registry import engine, games, package
from engines.review import curve, expected_with, kind, position_points, reviewable

# Scales tried, as multiples of the scale in engines/review.json: from a hundredth to a hundred times.
FACTORS = [round(0.01 * 1.2**step, 5) for step in range(51)]
LIMIT = 400  # plies: a self-play game longer than this is cut (and counts as a draw)


def curve_games() -> list[str]:
    """The games whose moves are judged on the curve (a race is reviewed by rounds)."""
    return [game for game in games() if reviewable(game) and kind(game) == "moves"]


def self_play_game(game: str, seed: int, limit: int = LIMIT) -> tuple[Any, list[tuple[int, dict[str, Any]]]]:
    """A medium-against-medium game of two players from ``seed``: its last state and its actions."""
    played, choose = engine(game), package(game).choose_action
    state = played.new_game(2, {}, seed)
    actions: list[tuple[int, dict[str, Any]]] = []
    while not state.over and len(actions) < limit:
        seat = played.to_act(state)[0]
        action = choose(state, seat, "medium", seed)
        actions.append((seat, action))
        state = played.apply(state, seat, action)
    return state, actions


def self_play(game: str, seed: int, limit: int = LIMIT) -> list[tuple[float, float]]:
    """(points for the side to act, that side's final result) at every position of one game."""
    played = engine(game)
    state = played.new_game(2, {}, seed)
    final, actions = self_play_game(game, seed, limit)
    ranks = final.outcome.ranks if final.outcome is not None else (1, 1)
    win = curve(game)["win"]
    points: list[tuple[float, float]] = []
    for seat, action in actions:
        score = position_points(game, state)
        if abs(score) < win:
            result = 0.5 if ranks[0] == ranks[1] else float(ranks[seat] == 1)
            points.append((score, result))
        state = played.apply(state, seat, action)
    return points


def brier(game: str, points: list[tuple[float, float]], scale: float) -> float:
    win = curve(game)["win"]
    return sum((expected_with(score, scale, win) - result) ** 2 for score, result in points) / max(1, len(points))


def fit(game: str, count: int, first_seed: int = 0) -> dict[str, Any]:
    """The scale fitted on ``count`` self-play games (even ones fitted, odd ones held out)."""
    played = [self_play(game, seed) for seed in range(first_seed, first_seed + count)]
    fitted = [point for index, points in enumerate(played) if index % 2 == 0 for point in points]
    held = [point for index, points in enumerate(played) if index % 2 == 1 for point in points]
    guess = curve(game)["scale"]
    scale = min((guess * factor for factor in FACTORS), key=lambda scale: brier(game, fitted, scale))
    return {"scale": round(scale, 3), "fitted": len(fitted), "held": len(held), "brier": brier(game, held, scale)}


def main(count: int, chosen: list[str]) -> None:
    for game in chosen or curve_games():
        found = fit(game, count)
        print(
            f"{game}: {count} self-play games, {found['fitted']} positions fitted, {found['held']} held out; "
            f"scale {found['scale']}, Brier {found['brier']:.4f} on held-out games (0.25 = a coin)"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20, sys.argv[2:])
