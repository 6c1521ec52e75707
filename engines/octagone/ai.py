"""Octagone's computer opponent.

Levels (how much each beats the one below: ``python -m bench.octagone_levels``):

* ``easy`` judges each move by the position it leads to and draws one at random, the better
  moves more likely;
* ``medium`` looks a little ahead: three plies with two players, two plies with four (over
  several deals of the hidden shields, remembering the colours each seat was seen to lack),
  with the evaluation fitted to played games; it beats a one-move greedy player (``greedy``,
  for the benchmark only: the best position one ply ahead by the plain evaluation);
* ``hard`` looks much further: with two players an alpha-beta search within a budget of
  positions (never of time) with a finer evaluation; with four players it plays each move's game
  out to the end many times, over deals of the hidden shields, and keeps the move that wins most.

Only fair information is used. With two players the opponent's hand is public in effect (all 42
shields minus one's own minus those on the board), so the search sees the whole game. With four
players the other hands stay hidden (unless the game is played with open hands): the computer
deals the shields it has not seen among the other three seats, consistently with what everyone
saw, several times, and averages how each move fares over the deals.

The search runs on a compact copy of the position (bit masks and small lists) that follows the
rules of :mod:`engines.octagone.rules`; a test checks that both agree move by move.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, cast

from engines.base import rng_from
from engines.octagone.board import BOXES, COLOURS, DIRECTIONS, JOKER, SHIELDS_PER_COLOUR, WHITE_LADY, box_colour, ray
from engines.octagone.board import connection_line as _connection_line
from engines.octagone.rules import ADVANCED, OctagoneEngine, OctagoneState

ENGINE_FOR_AI = OctagoneEngine()  # engines are stateless: this is the same rules as the package's ENGINE
LEVELS = ("easy", "medium", "hard")


# What the evaluation weighs, each counted for the side that judges minus the other side.
FEATURES = (
    "shield",  # shields fewer than the other side
    "turn",  # our side places the next shield
    "joker",  # jokers in hand: they fit any box
    "missing",  # colours the other side no longer holds (ours count against us)
    "exposed",  # free boxes of colours a seat without jokers lacks: where it would skip
    "jokerless",  # seats without a joker
    "threat",  # the player to move may send the next seat, jokerless, to a colour it lacks
    "turn_odd",  # our turn while an odd number of boxes is free
    "forced",  # the player to move lacks the target's colour and must spend a joker
    "surplus",  # shields that will find no free box of their colour, shared by who holds them
)
# How much each feature is worth, in shields. PLAIN: a first guess (shields, the turn, jokers);
# TUNED_2P: fitted by logistic regression to the results of 1,500 two-player games between
# computer players (kept as fitted; it pays off in a deep search, not one ply ahead).
PLAIN = (1.0, 0.5, 0.3, 0.0, 0.05, 0.0, 0.0, 0.0, 0.0, 0.0)
TUNED_2P = (1.0, 0.222, 1.377, 0.136, 0.075, -0.637, 0.405, 0.248, -0.111, 3.359)
WIN = 1000.0  # a won game, above any evaluation
ROLLOUT_MARGIN = 0.02  # a played-out game: each shield of margin, beside the result (+1, 0, -1)


@dataclass(frozen=True)
class LevelPlan:
    """How a level thinks, for one player count."""

    weights: tuple[float, ...]  # one per FEATURES
    nodes: int = 0  # positions the search may expand per move; 0: no budget but the depth
    depth: int = 0  # plies searched at most; 0: as deep as the nodes allow (one ply without nodes)
    deals: int = 1  # four players: deals of the unseen shields tried (they share the nodes)
    remember_skips: bool = False  # four players: deals respect the colours seats were seen to lack
    joker_hints: float = 0.0  # four players: how often a deal reads a joker placed on a box as lacking its colour
    temperature: float = 0.0  # 0: the best move; else moves drawn with weights exp(value / temperature)
    rollouts: int = 0  # games played out to the end after each move, per deal; 0: the evaluation instead


# Tuned with bench/octagone_levels.py so that each level clearly beats the one below, and medium
# beats a one-move greedy player ("greedy", not offered to members: PLAIN one ply ahead, over
# guessed deals with four players). With four players a search that trusts one deal misleads
# (the fitted weights lost to PLAIN one ply ahead, and deep searches lost to played-out games),
# while two plies over eight deals with the fitted weights beat greedy; played-out games, which
# only need the rules, beat that medium.
PLANS = {
    "greedy": {2: LevelPlan(PLAIN), 4: LevelPlan(PLAIN, deals=8)},
    "easy": {2: LevelPlan(PLAIN, temperature=0.85), 4: LevelPlan(PLAIN, temperature=0.4)},
    "medium": {
        2: LevelPlan(TUNED_2P, depth=3),
        4: LevelPlan(TUNED_2P, depth=2, deals=8, remember_skips=True, joker_hints=0.8),
    },
    "hard": {
        2: LevelPlan(TUNED_2P, nodes=4000),
        4: LevelPlan(PLAIN, deals=16, rollouts=8, remember_skips=True, joker_hints=0.8),
    },
}
MAX_DEPTH = 60  # plies: more than a game lasts, so only the node budget stops the search

# --- the compact board -----------------------------------------------------------------------------

BOX_INDEX = {box: index for index, box in enumerate(BOXES)}
COLUMNS = 7
JOKER_KIND = len(COLOURS)  # hands are lists: six colour counts, then the jokers
KIND_NAMES = (*COLOURS, JOKER)
DIRECTION_NAMES = tuple(DIRECTIONS)
NO_BOX = -1


def _lines(advanced: bool) -> tuple[tuple[tuple[int, bool], ...], ...]:
    """For every box and direction, the line an arrow looks along (the perimeter connection
    included) as a bit mask of boxes, and whether it runs towards higher box numbers.

    Every line is straight, so box numbers along it only grow or only shrink: the first free box
    is then the lowest or the highest bit of the free part of the mask.
    """
    table = []
    for box in BOXES:
        per_direction = []
        for direction in DIRECTION_NAMES:
            line = ray(box, direction)
            if not line and advanced:
                line = _connection_line(box, direction)
            indices = [BOX_INDEX[other] for other in line]
            ascending = indices == sorted(indices)
            assert ascending or indices == sorted(indices, reverse=True)
            per_direction.append((sum(1 << other for other in indices), ascending))
        table.append(tuple(per_direction))
    return tuple(table)


LINES = {True: _lines(True), False: _lines(False)}


ROW_MASKS = tuple(sum(1 << box for box in range(row * COLUMNS, (row + 1) * COLUMNS)) for row in range(len(COLOURS)))


COLOUR_RANGE = range(len(COLOURS))
ALL_BOXES = (1 << len(BOXES)) - 1

# Hands packed into one number, five bits per (seat, kind): no count reaches 32.
HAND_CODE = tuple(tuple(1 << 5 * (seat * 7 + kind) for kind in range(7)) for seat in range(4))


def _colour(box: int) -> int:
    return box // COLUMNS


class Position:
    """A mutable, compact Octagone position for search: ``play`` and ``undo`` moves in place.

    A move is ``(kind, direction index, designated box)``; the direction is only kept to name
    the move, since after the turn only the designated box matters.
    """

    __slots__ = (
        "advanced",
        "code",
        "hands",
        "held",
        "lady",
        "left",
        "lines",
        "occupied",
        "over",
        "players",
        "target",
        "to_move",
    )

    def __init__(self, players: int, advanced: bool, hands: list[list[int]], occupied: int, lady: int, target: int):
        self.players = players
        self.advanced = advanced
        self.lines = LINES[advanced]
        self.hands = hands
        self.left = [sum(hand) for hand in hands]
        self.held = [sum(counts) for counts in zip(*hands, strict=True)]  # per kind, all seats together
        self.code = sum(
            count * HAND_CODE[seat][kind] for seat, hand in enumerate(hands) for kind, count in enumerate(hand)
        )
        self.occupied = occupied
        self.lady = lady  # the White Lady's box while she stands on the board
        self.target = target
        self.to_move = NO_BOX
        self.over = False

    @classmethod
    def from_state(cls, state: OctagoneState, hands: list[list[int]] | None = None) -> Position:
        if hands is None:
            hands = [[hand[kind] for kind in KIND_NAMES] for hand in state.hands]
        occupied = 0
        for box in state.board:
            occupied |= 1 << BOX_INDEX[box]
        lady = BOX_INDEX[state.white_lady] if state.white_lady is not None else NO_BOX
        target = BOX_INDEX[state.target] if state.target is not None else NO_BOX
        position = cls(state.players, state.level == ADVANCED, hands, occupied, lady, target)
        position.to_move = state.to_move if state.to_move is not None else NO_BOX
        position.over = state.over
        return position

    def key(self) -> tuple[int, int, int, int, int]:
        """What decides the rest of the game (the hands are packed into ``code``)."""
        return (self.occupied, self.code, self.target, self.to_move, self.lady)

    def side_left(self, seat: int) -> int:
        """Shields left to ``seat``'s side (``seat + 1`` is always on the other side)."""
        seat %= self.players
        if self.players == 4:
            return self.left[seat % 2] + self.left[seat % 2 + 2]
        return self.left[seat]

    def moves(self) -> list[tuple[int, int, int]]:
        """The distinct placements of the seat to move: one per (shield kind, designated box)."""
        target = self.target
        hand = self.hands[self.to_move]
        colour = _colour(target)
        kinds = [kind for kind in (colour, JOKER_KIND) if hand[kind]]
        occupied = self.occupied | (1 << target)
        if self.lady != NO_BOX:
            occupied &= ~(1 << self.lady)
        lines = self.lines[target]
        moves = []
        for kind in kinds:
            last_free = kind == JOKER_KIND and self.advanced
            seen = set()
            for direction, (mask, ascending) in enumerate(lines):  # _designated, inlined: the search's hot spot
                free = mask & ~occupied
                if free:
                    box = free.bit_length() - 1 if ascending == last_free else (free & -free).bit_length() - 1
                    if box not in seen:
                        seen.add(box)
                        moves.append((kind, direction, box))
            if not seen:  # no free box to aim at: placing it ends the game
                moves.append((kind, 0, NO_BOX))
        return moves

    def play(self, move: tuple[int, int, int]) -> tuple[int, int, int, int]:
        """Place a shield; returns what ``undo`` needs."""
        kind, _, designated = move
        seat = self.to_move
        saved = (self.occupied, self.lady, self.target, seat)
        self.hands[seat][kind] -= 1
        self.held[kind] -= 1
        self.left[seat] -= 1
        self.code -= HAND_CODE[seat][kind]
        self.occupied |= 1 << self.target
        if self.lady != NO_BOX:
            self.occupied &= ~(1 << self.lady)
            self.lady = NO_BOX
        self.target = designated
        if self.left[seat] == 0 or designated == NO_BOX:
            self.over = True
        else:
            self._advance(seat)
        return saved

    def undo(self, move: tuple[int, int, int], saved: tuple[int, int, int, int]) -> None:
        self.occupied, self.lady, self.target, seat = saved
        self.to_move = seat
        self.hands[seat][move[0]] += 1
        self.held[move[0]] += 1
        self.left[seat] += 1
        self.code += HAND_CODE[seat][move[0]]
        self.over = False

    def _advance(self, mover: int) -> None:
        colour = _colour(self.target)
        for step in range(1, self.players + 1):
            seat = (mover + step) % self.players
            hand = self.hands[seat]
            if hand[colour] or hand[JOKER_KIND]:
                self.to_move = seat
                return
            if self.lady != NO_BOX:  # a skip is a turn: she leaves after it too
                self.occupied &= ~(1 << self.lady)
                self.lady = NO_BOX
        self.over = True

    def open_with_lady(self, box: int, target: int) -> None:
        """The starter's opening: the White Lady on ``box`` designates ``target``."""
        self.occupied |= 1 << box
        self.lady = box
        self.target = target
        self._advance(self.to_move)

    def result_for(self, seat: int) -> int:
        """Once over: +1 if ``seat``'s side has fewer shields left, -1 if more, 0 for a draw."""
        mine, theirs = self.side_left(seat), self.side_left(seat + 1)
        return (mine < theirs) - (mine > theirs)


