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

WIDTH = 960
CELL = 112
BOARD_LEFT = 74  # room for the row letters
BOARD_TOP = 126  # below the title, status line and column numbers
BOARD_BOTTOM = BOARD_TOP + CELL * len(ROWS)
HEADER_HEIGHT = 92
BOX_RADIUS = (CELL - 6) / 2 / math.cos(math.pi / 8)  # octagons nearly touching flat to flat
SHIELD_RADIUS = BOX_RADIUS * 0.72

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
    theme.draw_octagon(draw, centre, radius, fill, outline=outline, width=3)
    letter = SHIELD_LETTER[shield]
    letter_size = max(11, int(radius * (0.42 if len(letter) == 1 else 0.32)))
    if direction is None:
        theme.centred_text(draw, centre, SHIELD_LETTER[shield], int(radius * 0.8), ink)
        return
    theme.draw_direction_arrow(draw, centre, direction, radius * 1.35, ink, width=max(3, int(radius / 9)))
    # The letter sits across the arrow, a quarter turn clockwise, where the arrow never passes.
    dx, dy = _unit(direction)
    offset = radius * 0.55
    theme.centred_text(draw, (centre[0] - dy * offset, centre[1] + dx * offset), letter, letter_size, ink)


def _draw_triangle(draw: ImageDraw.ImageDraw, box: str, direction: str, colour: str) -> None:
    """A perimeter triangle on the box edge facing ``direction``, coloured like the line's far end."""
    cx, cy = box_centre(box)
    dx, dy = _unit(direction)
    apothem = BOX_RADIUS * math.cos(math.pi / 8)
    half_base, depth = 13, 15
    base_x, base_y = cx + dx * (apothem - 2), cy + dy * (apothem - 2)
    points = [
        (base_x - dy * half_base, base_y + dx * half_base),
        (base_x + dy * half_base, base_y - dx * half_base),
        (base_x - dx * depth, base_y - dy * depth),
    ]
    draw.polygon(points, fill=SHIELD_FILL[colour], outline=theme.DARK_INK, width=2)


def _draw_box(draw: ImageDraw.ImageDraw, box: str, level: str, label_lift: int = 0) -> None:
    """An empty box: tinted row colour, its name, and (advanced level) its perimeter triangles."""
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
    theme.centred_text(draw, (centre[0], centre[1] - label_lift), box, 22, _mix(row_colour, theme.WHITE, 0.55))
    if level == ADVANCED:
        for triangle_box, direction, colour in perimeter_triangles():
            if triangle_box == box:
                _draw_triangle(draw, box, direction, colour)


@lru_cache(maxsize=2)  # both levels
def _board_layer(level: str) -> Image.Image:
    """The board with no shield on it, down to its bottom (it never changes)."""
    image, draw = theme.canvas(WIDTH, BOARD_BOTTOM)
    for column in range(1, COLUMNS + 1):
        x = BOARD_LEFT + CELL * (column - 0.5)
        theme.centred_text(draw, (x, BOARD_TOP - 16), str(column), 24, theme.MUTED)
    for row_index, row in enumerate(ROWS):
        colour = SHIELD_FILL[ROW_COLOURS[row]]
        y = BOARD_TOP + CELL * (row_index + 0.5)
        theme.draw_octagon(draw, (BOARD_LEFT / 2, y), 24, colour, outline=theme.DARK_INK, width=2)
        theme.centred_text(draw, (BOARD_LEFT / 2, y), row, 26, theme.readable_ink(colour))
        right = BOARD_LEFT + CELL * COLUMNS + 8
        draw.text((right, y), colour_words(ROW_COLOURS[row]), font=theme.font(18), fill=colour, anchor="lm")
    for box in BOXES:
        _draw_box(draw, box, level)
    return image


@lru_cache(maxsize=4)  # about 4 MB each: the heights of a few kinds of game
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
    """The target's whole cell: its box again with the name lifted, a thick yellow rim and TARGET.
    Drawn once per box on a copy of the empty board, so it is the pixels drawing there gives; the
    cell holds nothing else (boxes and shields stay inside their own cells)."""
    image = _board_layer(level).copy()
    draw = ImageDraw.Draw(image)
    _draw_box(draw, box, level, label_lift=8)
    centre = box_centre(box)
    theme.draw_octagon(draw, centre, BOX_RADIUS - 1, None, outline=theme.HIGHLIGHT, width=7)
    theme.centred_text(draw, (centre[0], centre[1] + 16), "TARGET", 15, theme.HIGHLIGHT)
    left, top = _cell_corner(box)
    return image.crop((left, top, left + CELL, top + CELL))


def _draw_shields_and_marks(image: Image.Image, state: OctagoneState) -> None:
    for box, placed in state.board.items():
        _paste_shield(image, box_centre(box), SHIELD_RADIUS, placed.shield, placed.direction)
    if state.last_box in state.board:
        _paste_rim(image, box_centre(state.last_box), BOX_RADIUS - 2, theme.WHITE, 4)
    if state.target is not None:
        image.paste(_target_cell(state.level, state.target), _cell_corner(state.target))


# --- players and hands ----------------------------------------------------------------------------


