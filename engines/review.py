"""Reviews of finished games: each move of one player judged against the best move the game's
hard search finds, marked by how much it lowered the mover's expected result.

A review is computed from the record (seats and actions from the start), never from live state,
so it is the same after a restart. Each game declares its reviewer once, in :data:`_REVIEWERS`: a
module ``engines.<game>.review`` whose ``judge`` scores the best and the played move, either in the
game's own evaluation points or, for a game that averages over samples, as expected results
already; a calibrated curve (data, ``engines/review.json``: a logistic scale per game, fitted on
self-play by ``python scripts/fit_review_curves.py``) turns points into an expected result between
0 (a loss) and 1 (a win). The marks' thresholds on the drop in expected result are data too.

Hidden information (Octa's cards, Octagone's shields with four players): a reviewer whose
``hidden(state)`` is true judges a move only on what its mover could know, averaging over the
hidden cards or shields consistent with what that player had seen (a fixed number of samples from
an RNG seeded by the game, so a review is always the same). In one member's review of such a game
the other seats' moves are not judged at all: the graph shows the member's own expected result
after them, from the member's view (``value``), so a review never tells what another player held.

A reviewer may instead review by rounds (``rounds``: Octagion's race, the solver's best word
against the member's), which :func:`review_rounds` returns; :func:`kind` says which a game has.
"""

from __future__ import annotations

import importlib
import json
import math
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from engines.base import Event
from engines.registry import MissingPart, games
from engines.registry import engine as registered_engine

__all__ = [
    "MARKS",
    "REVIEWABLE",
    "MoveReview",
    "Played",
    "Review",
    "RoundsReview",
    "check",
    "expected",
    "expected_with",
    "from_json",
    "judge_ply",
    "kind",
    "position_points",
    "review_game",
    "review_rounds",
    "reviewable",
]

DATA = Path(__file__).with_name("review.json")
MARKS = ("best", "good", "inaccuracy", "mistake", "blunder")
# Each game's reviewer, declared once: game -> its module. Every list of reviewable games derives
# from this; a registered game without one fails :func:`check`, which names it.
_REVIEWERS: dict[str, str] = {
    "octagion": "engines.octagion.review",
    "octego": "engines.octego.review",
    "octa": "engines.octa.review",
    "octagone": "engines.octagone.review",
    "octiles": "engines.octiles.review",
}
REVIEWABLE = tuple(_REVIEWERS)  # kept for the callers that test membership


@dataclass(frozen=True)
class Played:
    """A game as its record replays it, what every review starts from: the game, its number of
    players, its options and seed, and its actions, (seat, action) in order. Plain data, so it goes
    to the computer workers as it is."""

    game: str
    players: int
    options: dict[str, Any]
    seed: int
    actions: tuple[tuple[int, dict[str, Any]], ...]

    def with_action(self, seat: int, action: dict[str, Any]) -> Played:
        """The same game with one more action (the move a hint weighs)."""
        return Played(self.game, self.players, self.options, self.seed, (*self.actions, (seat, action)))


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


def reviewable(game: str) -> bool:
    """Whether finished games of ``game`` can be reviewed (it declared a reviewer)."""
    return game in _REVIEWERS


def check(game: str) -> None:
    """Raise :class:`MissingPart` naming a registered game without a reviewer or without a curve."""
    if game not in games():
        raise MissingPart(f"{game!r} is not a registered game (engines/registry.py)")
    if game not in _REVIEWERS:
        raise MissingPart(f"{game}: no reviewer declared (engines/review.py, _REVIEWERS)")
    if kind(game) == "moves" and game not in data()["games"]:
        raise MissingPart(f"{game}: no review curve (engines/review.json)")


def kind(game: str) -> str:
    """ "moves" (each move judged) or "rounds" (each round against the solver's best)."""
    return "rounds" if hasattr(_hook(game), "rounds") else "moves"


def _hook(game: str) -> Any:
    if game not in _REVIEWERS:
        raise ValueError(f"{game} has no review")
    return importlib.import_module(_REVIEWERS[game])


def position_points(game: str, state: Any) -> float:
    """The game's static evaluation of ``state`` for the player to move (the curve's input)."""
    value: float = _hook(game).points(state)
    return value


