"""Puzzles cut from real games: a position where one move wins clearly and every other move
loses the advantage, with its answer, verified deeper than it was found.

A puzzle is found in a computer-against-computer game at the hard level (each game's hook,
``engines.puzzles.<game>``, plays it and scores every move of a position with the game's own
search). A position is a candidate when, at :data:`FIND_DEPTH`, its best move's expected result
(the review's calibrated curve, :func:`engines.review.expected`) is at least :data:`WINNING`,
every other move's at most :data:`LOST_ADVANTAGE`, and the best beats the second best by
:data:`MARGIN`; it is a puzzle when the same move passes the same test at each of
:data:`VERIFY_DEPTHS`, deeper searches than the one that found it.

A puzzle is stored as the game it came from (seed, options and the record's moves up to it), so
it replays exactly through the engine's public API, with its answer and the depths that
verified it. The shipped sets are ``engines/puzzles/<game>.json`` (``scripts/make_puzzles.py``
writes them, deduplicated by position). Pure: no clock, no I/O but reading the shipped data.

The daily puzzle of each game is drawn from its set with the Octagion Daily's days
(:mod:`engines.octagion.daily`): one per UTC day, the same for everyone, the whole set in one
seeded order, again and again, so a puzzle comes back exactly ``len(set)`` days after it was shown
(a set of 365 or more repeats none within a year).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

from engines.octagion.daily import DAILY_EPOCH, WIN_SCORE, StreakSummary, puzzle_day, puzzle_number, streaks
from engines.registry import engine as registered_engine
from engines.review import expected

from .rating import Rating, update

__all__ = [
    "FIND_DEPTH",
    "GAMES",
    "VERIFY_DEPTHS",
    "Puzzle",
    "Rating",
    "answer_action",
    "daily",
    "daily_streaks",
    "find",
    "is_answer",
    "load",
    "puzzle",
    "puzzle_day",
    "puzzle_number",
    "repeat_days",
    "reply",
    "update",
    "verdict",
]

GAMES = ("octego", "octagone")  # the games with a puzzle hook and a shipped set
FIND_DEPTH = 2
VERIFY_DEPTHS = (3, 4)
WINNING = 0.7  # the answer's expected result, at least
LOST_ADVANTAGE = 0.5  # every other move's, at most: none keeps an advantage
MARGIN = 0.2  # the answer beats the second best by this much: every other move is a mistake, in the review's marks
# The wider net of the scan at FIND_DEPTH (a cheap search misjudges some positions either way).
NET = {"winning": 0.55, "lost_advantage": 0.7, "margin": 0.05}
NODES = 400_000  # per move and depth: a position whose scoring needs more is no puzzle
FIRST_PLY = 8  # positions of the opening (its first plies come from the medium level) are skipped
RATINGS = {"at_once": 1100, "shallow": 1400, "deep": 1700}  # a puzzle's rating by what finds its answer
DATA = Path(__file__).parent
DAILY_SEED = "puzzle-daily-v1"


Record = tuple[tuple[int, dict[str, Any]], ...]


@dataclass(frozen=True)
class Puzzle:
    game: str
    seed: int
    moves: Record  # the game's record up to the puzzle: (seat, action) pairs
    answer: str  # the move, in the game's notation (any action playing the same move is right)
    depths: tuple[int, ...]  # the depths that verified it
    margins: tuple[float, ...]  # the answer's lead in expected result over the second best, per depth
    rating: int
    options: Mapping[str, Any] = field(default_factory=dict)
    players: int = 2

    @property
    def id(self) -> str:
        """Stable and short: the position's own hash (what the set is deduplicated on)."""
        return hashlib.sha1(_hook(self.game).key(self.state()).encode()).hexdigest()[:10]

    @property
    def seat(self) -> int:
        """The solver's seat: the player to move."""
        return int(self.state().to_move)

    def state(self) -> Any:
        return _state(self.game, self.players, json.dumps(dict(self.options)), self.seed, json.dumps(self.moves))

    def to_dict(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "options": dict(self.options),
            "players": self.players,
            "moves": [[seat, action] for seat, action in self.moves],
            "answer": self.answer,
            "depths": list(self.depths),
            "margins": [round(margin, 3) for margin in self.margins],
            "rating": self.rating,
        }

    @classmethod
    def from_dict(cls, game: str, data: Mapping[str, Any]) -> Puzzle:
        return cls(
            game=game,
            seed=data["seed"],
            moves=tuple((seat, dict(action)) for seat, action in data["moves"]),
            answer=data["answer"],
            depths=tuple(data["depths"]),
            margins=tuple(data["margins"]),
            rating=data["rating"],
            options=dict(data.get("options", {})),
            players=data.get("players", 2),
        )


@cache
def _state(game: str, players: int, options: str, seed: int, moves: str) -> Any:
    actions = [(seat, action) for seat, action in json.loads(moves)]
    return registered_engine(game).replay(players, json.loads(options), seed, actions)


def _hook(game: str) -> Any:
    if game not in GAMES:
        raise ValueError(f"{game} has no puzzles")
    return importlib.import_module(f"engines.puzzles.{game}")


