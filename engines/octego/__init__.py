"""Octego: a two-player race on two overlaid diagonal grids (rules: bot/games/rules/octego.md).

``ENGINE`` is built on :mod:`engines.base`. Actions: ``{"type": "move", "path": "c1-d2-e3"}``
(full path, ``x`` before a captured square, or the short form ``"c1-e3"`` when only one path
joins them) and ``{"type": "resign"}``. Each move records a ``"move"`` event (``path``,
``capture``, ``grid_change``). Start options: ``{"position": "Od7 1c1 / Oe8 2g8", "to_move": 0}``
starts from a given position (seat 0's pieces / seat 1's pieces, each kind 1/2/3/O + square),
for tests and puzzles.
"""

from .ai import NODE_BUDGET, choose_action
from .constants import BOARD_SIZE, FILES, OCTEGO
from .rules import (
    KIND_NAMES,
    OctegoEngine,
    OctegoState,
    destinations_by_piece,
    is_black,
    legal_moves,
    notation,
    octego_count,
    piece_at,
    pieces_of,
    square_index,
)

ENGINE = OctegoEngine()

__all__ = [
    "BOARD_SIZE",
    "ENGINE",
    "FILES",
    "KIND_NAMES",
    "NODE_BUDGET",
    "OCTEGO",
    "OctegoState",
    "choose_action",
    "destinations_by_piece",
    "is_black",
    "legal_moves",
    "notation",
    "octego_count",
    "piece_at",
    "pieces_of",
    "square_index",
]
