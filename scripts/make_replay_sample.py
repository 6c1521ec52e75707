"""Write docs/replay-octego.webp, the replay the README shows: a short Octego game between two
computer players, drawn exactly as the bot's Replay button draws one.

    python scripts/make_replay_sample.py
"""

from __future__ import annotations

import itertools
from pathlib import Path

from engines.octego import ENGINE, choose_action
from render.replay import replay_picture

ROOT = Path(__file__).resolve().parent.parent

NAMES = ["Ada", "Bo"]
LEVEL = "easy"  # easy players make a short game with captures
FIRST_SEED = 52  # the first seed, from here on, whose game ends by move MAX_MOVES is kept
MAX_MOVES = 20  # a short game keeps the file a few hundred KB


def short_game() -> tuple[int, list[tuple[int, dict]]]:
    for seed in itertools.count(FIRST_SEED):
        state, actions = ENGINE.new_game(2, {}, seed), []
        while not state.over and len(actions) < MAX_MOVES:
            seat = ENGINE.to_act(state)[0]
            action = choose_action(state, seat, LEVEL, seed)
            state = ENGINE.apply(state, seat, action)
            actions.append((seat, action))
        if state.over:
            return seed, actions
    raise AssertionError("unreachable")


def main() -> None:
    seed, actions = short_game()
    picture = replay_picture("octego", 2, {}, seed, actions, NAMES)
    target = ROOT / "docs" / f"replay-octego.{picture.filename.rsplit('.', 1)[1]}"
    target.write_bytes(picture.png)
    print(f"{target.relative_to(ROOT)}: {len(picture.png):,} bytes, seed {seed}, {len(actions)} moves")
    print(picture.description)


if __name__ == "__main__":
    main()
