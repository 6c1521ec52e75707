"""The Octego board picture.

Row 1 is always at the bottom (seat 0's home edge), row 8 at the top (seat 1's). Black spaces
are drawn as octagons, purple spaces as diamonds, so the two grids read apart without colour.
Seat 0's pieces are blue circles, seat 1's orange squares; a piece shows its number as small
dark octagons (one, two or three) and an Octego piece as one large solid white octagon.
The picture is drawn at twice its size and scaled down, for smooth edges. What never changes is
drawn once per process, and tokens and labels are pasted from cached sprites and text masks,
with the same pixels as drawing them afresh.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from engines.base import Event
from engines.octego import (
    BOARD_SIZE,
    FILES,
    KIND_NAMES,
    OCTEGO,
    OctegoState,
    is_black,
    notation,
    pieces_of,
    square_index,
)
from render import theme
from render.narration import shared_sentence, with_reason
from render.regions import Box, box, scaled, with_regions

SCALE = 2  # supersampling factor
# Portrait, to be read on a phone: the panel sits under the board, so the board and its
# labels fill the width and every text is at least ``TEXT`` px (11 px tall at 360 px wide).
WIDTH = 600
TEXT = math.ceil(theme.min_text_size(WIDTH * SCALE) / SCALE)
NAME_TEXT = TEXT + 4
CELL = 66
BOARD_PX = CELL * BOARD_SIZE
LEFT = (WIDTH - BOARD_PX) // 2  # room for the row numbers, on both sides
BANNER = 60  # a player's name strip above and below the board
COORD = 32  # room for column letters
BOARD_TOP = BANNER + COORD
PANEL_LEFT, PANEL_RIGHT = 12, WIDTH - 12
PANEL_TOP = BOARD_TOP + BOARD_PX + COORD + BANNER + 8
ROW = 44  # a line of the panel
TAKEN_ROW = 46
PANEL_BOTTOM = PANEL_TOP + 8 + 2 * ROW + 2 * TAKEN_ROW + ROW + 8
HEIGHT = PANEL_BOTTOM + 12
TAKEN_LEFT = PANEL_LEFT + 196  # where the taken tokens start, right of "Grace took"
LEGEND_SIZE = 14  # the legend's grid shapes

BOARD_BASE = (58, 60, 70)
BLACK_SPACE = (16, 16, 20)
BLACK_EDGE = (120, 124, 136)
PURPLE_SPACE = (118, 74, 168)
PURPLE_EDGE = (168, 130, 214)
SEAT_STYLE = (  # (colour, shape word for the description)
    (theme.SKY_BLUE, "circles"),
    (theme.ORANGE, "squares"),
)
SEAT_COLOUR_NAME = ("blue", "orange")
PATH_COLOUR = theme.HIGHLIGHT
COORDINATE_INK = (186, 190, 200)  # lighter than MUTED: coordinates are read often, and small on a phone
CAPTURE_COLOUR = theme.VERMILION


def render_board(
    state: OctegoState, names: Sequence[str], viewer: int | None = None, *, ending: str | None = None
) -> theme.Picture:
    """The board for everyone (Octego has no hidden information, so ``viewer`` only
    changes the turn line of the description). With ``ending`` ("Stopped by Ada") the picture is
    final whatever the state says: that outcome instead of whose move it is, no turn highlight."""
    image = _empty_board().copy()
    draw = ImageDraw.Draw(image)
    _draw_banners(image, state, names, _is_final(state, ending))
    _draw_last_move(draw, state)
    for seat in (0, 1):
        for square, kind in pieces_of(state, seat):
            _stamp_piece(image, _centre(square_index(square)), seat, kind, CELL * 0.37)
    _draw_capture_mark(draw, state)
    _draw_panel(image, state, names, ending)
    image = image.reduce(SCALE)  # box filter: fast, and smooth enough for 2x supersampling
    picture = theme.to_picture(image, describe(state, names, viewer, ending=ending), "octego.png")
    return with_regions(picture, square_regions())


@lru_cache(maxsize=1)
def square_regions() -> dict[str, Box]:
    """Each square's cell in the finished picture ("square:c3"), where its piece is drawn."""
    half = _s(CELL / 2)
    found = {}
    for square in range(BOARD_SIZE * BOARD_SIZE):
        cx, cy = _centre(square)
        name = FILES[square % BOARD_SIZE] + str(square // BOARD_SIZE + 1)
        found[f"square:{name}"] = box(cx - half, cy - half, cx + half, cy + half)
    return scaled(found, SCALE)


def _is_final(state: OctegoState, ending: str | None) -> bool:
    """Whether the picture shows a game that is over: ended by its rules, or by the bot (stopped)."""
    return ending is not None or state.over


# ---------------------------------------------------------------- words


def narrate(event: Event, names: Sequence[str]) -> str:
    """One event in a plain sentence, ``names`` inserted as given (the bot's are bold)."""
    if event.kind == "move":
        data = event.data
        text = f"{names[event.seat]} moved {notation(data['path'], data['capture'])}"
        if data["capture"]:
            text += f", capturing {names[1 - event.seat]}'s {KIND_NAMES[data['capture']]}"
        if data["grid_change"]:
            text += " (grid change)"
        return text + "."
    return shared_sentence(event, names)


# What ends a game without a move, as the panel's "last move" says it.
CONCEDED = {"resign": "resigned", "forfeit": "out of time"}


def _last_move(state: OctegoState) -> Event | None:
    """The move event of the last action (None before the first move, or after a resignation)."""
    return next((event for event in state.events if event.kind == "move"), None)


def _moves_played(state: OctegoState) -> int:
    """Moves on the board: every action but a resignation or a loss on time (only ever the last)."""
    return state.ply - any(event.kind in CONCEDED for event in state.events)


def _winner(state: OctegoState) -> int | None:
    outcome = state.outcome
    return None if outcome is None or outcome.is_draw else outcome.winners[0]


# ---------------------------------------------------------------- geometry


def _s(value: float) -> float:
    return value * SCALE


def _centre(square: int) -> tuple[float, float]:
    """Picture coordinates (already scaled) of a square's centre; row 1 at the bottom."""
    col, row = square % BOARD_SIZE, square // BOARD_SIZE
    x = LEFT + (col + 0.5) * CELL
    y = BOARD_TOP + (BOARD_SIZE - 1 - row + 0.5) * CELL
    return _s(x), _s(y)


def square_centre(square: str) -> tuple[int, int]:
    """Pixel centre of a square in the finished picture (for tests and overlays)."""
    x, y = _centre(square_index(square))
    return round(x / SCALE), round(y / SCALE)


def _text(
    image: Image.Image, xy: tuple[float, float], text: str, size: int, fill=theme.INK, anchor: str = "mm"
) -> None:
    """Text of ``size`` in the finished picture, on the 2x canvas."""
    theme.write(image, xy, text, size * SCALE, fill, anchor)


@lru_cache(maxsize=256)
def _width(text: str, size: int) -> float:
    return theme.font(size * SCALE).getlength(text) / SCALE


# ---------------------------------------------------------------- board


@lru_cache(maxsize=1)
def _empty_board() -> Image.Image:
    """Everything that is the same in every picture, drawn once: the background, spaces,
    coordinates, and the panel's frame, title and legend."""
    image = Image.new("RGB", (WIDTH * SCALE, HEIGHT * SCALE), theme.BACKGROUND)
    _draw_board(image)
    _draw_panel_frame(image)
    return image


def _draw_board(image: Image.Image) -> None:
    draw = ImageDraw.Draw(image)
    x0, y0 = _s(LEFT), _s(BOARD_TOP)
    x1, y1 = x0 + _s(BOARD_PX), y0 + _s(BOARD_PX)
    draw.rounded_rectangle(
        (x0 - _s(6), y0 - _s(6), x1 + _s(6), y1 + _s(6)),
        radius=_s(10),
        fill=BOARD_BASE,
        outline=theme.GRID,
        width=_s(2),
    )
    half = _s(CELL / 2)
    for square in range(BOARD_SIZE * BOARD_SIZE):
        cx, cy = _centre(square)
        if is_black(square):
            # Apothem just under half a cell: neighbouring octagons nearly touch.
            theme.draw_octagon(draw, (cx, cy), half * 0.96 / 0.9239, BLACK_SPACE, BLACK_EDGE, width=_s(2))
        else:
            r = half * 0.92
            draw.polygon(
                [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)],
                fill=PURPLE_SPACE,
                outline=PURPLE_EDGE,
                width=_s(2),
            )
    for index in range(BOARD_SIZE):  # coordinates on all four sides, in the panel's text size
        x = _s(LEFT + (index + 0.5) * CELL)
        _text(image, (x, _s(BOARD_TOP - COORD / 2 - 3)), FILES[index], TEXT, COORDINATE_INK)
        _text(image, (x, _s(BOARD_TOP + BOARD_PX + COORD / 2 + 3)), FILES[index], TEXT, COORDINATE_INK)
        y = _s(BOARD_TOP + (BOARD_SIZE - 1 - index + 0.5) * CELL)
        for x in (_s(LEFT / 2 - 3), _s(WIDTH - LEFT / 2 + 3)):
            _text(image, (x, y), str(index + 1), TEXT, COORDINATE_INK)


