"""Octego: a two-player race on two overlaid diagonal grids (see /work/shared/rules/octego.md).

``ENGINE`` follows :class:`engines.base.Engine`. Actions:
``{"type": "move", "path": "c1-d2-e3"}`` (full path, ``x`` before a captured square, or the
short form ``"c1-e3"`` when only one path joins them) and ``{"type": "resign"}``.
Start options: ``{"position": "Od7 1c1 / Oe8 2g8", "to_move": 0}`` starts from a given
position (seat 0's pieces / seat 1's pieces, each kind 1/2/3/O + square), for tests and puzzles.
"""

from .rules import (
    ENGINE,
    Move,
    OctegoState,
    board_after,
    describe_position,
    destinations_by_piece,
    find_move,
    generate_moves,
    is_black,
    last_move_path,
    legal_moves,
    moves_by_piece,
    octego_count,
    octego_reached_goal,
    parse_move,
    piece_at,
    pieces_of,
    play,
    square_index,
    square_name,
)

__all__ = [
    "ENGINE",
    "Move",
    "OctegoState",
    "board_after",
    "describe_position",
    "destinations_by_piece",
    "find_move",
    "generate_moves",
    "is_black",
    "last_move_path",
    "legal_moves",
    "moves_by_piece",
    "octego_count",
    "octego_reached_goal",
    "parse_move",
    "piece_at",
    "pieces_of",
    "play",
    "square_index",
    "square_name",
]
