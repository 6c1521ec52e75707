"""Octego's hook for reviews (engines.review): the hard level's search judges one move.

The best move is the one the hard search (:class:`engines.octego.ai.Search`) picks within the
review's node budget; then the best and the played move are both scored by a full-window search
to the depth that search completed, so the two scores compare like for like. Facts about the
move (it allowed a win, the best move captured ...) are returned as codes, never English.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.base import Event, rng_from

from .ai import DRAW_CONTEMPT, MAX_DEPTH, WIN, Search, _after, _attacks, _OutOfBudget, _wins, evaluate, plans
from .constants import OCTEGO
from .rules import OctegoState, find_move, generate_moves, position_key

SCORING_SHARE = 2  # the scoring searches may use this many times the picking search's nodes


def hidden(state: OctegoState) -> bool:
    """Octego hides nothing: both sides' moves are judged in either player's review."""
    return False


def judge(
    state: OctegoState, seat: int, action: dict[str, Any], nodes: int, seen: Sequence[Event] = ()
) -> dict[str, Any] | None:
    """The best move, its score and the played move's score from ``seat``'s view (the
    evaluation's points; a won position ``WIN`` minus plies), or None for what is not a move
    (a resignation). ``forced`` when only one destination was legal: nothing to judge, but its
    score still draws the advantage graph."""
    if action.get("type") != "move":
        return None
    board = list(state.board)
    move = find_move(board, seat, action["path"])
    played = (move.start, move.end)
    root = plans(board, seat)
    facts = _facts(board, seat, played)
    search = Search(state, seat, nodes, rng_from(state.seed, "octego-review", state.ply))
    best = search.best(MAX_DEPTH, noise=0)
    depth = max(1, search.depth_reached)
    best_score = _score(state, seat, best, depth, nodes * SCORING_SHARE)
    played_score = best_score if best == played else _score(state, seat, played, depth, nodes * SCORING_SHARE)
    if played_score > best_score:  # the deeper look at the played move found more: it was the best
        best, best_score = played, played_score
    best_path = move.notation if best == played else _path(board, seat, best)
    facts.update({f"best_{key}": value for key, value in _facts(board, seat, best).items() if key in _OWN_FACTS})
    return {
        "forced": len(root) == 1,
        "best": best_path,
        "best_score": best_score,
        "played_score": played_score,
        "facts": facts,
    }


_OWN_FACTS = ("wins", "captures")


def points(state: OctegoState) -> float:
    """The static evaluation of ``state`` for the player to move (what the curve is fitted on)."""
    return evaluate(list(state.board), state.to_move)


def _path(board: list[str], seat: int, plan: tuple[int, int]) -> str:
    """The shortest path of a (start, end) plan in notation (any of them plays the same)."""
    paths = [m for m in generate_moves(board, seat) if (m.start, m.end) == plan]
    return min(paths, key=lambda m: len(m.path)).notation


def _score(state: OctegoState, seat: int, plan: tuple[int, int], depth: int, nodes: int) -> float:
    """``plan``'s score for ``seat`` by a full-window search of ``depth`` plies after it (fewer
    when the budget runs out: a shallower exact score beats a deeper bound)."""
    board = list(state.board)
    if _wins(board, seat, plan):
        return float(WIN - 1)
    child = _after(board, plan)
    for reach in range(depth, 0, -1):
        search = Search(state, seat, nodes, rng_from(state.seed, "octego-review", state.ply))
        if position_key(child, 1 - seat) in search.seen:
            return float(-DRAW_CONTEMPT)  # back into a repetition: the draw it can become (as the search says)
        try:
            return -search._negamax(child, 1 - seat, reach - 1, -WIN * 2, WIN * 2, 1)
        except _OutOfBudget:
            continue
    return 0.0


def _facts(board: list[str], seat: int, plan: tuple[int, int]) -> dict[str, Any]:
    """What a move does at once, as codes: it wins, it captures a kind, it lets the opponent win
    or capture a kind next move."""
    facts: dict[str, Any] = {}
    if _wins(board, seat, plan):
        facts["wins"] = True
        return facts
    taken = board[plan[1]]
    if taken:
        facts["captures"] = taken[1]
    child = _after(board, plan)
    if any(_wins(child, 1 - seat, reply) for reply in plans(child, 1 - seat)):
        facts["allows_win"] = True
    else:
        _, hits, _ = _attacks(child, 1 - seat)
        kinds = [child[sq][1] for sq in hits]
        if kinds:
            facts["allows_capture"] = OCTEGO if OCTEGO in kinds else max(kinds)
    return facts