# ---------------------------------------------------------------- sprites


class _Sprite(NamedTuple):
    """A small drawing to paste: its pixels, a 1-bit mask of the pixels it covers, and how far
    its reference point (a token's centre) lies from its top-left corner."""

    image: Image.Image
    mask: Image.Image
    half: int


def _make_sprite(half: int, offset: tuple[float, float], paint: Callable[[ImageDraw.ImageDraw, tuple], None]):
    """``paint(draw, centre)`` on a transparent square of side ``2 * half + 1``, its centre
    ``offset`` (a fraction of a pixel) past the middle pixel, as the picture's centre would be.
    ImageDraw's shapes have hard edges, so every pixel is either fully painted or untouched."""
    canvas = Image.new("RGBA", (2 * half + 1, 2 * half + 1), (0, 0, 0, 0))
    paint(ImageDraw.Draw(canvas), (half + offset[0], half + offset[1]))
    mask = canvas.getchannel("A").point(lambda alpha: 255 if alpha else 0, "1")
    return _Sprite(canvas.convert("RGB"), mask, half)


def _stamp(image: Image.Image, sprite: _Sprite, centre: tuple[float, float]) -> None:
    """Paste ``sprite`` so its centre lands on ``centre`` (whole pixels; the fraction is in the sprite)."""
    image.paste(sprite.image, (math.floor(centre[0]) - sprite.half, math.floor(centre[1]) - sprite.half), sprite.mask)