def _designated(occupied: int, line: tuple[int, bool], last_free: bool) -> int:
    """The first free box along ``line`` (the last one if ``last_free``), or NO_BOX."""
    mask, ascending = line
    free = mask & ~occupied
    if not free:
        return NO_BOX
    if ascending == last_free:
        return free.bit_length() - 1
    return (free & -free).bit_length() - 1


# --- evaluation and search -----------------------------------------------------------------------


class _OutOfNodes(Exception):
    pass


def features(position: Position, seat: int) -> tuple[float, ...]:
    """What the evaluation weighs (``FEATURES``), each for ``seat``'s side minus the other side.

    Written for speed: the search calls it at every leaf.
    """
    occupied = position.occupied
    free = [(mask & ~occupied).bit_count() for mask in ROW_MASKS]
    hands = position.hands
    held = position.held
    # The share of each colour's shields that will find no free box of their colour.
    stuck = [(held[c] - free[c]) / held[c] if held[c] > free[c] else 0.0 for c in COLOUR_RANGE]
    jokers = missing = exposed = jokerless = surplus = 0.0
    team = seat % 2 if position.players == 4 else seat
    for other, hand in enumerate(hands):
        sign = 1 if other % 2 == team or other == seat else -1
        seat_missing = seat_exposed = 0
        seat_surplus = 0.0
        for colour in COLOUR_RANGE:
            count = hand[colour]
            if count:
                seat_surplus += count * stuck[colour]
            else:
                seat_missing += 1
                seat_exposed += free[colour]
        jokers += sign * hand[JOKER_KIND]
        missing -= sign * seat_missing
        surplus -= sign * seat_surplus
        if not hand[JOKER_KIND]:
            jokerless -= sign
            exposed -= sign * seat_exposed
    mover = position.to_move
    turn = 1 if mover % 2 == team or mover == seat else -1
    after = hands[(mover + 1) % position.players]
    threat = 0 if after[JOKER_KIND] else turn * sum(free[c] for c in COLOUR_RANGE if not after[c])
    forced = 0 if hands[mover][position.target // COLUMNS] else -turn
    return (
        position.side_left(seat + 1) - position.side_left(seat),
        turn,
        jokers,
        missing,
        exposed,
        jokerless,
        threat,
        turn * (sum(free) % 2),
        forced,
        surplus,
    )


def evaluate(position: Position, seat: int, w: tuple[float, ...]) -> float:
    """Higher is better for ``seat``'s side, with the weights ``w`` of the ``FEATURES``; a finished
    game is worth its result."""
    if position.over:
        return WIN * position.result_for(seat)
    f = features(position, seat)
    return (  # spelt out: the search's leaves spend their time here
        w[0] * f[0]
        + w[1] * f[1]
        + w[2] * f[2]
        + w[3] * f[3]
        + w[4] * f[4]
        + w[5] * f[5]
        + w[6] * f[6]
        + w[7] * f[7]
        + w[8] * f[8]
        + w[9] * f[9]
    )


def team_seats(players: int, seat: int) -> tuple[int, ...]:
    return (seat % 2, seat % 2 + 2) if players == 4 else (seat,)


EXACT, LOWER, UPPER = 0, 1, 2  # what a stored value is: the value, or a bound on it
TIE = 1e-6  # below the best: a move whose search only showed it cannot beat the best
WHOLE_GAME = 99  # the stored depth of a value whose search saw every line to the end of the game


class Search:
    """Alpha-beta search for ``seat``'s side on ``position``, within a budget of ``nodes`` (positions
    expanded), with a transposition table and the moves that make the next seat skip tried first."""

    def __init__(self, position: Position, seat: int, weights: tuple[float, ...], nodes: float):
        self.position = position
        self.seat = seat
        self.weights = weights
        self.ours = team_seats(position.players, seat)
        self.nodes = nodes
        # position key -> (depth searched, EXACT/LOWER/UPPER, value, best move)
        self.table: dict[tuple[int, ...], tuple[int, int, float, tuple[int, int, int] | None]] = {}
        self.horizon_reached = False  # some line was cut short: a deeper search could tell more

    def root_values(self, max_depth: int, exact: bool) -> dict[tuple[int, int, int], float]:
        """Each move's value by the deepest search completed within the budget (one ply at least).

        Iterative deepening; the best move so far is searched first. Unless ``exact``, a move that
        cannot beat the best gets a bound instead of its value, which is all a choice needs.
        """
        position = self.position
        values = {}
        for move in position.moves():
            saved = position.play(move)
            values[move] = evaluate(position, self.seat, self.weights)
            position.undo(move, saved)
        for depth in range(1, max_depth):
            self.horizon_reached = False
            deeper: dict[tuple[int, int, int], float] = {}
            best = -math.inf
            try:
                for move in sorted(values, key=values.__getitem__, reverse=True):
                    saved = position.play(move)
                    try:
                        value = self.value(depth, -math.inf if exact else best, math.inf)
                    finally:
                        position.undo(move, saved)
                    if not exact and value <= best:  # a bound: it may be worse than it says, never better
                        value = min(value, best) - TIE
                    deeper[move] = value
                    best = max(best, value)
            except _OutOfNodes:
                if not exact and deeper:  # the previous best, searched deeper, and any move that beat it
                    values = {move: deeper.get(move, -math.inf) for move in values}
                break
            values = deeper
            if not self.horizon_reached or best >= WIN / 2:  # the whole game was seen, or a sure win found
                break
        return values

    def value(self, depth: int, alpha: float, beta: float) -> float:
        position = self.position
        if position.over:
            return evaluate(position, self.seat, self.weights)
        if depth == 0:
            self.horizon_reached = True
            return evaluate(position, self.seat, self.weights)
        self.nodes -= 1
        if self.nodes < 0:
            raise _OutOfNodes
        key = position.key()
        stored = self.table.get(key)
        first = None
        if stored is not None:
            stored_depth, kind, stored_value, first = stored
            if stored_depth >= depth and (
                kind == EXACT or (kind == LOWER and stored_value >= beta) or (kind == UPPER and stored_value <= alpha)
            ):
                self.horizon_reached |= stored_depth < WHOLE_GAME
                return stored_value
        outer_cut, self.horizon_reached = self.horizon_reached, False
        low, high = alpha, beta
        maximising = position.to_move in self.ours
        best = -math.inf if maximising else math.inf
        best_move = None
        for move in self._ordered(position.moves(), first):
            saved = position.play(move)
            value = self.value(depth - 1, alpha, beta)
            position.undo(move, saved)
            if maximising:
                if value > best:
                    best, best_move = value, move
                    alpha = max(alpha, value)
            elif value < best:
                best, best_move = value, move
                beta = min(beta, value)
            if alpha >= beta:
                break
        kind = UPPER if best <= low else LOWER if best >= high else EXACT
        self.table[key] = (depth if self.horizon_reached else WHOLE_GAME, kind, best, best_move)
        self.horizon_reached |= outer_cut
        return best

    def _ordered(
        self, moves: list[tuple[int, int, int]], first: tuple[int, int, int] | None
    ) -> list[tuple[int, int, int]]:
        """The stored best move first, then moves aiming at a colour the next seat lacks, coloured before jokers."""
        position = self.position
        after = position.hands[(position.to_move + 1) % position.players]
        if after[JOKER_KIND]:
            ranked = sorted(moves, key=lambda move: move[0] == JOKER_KIND)
        else:
            ranked = sorted(
                moves, key=lambda move: (move[2] != NO_BOX and after[_colour(move[2])] > 0, move[0] == JOKER_KIND)
            )
        if first is not None and first in moves:
            ranked.remove(first)
            ranked.insert(0, first)
        return ranked


def move_values(
    position: Position, seat: int, plan: LevelPlan, exact: bool, rng: random.Random
) -> dict[tuple[int, int, int], float]:
    """Each move's value for ``seat``: played-out games for a plan with rollouts, one ply for a plan
    without nodes, else the deepest search the budget allows."""
    if plan.rollouts:
        return rollout_values(position, seat, plan.rollouts, rng)
    search = Search(position, seat, plan.weights, plan.nodes or math.inf)
    return search.root_values(plan.depth or (MAX_DEPTH if plan.nodes else 1), exact)


def rollout_values(
    position: Position, seat: int, rollouts: int, rng: random.Random
) -> dict[tuple[int, int, int], float]:
    """Each move's mean result for ``seat`` over ``rollouts`` games played out to the end with
    :func:`play_out` (the position is left as it was)."""
    values = {}
    ours = team_seats(position.players, seat)
    for move in position.moves():
        saved = position.play(move)
        if position.over:  # nothing left to play out
            values[move] = _played_out_value(position.left, ours)
        else:
            total = sum(_played_out_value(play_out(position, rng), ours) for _ in range(rollouts))
            values[move] = total / rollouts
        position.undo(move, saved)
    return values


def _played_out_value(left: list[int], ours: tuple[int, ...]) -> float:
    """A finished game's result for the side of ``ours`` (+1, 0, -1), plus a little per shield of margin."""
    margin = sum(left) - 2 * sum(left[seat] for seat in ours)  # theirs minus ours
    return (margin > 0) - (margin < 0) + ROLLOUT_MARGIN * margin


def play_out(position: Position, rng: random.Random, trace: list[tuple[int, int]] | None = None) -> list[int]:
    """Plays a copy of ``position`` to the end, every seat with the same quick, sensible policy, and
    returns the shields each seat has left. The policy: make the next seat skip if the deal says
    it can, rather a coloured shield than a joker, otherwise at random.

    Written for speed (the hard level's played-out games spend their time here): it follows
    :meth:`Position.moves`, ``play`` and ``_advance`` on local copies, with no undo. ``trace``, if
    given, receives each placement as ``(kind, designated box)``.
    """
    players, lines, advanced = position.players, position.lines, position.advanced
    hands = [list(hand) for hand in position.hands]
    left = list(position.left)
    # Per seat, the colours it would skip on, as bits (none while it holds a joker).
    skips = [0 if hand[JOKER_KIND] else sum(1 << c for c in COLOUR_RANGE if not hand[c]) for hand in hands]
    occupied, lady, target, mover = position.occupied, position.lady, position.target, position.to_move
    random_ = rng.random
    while True:
        hand = hands[mover]
        skip_next = skips[(mover + 1) % players]
        free_boxes = ~(occupied | (1 << target))
        if lady != NO_BOX:
            free_boxes |= 1 << lady
        best_tier, chosen = -1, []
        for kind in (target // COLUMNS, JOKER_KIND):
            if not hand[kind]:
                continue
            last_free = kind == JOKER_KIND and advanced
            tier_base = 1 if kind != JOKER_KIND else 0  # a coloured shield first
            seen = 0
            for mask, ascending in lines[target]:
                free = mask & free_boxes
                if not free:
                    continue
                box = free.bit_length() - 1 if ascending == last_free else (free & -free).bit_length() - 1
                if seen >> box & 1:
                    continue
                seen |= 1 << box
                tier = tier_base + 2 if skip_next >> box // COLUMNS & 1 else tier_base  # the next seat skips
                if tier > best_tier:
                    best_tier, chosen = tier, [(kind, box)]
                elif tier == best_tier:
                    chosen.append((kind, box))
            if not seen and tier_base >= best_tier:  # no free box to aim at: placing it ends the game
                if tier_base > best_tier:
                    best_tier, chosen = tier_base, []
                chosen.append((kind, NO_BOX))
        kind, box = chosen[0] if len(chosen) == 1 else chosen[int(random_() * len(chosen))]
        if trace is not None:
            trace.append((kind, box))
        hand[kind] -= 1
        if not hand[kind]:
            skips[mover] = 0 if hand[JOKER_KIND] else sum(1 << c for c in COLOUR_RANGE if not hand[c])
        left[mover] -= 1
        occupied = ~free_boxes & ALL_BOXES
        lady = NO_BOX
        target = box
        if not left[mover] or box == NO_BOX:
            return left
        colour = box // COLUMNS
        for step in range(1, players + 1):
            seat = (mover + step) % players
            if hands[seat][colour] or hands[seat][JOKER_KIND]:
                mover = seat
                break
        else:
            return left


# --- choosing ------------------------------------------------------------------------------------


def choose_action(state: OctagoneState, seat: int, level: str = "medium", seed: int = 0) -> dict[str, Any]:
    """A legal action for ``seat`` (never a resignation); the same for the same seed."""
    actions = [action for action in ENGINE_FOR_AI.legal_actions(state, seat) if action["type"] != "resign"]
    if not actions:
        raise ValueError("the computer has no move to make here")
    if len(actions) == 1:
        return actions[0]
    plan = PLANS[level][state.players]
    rng = rng_from(seed, "octagone-ai", state.ply, seat)
    hidden = state.players == 4 and not state.open_hands  # two players: the other hand is known
    deals = plan.deals if hidden else 1
    plan_per_deal = replace(plan, nodes=plan.nodes // deals)
    exact = deals > 1 or plan.temperature > 0  # values to add up or to weigh, not just the best move
    view = _HiddenHands.seen_by(state, seat, plan) if hidden else None
    totals: dict[Any, float] = {}
    for _ in range(deals):
        hands = view.deal(rng, plan.joker_hints) if view else None
        values: Mapping[tuple[Any, ...], float]
        if state.opening:
            values = _opening_values(state, seat, hands, plan.weights)
        else:
            values = move_values(Position.from_state(state, hands), seat, plan_per_deal, exact, rng)
        for move, value in values.items():
            totals[move] = totals.get(move, 0.0) + value / deals
    return _as_action(_pick(totals, plan.temperature, rng))


def _pick(values: dict[Any, float], temperature: float, rng: random.Random) -> Any:
    moves = sorted(values)  # a fixed order, so the seed alone decides
    if temperature <= 0:
        rng.shuffle(moves)  # ties go differently from game to game
        return max(moves, key=values.__getitem__)
    best = max(values.values())
    weights = [math.exp((values[move] - best) / temperature) for move in moves]
    return rng.choices(moves, weights)[0]


def _as_action(move: tuple[Any, ...]) -> dict[str, Any]:
    if move[0] == WHITE_LADY:
        return {"type": "white_lady", "box": BOXES[move[1]], "direction": DIRECTION_NAMES[move[2]]}
    return {"type": "place", "shield": KIND_NAMES[move[0]], "direction": DIRECTION_NAMES[move[1]]}


def _opening_values(
    state: OctagoneState, seat: int, hands: list[list[int]] | None, weights: tuple[float, ...]
) -> dict[tuple[Any, ...], float]:
    """The White Lady's openings, one per (box, designated box), judged by the position each leads
    to (about 300 of them; with nothing on the board yet, looking further tells little)."""
    values = {}
    for box in range(len(BOXES)):
        seen = set()
        for direction, line in enumerate(LINES[state.level == ADVANCED][box]):
            target = _designated(1 << box, line, last_free=False)
            if target == NO_BOX or target in seen:
                continue
            seen.add(target)
            position = Position.from_state(state, hands and [list(hand) for hand in hands])
            position.open_with_lady(box, target)
            values[(WHITE_LADY, box, direction)] = evaluate(position, seat, weights)
    return values


@dataclass
class _HiddenHands:
    """What a seat knows of the hands it cannot see, and deals of them consistent with it.

    Public: each seat's number of shields left and of jokers (one each, plus the pair's extra
    joker for the seat that started with eleven shields, minus the jokers it has placed), the
    coloured shields not yet seen, and, for a plan that remembers them, the colours each seat has
    been seen to lack by skipping a turn.
    """

    own: list[int]  # the seat's own hand, per kind
    jokers: dict[int, int]  # other seat -> its jokers
    room: dict[int, int]  # other seat -> its coloured shields
    unseen: list[int]  # per colour: neither on the board nor in the own hand
    lacking: list[set[int]]  # per seat: colour indices it is known to lack
    hints: list[tuple[int, int]]  # (seat, colour index) it probably lacks: see ``joker_hints``

    @classmethod
    def seen_by(cls, state: OctagoneState, seat: int, plan: LevelPlan) -> _HiddenHands:
        placed, jokers_placed = [0] * state.players, [0] * state.players
        unseen = [SHIELDS_PER_COLOUR - state.hands[seat][colour] for colour in COLOURS]
        for placement in state.board.values():
            if placement.shield != WHITE_LADY:
                placed[placement.seat] += 1
                if placement.shield == JOKER:
                    jokers_placed[placement.seat] += 1
                else:
                    unseen[COLOURS.index(placement.shield)] -= 1
        jokers, room = {}, {}
        for other in range(state.players):
            if other != seat:
                left = sum(state.hands[other].values())  # how many shields a seat holds is public, not which
                jokers[other] = min(1 + (left + placed[other] > _DEALT_4P) - jokers_placed[other], left)
                room[other] = left - jokers[other]
        return cls(
            own=[state.hands[seat][kind] for kind in KIND_NAMES],
            jokers=jokers,
            room=room,
            unseen=unseen,
            lacking=skipped_colours(state) if plan.remember_skips else [set() for _ in range(state.players)],
            hints=joker_hints(state) if plan.joker_hints else [],
        )

    def deal(self, rng: random.Random, hint_trust: float) -> list[list[int]]:
        """Every seat's hand: the own one, and a random deal of the unseen shields for the others,
        never giving a seat a colour it lacks (each hint counts with probability ``hint_trust``)."""
        lacking = [set(colours) for colours in self.lacking]
        for other, colour in self.hints:
            if rng.random() < hint_trust:
                lacking[other].add(colour)
        hands = [list(self.own) if other not in self.room else None for other in range(len(lacking))]
        for other, counts in self._colours(lacking, rng).items():
            hands[other] = [*counts, self.jokers[other]]
        return cast("list[list[int]]", hands)  # every hand is dealt: the own one and each in the room

    def _colours(self, lacking: list[set[int]], rng: random.Random) -> dict[int, list[int]]:
        """Coloured shields per other seat; a dead end (rare) starts again, and after a few tries
        the lacks are ignored."""
        for _ in range(_DEAL_ATTEMPTS):
            dealt = self._try_colours(lacking, rng)
            if dealt is not None:
                return dealt
        return self._try_colours([set() for _ in lacking], rng) or {}

    def _try_colours(self, lacking: list[set[int]], rng: random.Random) -> dict[int, list[int]] | None:
        """The most constrained colours go first, each shield to a seat drawn in proportion to its
        room left; None at a dead end."""
        seats = list(self.room)
        space = dict(self.room)
        dealt = {other: [0] * len(COLOURS) for other in seats}
        for colour in sorted(COLOUR_RANGE, key=lambda c: (-sum(c in lacking[o] for o in seats), rng.random())):
            for _ in range(self.unseen[colour]):
                takers = [other for other in seats if space[other] and colour not in lacking[other]]
                if not takers:
                    return None
                taker = rng.choices(takers, [space[other] for other in takers])[0]
                dealt[taker][colour] += 1
                space[taker] -= 1
        return dealt


def skipped_colours(state: OctagoneState) -> list[set[int]]:
    """For every seat, the colours (as indices) it has been seen to lack: it skipped a turn on them.

    Skips are not stored, but the board tells them: shields are placed one per ply, and each
    lands on the box the previous one designated, so the seats between two consecutive placers
    skipped on that box's colour (and the seats between the last placer and the seat to move, on
    the current target).
    """
    lacking: list[set[int]] = [set() for _ in range(state.players)]
    placers = {placement.ply: (placement.seat, box) for box, placement in state.board.items()}
    previous = state.starter  # the White Lady's ply 1, whether she still stands or not
    for ply in range(2, state.ply + 1):
        if ply not in placers:
            break
        placer, box = placers[ply]
        _note_skips(lacking, state.players, previous, placer, COLOURS.index(box_colour(box)))
        previous = placer
    if state.to_move is not None and state.target is not None and state.ply >= 1:
        _note_skips(lacking, state.players, previous, state.to_move, COLOURS.index(box_colour(state.target)))
    return lacking


def joker_hints(state: OctagoneState) -> list[tuple[int, int]]:
    """(seat, colour index) for each joker a seat placed on a box of a colour it placed no shield of
    since: players rarely spend a joker while they hold the colour, so it hints that they lack it."""
    hints = []
    for box, placement in state.board.items():
        if placement.shield != JOKER:
            continue
        colour = box_colour(box)
        later = any(
            other.seat == placement.seat and other.shield == colour and other.ply > placement.ply
            for other in state.board.values()
        )
        if not later:
            hints.append((placement.seat, COLOURS.index(colour)))
    return hints


def _note_skips(lacking: list[set[int]], players: int, mover: int, next_mover: int, colour: int) -> None:
    seat = (mover + 1) % players
    while seat != next_mover:
        lacking[seat].add(colour)
        seat = (seat + 1) % players


_DEALT_4P = 10  # one joker and nine coloured shields; the seat holding its pair's extra joker has eleven
_DEAL_ATTEMPTS = 20
