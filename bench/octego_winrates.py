"""Win rates of Octego's hard computer player against random play, the easy and medium levels.

Run: ``python -m bench.octego_winrates [games] [budget_seconds]`` (defaults: 100 games each,
0.15 s per hard move). Colours alternate between games. Draws count as not won.
"""

from __future__ import annotations

import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from engines.octego import ENGINE
from engines.octego.ai import choose_action

MAX_PLIES = 400  # safety net; the 100-moves-without-capture draw ends games long before


def _random_move(state, seat: int, rng: random.Random) -> dict:
    moves = [a for a in ENGINE.legal_actions(state, seat) if a["type"] == "move"]
    return rng.choice(moves)


def play_game(game: int, opponent: str, budget: float) -> tuple[str, int]:
    """One game; returns (result for hard: "win"/"loss"/"draw", plies)."""
    hard_seat = game % 2  # alternate colours
    state = ENGINE.new_game(2, {}, seed=game)
    rng = random.Random(game)
    while not state.is_over and state.move_number < MAX_PLIES:
        seat = state.to_move
        if seat == hard_seat:
            action = choose_action(state, seat, "hard", seed=game, time_budget=budget)
        elif opponent == "random":
            action = _random_move(state, seat, rng)
        else:
            action = choose_action(state, seat, opponent, seed=game + 7919)
        state = ENGINE.apply(state, seat, action)
    if state.winner is None:
        return "draw", state.move_number
    return ("win" if state.winner == hard_seat else "loss"), state.move_number


def _play(args: tuple[int, str, float]) -> tuple[str, int]:
    return play_game(*args)


def measure(opponent: str, games: int, budget: float) -> dict[str, float]:
    with ProcessPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(_play, [(g, opponent, budget) for g in range(games)]))
    wins = sum(r == "win" for r, _ in results)
    draws = sum(r == "draw" for r, _ in results)
    return {
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": games - wins - draws,
        "win_rate": wins / games,
        "mean_plies": sum(p for _, p in results) / games,
    }


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 100
    budget = float(argv[1]) if len(argv) > 1 else 0.15
    print(f"Octego hard level, {budget:.2f} s per move, {games} games per opponent, colours alternate")
    for opponent in ("random", "easy", "medium"):
        start = time.perf_counter()
        r = measure(opponent, games, budget)
        print(
            f"hard vs {opponent:6s}: win rate {r['win_rate']:.0%} ({r['wins']} won, {r['draws']} drawn, "
            f"{r['losses']} lost; mean {r['mean_plies']:.0f} plies; {time.perf_counter() - start:.0f} s)"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