def _fraction(centre: tuple[float, float]) -> tuple[float, float]:
    return centre[0] % 1, centre[1] % 1


# ---------------------------------------------------------------- pieces


def _token_outline(draw, centre, seat: int, radius: float, fill, outline, width: float) -> None:
    cx, cy = centre
    box = (cx - radius, cy - radius, cx + radius, cy + radius)
    if seat == 0:
        draw.ellipse(box, fill=fill, outline=outline, width=int(width))
    else:
        inset = radius * 0.1
        box = (cx - radius + inset, cy - radius + inset, cx + radius - inset, cy + radius - inset)
        draw.rounded_rectangle(box, radius=radius * 0.25, fill=fill, outline=outline, width=int(width))


def _draw_piece(draw: ImageDraw.ImageDraw, centre: tuple[float, float], seat: int, kind: str, radius: float) -> None:
    """A token in the seat's colour and shape, marked with its octagons. ``radius`` unscaled."""
    colour = SEAT_STYLE[seat][0]
    r = _s(radius)
    cx, cy = centre
    # A soft shadow lifts the token off the board.
    _token_outline(draw, (cx + r * 0.06, cy + r * 0.1), seat, r, (8, 8, 10), None, 0)
    _token_outline(draw, centre, seat, r, colour, theme.WHITE, max(2, r * 0.07))
    ink = theme.DARK_INK
    if kind == OCTEGO:
        theme.draw_octagon(draw, centre, r * 0.62, theme.WHITE, ink, width=max(2, int(r * 0.08)))
        return
    count = int(kind)
    small = r * (0.34 if count == 1 else 0.28 if count == 2 else 0.25)
    spots = {
        1: [(0, 0)],
        2: [(-0.36, 0), (0.36, 0)],
        3: [(0, -0.33), (-0.36, 0.3), (0.36, 0.3)],
    }[count]
    for dx, dy in spots:
        theme.draw_octagon(draw, (cx + dx * r, cy + dy * r), small, ink, None)


