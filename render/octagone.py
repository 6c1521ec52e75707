"""Octagone pictures: the public board (with open hands if chosen) and a player's private shields.

Every colour is paired with its row letter (row A's shields carry an "A"), jokers are black
with a "J", and the White Lady is white with "WL", so nothing depends on telling colours apart.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from engines.base import Event
from engines.octagone import (
    ADVANCED,
    BOXES,
    COLOURS,
    COLUMNS,
    DIRECTIONS,
    JOKER,
    ROW_COLOURS,
    ROWS,
    WHITE_LADY,
    OctagoneState,
    box_colour,
    box_position,
    perimeter_triangles,
    placeable_shields,
    shields_left,
    team_shields_left,
)
from render import theme
from render.narration import shared_sentence
from render.regions import Box, with_regions
from render.wording import plural

# Laid out for a phone: 480 px wide and no text under TEXT, so every label is at least 11 px tall
# when the picture is shown 360 px wide.
WIDTH = 480
MARGIN = 12
TEXT = theme.min_text_size(WIDTH)
TITLE = TEXT + 5
LINE = round(TEXT * 1.3)
CELL = 60
BOARD_LEFT = WIDTH - MARGIN - CELL * COLUMNS  # room for the row letters
BOARD_TOP = 100  # below the title, status line and column numbers
BOARD_BOTTOM = BOARD_TOP + CELL * len(ROWS)
BOX_RADIUS = (CELL - 4) / 2 / math.cos(math.pi / 8)  # octagons nearly touching flat to flat
SHIELD_RADIUS = BOX_RADIUS * 0.86  # large enough for a readable letter beside the arrow
CHIP_RADIUS = 17  # a shield in a hand row: its letter at TEXT size
LADY_BADGE_RADIUS = 19  # the White Lady beside the winners: "WL" at TEXT size
PLAYER_LINE = 2 * LADY_BADGE_RADIUS + 4
CHIP_ROW = 2 * CHIP_RADIUS + LINE + 8  # a chip and its count below
LEGEND_HEIGHT = 2 * LINE + 12  # the rows' colours in words, below the board

SHIELD_FILL = {
    "orange": theme.ORANGE,
    "sky": theme.SKY_BLUE,
    "green": theme.GREEN,
    "yellow": theme.YELLOW,
    "blue": theme.BLUE,
    "pink": theme.PURPLE,
    JOKER: theme.BLACK,
    WHITE_LADY: theme.WHITE,
}
SHIELD_LETTER = {**{colour: row for row, colour in ROW_COLOURS.items()}, JOKER: "J", WHITE_LADY: "WL"}
COLOUR_WORDS = {"sky": "sky blue"}
POINTS = {"N": "north", "E": "east", "S": "south", "W": "west"}


def colour_words(colour: str) -> str:
    return COLOUR_WORDS.get(colour, colour)


def box_words(box: str) -> str:
    """A box with its colour, e.g. "B5 (sky blue)"."""
    return f"{box} ({colour_words(box_colour(box))})"


def direction_words(direction: str) -> str:
    """An arrow's direction in words, e.g. "north-east"."""
    return "-".join(POINTS[point] for point in direction)


def shield_words(shield: str) -> str:
    if shield == JOKER:
        return "a joker"
    if shield == WHITE_LADY:
        return "the White Lady"
    words = colour_words(shield)
    return f"{'an' if words[0] in 'aeiou' else 'a'} {words} shield"


def _mix(colour: tuple[int, int, int], other: tuple[int, int, int], share: float) -> tuple[int, int, int]:
    return tuple(round(a * share + b * (1 - share)) for a, b in zip(colour, other, strict=True))  # type: ignore[return-value]


def box_centre(box: str) -> tuple[float, float]:
    row_index, column_index = box_position(box)
    return BOARD_LEFT + CELL * (column_index + 0.5), BOARD_TOP + CELL * (row_index + 0.5)


def _unit(direction: str) -> tuple[float, float]:
    row_step, column_step = DIRECTIONS[direction]
    norm = math.hypot(row_step, column_step)
    return column_step / norm, row_step / norm


# --- drawn once, pasted ---------------------------------------------------------------------------
# Shields, rims and labels repeat from picture to picture: they are drawn once per process on a small
# canvas and pasted. Polygons are drawn without antialiasing, so a 1-bit mask of a shape pastes the
# same pixels as drawing it, and quickly.


