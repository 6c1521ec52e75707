"""Write the reviews the README shows, one per game, into docs/: for each two-player game whose
moves are judged, Ada (easy) against Bo (medium) reviewed for Ada exactly as the bot's Review
button does (docs/review-<game>-graph.png and docs/review-<game>-mistake.png, her biggest mistake
drawn as she saw it), and an Octagion race's rounds against the solver (docs/review-octagion.png).

    nice -n 10 python scripts/make_review_sample.py
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

from bench.bench_review import race
from bench.review_curve import curve_games
from bot.features.review.reviews import summary, why
from engines.registry import engine, package
from engines.review import Played, review_game, review_rounds
from render.review import advantage_graph, mistake_board, rounds_table

ROOT = Path(__file__).resolve().parent.parent
NAMES = ["Ada", "Bo"]
SEEDS = {"octego": 7, "octa": 3, "octagone": 3, "octiles": 3}  # Octego's is the game tests/bot/test_review.py reviews
LIMIT = 60


def game(name: str, seed: int) -> list[tuple[int, dict[str, Any]]]:
    played, choose = engine(name), package(name).choose_action
    state = played.new_game(2, {}, seed)
    actions: list[tuple[int, dict[str, Any]]] = []
    while not state.over and len(actions) < LIMIT:
        seat = played.to_act(state)[0]
        action = choose(state, seat, "easy" if seat == 0 else "medium", state.ply)
        actions.append((seat, action))
        state = played.apply(state, seat, action)
    return actions


def main() -> None:
    for name in curve_games():
        seed = SEEDS.get(name, 3)
        played = Played(name, 2, {}, seed, tuple(game(name, seed)))
        review = review_game(played, seat=0, viewer=0)
        (ROOT / "docs" / f"review-{name}-graph.png").write_bytes(advantage_graph(review.to_json(), NAMES[0]).png)
        worst = review.worst()[0]
        board = mistake_board(played, asdict(worst), NAMES, why(name, worst, NAMES))
        (ROOT / "docs" / f"review-{name}-mistake.png").write_bytes(board.png)
        print(f"{name}: Ada's {summary(review)}")
    rounds = review_rounds(Played("octagion", 2, {"rounds": 4}, 7, tuple(race(4))), seat=0)
    (ROOT / "docs" / "review-octagion.png").write_bytes(rounds_table(rounds.to_json(), NAMES[0]).png)
    print(f"octagion: Ada's {rounds.points()} points, the solver's {rounds.best_points()}")


if __name__ == "__main__":
    main()
