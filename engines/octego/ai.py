"""Computer opponents for Octego: "easy", "medium" and "hard".

easy   a weighted random legal move (prefers wins, captures and advancing Octegos).
medium a 2-ply search with the full evaluation and a little noise.
hard   alpha-beta negamax with iterative deepening and move ordering, within a node budget.

A level's strength is set by search nodes (and depth), never by the clock, so it plays the
same moves however busy the machine is; a wall-clock cap far above a normal move only guards
against a pathological position. The search works on destinations only: two paths to the same
square give the same position.
"""

from __future__ import annotations

import random
import time
from typing import Any

from engines.base import rng_from

from .constants import BOARD_SIZE, HOME_ROW, OCTEGO
from .rules import OctegoState, generate_moves, occupancy, piece_targets, position_key

LEVELS = ("easy", "medium", "hard")
# Search nodes per move. Hard: about 0.8 s of search on a quiet machine (the strength of the
# former 0.8 s time budget); medium never needs its budget (a depth-2 search is a few hundred nodes).
NODE_BUDGET = {"medium": 10_000, "hard": 24_000}
MEDIUM_DEPTH = 2
MAX_DEPTH = 12
SAFETY_SECONDS = 10.0  # a search stops at this wall-clock time whatever its node budget

WIN = 100_000
PIECE_VALUE = {"1": 100, "2": 100, "3": 110, OCTEGO: 350}
# Bonus for an Octego by rows advanced from its own home row (0 .. 6; 7 is a win).
OCTEGO_ADVANCE = (0, 10, 22, 38, 60, 95, 150)
MOBILITY_WEIGHT = 3
HANGING_SHARE_TO_MOVE = 0.7  # the side to move can usually cash in its best capture
HANGING_SHARE_WAITING = 0.25  # threats against the side to move: it can only parry one
GOAL_THREAT_PENALTY = 250  # the opponent's Octego can reach our home row next move
DRAW_CONTEMPT = 60  # a draw counts as this much worse than level for the searching side


Plan = tuple[int, int]  # (start square, end square)


def choose_action(
    state: OctegoState, seat: int, level: str = "medium", seed: int = 0, nodes: int | None = None
) -> dict[str, Any]:
    """A legal action for ``seat`` (the player to move). ``nodes`` replaces the level's node
    budget (:data:`NODE_BUDGET`) for the medium and hard searches: tests and win-rate runs pass
    a small one. The same state, level, seed and budget give the same move (short of the
    :data:`SAFETY_SECONDS` cap, which a normal move never nears)."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
    if state.over or seat != state.to_move:
        raise ValueError(f"seat {seat} cannot move now: the game is over or it is not their turn")
    moves = generate_moves(state.board, seat)
    if not moves:  # cannot happen in a running game (no legal move ends it), but stay legal
        return {"type": "resign"}
    rng = rng_from(seed, "octego-ai", state.ply)
    if level == "easy":
        weights = [_easy_weight(state.board, seat, m.start, m.end) for m in moves]
        return {"type": "move", "path": rng.choices(moves, weights)[0].notation}
    search = Search(state, seat, NODE_BUDGET[level] if nodes is None else nodes, rng)
    start, end = search.best(MEDIUM_DEPTH if level == "medium" else MAX_DEPTH, noise=8 if level == "medium" else 0)
    paths = [m.notation for m in moves if m.start == start and m.end == end]
    return {"type": "move", "path": paths[0]}


def _easy_weight(board: list[str], seat: int, start: int, end: int) -> float:
    kind = board[start][1]
    if kind == OCTEGO and end // BOARD_SIZE == HOME_ROW[1 - seat]:
        return 40.0
    if board[end]:
        return 8.0 if board[end][1] == OCTEGO else 4.0
    if kind == OCTEGO and _advance(seat, end) > _advance(seat, start):
        return 2.5
    return 1.0


def _advance(seat: int, square: int) -> int:
    """Rows travelled from ``seat``'s home row."""
    row = square // BOARD_SIZE
    return row if seat == 0 else BOARD_SIZE - 1 - row


def plans(board: list[str], seat: int) -> list[Plan]:
    mark = str(seat)
    occupied = occupancy(board)
    return [
        (sq, end)
        for sq, cell in enumerate(board)
        if cell and cell[0] == mark
        for end in piece_targets(board, sq, occupied)
    ]


def _after(board: list[str], plan: Plan) -> list[str]:
    new = board[:]
    new[plan[1]] = new[plan[0]]
    new[plan[0]] = ""
    return new


def _wins(board: list[str], seat: int, plan: Plan) -> bool:
    """Does ``plan`` (on ``board`` before it is played) win the game at once?"""
    start, end = plan
    if board[start][1] == OCTEGO and end // BOARD_SIZE == HOME_ROW[1 - seat]:
        return True
    taken = board[end]
    return bool(taken) and taken[1] == OCTEGO and board.count(taken) == 1


class _OutOfBudget(Exception):
    pass