class _Sprite(NamedTuple):
    image: Image.Image
    mask: Image.Image  # where the sprite covers what is below (1-bit: shapes drawn at 2x have hard edges)
    corner: tuple[int, int]  # relative to the whole pixel of the point it is drawn around


def _split_pixel(point: tuple[float, float]) -> tuple[tuple[int, int], tuple[float, float]]:
    """A position (positive) as its whole pixel and the fraction beyond it, which is part of a
    sprite's key: shapes and glyphs are placed to a fraction of a pixel."""
    x, y = point
    whole = (int(x), int(y))
    return whole, (x - whole[0], y - whole[1])


def _paste(
    image: Image.Image, sprite: _Sprite, whole: tuple[int, int], colour: tuple[int, int, int] | None = None
) -> None:
    """``sprite`` around pixel ``whole``; in a flat ``colour`` when given (a mask alone)."""
    corner = (whole[0] + sprite.corner[0], whole[1] + sprite.corner[1])
    image.paste(colour if colour is not None else sprite.image, corner, sprite.mask)


def _write(
    image: Image.Image, xy: tuple[float, float], text: str, size: int, colour: tuple[int, int, int], anchor: str = "mm"
) -> None:
    """Text as ``ImageDraw.text`` draws it."""
    theme.write(image, xy, text, size, colour, anchor)


def _sprite_canvas(
    mode: str, radius: float, fraction: tuple[float, float]
) -> tuple[Image.Image, tuple[float, float], tuple[int, int]]:
    """A canvas just big enough for an octagon of ``radius`` around a point ``fraction`` of a pixel
    past a whole pixel: the canvas, that point on it, and its corner relative to the whole pixel."""
    half = math.ceil(radius) + 2
    canvas = Image.new(mode, (2 * half + 1, 2 * half + 1))
    return canvas, (half + fraction[0], half + fraction[1]), (-half, -half)


@lru_cache(maxsize=128)  # every shield and direction on the board, and the hands' shields
def _shield_sprite(shield: str, direction: str | None, radius: float, fraction: tuple[float, float]) -> _Sprite:
    """``draw_shield`` on a small canvas. The mask is the octagon's fill: Pillow draws a thick
    outline inside it, and the arrow and letter lie inside it too."""
    image, centre, corner = _sprite_canvas("RGB", radius, fraction)
    draw_shield(ImageDraw.Draw(image), centre, radius, shield, direction)
    mask, _, _ = _sprite_canvas("1", radius, fraction)
    ImageDraw.Draw(mask).polygon(theme.octagon_points(*centre, radius), fill=255)
    return _Sprite(image, mask, corner)


def _paste_shield(
    image: Image.Image, centre: tuple[float, float], radius: float, shield: str, direction: str | None
) -> None:
    """What ``draw_shield`` draws, pasted."""
    whole, fraction = _split_pixel(centre)
    _paste(image, _shield_sprite(shield, direction, radius, fraction), whole)


@lru_cache(maxsize=32)  # the last move's rim and the hand's rims
def _rim_sprite(radius: float, width: int, fraction: tuple[float, float]) -> _Sprite:
    """The outline of an octagon alone, as a mask."""
    mask, centre, corner = _sprite_canvas("1", radius, fraction)
    ImageDraw.Draw(mask).polygon(theme.octagon_points(*centre, radius), outline=255, width=width)
    return _Sprite(mask, mask, corner)


def _paste_rim(
    image: Image.Image, centre: tuple[float, float], radius: float, colour: tuple[int, int, int], width: int
) -> None:
    """An unfilled octagon, as ``theme.draw_octagon(..., None, outline=colour, width=width)`` draws it."""
    whole, fraction = _split_pixel(centre)
    _paste(image, _rim_sprite(radius, width, fraction), whole, colour)


# --- shared pieces ---------------------------------------------------------------------------------


