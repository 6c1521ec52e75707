"""Reviews of finished games: each move of one player judged against the best move the game's
hard search finds, marked by how much it lowered the mover's expected result.

A review is computed from the record (seats and actions from the start), never from live state,
so it is the same after a restart. Each game that can be reviewed has a hook, ``judge`` in its
``engines.<game>.review`` module, which scores the best and the played move in the game's own
evaluation points; a calibrated curve (data, ``engines/review.json``: a logistic scale per game,
fitted on self-play by ``python -m bench review``) turns points into an expected result between 0
(a loss) and 1 (a win). The marks' thresholds on the drop in expected result are data too.

Games with hidden information (Octa, Octagone's shields) have no hook yet: a review there must
average over what the player could not see, and :data:`REVIEWABLE` leaves them out.
"""

from __future__ import annotations

import importlib
import json
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from engines.registry import engine as registered_engine

__all__ = [
    "MARKS",
    "REVIEWABLE",
    "MoveReview",
    "Review",
    "expected",
    "expected_with",
    "judge_ply",
    "position_points",
    "review_game",
]

DATA = Path(__file__).with_name("review.json")
MARKS = ("best", "good", "inaccuracy", "mistake", "blunder")
REVIEWABLE = ("octego",)  # games with a judging hook and a fitted curve


@cache
def data() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(DATA.read_text())
    return loaded


def curve(game: str) -> dict[str, Any]:
    curves: dict[str, Any] = data()["games"][game]
    return curves


def expected(game: str, score: float) -> float:
    """The expected result (0 loss .. 1 win) of a position worth ``score`` points to its mover."""
    fitted = curve(game)
    return expected_with(score, fitted["scale"], fitted["win"])


def expected_with(score: float, scale: float, win: float) -> float:
    """The logistic curve of ``scale``; a forced win or loss (``win`` points or more) is exact."""
    if score >= win:
        return 1.0
    if score <= -win:
        return 0.0
    return 1.0 / (1.0 + math.exp(-score / scale))


def mark(drop: float, played_best: bool) -> str:
    """The mark of a move that lowered its mover's expected result by ``drop``."""
    if played_best:
        return "best"
    thresholds = data()["thresholds"]
    for name in ("blunder", "mistake", "inaccuracy", "good"):
        if drop >= thresholds[name]:
            return name
    return "best"


def move_accuracy(drop: float) -> float:
    """Lichess's accuracy of one move (100 for no loss) from the drop in expected result."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * 100 * max(0.0, drop)) - 3.1669))


@dataclass(frozen=True)
class MoveReview:
    ply: int  # 1 for the game's first action
    seat: int
    played: str  # the move in the game's notation
    best: str
    before: float  # the mover's expected result with the best move
    after: float  # the mover's expected result after the move played
    mark: str | None  # None: a forced move, never marked
    facts: dict[str, Any] = field(default_factory=dict)

    @property
    def drop(self) -> float:
        return max(0.0, self.before - self.after)


@dataclass(frozen=True)
class Review:
    game: str
    seat: int  # whose moves are judged
    moves: tuple[MoveReview, ...]  # every judged action of the game, both sides, in order

    def own(self) -> list[MoveReview]:
        return [move for move in self.moves if move.seat == self.seat]

    def advantage(self) -> list[float]:
        """The member's expected result before the first move and after every judged one."""
        points = [0.5]
        for move in self.moves:
            points.append(move.after if move.seat == self.seat else 1.0 - move.after)
        return points

    def counts(self) -> dict[str, int]:
        judged = [move.mark for move in self.own() if move.mark is not None]
        return {name: judged.count(name) for name in MARKS}

    def accuracy(self) -> float | None:
        judged = [move for move in self.own() if move.mark is not None]
        if not judged:
            return None
        return sum(move_accuracy(move.drop) for move in judged) / len(judged)

    def worst(self, count: int = 3) -> list[MoveReview]:
        """The member's biggest mistakes (inaccuracies or worse), the largest drop first."""
        bad = [move for move in self.own() if move.mark in ("inaccuracy", "mistake", "blunder")]
        return sorted(bad, key=lambda move: (-move.drop, move.ply))[:count]

    def turning_point(self) -> int | None:
        """The index in :meth:`advantage` of the game's biggest mistake, either side's (the move
        that lost its mover the most expected result: where the game turned); None when no move
        was worse than good. Not the biggest step of the graph: from one move to the next a
        search's horizon moves too, and that step is noise."""
        worst = max(self.moves, key=lambda move: move.drop, default=None)
        if worst is None or worst.mark not in ("inaccuracy", "mistake", "blunder"):
            return None
        return 1 + self.moves.index(worst)

    def to_json(self) -> str:
        return json.dumps({"game": self.game, "seat": self.seat, "moves": [asdict(m) for m in self.moves]})

    @classmethod
    def from_json(cls, text: str) -> Review:
        loaded = json.loads(text)
        moves = tuple(MoveReview(**move) for move in loaded["moves"])
        return cls(loaded["game"], loaded["seat"], moves)


def _hook(game: str) -> Any:
    if game not in REVIEWABLE:
        raise ValueError(f"{game} has no review")
    return importlib.import_module(f"engines.{game}.review")


def position_points(game: str, state: Any) -> float:
    """The game's static evaluation of ``state`` for the player to move (the curve's input)."""
    value: float = _hook(game).points(state)
    return value


def judge_ply(
    game: str,
    players: int,
    options: dict[str, Any],
    seed: int,
    actions: Sequence[tuple[int, dict[str, Any]]],
    ply: int,
    nodes: int | None = None,
) -> MoveReview | None:
    """The review of action number ``ply`` (1-based) of the record, replayed from the start; None
    for an action that is not a move (a resignation). Runs in a worker: plain data in and out."""
    engine = registered_engine(game)
    state = engine.replay(players, options, seed, list(actions[: ply - 1]))
    seat, action = actions[ply - 1]
    judged = _hook(game).judge(state, seat, action, nodes or curve(game)["nodes"])
    if judged is None:
        return None
    played = engine.notation(state, seat, action)
    before = expected(game, judged["best_score"])
    after = expected(game, judged["played_score"])
    if judged["forced"]:
        return MoveReview(ply, seat, played, played, after, after, None, judged["facts"])
    chosen = mark(max(0.0, before - after), judged["best"] == played)
    return MoveReview(ply, seat, played, judged["best"], before, after, chosen, judged["facts"])


def review_game(
    game: str,
    players: int,
    options: dict[str, Any],
    seed: int,
    actions: Sequence[tuple[int, dict[str, Any]]],
    seat: int,
    nodes: int | None = None,
) -> Review:
    """The whole review at once (tests and the benchmark; the bot judges ply by ply in workers)."""
    judged = (judge_ply(game, players, options, seed, actions, ply, nodes) for ply in range(1, len(actions) + 1))
    return Review(game, seat, tuple(move for move in judged if move is not None))