class Search:
    """Negamax alpha-beta with iterative deepening; scores are from the mover's view.

    The search stops after ``max_nodes`` nodes (or :data:`SAFETY_SECONDS`) and plays the best
    move of the deepest iteration it finished."""

    def __init__(self, state: OctegoState, seat: int, max_nodes: int, rng: random.Random) -> None:
        self.state, self.seat, self.rng = state, seat, rng
        self.max_nodes = max_nodes
        self.deadline = time.perf_counter() + SAFETY_SECONDS
        self.nodes = 0
        self.killers: dict[int, Plan] = {}
        self.noise = 0
        self.seen = set(state.history)  # positions since the last capture
        self.depth_reached = 0

    def best(self, max_depth: int, noise: int) -> Plan:
        self.noise = noise
        board, seat = list(self.state.board), self.seat
        root = plans(board, seat)
        self.rng.shuffle(root)  # variety between equal moves
        for plan in root:
            if _wins(board, seat, plan):
                return plan
        scores = {plan: self._static_order(board, plan) for plan in root}
        best_plan = max(root, key=scores.__getitem__)
        for depth in range(1, max_depth + 1):
            try:
                scores = self._root(board, seat, root, scores, depth)
            except _OutOfBudget:
                break
            self.depth_reached = depth
            top = max(scores.values())
            candidates = [p for p in root if scores[p] >= top - noise]
            best_plan = self.rng.choice(candidates) if abs(top) < WIN // 2 else max(root, key=scores.__getitem__)
            if abs(top) >= WIN // 2:
                break  # a forced result is known; deeper search cannot change it
        return best_plan

    def _root(
        self, board: list[str], seat: int, root: list[Plan], previous: dict[Plan, float], depth: int
    ) -> dict[Plan, float]:
        root.sort(key=previous.__getitem__, reverse=True)
        alpha: float = -WIN * 2
        scores: dict[Plan, float] = {}
        for plan in root:
            child = _after(board, plan)
            score: float
            if position_key(child, 1 - seat) in self.seen:
                score = -DRAW_CONTEMPT  # heading back into a repetition: the draw it can become
            else:
                # Scores within ``noise`` of the best so far must be exact; others may be bounds.
                score = -self._negamax(child, 1 - seat, depth - 1, -WIN * 2, -alpha + self.noise + 1, 1)
            scores[plan] = score
            alpha = max(alpha, score)
        return scores

    def _negamax(self, board: list[str], seat: int, depth: int, alpha: float, beta: float, ply: int) -> float:
        self.nodes += 1
        if self.nodes > self.max_nodes or (self.nodes & 1023 == 0 and time.perf_counter() > self.deadline):
            raise _OutOfBudget
        if depth <= 0:
            return evaluate(board, seat, ply)
        if position_key(board, seat) in self.seen:
            # A position met before: either side could steer into a repetition draw.
            return -DRAW_CONTEMPT if seat == self.seat else DRAW_CONTEMPT
        moves = plans(board, seat)
        if not moves:
            return -WIN + ply  # no legal move loses
        for plan in moves:
            if _wins(board, seat, plan):
                return WIN - ply
        moves.sort(key=lambda plan: self._order(board, plan, ply), reverse=True)
        best: float = -WIN * 2
        for plan in moves:
            score = -self._negamax(_after(board, plan), 1 - seat, depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best = score
            if score > alpha:
                alpha = score
            if alpha >= beta:
                if not board[plan[1]]:
                    self.killers[ply] = plan
                break
        return best

    def _order(self, board: list[str], plan: Plan, ply: int) -> float:
        if self.killers.get(ply) == plan:
            return 500
        return self._static_order(board, plan)

    @staticmethod
    def _static_order(board: list[str], plan: Plan) -> float:
        start, end = plan
        taken = board[end]
        score = 1000 + PIECE_VALUE[taken[1]] if taken else 0
        mover = board[start]
        if mover[1] == OCTEGO:
            seat = int(mover[0])
            score += 40 * (_advance(seat, end) - _advance(seat, start))
        return score


def _attacks(board: list[str], seat: int) -> tuple[int, list[int], list[Plan]]:
    """(number of distinct moves, squares of opponent pieces attacked, Octego goal moves)."""
    mark = str(seat)
    goal_row = HOME_ROW[1 - seat]
    occupied = occupancy(board)
    count, attacked, goal = 0, [], []
    for sq, cell in enumerate(board):
        if cell and cell[0] == mark:
            targets = piece_targets(board, sq, occupied)
            count += len(targets)
            for end in targets:
                if board[end]:
                    attacked.append(end)
                elif cell[1] == OCTEGO and end // BOARD_SIZE == goal_row:
                    goal.append((sq, end))
    return count, attacked, goal


def evaluate(board: list[str], seat: int, ply: int = 0) -> float:
    """Score of ``board`` for ``seat``, the player to move (positive = good for seat).

    Material, Octego advancement, mobility and Octego safety (pieces under attack and
    Octegos about to reach our home row). Wins and losses one move away are exact."""
    mine, my_hits, my_goal = _attacks(board, seat)
    if mine == 0:
        return -WIN + ply  # no legal move loses
    opponent_octego = f"{1 - seat}{OCTEGO}"
    if my_goal or (board.count(opponent_octego) == 1 and any(board[sq] == opponent_octego for sq in my_hits)):
        return WIN - ply - 1  # we win with the next move
    score = 0.0
    for sq, cell in enumerate(board):
        if not cell:
            continue
        owner, kind = int(cell[0]), cell[1]
        value = PIECE_VALUE[kind]
        if kind == OCTEGO:
            value += OCTEGO_ADVANCE[min(_advance(owner, sq), len(OCTEGO_ADVANCE) - 1)]
        score += value if owner == seat else -value
    theirs, their_hits, their_goal = _attacks(board, 1 - seat)
    score += MOBILITY_WEIGHT * (mine - theirs)
    if my_hits:
        score += HANGING_SHARE_TO_MOVE * max(PIECE_VALUE[board[sq][1]] for sq in my_hits)
    score -= HANGING_SHARE_WAITING * sum(PIECE_VALUE[board[sq][1]] for sq in set(their_hits))
    if their_goal:
        # Unless we can take that Octego, we must block every goal square it has.
        runners = {start for start, _ in their_goal}
        if not runners & set(my_hits):
            score -= GOAL_THREAT_PENALTY * len({end for _, end in their_goal})
    return score