def _stamp_piece(image: Image.Image, centre: tuple[float, float], seat: int, kind: str, radius: float) -> None:
    """What ``_draw_piece`` would draw, pasted from a sprite (the same few tokens recur)."""
    _stamp(image, _piece_sprite(seat, kind, radius, _fraction(centre)), centre)


@lru_cache(maxsize=64)
def _piece_sprite(seat: int, kind: str, radius: float, offset: tuple[float, float]) -> _Sprite:
    half = math.ceil(_s(radius) * 1.2) + 2  # the token and its shadow, with a margin
    return _make_sprite(half, offset, lambda draw, centre: _draw_piece(draw, centre, seat, kind, radius))


# ---------------------------------------------------------------- last move


def _draw_last_move(draw: ImageDraw.ImageDraw, state: OctegoState) -> None:
    last = _last_move(state)
    if last is None:
        return
    points = [_centre(square_index(name)) for name in last.data["path"]]
    width = _s(7)
    draw.line(points, fill=PATH_COLOUR, width=int(width), joint="curve")
    for x, y in points[1:-1]:
        dot = _s(8)
        draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=PATH_COLOUR)
    sx, sy = points[0]
    ring = _s(CELL * 0.3)
    draw.ellipse((sx - ring, sy - ring, sx + ring, sy + ring), outline=PATH_COLOUR, width=int(_s(6)))
    ex, ey = points[-1]
    halo = _s(CELL * 0.45)
    draw.ellipse((ex - halo, ey - halo, ex + halo, ey + halo), outline=PATH_COLOUR, width=int(_s(5)))


def _draw_capture_mark(draw: ImageDraw.ImageDraw, state: OctegoState) -> None:
    """A red badge with a cross on the square where the last move captured."""
    last = _last_move(state)
    if last is None or not last.data["capture"]:
        return
    ex, ey = _centre(square_index(last.data["path"][-1]))
    bx, by = ex + _s(CELL * 0.31), ey - _s(CELL * 0.31)
    r = _s(13)
    draw.ellipse((bx - r, by - r, bx + r, by + r), fill=CAPTURE_COLOUR, outline=theme.WHITE, width=_s(2))
    arm = r * 0.5
    for sign in (1, -1):
        draw.line([(bx - arm, by - sign * arm), (bx + arm, by + sign * arm)], fill=theme.WHITE, width=_s(3))


# ---------------------------------------------------------------- banners and panel


def _draw_banners(image: Image.Image, state: OctegoState, names: Sequence[str], final: bool) -> None:
    """Each player's name on their home edge: seat 1 above row 8, seat 0 below row 1."""
    for seat in (1, 0):
        active = not final and state.to_move == seat
        won = _winner(state) == seat
        highlighted = active or won
        x0, y0, _, _ = _banner_box(seat)
        image.paste(_banner_strip(seat, highlighted), (x0, y0))
        mid = _s(_banner_top(seat) + BANNER / 2)
        row = 1 if seat == 0 else BOARD_SIZE
        tag = "wins!" if won else "to move" if active else f"home row {row}"
        room = BOARD_PX - 66 - _width(tag, TEXT) - 20
        _text(image, (_s(LEFT + 54), mid), theme.fit_text(names[seat], NAME_TEXT, room), NAME_TEXT, theme.INK, "lm")
        _text(image, (_s(LEFT + BOARD_PX - 12), mid), tag, TEXT, theme.HIGHLIGHT if highlighted else theme.MUTED, "rm")


def _banner_top(seat: int) -> int:
    return BOARD_TOP + BOARD_PX + COORD if seat == 0 else 0


def _banner_box(seat: int) -> tuple[int, int, int, int]:
    """The strip's rounded rectangle (corners inclusive, as ImageDraw takes them)."""
    top = _banner_top(seat)
    return _s(LEFT - 6), _s(top + 6), _s(LEFT + BOARD_PX + 6), _s(top + BANNER - 6)


@lru_cache(maxsize=4)
def _banner_strip(seat: int, highlighted: bool) -> Image.Image:
    """The strip behind a name with its seat's token, cut with the empty board around its
    rounded corners so it can be pasted whole."""
    x0, y0, x1, y1 = _banner_box(seat)
    strip = _empty_board().crop((x0, y0, x1 + 1, y1 + 1))
    draw = ImageDraw.Draw(strip)
    border = theme.HIGHLIGHT if highlighted else theme.GRID
    width = _s(4 if highlighted else 2)
    draw.rounded_rectangle((0, 0, x1 - x0, y1 - y0), radius=_s(12), fill=theme.PANEL, outline=border, width=width)
    mid = _s(_banner_top(seat) + BANNER / 2)
    _draw_piece(draw, (_s(LEFT + 26) - x0, mid - y0), seat, OCTEGO, 17)
    return strip


