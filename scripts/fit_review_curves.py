"""Fit each game's review curve on self-play and write it to engines/review.json.

    nice -n 10 python scripts/fit_review_curves.py [games] [game ...]

For every game whose moves a review judges (or those named), ``games`` medium-against-medium
self-play games (20 by default) from seeds 0 up: the logistic scale with the lowest Brier score on
the even-numbered games is written as the game's ``scale``, with a note of what it was fitted on
and its Brier score on the odd-numbered ones (held out). The marks' thresholds, each game's
``win`` and its budget (``nodes``) are kept. ``python -m bench review`` then measures the curve on
other games (seeds from 1000). A few minutes on one core.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from bench.review_curve import curve_games, fit
from engines.review import DATA


def main(count: int, chosen: list[str]) -> None:
    data = json.loads(DATA.read_text())
    for game in chosen or curve_games():
        found = fit(game, count)
        entry = data["games"][game]
        entry["scale"] = found["scale"]
        entry["fitted_on"] = (
            f"python scripts/fit_review_curves.py {count}: {count} medium self-play games, "
            f"Brier {found['brier']:.3f} on the {count - (count + 1) // 2} held out"
        )
        print(f"{game}: scale {found['scale']}, Brier {found['brier']:.4f} on {found['held']} held-out positions")
    write(DATA, data)


def write(path: Path, data: dict[str, Any]) -> None:
    """One line per game, as the file is read by people."""
    games = ",\n".join(f"    {json.dumps(game)}: {json.dumps(entry)}" for game, entry in data["games"].items())
    path.write_text(f'{{\n  "thresholds": {json.dumps(data["thresholds"])},\n  "games": {{\n{games}\n  }}\n}}\n')


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20, sys.argv[2:])