def draw_shield(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, shield: str, direction: str | None
) -> None:
    """An octagonal shield: its colour, its arrow, and its letter beside the arrow."""
    fill = SHIELD_FILL[shield]
    ink = theme.readable_ink(fill)
    outline = theme.WHITE if shield == JOKER else theme.DARK_INK
    theme.draw_octagon(draw, centre, radius, fill, outline=outline, width=max(2, round(radius / 12)))
    letter = SHIELD_LETTER[shield]
    letter_size = max(TEXT, int(radius * 0.42))
    if direction is None:
        theme.centred_text(draw, centre, letter, max(TEXT, int(radius * 0.8)), ink)
    elif len(letter) > 1:  # the White Lady's two letters fill her shield: her direction is a pointer on the rim
        theme.centred_text(draw, centre, letter, letter_size, ink)
        _draw_rim_pointer(draw, centre, radius, direction, ink)
    else:
        theme.draw_direction_arrow(draw, centre, direction, radius * 1.45, ink, width=max(3, round(radius / 8)))
        # The letter sits across the arrow, a quarter turn clockwise, where the arrow never passes.
        dx, dy = _unit(direction)
        offset = radius * 0.52
        theme.centred_text(draw, (centre[0] - dy * offset, centre[1] + dx * offset), letter, letter_size, ink)


def _draw_rim_pointer(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, direction: str, ink: tuple[int, int, int]
) -> None:
    """A triangle inside the rim of a shield, pointing towards ``direction``."""
    dx, dy = _unit(direction)
    apothem = radius * math.cos(math.pi / 8)
    depth, half_base = radius * 0.42, radius * 0.36
    tip = (centre[0] + dx * (apothem - 2), centre[1] + dy * (apothem - 2))
    base_x, base_y = centre[0] + dx * (apothem - 2 - depth), centre[1] + dy * (apothem - 2 - depth)
    draw.polygon(
        [tip, (base_x - dy * half_base, base_y + dx * half_base), (base_x + dy * half_base, base_y - dx * half_base)],
        fill=ink,
    )


def _draw_triangle(draw: ImageDraw.ImageDraw, box: str, direction: str, colour: str) -> None:
    """A perimeter triangle on the box edge facing ``direction``, coloured like the line's far end."""
    cx, cy = box_centre(box)
    dx, dy = _unit(direction)
    apothem = BOX_RADIUS * math.cos(math.pi / 8)
    half_base, depth = CELL * 0.12, CELL * 0.13
    base_x, base_y = cx + dx * (apothem - 2), cy + dy * (apothem - 2)
    points = [
        (base_x - dy * half_base, base_y + dx * half_base),
        (base_x + dy * half_base, base_y - dx * half_base),
        (base_x - dx * depth, base_y - dy * depth),
    ]
    draw.polygon(points, fill=SHIELD_FILL[colour], outline=theme.DARK_INK, width=2)


def _draw_box(draw: ImageDraw.ImageDraw, box: str, level: str, label: tuple[int, int, int] | None = None) -> None:
    """An empty box: tinted row colour, its name (in ``label`` colour if given), and (advanced
    level) its perimeter triangles."""
    row_colour = SHIELD_FILL[ROW_COLOURS[box[0]]]
    centre = box_centre(box)
    theme.draw_octagon(
        draw,
        centre,
        BOX_RADIUS,
        _mix(row_colour, theme.BACKGROUND, 0.38),
        outline=_mix(row_colour, theme.BACKGROUND, 0.75),
        width=2,
    )
    theme.centred_text(draw, centre, box, TEXT, label or _mix(row_colour, theme.WHITE, 0.55))
    if level == ADVANCED:
        for triangle_box, direction, colour in perimeter_triangles():
            if triangle_box == box:
                _draw_triangle(draw, box, direction, colour)


@lru_cache(maxsize=2)  # both levels
def _board_layer(level: str) -> Image.Image:
    """The board with no shield on it and its colour legend below (it never changes)."""
    image, draw = theme.canvas(WIDTH, BOARD_BOTTOM + LEGEND_HEIGHT)
    for column in range(1, COLUMNS + 1):
        x = BOARD_LEFT + CELL * (column - 0.5)
        theme.centred_text(draw, (x, BOARD_TOP - 15), str(column), TEXT, theme.MUTED)
    for row_index, row in enumerate(ROWS):
        colour = SHIELD_FILL[ROW_COLOURS[row]]
        y = BOARD_TOP + CELL * (row_index + 0.5)
        theme.draw_octagon(draw, (BOARD_LEFT / 2 + 2, y), 18, colour, outline=theme.DARK_INK, width=2)
        theme.centred_text(draw, (BOARD_LEFT / 2 + 2, y), row, TEXT, theme.readable_ink(colour))
    for box in BOXES:
        _draw_box(draw, box, level)
    _draw_legend(image, BOARD_BOTTOM + 8)
    return image


