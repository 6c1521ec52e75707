"""Octa, "The Game of 8": two-player card game. See ``rules`` for the steps, action shapes and events."""

from .ai import choose_action
from .cards import OCTA_LENGTH, POOL_LINES, POSITION_CELLS, SUIT_SYMBOLS, WIN_TABLE_CARDS, card_name, rank_of, suit_of
from .rules import CENTRE, FACE_DOWN, HAND_SIZE, OctaEngine, OctaState, longest_run, run_length, table_count

ENGINE = OctaEngine()

__all__ = [
    "CENTRE",
    "ENGINE",
    "FACE_DOWN",
    "HAND_SIZE",
    "OCTA_LENGTH",
    "POOL_LINES",
    "POSITION_CELLS",
    "SUIT_SYMBOLS",
    "WIN_TABLE_CARDS",
    "OctaState",
    "card_name",
    "choose_action",
    "longest_run",
    "rank_of",
    "run_length",
    "suit_of",
    "table_count",
]