def _row_middle(row: int) -> float:
    """The vertical middle of the panel's ``row``: two text rows, two of taken pieces, the legend."""
    heights = (ROW, ROW, TAKEN_ROW, TAKEN_ROW, ROW)
    return PANEL_TOP + 8 + sum(heights[:row]) + heights[row] / 2


def _draw_panel_frame(image: Image.Image) -> None:
    """The panel under the board, with what never changes: its title and the grids' legend."""
    draw = ImageDraw.Draw(image)
    box = (_s(PANEL_LEFT), _s(PANEL_TOP), _s(PANEL_RIGHT), _s(PANEL_BOTTOM))
    draw.rounded_rectangle(box, radius=_s(14), fill=theme.PANEL)
    _text(image, (_s(PANEL_LEFT + 16), _s(_row_middle(0))), "OCTEGO", NAME_TEXT, theme.INK, "lm")
    _draw_legend(image, _row_middle(4))


def _draw_panel(image: Image.Image, state: OctegoState, names: Sequence[str], ending: str | None) -> None:
    """The panel's changing lines, beside and under the title ``_draw_panel_frame`` put in the empty board."""
    left, right = PANEL_LEFT + 16, PANEL_RIGHT - 16
    y = _row_middle(0)
    moves = _moves_played(state)
    counter = f"move {moves + 1}" if not _is_final(state, ending) else f"{moves} move{'' if moves == 1 else 's'}"
    _text(image, (_s(left + _width("OCTEGO", NAME_TEXT) + 14), _s(y)), counter, TEXT, theme.MUTED, "lm")
    last = _last_move_text(state)
    _text(image, (_s(right), _s(y)), last, TEXT, PATH_COLOUR if _last_move(state) else theme.INK, "rm")
    label_right = right - _width(last, TEXT) - 10
    counter_right = left + _width("OCTEGO", NAME_TEXT) + 14 + _width(counter, TEXT)
    label = next((word for word in ("last move", "last") if label_right - _width(word, TEXT) > counter_right + 12), "")
    if label:  # the path alone, in the board's path colour, when a long one leaves no room for a word
        _text(image, (_s(label_right), _s(y)), label, TEXT, theme.MUTED, "rm")
    if ending is None:
        _draw_status(image, state, names, left, right, _row_middle(1))
    else:  # one line, as the status it replaces: long names in it are shortened
        (line,) = theme.fit_lines(ending, TEXT, right - left, names=tuple(names))
        _text(image, (_s(left), _s(_row_middle(1))), line, TEXT, theme.HIGHLIGHT, "lm")
    for row, seat in ((2, 1), (3, 0)):
        _draw_captured(image, state, names, seat, left, _row_middle(row))


def _draw_status(
    image: Image.Image, state: OctegoState, names: Sequence[str], left: float, right: float, y: float
) -> None:
    """Who moves next with their token, or who won and why."""
    if state.outcome is None:
        _stamp_piece(image, (_s(left + 16), _s(y)), state.to_move, OCTEGO, 16)
        line = f"{theme.fit_text(names[state.to_move], TEXT, right - left - 180)} to move"
        _text(image, (_s(left + 44), _s(y)), line, TEXT, theme.INK, "lm")
        return
    winner = _winner(state)
    reason = with_reason("", state.outcome.reason, colon=True)
    if winner is None:
        headline = "Draw"
    else:
        headline = f"{theme.fit_text(names[winner], TEXT, max(right - left - _width(f' wins{reason}', TEXT), 90))} wins"
    _text(image, (_s(left), _s(y)), theme.fit_text(headline + reason, TEXT, right - left), TEXT, theme.HIGHLIGHT, "lm")


