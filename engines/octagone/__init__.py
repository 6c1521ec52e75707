"""Octagone: 2 or 4 players place aimed shields; the fewest shields left wins."""

from engines.octagone.board import (
    BOXES,
    COLOURS,
    DIRECTIONS,
    JOKER,
    PERIMETER,
    ROW_COLOURS,
    WHITE_LADY,
    box_colour,
    perimeter_triangles,
)
from engines.octagone.rules import (
    ADVANCED,
    BASIC,
    SHIELD_KINDS,
    OctagoneEngine,
    OctagoneState,
    Placement,
    aim_options,
    can_play,
    designated_box,
    last_events,
    placeable_shields,
    shields_left,
    target_box,
    team_of,
    team_shields_left,
)

ENGINE = OctagoneEngine()

__all__ = [
    "ADVANCED", "BASIC", "BOXES", "COLOURS", "DIRECTIONS", "ENGINE", "JOKER", "PERIMETER", "ROW_COLOURS",
    "SHIELD_KINDS", "WHITE_LADY", "OctagoneEngine", "OctagoneState", "Placement", "aim_options", "box_colour",
    "can_play", "designated_box", "last_events", "perimeter_triangles", "placeable_shields", "shields_left",
    "target_box", "team_of", "team_shields_left",
]
