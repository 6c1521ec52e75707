"""Octego's rule data. Values marked (reconstruction) fill gaps in the published rules
(bot/games/rules/octego.md) and live only here, so they can be corrected as data."""

from __future__ import annotations

BOARD_SIZE = 8  # 8 x 8 spaces, columns a..h, rows 1..8 (reconstruction)
FILES = "abcdefgh"

OCTEGO = "O"  # the Octego piece: moves 1 step, never captures, never changes grid
PIECE_KINDS = ("1", "2", "3", OCTEGO)

# Diagonal steps each kind makes per move (an Octego moves one space).
STEPS = {"1": 1, "2": 2, "3": 3, OCTEGO: 1}

# Each player's home row seen from their own left (reconstruction: the set-up picture is lost).
# Seat 0 fills row 1 from a to h; seat 1 fills row 8 from h to a (a half turn).
HOME_ROW_LAYOUT = ("3", "2", "1", OCTEGO, OCTEGO, "1", "2", "3")

# Home row index (0-based) by seat; an Octego wins by reaching the opponent's home row.
HOME_ROW = (0, BOARD_SIZE - 1)

# A player to move with no legal move loses (reconstruction).
NO_LEGAL_MOVE_LOSES = True

# Draws (reconstruction): the same position with the same player to move for the Nth time,
# or this many moves in a row (both players' moves counted one by one) without a capture.
REPETITIONS_FOR_DRAW = 3
MOVES_WITHOUT_CAPTURE_FOR_DRAW = 100