# ---------------------------------------------------------------- finding


def verdict(
    game: str,
    state: Any,
    depths: Sequence[int],
    nodes: int = NODES,
    bounds: tuple[float, float, float] = (WINNING, LOST_ADVANTAGE, MARGIN),
) -> tuple[str, tuple[float, ...]] | None:
    """The one move that wins clearly at every depth of ``depths`` and its lead over the second
    best at each, or None when the position is no puzzle (no such move, two of them, a different
    one at another depth, or a search beyond ``nodes``). ``bounds``: the answer's least expected
    result, the others' most, the least lead."""
    hook, answer, margins = _hook(game), None, []
    winning, lost_advantage, margin = bounds
    for depth in depths:
        scores = hook.scores(state, depth, nodes)
        if scores is None or len(scores) < 2:
            return None
        ranked = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
        (best, top), (_, second) = ranked[0], ranked[1]
        won, kept = expected(game, top), expected(game, second)
        if won < winning or kept > lost_advantage or won - kept < margin or answer not in (None, best):
            return None
        answer = best
        margins.append(won - kept)
    return (answer, tuple(margins)) if answer is not None else None


def _rating(game: str, state: Any, answer: str) -> int:
    """How hard the answer is to see: a move that wins at once, one a one-ply look already
    prefers, or one only a deeper search finds."""
    hook = _hook(game)
    if hook.wins_at_once(state, answer):
        return RATINGS["at_once"]
    shallow = hook.scores(state, 1, NODES) or {}
    return RATINGS["shallow"] if shallow and max(shallow, key=shallow.__getitem__) == answer else RATINGS["deep"]


def find(game: str, seed: int) -> Iterator[Puzzle]:
    """The puzzles of the computer-against-computer game of ``seed``, in the game's order."""
    hook = _hook(game)
    for state, record in hook.game(seed):
        net = (NET["winning"], NET["lost_advantage"], NET["margin"])
        if state.ply < FIRST_PLY or verdict(game, state, (FIND_DEPTH,), bounds=net) is None:
            continue
        verified = verdict(game, state, VERIFY_DEPTHS)
        if verified is None:
            continue
        answer, margins = verified
        rating = _rating(game, state, answer)
        yield Puzzle(game, seed, tuple(record), answer, VERIFY_DEPTHS, margins, rating)


# ---------------------------------------------------------------- the shipped sets


@cache
def load(game: str) -> tuple[Puzzle, ...]:
    """The shipped set of ``game`` (empty when none is shipped)."""
    path = DATA / f"{game}.json"
    if game not in GAMES or not path.exists():
        return ()
    data = json.loads(path.read_text())
    return tuple(Puzzle.from_dict(game, item) for item in data["puzzles"])


def puzzle(game: str, puzzle_id: str) -> Puzzle | None:
    return _by_id(game).get(puzzle_id)


@cache
def _by_id(game: str) -> dict[str, Puzzle]:
    return {item.id: item for item in load(game)}


# ---------------------------------------------------------------- solving


def is_answer(item: Puzzle, action: Mapping[str, Any]) -> bool:
    """Whether ``action`` (the solver's, on the puzzle's position) plays the answer."""
    return bool(_hook(item.game).move_of(item.state(), item.seat, action) == item.answer)


def answer_action(item: Puzzle) -> dict[str, Any]:
    action: dict[str, Any] = _hook(item.game).action(item.state(), item.answer)
    return action


def reply(item: Puzzle, action: Mapping[str, Any]) -> dict[str, Any] | None:
    """What a wrong ``action`` allows: the hard search's reply on the position after it (None
    when the game is over after it)."""
    after = registered_engine(item.game).apply(item.state(), item.seat, dict(action))
    if after.over:
        return None
    found: dict[str, Any] = _hook(item.game).reply(after)
    return found


# ---------------------------------------------------------------- the daily puzzle


def daily(game: str, day: date) -> Puzzle | None:
    """``day``'s puzzle of ``game``, the same for everyone; None when no set is shipped."""
    puzzles = load(game)
    if not puzzles:
        return None
    return puzzles[_order(game)[(day - DAILY_EPOCH).days % len(puzzles)]]


def repeat_days(game: str) -> int:
    """How many days pass before a daily puzzle of ``game`` comes back: the size of its set."""
    return len(load(game))


@cache
def _order(game: str) -> tuple[int, ...]:
    """The set in the days' order: one seeded shuffle, the same every cycle (a new shuffle per
    cycle could show a puzzle at the end of one cycle and again at the start of the next)."""
    order = list(range(len(load(game))))
    random.Random(f"{DAILY_SEED}:{game}").shuffle(order)
    return tuple(order)


def daily_streaks(plays: Iterable[tuple[date, bool]], today: date) -> StreakSummary:
    """Current and longest streaks of days played and solved, from every (day, solved) a member
    played: the Octagion Daily's streaks, a solved day counting as a won one."""
    return streaks(((day, WIN_SCORE if solved else 0) for day, solved in plays), today)
