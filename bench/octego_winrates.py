"""Win rates of Octego's hard computer player against random play, the easy and medium levels.

Run: ``python -m bench.octego_winrates [games] [nodes]`` (defaults: 100 games each, 5,000 search
nodes per hard move, about a fifth of the hard level's own budget, so a run takes minutes; pass
``hard`` as nodes for the level's real budget). The hard level searches by nodes, not time, so the
rates do not depend on how busy the machine is. Colours alternate between games. Draws count as
not won.
"""

from __future__ import annotations

import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from engines.octego import ENGINE, NODE_BUDGET, choose_action

MAX_PLIES = 400  # safety net; the 100-moves-without-capture draw ends games long before
DEFAULT_NODES = 5000


def _random_move(state, seat: int, rng: random.Random) -> dict:
    moves = [a for a in ENGINE.legal_actions(state, seat) if a["type"] == "move"]
    return rng.choice(moves)


def play_game(game: int, opponent: str, nodes: int) -> tuple[str, int, float]:
    """One game; returns (result for hard: "win"/"loss"/"draw", plies, seconds per hard move)."""
    hard_seat = game % 2  # alternate colours
    state = ENGINE.new_game(2, {}, seed=game)
    rng = random.Random(game)
    thinking, hard_moves = 0.0, 0
    while state.outcome is None and state.ply < MAX_PLIES:
        seat = state.to_move
        if seat == hard_seat:
            start = time.perf_counter()
            action = choose_action(state, seat, "hard", seed=game, nodes=nodes)
            thinking += time.perf_counter() - start
            hard_moves += 1
        elif opponent == "random":
            action = _random_move(state, seat, rng)
        else:
            action = choose_action(state, seat, opponent, seed=game + 7919)
        state = ENGINE.apply(state, seat, action)
    per_move = thinking / max(hard_moves, 1)
    if state.outcome is None or state.outcome.is_draw:
        return "draw", state.ply, per_move
    return ("win" if state.outcome.winners == (hard_seat,) else "loss"), state.ply, per_move


def _play(args: tuple[int, str, int]) -> tuple[str, int, float]:
    return play_game(*args)


def measure(opponent: str, games: int, nodes: int) -> dict[str, float]:
    with ProcessPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(_play, [(g, opponent, nodes) for g in range(games)]))
    wins = sum(r == "win" for r, _, _ in results)
    draws = sum(r == "draw" for r, _, _ in results)
    return {
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": games - wins - draws,
        "win_rate": wins / games,
        "mean_plies": sum(p for _, p, _ in results) / games,
        "seconds_per_move": sum(s for _, _, s in results) / games,
    }


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 100
    nodes = DEFAULT_NODES if len(argv) < 2 else NODE_BUDGET["hard"] if argv[1] == "hard" else int(argv[1])
    print(f"Octego hard level, {nodes:,} nodes per move, {games} games per opponent, colours alternate")
    for opponent in ("random", "easy", "medium"):
        start = time.perf_counter()
        r = measure(opponent, games, nodes)
        print(
            f"hard vs {opponent:6s}: win rate {r['win_rate']:.0%} ({r['wins']} won, {r['draws']} drawn, "
            f"{r['losses']} lost; mean {r['mean_plies']:.0f} plies; {r['seconds_per_move'] * 1000:.0f} ms "
            f"per hard move; {time.perf_counter() - start:.0f} s)"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
