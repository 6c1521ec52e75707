"""Octego rules: board, moves, notation, the game state and the engine.

Squares are numbered ``row * 8 + column`` with row 0 = row "1" (seat 0's home edge) and
column 0 = "a". A board is a list of 64 cells: ``""`` when empty, else the owner's seat
digit followed by the piece kind, e.g. ``"0O"`` (seat 0's Octego) or ``"13"`` (seat 1's 3).

Events (no English: ``render.octego.narrate`` words them):

- ``"move"`` (seat): ``path`` the squares visited, start first (``["c1", "d2"]``), ``capture``
  the kind taken (``"1"``, ``"2"``, ``"3"``, ``"O"``) or None, ``grid_change`` True for a
  straight edge step;
- ``"resign"`` (seat) and ``"end"`` (reason, winners, draw), from the kit.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar, NamedTuple

from engines.base import ActionSpec, Game, GameState, IllegalAction, Outcome

from .constants import (
    BOARD_SIZE,
    FILES,
    HOME_ROW,
    HOME_ROW_LAYOUT,
    MOVES_WITHOUT_CAPTURE_FOR_DRAW,
    NO_LEGAL_MOVE_LOSES,
    OCTEGO,
    PIECE_KINDS,
    REPETITIONS_FOR_DRAW,
    STEPS,
)

SCHEMA = 2
SQUARES = BOARD_SIZE * BOARD_SIZE
PIECES_PER_SIDE = len(HOME_ROW_LAYOUT)
KIND_NAMES = {"1": "1", "2": "2", "3": "3", OCTEGO: "Octego"}

Board = list[str]


# ---------------------------------------------------------------- squares and geometry


def square_name(square: int) -> str:
    return f"{FILES[square % BOARD_SIZE]}{square // BOARD_SIZE + 1}"


SQUARE_NAMES = tuple(square_name(sq) for sq in range(SQUARES))


def square_index(name: str) -> int:
    """``"c1"`` -> 2. Raises IllegalAction with a readable reason for anything else."""
    text = name.strip().lower()
    if not re.fullmatch(r"[a-h][1-8]", text):
        raise IllegalAction(f"I can't read {name.strip()!r} as a space: write a column a-h then a row 1-8, like c1.")
    return (int(text[1]) - 1) * BOARD_SIZE + FILES.index(text[0])


def row_of(square: int) -> int:
    return square // BOARD_SIZE


def column_of(square: int) -> int:
    return square % BOARD_SIZE


def is_black(square: int) -> bool:
    """Black spaces have an even row + column (1-based or 0-based alike); the rest are purple."""
    return (row_of(square) + column_of(square)) % 2 == 0


def _neighbours(square: int, offsets: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    row, col = row_of(square), column_of(square)
    return tuple(
        (row + dr) * BOARD_SIZE + col + dc
        for dr, dc in offsets
        if 0 <= row + dr < BOARD_SIZE and 0 <= col + dc < BOARD_SIZE
    )


DIAGONAL_NEIGHBOURS = tuple(_neighbours(sq, ((1, 1), (1, -1), (-1, 1), (-1, -1))) for sq in range(SQUARES))


def _grid_change_targets(square: int) -> tuple[int, ...]:
    """Straight one-space moves allowed from an edge: forward/backward on a side edge
    (column a or h), left/right on a home edge (row 1 or 8). A corner has both."""
    offsets: list[tuple[int, int]] = []
    if column_of(square) in (0, BOARD_SIZE - 1):
        offsets += [(1, 0), (-1, 0)]
    if row_of(square) in (0, BOARD_SIZE - 1):
        offsets += [(0, 1), (0, -1)]
    return _neighbours(square, offsets)


GRID_CHANGE_TARGETS = tuple(_grid_change_targets(sq) for sq in range(SQUARES))


# ---------------------------------------------------------------- moves


class Move(NamedTuple):
    """One legal move: the visited squares (start first), and what kind of move it is."""

    path: tuple[int, ...]
    capture: bool = False
    grid_change: bool = False

    @property
    def start(self) -> int:
        return self.path[0]

    @property
    def end(self) -> int:
        return self.path[-1]

    @property
    def notation(self) -> str:
        return notation([SQUARE_NAMES[sq] for sq in self.path], self.capture)


def notation(path: Sequence[str], capture: object = None) -> str:
    """A move as players write it: the squares visited, ``x`` before a captured square
    (``c1-d2xe3``); ``capture`` is anything true for a capture (a move event's kind taken)."""
    return "-".join(path[:-1]) + ("x" if capture else "-") + path[-1]


def owner(cell: str) -> int | None:
    return int(cell[0]) if cell else None


def _walks(square: int, steps: int) -> list[tuple[int, ...]]:
    """Every walk of ``steps`` diagonal steps from ``square`` that never revisits a space."""
    walks: list[tuple[int, ...]] = [(square,)]
    for _ in range(steps):
        walks = [(*walk, nxt) for walk in walks for nxt in DIAGONAL_NEIGHBOURS[walk[-1]] if nxt not in walk]
    return walks


# ROUTES[steps][square]: (path, bit mask of the squares passed through) for every walk;
# computed once so move generation only has to test the mask against the occupied squares.
ROUTES = {
    steps: tuple(
        tuple((walk, sum(1 << sq for sq in walk[1:-1])) for walk in _walks(square, steps)) for square in range(SQUARES)
    )
    for steps in sorted(set(STEPS.values()))
}


def piece_moves(board: Board, square: int, occupied: int | None = None) -> list[Move]:
    """Every legal move of the piece on ``square`` (empty list if it is trapped)."""
    cell = board[square]
    seat, kind = cell[0], cell[1]
    can_capture = kind != OCTEGO
    if occupied is None:
        occupied = occupancy(board)
    moves: list[Move] = []
    for path, passed in ROUTES[STEPS[kind]][square]:
        if occupied & passed:
            continue  # no jumping: every space passed through must be empty
        target = board[path[-1]]
        if not target:
            moves.append(Move(path))
        elif can_capture and target[0] != seat:
            moves.append(Move(path, capture=True))
    if can_capture:  # i.e. not an Octego: Octegos never change grids
        for destination in GRID_CHANGE_TARGETS[square]:
            if not board[destination]:  # a grid change never captures
                moves.append(Move((square, destination), grid_change=True))
    return moves


def _route_ends(square: int, steps: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """(end, bit masks of the squares passed through on each way there) for one start."""
    ways: dict[int, set[int]] = {}
    for path, passed in ROUTES[steps][square]:
        ways.setdefault(path[-1], set()).add(passed)
    return tuple((end, tuple(sorted(masks))) for end, masks in ways.items())


ROUTE_ENDS = {steps: tuple(_route_ends(square, steps) for square in range(SQUARES)) for steps in ROUTES}


def occupancy(board: Board) -> int:
    """A bit mask of the occupied squares (bit n = square n)."""
    mask = 0
    for square, cell in enumerate(board):
        if cell:
            mask |= 1 << square
    return mask


def piece_targets(board: Board, square: int, occupied: int | None = None) -> list[int]:
    """The distinct squares the piece on ``square`` can end its move on (fast, for search).
    ``occupied`` is :func:`occupancy` of ``board``, when the caller already has it."""
    if occupied is None:
        occupied = occupancy(board)
    cell = board[square]
    seat, kind = cell[0], cell[1]
    can_capture = kind != OCTEGO
    targets: list[int] = []
    for end, masks in ROUTE_ENDS[STEPS[kind]][square]:
        target = board[end]
        if target and (not can_capture or target[0] == seat):
            continue
        for mask in masks:
            if not occupied & mask:
                targets.append(end)
                break
    if can_capture:
        targets.extend(t for t in GRID_CHANGE_TARGETS[square] if not board[t])
    return targets


def generate_moves(board: Board, seat: int) -> list[Move]:
    """Every legal move of ``seat`` on ``board`` (one entry per distinct path)."""
    mark, occupied = str(seat), occupancy(board)
    moves: list[Move] = []
    for square, cell in enumerate(board):
        if cell and cell[0] == mark:
            moves.extend(piece_moves(board, square, occupied))
    return moves


def has_any_move(board: Board, seat: int) -> bool:
    mark, occupied = str(seat), occupancy(board)
    return any(cell and cell[0] == mark and piece_targets(board, sq, occupied) for sq, cell in enumerate(board))


def board_after(board: Board, move: Move) -> Board:
    """A new board with ``move`` played (the input is not changed)."""
    new = list(board)
    new[move.end] = new[move.start]
    new[move.start] = ""
    return new


def octego_reached_goal(board: Board, seat: int) -> bool:
    """True if one of ``seat``'s Octegos stands on the opponent's home row."""
    goal_row = HOME_ROW[1 - seat]
    mine = f"{seat}{OCTEGO}"
    start = goal_row * BOARD_SIZE
    return mine in board[start : start + BOARD_SIZE]


def octego_count(board: Board, seat: int) -> int:
    return board.count(f"{seat}{OCTEGO}")


# ---------------------------------------------------------------- positions


def starting_board() -> Board:
    board = [""] * SQUARES
    for col, kind in enumerate(HOME_ROW_LAYOUT):
        board[HOME_ROW[0] * BOARD_SIZE + col] = f"0{kind}"
        # Seat 1 reads the layout from its own left, i.e. from h to a on row 8.
        board[HOME_ROW[1] * BOARD_SIZE + (BOARD_SIZE - 1 - col)] = f"1{kind}"
    return board


def parse_position(text: str) -> Board:
    """A compact position, for tests and set-ups: seat 0's pieces, a slash, seat 1's pieces,
    each piece as kind + square, e.g. ``"Od7 1c1 3a1 / Oe8 2g8"``."""
    sides = text.split("/")
    if len(sides) != 2:
        raise ValueError("a position is '<seat 0 pieces> / <seat 1 pieces>', e.g. 'Od7 1c1 / Oe8'")
    board = [""] * SQUARES
    for seat, side in enumerate(sides):
        for token in side.split():
            kind = token[0].upper()
            if kind not in PIECE_KINDS or len(token) != 3:
                raise ValueError(f"bad piece {token!r}: write a kind (1, 2, 3, O) then a square, like Od7")
            square = square_index(token[1:])
            if board[square]:
                raise ValueError(f"two pieces on {token[1:]}")
            board[square] = f"{seat}{kind}"
    for seat in (0, 1):
        for kind in PIECE_KINDS:
            if board.count(f"{seat}{kind}") > HOME_ROW_LAYOUT.count(kind):
                raise ValueError(f"seat {seat} has too many {KIND_NAMES[kind]} pieces")
    return board


def describe_position(board: Board) -> str:
    """The inverse of :func:`parse_position`."""
    sides = []
    for seat in (0, 1):
        sides.append(
            " ".join(f"{cell[1]}{square_name(sq)}" for sq, cell in enumerate(board) if cell and cell[0] == str(seat))
        )
    return " / ".join(sides)


def missing_pieces(board: Board, seat: int) -> list[str]:
    """Kinds of ``seat``'s full set that are not on ``board`` (i.e. were captured)."""
    missing = []
    for kind in PIECE_KINDS:
        missing += [kind] * (HOME_ROW_LAYOUT.count(kind) - board.count(f"{seat}{kind}"))
    return missing


_KEY_CHARS = {
    f"{seat}{kind}": char
    for seat, chars in enumerate(("ABCO", "abco"))
    for kind, char in zip(PIECE_KINDS, chars, strict=True)
}


def position_key(board: Board, to_move: int) -> str:
    """A compact fingerprint of the position and the player to move (for repetition)."""
    return "".join(_KEY_CHARS.get(cell, ".") for cell in board) + str(to_move)


# ---------------------------------------------------------------- notation


# A move in a game record: squares joined by "-" or "x" (a capture), as Move.notation writes them.
_PATH_NOTATION = re.compile(r"[a-h][1-8](?:[-x][a-h][1-8])+")


def _read_squares(text: str) -> list[int]:
    tokens = [token for token in re.split(r"\s*[-x×:]\s*|\s+", text.strip().lower()) if token]
    if len(tokens) < 2:
        raise IllegalAction(
            "Write a move as the spaces it visits, like c1-d2-e3 (a capture: c1-d2xe3), "
            "or just start and end, like c1-e3."
        )
    return [square_index(token) for token in tokens]


# A capture mark and the square it names as captured, as players write it: "d2xe3" or "d2 × e3".
_CAPTURE_MARK = re.compile(r"[x×]\s*([a-h][1-8])")


def _check_capture_marks(text: str, squares: list[int], move: Move) -> None:
    """Refuse an ``x`` that names a square the move does not capture: a move captures only on its
    last square, and only when an opponent's piece stands there."""
    marked = [square_index(name) for name in _CAPTURE_MARK.findall(text.lower())]
    if not marked:
        return  # a capture written with "-" is fine: the path names the same move
    names = [square_name(square) for square in squares]
    if not move.capture:
        typed = re.sub(r"\s+", "", text.lower())
        raise IllegalAction(
            f"{typed} captures nothing: write it {notation(names)} (x marks a captured piece's square)."
        )
    misplaced = [square_name(square) for square in marked if square != move.end]
    if misplaced:
        raise IllegalAction(
            f"That move captures on {names[-1]}, not {', '.join(misplaced)}: "
            f"write it {notation(names, capture=True)} (x goes before the captured square)."
        )


def _is_subsequence(needle: Sequence[int], path: Sequence[int]) -> bool:
    it = iter(path)
    return all(square in it for square in needle)


def _explain_full_path(board: Board, seat: int, squares: list[int]) -> str | None:
    """Why a path of single steps is illegal, or None if it is not such a path."""
    cell = board[squares[0]]
    kind = cell[1]
    start, names = squares[0], [square_name(sq) for sq in squares]
    if len(squares) == 2 and squares[1] in _neighbours(start, ((1, 0), (-1, 0), (0, 1), (0, -1))):
        if kind == OCTEGO:
            return "Octego pieces may not change grids."
        if squares[1] not in GRID_CHANGE_TARGETS[start]:
            return (
                "A piece may change grids only from an edge: straight forward or backward from "
                "column a or h, straight left or right from row 1 or 8."
            )
        if board[squares[1]]:
            return f"The space {names[1]} is occupied: changing grids needs an empty space and cannot capture."
        return None
    if any(b not in DIAGONAL_NEIGHBOURS[a] for a, b in itertools.pairwise(squares)):
        return None  # not a step-by-step path: treated as a short form by the caller
    if len(squares) - 1 != STEPS[kind]:
        article = "An" if kind == OCTEGO else "A"
        spaces = "space" if STEPS[kind] == 1 else "spaces"
        return (
            f"{article} {KIND_NAMES[kind]} piece moves exactly {STEPS[kind]} {spaces}; "
            f"that path has {len(squares) - 1}."
        )
    if len(set(squares)) != len(squares):
        return "A piece may not visit the same space twice in one move."
    for square in squares[1:-1]:
        if board[square]:
            return f"The way is blocked on {square_name(square)}: pieces may not jump over other pieces."
    target = board[squares[-1]]
    if target and owner(target) == seat:
        return f"The space {names[-1]} is occupied by your own piece."
    if target and kind == OCTEGO:
        return "An Octego piece may not capture."
    return None


def find_move(board: Board, seat: int, text: str) -> Move:
    """The move of ``seat`` written as ``text`` (full path or start-end short form).

    Squares given must appear in order along the path, starting and ending it; so ``c1-e3``
    and ``c1-d2-e3`` both mean the same walk when it is the only one.
    """
    squares = _read_squares(text)
    start = squares[0]
    cell = board[start]
    if not cell:
        raise IllegalAction(f"There is no piece on {square_name(start)}.")
    if owner(cell) != seat:
        raise IllegalAction(f"The piece on {square_name(start)} is not yours.")
    kind_name = KIND_NAMES[cell[1]]
    options = piece_moves(board, start)
    matches = [m for m in options if m.end == squares[-1] and _is_subsequence(squares, m.path)]
    if matches:
        _check_capture_marks(text, squares, matches[0])  # every match ends on the same square
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        choices = ", ".join(m.notation for m in matches)
        raise IllegalAction(
            f"The move {'-'.join(square_name(s) for s in squares)} can be played along "
            f"{len(matches)} paths: {choices}. Please write the full path."
        )
    reason = _explain_full_path(board, seat, squares)
    if not options:
        trapped = f"Your {kind_name} on {square_name(start)} is trapped: it has no legal move."
        raise IllegalAction(f"{reason} {trapped}" if reason else trapped)
    if reason is None:
        reason = f"Your {kind_name} on {square_name(start)} cannot go that way."
    ends = sorted({square_name(m.end) for m in options})
    raise IllegalAction(f"{reason} It can reach: {', '.join(ends)}.")


# ---------------------------------------------------------------- state


@dataclass(kw_only=True)
class OctegoState(GameState):
    board: list[str]
    to_move: int = 0
    # captured[seat]: kinds of the opponent's pieces that ``seat`` has taken.
    captured: list[list[str]] = field(default_factory=lambda: [[], []])
    moves_since_capture: int = 0
    # Position keys since the last capture, current one last (older ones can never recur).
    history: list[str] = field(default_factory=list)
    schema: int = field(default=SCHEMA, compare=False)


def _won(seat: int, reason: str) -> Outcome:
    return Outcome(ranks=(1, 2) if seat == 0 else (2, 1), scores=(1.0, 0.0) if seat == 0 else (0.0, 1.0), reason=reason)


def _drawn(reason: str) -> Outcome:
    return Outcome(ranks=(1, 1), scores=(0.5, 0.5), reason=reason)


# ---------------------------------------------------------------- the engine


def _from_schema_1(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 (``move_number``, ``last_move``, ``winner``/``end_reason``, ``schema_version``)
    to schema 2 (``ply``, the last action's events, ``outcome``, ``schema``)."""
    data = dict(data)
    moves = data.pop("move_number")
    last = data.pop("last_move", None)
    winner = data.pop("winner", None)
    reason = data.pop("end_reason", None)
    data.pop("schema_version", None)
    resigned = reason == "resignation"
    ply = moves + resigned  # schema 1 counted moves only; a resignation is an action too
    events: list[dict[str, Any]] = []
    outcome = None
    if resigned:
        loser = 1 - winner
        events.append({"ply": ply, "seat": loser, "kind": "resign", "data": {}})
        ranks = tuple(2 if seat == loser else 1 for seat in (0, 1))
        outcome = Outcome(ranks=ranks, scores=tuple(float(rank == 1) for rank in ranks), reason=reason)
    elif last is not None:
        move = {"path": list(last["path"]), "capture": last.get("capture"), "grid_change": last.get("grid_change")}
        events.append({"ply": ply, "seat": last["seat"], "kind": "move", "data": move})
    if reason is not None and outcome is None:
        outcome = _drawn(reason) if winner is None else _won(winner, reason)
    if outcome is not None:
        end = {"reason": outcome.reason, "winners": list(outcome.winners), "draw": outcome.is_draw}
        events.append({"ply": ply, "seat": None, "kind": "end", "data": end})
    data.update(
        players=2,
        ply=ply,
        events=events,
        outcome=None if outcome is None else asdict(outcome),
        schema=2,
    )
    return data


class OctegoEngine(Game[OctegoState]):
    """Actions: ``{"type": "move", "path": "c1-d2-e3"}`` (see :func:`find_move`) and resign."""

    name = "octego"
    title = "Octego"
    min_players = 2
    max_players = 2
    state_class = OctegoState
    schema = SCHEMA
    actions: ClassVar[ActionSpec] = {"move": {"path": str}}
    migrations: ClassVar[Mapping[int, Callable[[dict[str, Any]], dict[str, Any]]]] = {1: _from_schema_1}

    def new_game(self, players: int, options: Mapping[str, Any], seed: int) -> OctegoState:
        """``options`` may hold ``"position"`` (see :func:`parse_position`) and ``"to_move"``
        (0 or 1) to start from a given position; captured pieces are the missing ones."""
        if players != 2:
            raise ValueError("Octego is a game for exactly two players")
        position = options.get("position")
        board = parse_position(position) if position else starting_board()
        to_move = int(options.get("to_move", 0))
        if to_move not in (0, 1):
            raise ValueError("to_move must be 0 or 1")
        state = OctegoState(
            seed=seed,
            players=players,
            board=board,
            to_move=to_move,
            captured=[missing_pieces(board, 1), missing_pieces(board, 0)],
            history=[position_key(board, to_move)],
        )
        if NO_LEGAL_MOVE_LOSES and not has_any_move(board, to_move):
            self.finish(state, _won(1 - to_move, "no legal move"))
        return state

    def to_act(self, state: OctegoState) -> list[int]:
        return [] if state.over else [state.to_move]

    def legal_actions(self, state: OctegoState, seat: int) -> list[dict[str, Any]]:
        """Moves in full notation for the player to move, then resignation (any seat)."""
        if state.over or seat not in (0, 1):
            return []
        actions = [{"type": "move", "path": path} for path in legal_moves(state, seat)]
        return [*actions, {"type": "resign"}]

    def notation(self, state: OctegoState, seat: int, action: Mapping[str, Any]) -> str:
        """A move is its full path, ``x`` before a captured square (``c1-d2xe3``), even when it
        was typed short (``c1-e3``): the same move, as players write it."""
        if action.get("type") == "move" and set(action) == {"type", "path"} and isinstance(action["path"], str):
            try:
                return find_move(state.board, seat, action["path"]).notation
            except IllegalAction:
                pass  # not a move here: the generic form keeps it as it was
        return super().notation(state, seat, action)

    def parse_notation(self, state: OctegoState, seat: int, text: str) -> dict[str, Any]:
        if _PATH_NOTATION.fullmatch(text.strip()):
            return {"type": "move", "path": text.strip()}
        return super().parse_notation(state, seat, text)

    def play_move(self, state: OctegoState, seat: int, action: Mapping[str, Any]) -> None:
        move = find_move(state.board, seat, action["path"])
        taken = state.board[move.end]
        state.board = board_after(state.board, move)
        state.to_move = 1 - seat
        state.record(
            "move",
            seat,
            path=[SQUARE_NAMES[sq] for sq in move.path],
            capture=taken[1] if taken else None,
            grid_change=move.grid_change,
        )
        key = position_key(state.board, state.to_move)
        if taken:
            state.captured[seat].append(taken[1])
            state.moves_since_capture = 0
            state.history = [key]
        else:
            state.moves_since_capture += 1
            state.history.append(key)
        outcome = _decided(state, seat)
        if outcome is not None:
            self.finish(state, outcome)


def _decided(state: OctegoState, mover: int) -> Outcome | None:
    """How the game ends after ``mover``'s move, checking the rules in order of priority."""
    opponent = 1 - mover
    if octego_reached_goal(state.board, mover):
        return _won(mover, "an Octego reached the far side")
    if octego_count(state.board, opponent) == 0:
        return _won(mover, "both Octegos captured")
    if NO_LEGAL_MOVE_LOSES and not has_any_move(state.board, opponent):
        return _won(mover, "no legal move")
    if state.history.count(state.history[-1]) >= REPETITIONS_FOR_DRAW:
        return _drawn("threefold repetition")
    if state.moves_since_capture >= MOVES_WITHOUT_CAPTURE_FOR_DRAW:
        return _drawn(f"{MOVES_WITHOUT_CAPTURE_FOR_DRAW} moves without a capture")
    return None


# ---------------------------------------------------------------- helpers for the bot and the picture


def legal_moves(state: OctegoState, seat: int) -> list[str]:
    """Moves of ``seat`` in full notation (empty when it is not their turn or the game is over)."""
    if state.over or seat != state.to_move:
        return []
    return [m.notation for m in generate_moves(state.board, seat)]


def parse_move(state: OctegoState, seat: int, text: str) -> str:
    """The full notation of the move ``text`` names (short forms resolved); raises IllegalAction."""
    return find_move(state.board, seat, text).notation


def moves_by_piece(state: OctegoState, seat: int) -> dict[str, list[str]]:
    """Legal moves grouped by starting square, e.g. ``{"c1": ["c1-b2", "c1-d2"], ...}``."""
    grouped: dict[str, list[str]] = {}
    for path in legal_moves(state, seat):
        grouped.setdefault(path[:2], []).append(path)
    return grouped


def destinations_by_piece(state: OctegoState, seat: int) -> dict[str, dict[str, list[str]]]:
    """start -> end -> full paths. A 3 may have many paths (more than a 25-option menu holds),
    so menus can ask for the piece, then the destination, then the path only if several."""
    grouped: dict[str, dict[str, list[str]]] = {}
    if state.over or seat != state.to_move:
        return grouped
    for move in generate_moves(state.board, seat):
        grouped.setdefault(square_name(move.start), {}).setdefault(square_name(move.end), []).append(move.notation)
    return grouped


def piece_at(state: OctegoState, square: str) -> tuple[int, str] | None:
    """(seat, kind) of the piece on ``square`` (kind is "1", "2", "3" or "O"), or None."""
    cell = state.board[square_index(square)]
    return (int(cell[0]), cell[1]) if cell else None


def pieces_of(state: OctegoState, seat: int) -> list[tuple[str, str]]:
    """(square, kind) of each piece ``seat`` has on the board, in board order."""
    return [(square_name(sq), cell[1]) for sq, cell in enumerate(state.board) if cell and cell[0] == str(seat)]