def _draw_legend(image: Image.Image, top: int) -> None:
    """Each row's colour in words ("B sky blue"), in that colour: three to a line."""
    column_width = (WIDTH - 2 * MARGIN) / 3
    for index, row in enumerate(ROWS):
        line, column = divmod(index, 3)
        colour = ROW_COLOURS[row]
        xy = (MARGIN + column * column_width, top + line * LINE + LINE / 2)
        _write(image, xy, f"{row} {colour_words(colour)}", TEXT, SHIELD_FILL[colour], "lm")


@lru_cache(maxsize=4)  # about 1 MB each: the heights of a few kinds of game
def _empty_board(level: str, height: int) -> Image.Image:
    """The picture's canvas with the empty board on it, copied for each picture."""
    image, _ = theme.canvas(WIDTH, height)
    image.paste(_board_layer(level))
    return image


def _cell_corner(box: str) -> tuple[int, int]:
    row_index, column_index = box_position(box)
    return BOARD_LEFT + CELL * column_index, BOARD_TOP + CELL * row_index


@lru_cache(maxsize=128)  # every box of both levels
def _target_cell(level: str, box: str) -> Image.Image:
    """The target's whole cell: its box again with the name in yellow and a thick yellow rim.
    Drawn once per box on a copy of the empty board, so it is the pixels drawing there gives; the
    cell holds nothing else (boxes and shields stay inside their own cells)."""
    image = _board_layer(level).copy()
    draw = ImageDraw.Draw(image)
    _draw_box(draw, box, level, label=theme.HIGHLIGHT)
    theme.draw_octagon(draw, box_centre(box), BOX_RADIUS - 1, None, outline=theme.HIGHLIGHT, width=5)
    left, top = _cell_corner(box)
    return image.crop((left, top, left + CELL, top + CELL))


def _draw_shields_and_marks(image: Image.Image, state: OctagoneState, final: bool) -> None:
    for box, placed in state.board.items():  # a shield covers its box's triangles: they no longer matter
        _paste_shield(image, box_centre(box), SHIELD_RADIUS, placed.shield, placed.direction)
    if state.last_box in state.board:
        _paste_rim(image, box_centre(state.last_box), BOX_RADIUS - 1, theme.WHITE, 3)
    if state.target is not None and not final:  # a target is where the next shield goes: none after the end
        image.paste(_target_cell(state.level, state.target), _cell_corner(state.target))


# --- players and hands ----------------------------------------------------------------------------


