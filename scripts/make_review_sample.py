"""Write docs/review-graph.png and docs/review-mistake.png, the review the README shows: Ada
(easy) against Bo (medium) at Octego, reviewed for Ada exactly as the bot's Review button does.

    python scripts/make_review_sample.py
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

from bot.features.review.reviews import summary, why
from engines.octego import ENGINE, choose_action
from engines.review import review_game
from render.review import advantage_graph, mistake_board

ROOT = Path(__file__).resolve().parent.parent
NAMES = ["Ada", "Bo"]
SEED = 7  # the game tests/bot/test_review.py reviews
LIMIT = 60


def game() -> list[tuple[int, dict[str, Any]]]:
    state = ENGINE.new_game(2, {}, SEED)
    actions: list[tuple[int, dict[str, Any]]] = []
    while not state.over and len(actions) < LIMIT:
        seat = state.to_move
        action = choose_action(state, seat, "easy" if seat == 0 else "medium", state.ply)
        actions.append((seat, action))
        state = ENGINE.apply(state, seat, action)
    return actions


def main() -> None:
    actions = game()
    review = review_game("octego", 2, {}, SEED, actions, seat=0)
    (ROOT / "docs" / "review-graph.png").write_bytes(advantage_graph(review.to_json(), NAMES[0]).png)
    worst = review.worst()[0]
    board = mistake_board("octego", 2, {}, SEED, actions, asdict(worst), NAMES, why("octego", worst, NAMES))
    (ROOT / "docs" / "review-mistake.png").write_bytes(board.png)
    print(f"Ada: {summary(review)}")


if __name__ == "__main__":
    main()
