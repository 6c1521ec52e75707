"""Octagone's board geometry: boxes, row colours, lines along arrows and perimeter connections.

Rows are A..F from top to bottom, columns 1..7 from left to right; "C5" is row C, column 5.
Compass directions are as seen on the board picture: N is towards row A, E towards column 7.
"""

from __future__ import annotations

from functools import cache

ROWS = "ABCDEF"
COLUMNS = 7

# (reconstruction) The published shield classes are coded A, B, C, M, O, T and their real
# colours are not documented; these six names follow the Okabe-Ito palette (safe for
# colour-blind players) and every picture also prints the row letter beside the colour.
ROW_COLOURS: dict[str, str] = {
    "A": "orange",
    "B": "sky",
    "C": "green",
    "D": "yellow",
    "E": "blue",
    "F": "pink",
}
COLOURS: tuple[str, ...] = tuple(ROW_COLOURS[row] for row in ROWS)
COLOUR_ROW: dict[str, str] = {colour: row for row, colour in ROW_COLOURS.items()}
JOKER = "joker"
WHITE_LADY = "white_lady"

SHIELDS_PER_COLOUR = 6
JOKERS = 6

# (row step, column step) of each arrow direction, clockwise from north.
DIRECTIONS: dict[str, tuple[int, int]] = {
    "N": (-1, 0),
    "NE": (-1, 1),
    "E": (0, 1),
    "SE": (1, 1),
    "S": (1, 0),
    "SW": (1, -1),
    "W": (0, -1),
    "NW": (-1, -1),
}

BOXES: tuple[str, ...] = tuple(f"{row}{column}" for row in ROWS for column in range(1, COLUMNS + 1))


def box_name(row_index: int, column_index: int) -> str:
    return f"{ROWS[row_index]}{column_index + 1}"


def box_position(box: str) -> tuple[int, int]:
    """(row index, column index), both from 0."""
    return ROWS.index(box[0]), int(box[1:]) - 1


def is_box(text: str) -> bool:
    return isinstance(text, str) and text in BOXES


def box_colour(box: str) -> str:
    return ROW_COLOURS[box[0]]


def on_board(row_index: int, column_index: int) -> bool:
    return 0 <= row_index < len(ROWS) and 0 <= column_index < COLUMNS


def is_perimeter(box: str) -> bool:
    row_index, column_index = box_position(box)
    return row_index in (0, len(ROWS) - 1) or column_index in (0, COLUMNS - 1)


PERIMETER: tuple[str, ...] = tuple(box for box in BOXES if is_perimeter(box))


@cache
def ray(box: str, direction: str) -> tuple[str, ...]:
    """The boxes the arrow of a shield on ``box`` points at, nearest first (``box`` excluded)."""
    row_step, column_step = DIRECTIONS[direction]
    row_index, column_index = box_position(box)
    boxes = []
    row_index, column_index = row_index + row_step, column_index + column_step
    while on_board(row_index, column_index):
        boxes.append(box_name(row_index, column_index))
        row_index, column_index = row_index + row_step, column_index + column_step
    return tuple(boxes)


@cache
def connection_line(box: str, direction: str) -> tuple[str, ...]:
    """Advanced level: the boxes reached when the arrow on a perimeter ``box`` points off the board.

    The virtual shield A1 stands just outside the opposite edge of the same line and keeps the
    direction, so the line runs from the far end back towards ``box`` (``box`` included, as the
    last element: it is occupied by the shield that points, so it is always skipped). Empty when
    the arrow does not point off the board, or when the line holds no box other than ``box``
    (a corner's short diagonal): then there is no connection.
    """
    if ray(box, direction):
        return ()
    row_step, column_step = DIRECTIONS[direction]
    row_index, column_index = box_position(box)
    backwards = [box]
    row_index, column_index = row_index - row_step, column_index - column_step
    while on_board(row_index, column_index):
        backwards.append(box_name(row_index, column_index))
        row_index, column_index = row_index - row_step, column_index - column_step
    if len(backwards) == 1:
        return ()
    return tuple(reversed(backwards))


@cache
def perimeter_triangles() -> tuple[tuple[str, str, str], ...]:
    """Every (perimeter box, outward direction, colour of the box at the line's far end).

    These are the small coloured triangles printed in the corners of the perimeter boxes.
    """
    triangles = []
    for box in PERIMETER:
        for direction in DIRECTIONS:
            line = connection_line(box, direction)
            if line:
                triangles.append((box, direction, box_colour(line[0])))
    return tuple(triangles)