def _turn_marker(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    draw.polygon([(x, y - 10), (x, y + 10), (x + 14, y)], fill=theme.HIGHLIGHT)


def _pair_label(state: OctagoneState, seat: int) -> str:
    return f" (pair {'AB'[seat % 2]})" if state.players == 4 else ""


def _player_count(state: OctagoneState, seat: int) -> str:
    count = _shields_words(shields_left(state, seat))
    return count + (f" · pair {team_shields_left(state, seat)}" if state.players == 4 else "")


def _draw_players(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    state: OctagoneState,
    names: Sequence[str],
    hand_seats: Sequence[int],
    top: int,
    final: bool,
) -> dict[int, int]:
    """One line per seat (turn marker, name, shields left; the White Lady beside the winners), and
    under it the seat's shields when they are shown; then the White Lady's meaning, if she is there.
    Returns the top of each hand row drawn, by seat."""
    winners = set(_winners(state))
    rows: dict[int, int] = {}
    y = top
    for seat in range(state.players):
        middle = y + PLAYER_LINE / 2
        if seat == state.to_move and not final:
            _turn_marker(draw, MARGIN, middle)
        draw.ellipse([MARGIN + 20, middle - 9, MARGIN + 38, middle + 9], fill=theme.SEAT_COLOURS[seat])
        count = _player_count(state, seat)
        count_x = WIDTH - MARGIN - theme.text_size(draw, count, TEXT)[0]
        room = count_x - (MARGIN + 48) - 12 - (2 * LADY_BADGE_RADIUS + 8 if seat in winners else 0)
        pair = _pair_label(state, seat)
        label = theme.fit_text(names[seat], TEXT, room - theme.text_size(draw, pair, TEXT)[0]) + pair
        _write(image, (MARGIN + 48, middle), label, TEXT, theme.INK, "lm")
        _write(image, (count_x, middle), count, TEXT, theme.INK, "lm")
        if seat in winners:
            badge_x = MARGIN + 48 + theme.text_size(draw, label, TEXT)[0] + 8 + LADY_BADGE_RADIUS
            _paste_shield(image, (badge_x, middle), LADY_BADGE_RADIUS, WHITE_LADY, None)
        y += PLAYER_LINE
        if seat in hand_seats:
            _draw_hand_row(image, state, seat, y)
            rows[seat] = y
            y += CHIP_ROW
    if winners:
        _draw_lady_legend(image, y)
    return rows


LADY_LEGEND = "White Lady: beside the winner"


def _draw_lady_legend(image: Image.Image, top: float) -> None:
    """What the badge beside the winners means (the rules draw the White Lady back beside them),
    the badge under the seats' dots and the words where the names start."""
    middle = top + PLAYER_LINE / 2
    _paste_shield(image, (MARGIN + 29, middle), LADY_BADGE_RADIUS, WHITE_LADY, None)
    text = theme.fit_text(LADY_LEGEND, TEXT, WIDTH - 2 * MARGIN - 56)
    _write(image, (MARGIN + 56, middle), text, TEXT, theme.MUTED, "lm")


def _players_height(state: OctagoneState, hand_seats: Sequence[int]) -> int:
    legend = PLAYER_LINE if _winners(state) else 0
    return PLAYER_LINE * state.players + CHIP_ROW * len(hand_seats) + legend


_MEASURE = ImageDraw.Draw(Image.new("RGB", (1, 1)))  # text_size needs a drawing, not a particular one


def _shields_words(count: int) -> str:
    return f"{count} shield" + ("" if count == 1 else "s")


def _winners(state: OctagoneState) -> list[int]:
    if state.outcome is None or state.outcome.is_draw:
        return []
    return list(state.outcome.winners)


def _draw_hand_row(image: Image.Image, state: OctagoneState, seat: int, top: int) -> None:
    """A seat's shields, one chip per kind held with its count below, each kind under its own board
    column (six colours and the joker: seven kinds, seven columns), so hands line up."""
    for index, kind in enumerate((*COLOURS, JOKER)):
        count = state.hands[seat][kind]
        if count == 0:
            continue
        x = BOARD_LEFT + CELL * (index + 0.5)
        _paste_shield(image, (x, top + CHIP_RADIUS + 2), CHIP_RADIUS, kind, None)
        _write(image, (x, top + 2 * CHIP_RADIUS + 4 + LINE / 2), f"x{count}", TEXT, theme.INK)
    if not any(state.hands[seat].values()):
        _write(image, (MARGIN + 48, top + CHIP_RADIUS), "no shields left", TEXT, theme.MUTED, "lm")


def render_board(
    state: OctagoneState, names: Sequence[str], viewer: int | None = None, *, ending: str | None = None
) -> theme.Picture:
    """The board for everyone; hands appear only with open hands, or the viewer's own hand when given.
    With ``ending`` ("Stopped by Ada") the board is final whatever the state says: that outcome as
    its status, no target box and no turn marker."""
    final = ending is not None or state.over
    hand_seats = list(range(state.players)) if state.open_hands else ([viewer] if viewer is not None else [])
    players_top = BOARD_BOTTOM + LEGEND_HEIGHT + 6
    height = players_top + _players_height(state, hand_seats) + MARGIN
    image = _empty_board(state.level, height).copy()
    draw = ImageDraw.Draw(image)
    # the title, then the level and the hands on the right: "advanced · hidden hands", or without
    # "hands" when a long level name leaves no room for it on a phone-sized line
    room = WIDTH - 2 * MARGIN - theme.text_size(draw, "OCTAGONE", TITLE)[0] - 16
    mode = f"{state.level} · {'open' if state.open_hands else 'hidden'} hands"
    if theme.text_size(draw, mode, TEXT)[0] > room:
        mode = mode.removesuffix(" hands")
    _write(image, (MARGIN, 22), "OCTAGONE", TITLE, theme.INK, "lm")
    _write(image, (WIDTH - MARGIN - theme.text_size(draw, mode, TEXT)[0], 22), mode, TEXT, theme.MUTED, "lm")
    status = _short_status_line(state, names) if ending is None else _ending_line(ending, names)
    _write(image, (MARGIN, 54), status, TEXT, theme.HIGHLIGHT, "lm")
    _draw_shields_and_marks(image, state, final)
    draw.line([(MARGIN, players_top - 4), (WIDTH - MARGIN, players_top - 4)], fill=theme.GRID, width=2)
    rows = _draw_players(image, draw, state, names, hand_seats, players_top, final)
    picture = theme.to_picture(image, describe(state, names, viewer, ending=ending), "octagone.png")
    hand = _hand_regions(state, viewer, rows[viewer]) if viewer in rows else {}
    return with_regions(picture, {**_board_regions(), **hand})


@lru_cache(maxsize=1)
def _board_regions() -> dict[str, Box]:
    """Each box's cell ("box:C4") and each row of cells ("row:C"), as the board draws them."""
    found = {f"box:{b}": (*_cell_corner(b), CELL, CELL) for b in BOXES}
    found.update({f"row:{row}": (BOARD_LEFT, BOARD_TOP + CELL * i, CELL * COLUMNS, CELL) for i, row in enumerate(ROWS)})
    return found


def _hand_regions(state: OctagoneState, viewer: int, top: int) -> dict[str, Box]:
    """The viewer's own shields in their hand row ("shield:sky", "shield:joker"), each kind held
    under its board column as :func:`_draw_hand_row` draws it."""
    return {
        f"shield:{kind}": (BOARD_LEFT + CELL * index, top, CELL, CHIP_ROW)
        for index, kind in enumerate((*COLOURS, JOKER))
        if state.hands[viewer][kind]
    }


def _ending_line(ending: str, names: Sequence[str]) -> str:
    """The ending on the status line's one line: long names in it are shortened to fit."""
    (line,) = theme.fit_lines(ending, TEXT, WIDTH - 2 * MARGIN, names=tuple(names))
    return line


def _short_status_line(state: OctagoneState, names: Sequence[str]) -> str:
    """The status line on one line of the picture: long names are shortened to fit."""
    room = WIDTH - 2 * MARGIN
    line, budget = _status_line(state, names), room
    while theme.text_size(_MEASURE, line, TEXT)[0] > room and budget > 40:
        budget -= 20
        line = _status_line(state, [theme.fit_text(name, TEXT, budget) for name in names])
    return line


HAND_SLOT = (WIDTH - 2 * MARGIN) // 4  # four kinds to a row
HAND_RADIUS = 36


def render_hand(state: OctagoneState, names: Sequence[str], seat: int) -> theme.Picture:
    """The private picture of ``seat``'s shields, grouped by colour, with what fits the target box."""
    fitting = placeable_shields(state, seat) if seat == state.to_move else []
    hint = _hand_hint(state, seat, fitting)
    title = theme.fit_text(f"{names[seat]}: {_shields_words(shields_left(state, seat))}", TITLE, WIDTH - 2 * MARGIN)
    hint_lines = _wrap(hint, TEXT, WIDTH - 2 * MARGIN)
    top = 24 + round(TITLE * 1.3) + LINE * len(hint_lines) + 12
    row_height = 2 * HAND_RADIUS + 24 + 2 * LINE + 12
    image, _ = theme.canvas(WIDTH, top + 2 * row_height)
    _write(image, (MARGIN, 26), title, TITLE, theme.INK, "lm")
    for index, line in enumerate(hint_lines):
        _write(image, (MARGIN, 24 + round(TITLE * 1.3) + LINE * (index + 0.5)), line, TEXT, theme.HIGHLIGHT, "lm")
    for index, kind in enumerate((*COLOURS, JOKER)):
        row, column = divmod(index, 4)
        cx = MARGIN + HAND_SLOT * (column + 0.5) + (HAND_SLOT / 2 if row else 0)  # three under four, centred
        cy = top + row * row_height + HAND_RADIUS + 12
        count = state.hands[seat][kind]
        if kind in fitting:
            _paste_rim(image, (cx, cy), HAND_RADIUS + 10, theme.HIGHLIGHT, 5)
        if count:
            _paste_shield(image, (cx, cy), HAND_RADIUS, kind, None)
        else:
            _paste_rim(image, (cx, cy), HAND_RADIUS, theme.GRID, 3)
            _write(image, (cx, cy), SHIELD_LETTER[kind], int(HAND_RADIUS * 0.8), theme.GRID)
        _write(image, (cx, cy + HAND_RADIUS + 12 + LINE / 2), f"x{count}", TITLE, theme.INK if count else theme.MUTED)
        word = "joker" if kind == JOKER else colour_words(kind)
        _write(image, (cx, cy + HAND_RADIUS + 12 + LINE * 1.5), word, TEXT, theme.MUTED)
    held = ", ".join(
        plural(state.hands[seat][kind], "joker") if kind == JOKER else f"{state.hands[seat][kind]} {colour_words(kind)}"
        for kind in (*COLOURS, JOKER)
        if state.hands[seat][kind]
    )
    description = f"Your Octagone shields, {names[seat]}: {held or 'none'}. {hint}"
    return theme.to_picture(image, description, "octagone-hand.png")


def _wrap(text: str, size: int, width: int) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and theme.text_size(_MEASURE, lines[-1] + " " + word, size)[0] <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _hand_hint(state: OctagoneState, seat: int, fitting: list[str]) -> str:
    if state.over:
        return "The game is over."
    if state.opening:
        return "Place the White Lady on any box and aim her." if seat == state.to_move else "The White Lady opens."
    target = f"{state.target} ({colour_words(box_colour(state.target))}, row {state.target[0]})"
    if seat != state.to_move:
        return f"Target box: {target}."
    return (
        f"Target {target}: you may play "
        + " or ".join("a joker" if kind == JOKER else colour_words(kind) for kind in fitting)
        + "."
    )


# --- words -----------------------------------------------------------------------------------------


def _status_line(state: OctagoneState, names: Sequence[str]) -> str:
    if state.over:
        winners = _winners(state)
        if not winners:
            return "Game over: a draw."
        return "Game over: " + " & ".join(names[seat] for seat in winners) + " win" + ("s" * (len(winners) == 1))
    player = names[state.to_move]
    if state.opening:
        return f"{player} opens: place the White Lady"
    return f"{player} to play on {state.target} ({colour_words(box_colour(state.target))}, row {state.target[0]})"


def narrate(event: Event, names: Sequence[str]) -> str:
    """One event of the engine as a plain sentence; ``names`` are used as given (the bot passes
    bold, escaped names for message text, the alt text plain ones)."""
    data = event.data
    who = names[event.seat] if event.seat is not None else ""
    if event.kind in ("white_lady", "place"):
        shield = WHITE_LADY if event.kind == "white_lady" else data["shield"]
        next_box = f"next target {data['target']}" if data["target"] else "no free box left"
        return f"{who} placed {shield_words(shield)} on {data['box']} aiming {data['direction']} ({next_box})."
    if event.kind == "skip":
        box = data["box"]
        return f"{who} has no {colour_words(box_colour(box))} shield or joker for {box} and skips."
    if event.kind == "white_lady_removed":
        return f"The White Lady leaves {data['box']}."
    return shared_sentence(event, names)


def describe(
    state: OctagoneState, names: Sequence[str], viewer: int | None = None, *, ending: str | None = None
) -> str:
    """The alt text: last move and its consequences, whose turn (or ``ending``), shields left
    (hands only if visible)."""
    parts = [f"Octagone, {state.level} level."]
    parts += filter(None, (narrate(event, names) for event in state.events))
    parts.append(f"Game over: {ending}." if ending is not None else _status_line(state, names) + ".")
    counts = ", ".join(f"{names[seat]} {shields_left(state, seat)}" for seat in range(state.players))
    parts.append(f"Shields left: {counts}.")
    if state.players == 4:
        parts.append(
            f"Pairs: {names[0]} & {names[2]} {team_shields_left(state, 0)}, "
            f"{names[1]} & {names[3]} {team_shields_left(state, 1)}."
        )
    visible = range(state.players) if state.open_hands else ([viewer] if viewer is not None else [])
    for seat in visible:
        held = ", ".join(
            f"{colour_words(kind)} {state.hands[seat][kind]}" for kind in (*COLOURS, JOKER) if state.hands[seat][kind]
        )
        parts.append(f"{names[seat]} holds {held or 'nothing'}.")
    return " ".join(parts)