def judge_ply(played: Played, ply: int, nodes: int | None = None, viewer: int | None = None) -> MoveReview | None:
    """The review of action number ``ply`` (1-based) of the record, replayed from the start; None
    for an action that is not a move (a resignation). Runs in a worker: plain data in and out.

    ``nodes`` is the budget of one position (the game's own unit: nodes searched, or samples of
    the hidden cards); ``viewer``, the seat whose review this is: in a game with hidden
    information another seat's move is then only valued from the viewer's view, not judged."""
    game, actions = played.game, played.actions
    engine = registered_engine(game)
    hook = _hook(game)
    state, seen = _replayed(engine, played, ply - 1)
    seat, action = actions[ply - 1]
    budget = nodes or curve(game)["nodes"]
    if action.get("type") in ("resign", "forfeit"):
        return None
    notation = engine.notation(state, seat, action)
    if viewer is not None and viewer != seat and hook.hidden(state):
        after_state = engine.apply(state, seat, action)
        mine = _result_for(after_state, viewer)
        if mine is None:
            mine = hook.value(after_state, viewer, budget, [*seen, *after_state.events])
        return MoveReview(ply, seat, notation, notation, 1.0 - mine, 1.0 - mine, None, {})
    judged = hook.judge(state, seat, action, budget, seen)
    if judged is None:
        return None
    if "best_expected" in judged:  # a sampled judge averages expected results, not points
        before, after = judged["best_expected"], judged["played_expected"]
    else:
        before, after = expected(game, judged["best_score"]), expected(game, judged["played_score"])
    if judged["forced"]:
        return MoveReview(ply, seat, notation, notation, after, after, None, judged["facts"])
    chosen = mark(max(0.0, before - after), judged["best"] == notation)
    return MoveReview(ply, seat, notation, judged["best"], before, after, chosen, judged["facts"])


def _replayed(engine: Any, played: Played, plies: int) -> tuple[Any, list[Event]]:
    """The state after the record's first ``plies`` actions and every event on the way (public:
    what every player saw)."""
    state = engine.new_game(played.players, played.options, played.seed)
    seen = list(state.events)
    for seat, action in played.actions[:plies]:
        state = engine.apply(state, seat, action)
        seen.extend(state.events)
    return state, seen


def _result_for(state: Any, seat: int) -> float | None:
    """A finished game's result for ``seat``'s side (1 won, 0 lost, 1/2 a draw), else None."""
    if state.outcome is None:
        return None
    outcome = state.outcome
    if outcome.is_draw:
        return 0.5
    side = next((s for s in outcome.sides() if seat in s), (seat,))
    return 1.0 if set(side) & set(outcome.winners) else 0.0


def review_game(played: Played, seat: int, nodes: int | None = None, viewer: int | None = None) -> Review:
    """The whole review at once (tests and the benchmark; the bot judges ply by ply in workers).
    ``viewer`` as in :func:`judge_ply` (the bot passes the reviewed seat)."""
    judged = (judge_ply(played, ply, nodes, viewer) for ply in range(1, len(played.actions) + 1))
    return Review(played.game, seat, tuple(move for move in judged if move is not None))


@dataclass(frozen=True)
class RoundsReview:
    """A race reviewed by rounds (Octagion): for each round the member's team's answer and points
    against the solver's best answer and the points it would have scored."""

    game: str
    seat: int
    rounds: tuple[dict[str, Any], ...]

    def points(self) -> int:
        return sum(entry["points"] for entry in self.rounds)

    def best_points(self) -> int:
        return sum(entry["best_points"] for entry in self.rounds)

    def at_best(self) -> int:
        """Rounds in which the team scored as much as the solver would have."""
        return sum(entry["points"] >= entry["best_points"] for entry in self.rounds)

    def to_json(self) -> str:
        return json.dumps({"game": self.game, "seat": self.seat, "rounds": list(self.rounds)})

    @classmethod
    def from_json(cls, text: str) -> RoundsReview:
        loaded = json.loads(text)
        return cls(loaded["game"], loaded["seat"], tuple(loaded["rounds"]))


def review_rounds(played: Played, seat: int) -> RoundsReview:
    """The review of a game reviewed by rounds (:func:`kind` "rounds"), for ``seat``'s team."""
    rounds = _hook(played.game).rounds(played.players, played.options, played.seed, list(played.actions), seat)
    return RoundsReview(played.game, seat, tuple(rounds))


def from_json(text: str) -> Review | RoundsReview:
    """A stored review of either kind."""
    return RoundsReview.from_json(text) if "rounds" in json.loads(text) else Review.from_json(text)
