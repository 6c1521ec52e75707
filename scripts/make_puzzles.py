"""Generates the shipped puzzle sets (engines/puzzles/<game>.json) from computer-against-computer
games at the hard level: ``python scripts/make_puzzles.py --game octego --games 200``.

Deterministic: the game of each seed is the same everywhere (node budgets, never the clock), so a
set is a function of the seeds it was cut from. The file records those seeds; a run adds the
next ``--games`` seeds not yet done (from ``--first-seed``), keeps the puzzles deduplicated by
position (the first found wins) and in the order of their seeds, and writes after every game,
so a run stopped by its ``--budget`` (seconds of this process's CPU) or by Ctrl-C keeps what it
found. Run it under ``nice``: it uses one core; a second run on other seeds (``--first-seed`` and
``--out``) is added with ``--merge`` (a position found by both keeps the lower seed's puzzle).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines import puzzles


def ranges(seeds: set[int]) -> list[list[int]]:
    """[[first, last], ...] of consecutive seeds."""
    found: list[list[int]] = []
    for seed in sorted(seeds):
        if found and found[-1][1] == seed - 1:
            found[-1][1] = seed
        else:
            found.append([seed, seed])
    return found


def read(path: Path) -> tuple[set[int], list[dict[str, Any]]]:
    if not path.exists():
        return set(), []
    data = json.loads(path.read_text())
    done = {seed for first, last in data["seeds"] for seed in range(first, last + 1)}
    return done, data["puzzles"]


def write(path: Path, game: str, done: set[int], items: list[dict[str, Any]]) -> None:
    items = sorted(items, key=lambda item: (item["seed"], len(item["moves"])))
    data = {
        "game": game,
        "made_by": "python scripts/make_puzzles.py (computer against computer at the hard level)",
        "criteria": {
            "find_depth": puzzles.FIND_DEPTH,
            "verify_depths": list(puzzles.VERIFY_DEPTHS),
            "winning": puzzles.WINNING,
            "lost_advantage": puzzles.LOST_ADVANTAGE,
            "margin": puzzles.MARGIN,
        },
        "seeds": ranges(done),
        "count": len(items),
        "puzzles": items,
    }
    lines = ",\n".join("    " + json.dumps(item, separators=(",", ":")) for item in items)
    head = json.dumps({key: value for key, value in data.items() if key != "puzzles"}, indent=2)[:-2]
    partial = path.with_suffix(".partial")  # written whole, then renamed: never read half-written
    partial.write_text(f'{head},\n  "puzzles": [\n{lines}\n  ]\n}}\n')
    partial.replace(path)


def draw(game: str, path: Path) -> None:
    """The board of the set's first puzzle, as /puzzle shows it (README's picture)."""
    from render.lessons import lesson_picture

    item = puzzles.load(game)[0]
    names = ["Bot", "Bot"]
    names[item.seat] = "You"
    path.write_bytes(lesson_picture(game, item.state(), names).png)
    print(f"{path}: puzzle {item.id}, answer {item.answer}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=puzzles.GAMES, default=puzzles.GAMES[0])
    parser.add_argument("--games", type=int, default=50, help="how many more games (seeds) to cut puzzles from")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--budget", type=float, default=None, help="stop starting games after this much CPU (s)")
    parser.add_argument("--out", type=Path, default=None, help="default: the shipped set")
    parser.add_argument("--merge", type=Path, default=None, help="only add the seeds and puzzles of this set file")
    parser.add_argument("--picture", type=Path, default=None, help="only draw the set's first puzzle there (README's)")
    args = parser.parse_args()
    if args.picture:
        draw(args.game, args.picture)
        return
    path = args.out or puzzles.DATA / f"{args.game}.json"
    done, items = read(path)
    known = {puzzles.Puzzle.from_dict(args.game, item).id for item in items}
    if args.merge:  # another run's seeds (two runs on two cores): the same puzzles as one run over both
        more_done, more = read(args.merge)
        merged: dict[str, dict[str, Any]] = {}
        for item in sorted(items + more, key=lambda item: (item["seed"], len(item["moves"]))):
            merged.setdefault(puzzles.Puzzle.from_dict(args.game, item).id, item)
        items = list(merged.values())
        write(path, args.game, done | more_done, items)
        print(f"{len(items)} in the set")
        return
    seed, played, started = args.first_seed, 0, time.process_time()
    while played < args.games:
        if args.budget is not None and time.process_time() - started > args.budget:
            print(f"budget spent after {played} games", flush=True)
            break
        if seed in done:
            seed += 1
            continue
        found = 0
        for cut in puzzles.find(args.game, seed):
            if cut.id not in known:
                known.add(cut.id)
                items.append(cut.to_dict())
                found += 1
        done.add(seed)
        write(path, args.game, done, items)
        print(f"seed {seed}: {found} new, {len(items)} in the set", flush=True)
        seed, played = seed + 1, played + 1


if __name__ == "__main__":
    main()