def _turn_marker(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    draw.polygon([(x, y - 11), (x, y + 11), (x + 16, y)], fill=theme.HIGHLIGHT)


def _draw_players(
    image: Image.Image, draw: ImageDraw.ImageDraw, state: OctagoneState, names: Sequence[str], top: int
) -> int:
    """One line per seat: turn marker, name, shields left; the White Lady beside the winner. Returns the bottom."""
    line = 44
    winners = set(_winners(state))
    for seat in range(state.players):
        y = top + line * seat + line / 2
        if seat == state.to_move:
            _turn_marker(draw, 24, y)
        draw.ellipse([48, y - 10, 68, y + 10], fill=theme.SEAT_COLOURS[seat])
        label = names[seat]
        if state.players == 4:
            label += f"  (pair {'AB'[seat % 2]})"
        _write(image, (80, y), label, 26, theme.INK, "lm")
        count = _shields_words(shields_left(state, seat))
        if state.players == 4:
            count += f"  ·  pair {team_shields_left(state, seat)}"
        _write(image, (WIDTH - 30, y), count, 26, theme.INK, "rm")
        if seat in winners:
            name_width = theme.text_size(draw, label, 26)[0]
            _paste_shield(image, (80 + name_width + 30, y), 17, WHITE_LADY, None)
    return top + line * state.players


def _shields_words(count: int) -> str:
    return f"{count} shield" + ("" if count == 1 else "s")


def _winners(state: OctagoneState) -> list[int]:
    if state.outcome is None or state.outcome.is_draw:
        return []
    return list(state.outcome.winners)


def _draw_hand_row(image: Image.Image, state: OctagoneState, seat: int, label: str, top: int) -> int:
    """A compact hand: the owner's name, then one chip per shield kind held, with its count."""
    _write(image, (30, top + 22), label, 22, theme.MUTED, "lm")
    x = 30
    y = top + 70
    for kind in (*COLOURS, JOKER):
        count = state.hands[seat][kind]
        if count == 0:
            continue
        _paste_shield(image, (x + 24, y), 24, kind, None)
        _write(image, (x + 54, y), f"x{count}", 24, theme.INK, "lm")
        x += 124
    if x == 30:
        _write(image, (30, y), "no shields left", 22, theme.INK, "lm")
    return top + 104


def render_board(state: OctagoneState, names: Sequence[str], viewer: int | None = None) -> theme.Picture:
    """The board for everyone; hands appear only with open hands, or the viewer's own hand when given."""
    hand_seats = list(range(state.players)) if state.open_hands else ([viewer] if viewer is not None else [])
    players_top = BOARD_BOTTOM + 24
    height = players_top + 44 * state.players + 20 + 104 * len(hand_seats) + 10
    image = _empty_board(state.level, height).copy()
    draw = ImageDraw.Draw(image)
    title = f"OCTAGONE  ·  {state.level}"
    _write(image, (30, 26), title, 32, theme.INK, "lm")
    _write(image, (WIDTH - 30, 26), "open hands" if state.open_hands else "hidden hands", 20, theme.MUTED, "rm")
    draw.text((30, 68), _status_line(state, names), font=theme.font(24), fill=theme.HIGHLIGHT, anchor="lm")
    _draw_shields_and_marks(image, state)
    bottom = _draw_players(image, draw, state, names, players_top) + 16
    if hand_seats:
        draw.line([(30, bottom - 6), (WIDTH - 30, bottom - 6)], fill=theme.GRID, width=2)
    for seat in hand_seats:
        owner = "Your shields" if seat == viewer and not state.open_hands else f"{names[seat]}'s shields"
        bottom = _draw_hand_row(image, state, seat, owner, bottom)
    return theme.to_picture(image, describe(state, names, viewer), "octagone.png")


def render_hand(state: OctagoneState, names: Sequence[str], seat: int) -> theme.Picture:
    """The private picture of ``seat``'s shields, grouped by colour, with what fits the target box."""
    width, height = 900, 330
    image, draw = theme.canvas(width, height)
    draw.text(
        (30, 34),
        f"{names[seat]}: {_shields_words(shields_left(state, seat))}",
        font=theme.font(32),
        fill=theme.INK,
        anchor="lm",
    )
    fitting = placeable_shields(state, seat) if seat == state.to_move else []
    hint = _hand_hint(state, seat, fitting)
    draw.text((30, 80), hint, font=theme.font(22), fill=theme.HIGHLIGHT, anchor="lm")
    slot = (width - 40) / 7
    for index, kind in enumerate((*COLOURS, JOKER)):
        cx, cy = 20 + slot * (index + 0.5), 190
        count = state.hands[seat][kind]
        if kind in fitting:
            _paste_rim(image, (cx, cy), 58, theme.HIGHLIGHT, 6)
        if count:
            _paste_shield(image, (cx, cy), 46, kind, None)
        else:
            _paste_rim(image, (cx, cy), 46, theme.GRID, 3)
            _write(image, (cx, cy), SHIELD_LETTER[kind], 34, theme.GRID)
        _write(image, (cx, cy + 80), f"x{count}", 32, theme.INK if count else theme.MUTED)
        word = "joker" if kind == JOKER else colour_words(kind)
        _write(image, (cx, cy + 114), word, 18, theme.MUTED)
    held = ", ".join(
        f"{state.hands[seat][kind]} {'joker' if kind == JOKER else colour_words(kind)}"
        f"{'s' if kind == JOKER and state.hands[seat][kind] != 1 else ''}"
        for kind in (*COLOURS, JOKER)
        if state.hands[seat][kind]
    )
    description = f"Your Octagone shields, {names[seat]}: {held or 'none'}. {hint}"
    return theme.to_picture(image, description, "octagone-hand.png")


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


def describe(state: OctagoneState, names: Sequence[str], viewer: int | None = None) -> str:
    """The alt text: last move and its consequences, whose turn, shields left (hands only if visible)."""
    parts = [f"Octagone, {state.level} level."]
    parts += filter(None, (narrate(event, names) for event in state.events))
    parts.append(_status_line(state, names) + ".")
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
