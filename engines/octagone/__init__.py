"""Octagone: 2 or 4 players place aimed shields; the fewest shields left wins.

``__all__`` is what ``render/``, ``bot/`` and ``bench/`` may use; the rules' details stay in
the package's modules.
"""

from engines.octagone.ai import choose_action
from engines.octagone.board import (
    BOXES,
    COLOURS,
    COLUMNS,
    DIRECTIONS,
    JOKER,
    ROW_COLOURS,
    ROWS,
    WHITE_LADY,
    box_colour,
    box_position,
    perimeter_triangles,
)
from engines.octagone.rules import (
    ADVANCED,
    BASIC,
    OctagoneEngine,
    OctagoneState,
    aim_options,
    placeable_shields,
    shields_left,
    team_shields_left,
)

ENGINE = OctagoneEngine()

__all__ = [
    "ADVANCED",
    "BASIC",
    "BOXES",
    "COLOURS",
    "COLUMNS",
    "DIRECTIONS",
    "ENGINE",
    "JOKER",
    "ROWS",
    "ROW_COLOURS",
    "WHITE_LADY",
    "OctagoneState",
    "aim_options",
    "box_colour",
    "box_position",
    "choose_action",
    "perimeter_triangles",
    "placeable_shields",
    "shields_left",
    "team_shields_left",
]