def _draw_legend(image: Image.Image, y: float) -> None:
    """Which shape is which grid: pieces stay on their grid except for edge moves."""
    for index, (label, black) in enumerate((("black grid", True), ("purple grid", False))):
        cx = PANEL_LEFT + 32 + index * (PANEL_RIGHT - PANEL_LEFT) / 2
        centre = (_s(cx), _s(y))
        _stamp(image, _legend_sprite(black, _fraction(centre)), centre)
        _text(image, (_s(cx + 26), _s(y)), label, TEXT, theme.MUTED, "lm")


@lru_cache(maxsize=4)
def _legend_sprite(black: bool, offset: tuple[float, float]) -> _Sprite:
    return _make_sprite(_s(LEGEND_SIZE) + 4, offset, lambda draw, centre: _draw_legend_space(draw, centre, black))


def _draw_legend_space(draw: ImageDraw.ImageDraw, centre: tuple[float, float], black: bool) -> None:
    r = _s(LEGEND_SIZE)
    if black:
        theme.draw_octagon(draw, centre, r, BLACK_SPACE, BLACK_EDGE, width=_s(2))
    else:
        x, y = centre
        draw.polygon(
            [(x, y - r), (x + r, y), (x, y + r), (x - r, y)], fill=PURPLE_SPACE, outline=PURPLE_EDGE, width=_s(2)
        )


def _draw_captured(image: Image.Image, state: OctegoState, names: Sequence[str], seat: int, left: float, y: float):
    """The opponent's pieces ``seat`` has taken, as small tokens in a row after the player's name."""
    name = theme.fit_text(names[seat], TEXT, TAKEN_LEFT - left - 12 - _width(" took", TEXT))
    _text(image, (_s(left), _s(y)), f"{name} took", TEXT, theme.MUTED, "lm")
    taken = state.captured[seat]
    if not taken:
        _text(image, (_s(TAKEN_LEFT), _s(y)), "nothing yet", TEXT, theme.MUTED, "lm")
    for index, kind in enumerate(taken):  # at most the 8 pieces of a side: 8 x 44 px fit the row
        _stamp_piece(image, (_s(TAKEN_LEFT + 18 + index * 44), _s(y)), 1 - seat, kind, 18)


def _last_move_text(state: OctegoState) -> str:
    """The panel's "last move": the move's notation, or what happened instead."""
    last = _last_move(state)
    if last is not None:
        return notation(last.data["path"], last.data["capture"])
    conceded = next((CONCEDED[event.kind] for event in state.events if event.kind in CONCEDED), None)
    return conceded or "none yet"


# ---------------------------------------------------------------- description


def _pieces_text(state: OctegoState, seat: int) -> str:
    groups: dict[str, list[str]] = {}
    for square, kind in pieces_of(state, seat):
        groups.setdefault(kind, []).append(square)
    parts = []
    for kind, label in ((OCTEGO, "Octegos"), ("1", "1s"), ("2", "2s"), ("3", "3s")):
        if kind in groups:
            parts.append(f"{label} {' '.join(groups[kind])}")
    return "; ".join(parts) or "no pieces"


def describe(state: OctegoState, names: Sequence[str], viewer: int | None = None, *, ending: str | None = None) -> str:
    """Alt text: players, the last action, whose turn (or the result, or ``ending``) and every piece's square."""
    moves = _moves_played(state)
    played = f"{moves} move{'' if moves == 1 else 's'} played"
    lines = [
        f"Octego, {played}. "
        f"{names[0]} ({SEAT_COLOUR_NAME[0]} {SEAT_STYLE[0][1]}, home row 1) vs "
        f"{names[1]} ({SEAT_COLOUR_NAME[1]} {SEAT_STYLE[1][1]}, home row 8)."
    ]
    # The last action in the narrator's words; the result has its own sentence below.
    lines += [said for event in state.events if event.kind != "end" and (said := narrate(event, names))]
    outcome = state.outcome
    if ending is not None:
        lines.append(f"Game over: {ending}.")
    elif outcome is not None:
        result = "Draw" if outcome.is_draw else f"{names[outcome.winners[0]]} wins"
        lines.append(f"Game over: {with_reason(result, outcome.reason)}.")
    else:
        turn = "your" if viewer == state.to_move else f"{names[state.to_move]}'s"
        lines.append(f"It is {turn} turn.")
    for seat in (0, 1):
        lines.append(f"{names[seat]}: {_pieces_text(state, seat)}.")
    return " ".join(lines)
