"""Octego's hook for puzzles (:mod:`engines.puzzles`): the hard level's search scores every move.

A move is a plan, (start, end): two paths to the same square give the same position, so either
answers a puzzle. Each plan is scored from the mover's view by a full-window search of
``depth`` plies (the plan, then ``depth - 1`` more), like the review's scoring
(:mod:`engines.octego.review`), so a plan's score at two depths compares like for like.

Generating a set is mostly the games' own hard moves, and most of a search is its leaves'
evaluations, a pure function of the board and the player to move that a game's searches meet
again and again (about two in five). :class:`_Search` is the hard level's search with its leaf
evaluation remembered: the same nodes, scores and moves (a test plays a game both ways), in about
two thirds of the time.
"""

from __future__ import annotations

import math
import types
from collections.abc import Iterator, Mapping
from typing import Any

from engines.base import rng_from
from engines.octego import ENGINE, ai, choose_action
from engines.octego.ai import DRAW_CONTEMPT, MAX_DEPTH, WIN, Search, _after, _OutOfBudget, _wins, plans
from engines.octego.rules import OctegoState, find_move, generate_moves, position_key

GAME = "octego"
OPENING_PLIES = 6  # a generated game's first plies are the medium level's (its noise varies them by seed)
GAME_NODES = 6_000  # the hard search's budget in a generated game (its level's search, a quarter of its nodes)
REPLY_NODES = 4_000  # the reply shown to a wrong move: the hard search within this budget
EVALUATIONS_KEPT = 150_000  # leaf evaluations remembered (a game meets some 100,000; about 100 MB), then forgotten


def key(state: OctegoState) -> str:
    """The position (board and player to move): what the set is deduplicated on."""
    return position_key(list(state.board), state.to_move)


def moves(state: OctegoState) -> list[str]:
    """The position's moves, one per plan, each in its shortest notation."""
    board = list(state.board)
    return [_notation(board, state.to_move, plan) for plan in plans(board, state.to_move)]


def move_of(state: OctegoState, seat: int, action: Mapping[str, Any]) -> str | None:
    """The move an action plays, as :func:`moves` names it (any path to the same square); None
    for an action that is no move (a resignation)."""
    if action.get("type") != "move":
        return None
    board = list(state.board)
    played = find_move(board, seat, action["path"])
    return _notation(board, seat, (played.start, played.end))


def action(state: OctegoState, move: str) -> dict[str, Any]:
    return {"type": "move", "path": move}


def scores(state: OctegoState, depth: int, nodes: int) -> dict[str, float] | None:
    """Every move's score for the player to move at ``depth`` plies (the evaluation's points; a
    won position ``WIN`` minus plies), or None when ``nodes`` per move do not suffice."""
    board, seat = list(state.board), state.to_move
    found: dict[str, float] = {}
    for plan in plans(board, seat):
        score = _score(state, board, seat, plan, depth, nodes)
        if score is None:
            return None
        found[_notation(board, seat, plan)] = score
    return found


def wins_at_once(state: OctegoState, move: str) -> bool:
    board = list(state.board)
    played = find_move(board, state.to_move, move)
    return _wins(board, state.to_move, (played.start, played.end))


def reply(state: OctegoState, nodes: int = REPLY_NODES) -> dict[str, Any]:
    """The hard search's answer for the player to move (to show what a wrong move allows)."""
    return choose_action(state, state.to_move, "hard", seed=state.seed, nodes=nodes)


def game(seed: int, nodes: int = GAME_NODES) -> Iterator[tuple[OctegoState, list[tuple[int, dict[str, Any]]]]]:
    """A computer-against-computer game from ``seed``: every position with the record up to it.
    The first :data:`OPENING_PLIES` are the medium level's (its noise makes seeds give different
    games), the rest the hard level's search within ``nodes`` a move."""
    state = ENGINE.new_game(2, {}, seed)
    record: list[tuple[int, dict[str, Any]]] = []
    while not state.over:
        yield state, list(record)
        seat = state.to_move
        chosen = choose_action(state, seat, "medium", seed=seed) if state.ply < OPENING_PLIES else _hard(state, nodes)
        record.append((seat, chosen))
        state = ENGINE.apply(state, seat, chosen)


def _notation(board: list[str], seat: int, plan: tuple[int, int]) -> str:
    """The shortest path of a plan (any of them plays the same)."""
    paths = [m for m in generate_moves(board, seat) if (m.start, m.end) == plan]
    return min(paths, key=lambda m: (len(m.path), m.notation)).notation


def _score(
    state: OctegoState, board: list[str], seat: int, plan: tuple[int, int], depth: int, nodes: int
) -> float | None:
    if _wins(board, seat, plan):
        return float(WIN - 1)
    child = _after(board, plan)
    search = _Search(state, seat, nodes, rng_from(state.seed, "octego-puzzle", state.ply))
    search.deadline = math.inf  # the node budget alone bounds it: the same answer however busy the machine
    if position_key(child, 1 - seat) in search.seen:
        return float(-DRAW_CONTEMPT)  # back into a repetition: the draw it can become (as the search says)
    try:
        score: float = -search._negamax(child, 1 - seat, depth - 1, -WIN * 2, WIN * 2, 1)
        return score
    except _OutOfBudget:
        return None


def _hard(state: OctegoState, nodes: int) -> dict[str, Any]:
    """The hard level's move (:func:`engines.octego.choose_action` at ``nodes``), searched by
    :class:`_Search`: the same move, sooner."""
    seat = state.to_move
    start, end = _Search(state, seat, nodes, rng_from(state.seed, "octego-ai", state.ply)).best(MAX_DEPTH, noise=0)
    paths = [m.notation for m in generate_moves(state.board, seat) if (m.start, m.end) == (start, end)]
    return {"type": "move", "path": paths[0]}


_evaluations: dict[tuple[tuple[str, ...], int], tuple[int, float]] = {}


def _evaluate(board: list[str], seat: int, ply: int = 0) -> float:
    """:func:`engines.octego.ai.evaluate`, remembered: its value is the board's, but for a win or
    loss one move away, which counts the plies to it (kept apart from them here)."""
    key = (tuple(board), seat)
    kept = _evaluations.get(key)
    if kept is None:
        if len(_evaluations) >= EVALUATIONS_KEPT:
            _evaluations.clear()
        value = ai.evaluate(board, seat, ply)
        kept = (-1, value - ply) if value <= -WIN // 2 else (1, value + ply) if value >= WIN // 2 else (0, value)
        _evaluations[key] = kept
    sign, value = kept
    return value - sign * ply


class _Search(Search):
    """The hard level's search, its own negamax (the same code, not a copy) with the leaf
    evaluation looked up in :func:`_evaluate`."""

    _negamax = types.FunctionType(
        Search._negamax.__code__, {**vars(ai), "evaluate": _evaluate}, "_negamax", Search._negamax.__defaults__
    )
