"""Octiles Scavenger Hunt pictures: the tile maze, stops, circles, runners, prizes and markers.

Drawn at twice the size and scaled down, so the curved tile paths come out smooth. The board
uses the drawing centres of ``engines/octiles/board.json`` (x right, y up; one unit = one tile).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engines.base import Event
from engines.octiles import (
    CENTRAL_STOPS,
    CIRCLE_CENTRES,
    EDGE_NAMES,
    EXITS,
    NEIGHBOUR,
    PRINTED_LINES,
    PRIZES_TO_WIN,
    RING,
    SPACE_CENTRES,
    SPACES,
    STOP_CENTRES,
    STOPS,
    TILE_PAIRS,
    OctilesState,
    acting,
    colour_of,
    connections,
    marker_owner,
    restricted_space,
    seat_of,
)
from render import theme
from render.narration import shared_sentence

WIDTH = 960
SCALE = 2  # drawn at 2x, then scaled down with a smooth filter
UNIT = 134  # px per board unit in the final picture
BOARD_X_RANGE = (-0.98, 5.98)
BOARD_Y_RANGE = (0.1, 6.95)  # board y (up): the picture shows y from high (top) to low
HEADER = 64
FOOTER = 226
APOTHEM = 0.5
CIRCUMRADIUS = APOTHEM / math.cos(math.pi / 8)

TILE_FACE = (62, 66, 78)
TILE_EDGE = (98, 103, 118)
PATH_INK = (222, 224, 230)
LINE_ON_BOARD = (170, 174, 186)
STOP_FACE = (128, 134, 150)
ROUTE = theme.HIGHLIGHT
CHANGED = theme.SKY_BLUE
RUNNER_COLOURS = {"gold": theme.YELLOW, "teal": theme.GREEN}
RUNNER_LETTERS = {"gold": "G", "teal": "T"}
PRIZE_COLOURS = {"orange": theme.ORANGE, "plum": theme.PURPLE}
PRIZE_LETTERS = {"orange": "O", "plum": "P"}
PRIZE_OF = {"gold": "orange", "teal": "plum"}

# How far the Bezier handles reach into a tile, by how many edges apart a path's ends are.
HANDLE_BY_SEPARATION = {1: 0.42, 2: 0.5, 3: 0.55, 4: 0.5}


def _direction(edge: int) -> tuple[float, float]:
    """Unit vector (board coordinates, y up) from a tile's centre towards ``edge``."""
    angle = edge * math.pi / 4
    return math.sin(angle), math.cos(angle)


def _edge_point(space: str, edge: int) -> tuple[float, float]:
    cx, cy = SPACE_CENTRES[space]
    dx, dy = _direction(edge)
    return cx + APOTHEM * dx, cy + APOTHEM * dy


def _bezier(p0, p1, p2, p3, steps: int = 28) -> list[tuple[float, float]]:
    points = []
    for i in range(steps + 1):
        t = i / steps
        a, b, c, d = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t * t, t**3
        points.append((a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0], a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]))
    return points


def tile_path_curve(centre: tuple[float, float], edge_a: int, edge_b: int, apothem: float = APOTHEM):
    """Points of the smooth path joining two edge midpoints of a tile centred at ``centre``."""
    (cx, cy), (ax, ay), (bx, by) = centre, _direction(edge_a), _direction(edge_b)
    separation = min((edge_a - edge_b) % 8, (edge_b - edge_a) % 8)
    handle = HANDLE_BY_SEPARATION[separation] * apothem
    p0 = (cx + apothem * ax, cy + apothem * ay)
    p3 = (cx + apothem * bx, cy + apothem * by)
    return _bezier(p0, (p0[0] - handle * ax, p0[1] - handle * ay), (p3[0] - handle * bx, p3[1] - handle * by), p3)


def _printed_curve(a: tuple[str, int], b: tuple[str, int]):
    p0, p3 = _edge_point(*a), _edge_point(*b)
    reach = 0.55 * math.dist(p0, p3)
    (ax, ay), (bx, by) = _direction(a[1]), _direction(b[1])
    return _bezier(p0, (p0[0] + reach * ax, p0[1] + reach * ay), (p3[0] + reach * bx, p3[1] + reach * by), p3)


def _ribbon(pixels: list[tuple[float, float]], half_width: float) -> list[tuple[float, float]]:
    """Outline of a thick line along ``pixels`` (a polygon is much faster than Pillow's curved joints)."""
    left, right = [], []
    last = len(pixels) - 1
    for i, (x, y) in enumerate(pixels):
        (ax, ay), (bx, by) = pixels[max(i - 1, 0)], pixels[min(i + 1, last)]
        dx, dy = bx - ax, by - ay
        norm = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / norm * half_width, dx / norm * half_width
        left.append((x + nx, y + ny))
        right.append((x - nx, y - ny))
    return left + right[::-1]


class _Board:
    """Board coordinates -> pixels of the 2x drawing."""

    def __init__(self, image: Image.Image, corner: tuple[int, int] = (0, 0)):
        """``corner``: where ``image`` sits on the whole 2x drawing (a tile sprite's place)."""
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.unit = UNIT * SCALE
        self.left = (WIDTH * SCALE - (BOARD_X_RANGE[1] - BOARD_X_RANGE[0]) * self.unit) / 2 - corner[0]
        self.top = HEADER * SCALE - corner[1]

    def px(self, point: tuple[float, float]) -> tuple[float, float]:
        x, y = point
        return (self.left + (x - BOARD_X_RANGE[0]) * self.unit, self.top + (BOARD_Y_RANGE[1] - y) * self.unit)

    def length(self, units: float) -> int:
        return max(1, round(units * self.unit))

    def line(self, points, colour, width_units: float) -> None:
        pixels = [self.px(p) for p in points]
        width = self.length(width_units)
        self.draw.polygon(_ribbon(pixels, width / 2), fill=colour)
        radius = width / 2  # round caps
        for x, y in (pixels[0], pixels[-1]):
            self.draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour)

    def text(self, point, text: str, size_units: float, colour, anchor: str = "mm") -> None:
        self.draw.text(self.px(point), text, font=theme.font(self.length(size_units)), fill=colour, anchor=anchor)

    def disc(self, point, radius_units: float, fill, outline=None, width_units: float = 0.0) -> None:
        x, y = self.px(point)
        r = radius_units * self.unit
        self.draw.ellipse(
            (x - r, y - r, x + r, y + r), fill=fill, outline=outline, width=self.length(width_units) if outline else 0
        )


def _draw_tile_paths(
    board: _Board, centre, tile: int, orientation: int, highlighted: set[tuple[int, int]], apothem: float = APOTHEM
) -> None:
    """Four paths; each is drawn over a halo of the tile colour, so later paths bridge earlier ones."""
    joined = connections(tile, orientation)
    pairs = sorted({tuple(sorted((edge, joined[edge]))) for edge in range(8)})
    pairs.sort(key=lambda pair: pair in highlighted)  # the route goes on top
    scale = apothem / APOTHEM
    for pair in pairs:
        curve = tile_path_curve(centre, *pair, apothem=apothem)
        lit = pair in highlighted
        board.line(curve[2:-2], TILE_FACE, (0.16 if lit else 0.13) * scale)
        board.line(curve, ROUTE if lit else PATH_INK, (0.085 if lit else 0.05) * scale)


@lru_cache(maxsize=64)  # about 360 KB each: the tiles of a few games at once
def _tile_sprite(space: str, tile: int, orientation: int, lit: frozenset) -> tuple[Image.Image, tuple[int, int]]:
    """A placed tile (octagon and paths) drawn once on a transparent sprite, and its corner on the
    board: tiles change a few at a time, so most of a board is pasted, not drawn (same pixels)."""
    x, y = _Board(Image.new("RGBA", (1, 1))).px(SPACE_CENTRES[space])
    half = math.ceil(APOTHEM / math.cos(math.pi / 8) * UNIT * SCALE) + 4
    corner = (math.floor(x) - half, math.floor(y) - half)
    board = _Board(Image.new("RGBA", (2 * half + 2, 2 * half + 2), (0, 0, 0, 0)), corner)
    centre = SPACE_CENTRES[space]
    board.draw.polygon(_octagon(board, centre), fill=TILE_FACE, outline=TILE_EDGE, width=board.length(0.02))
    _draw_tile_paths(board, centre, tile, orientation, set(lit))
    return board.image, corner


def _octagon(board: _Board, centre, apothem: float = APOTHEM):
    radius = apothem / math.cos(math.pi / 8)
    corners = []
    for k in range(8):
        angle = math.pi / 8 + k * math.pi / 4  # corners between edge directions: flat N edge
        corners.append(board.px((centre[0] + radius * math.sin(angle), centre[1] + radius * math.cos(angle))))
    return corners


def _last(state: OctilesState, *kinds: str) -> Event | None:
    """The last action's event of one of ``kinds`` (what the picture highlights)."""
    return next((event for event in state.events if event.kind in kinds), None)


def _route_parts(state: OctilesState):
    """The last route as tile paths, printed lines and stop/circle connectors to light up."""
    lit_paths: dict[str, set[tuple[int, int]]] = {}
    lit_lines: set[tuple] = set()
    moved = _last(state, "move", "replace_move")
    route = moved.data if moved else None
    if not route:
        return lit_paths, lit_lines, []
    steps = route["steps"]
    for space, edge_in, edge_out in steps:
        lit_paths.setdefault(space, set()).add(tuple(sorted((edge_in, edge_out))))
        neighbour = NEIGHBOUR[(space, edge_out)]
        if neighbour.kind == "tile" and neighbour.printed:
            lit_lines.add(tuple(sorted([(space, edge_out), (neighbour.ident, neighbour.edge)])))
    ends = [(route["start"], steps[0][0], steps[0][1]), (route["end"], steps[-1][0], steps[-1][2])]
    return lit_paths, lit_lines, ends


def _location_centre(location: str) -> tuple[float, float]:
    return STOP_CENTRES.get(location) or CIRCLE_CENTRES[location]


def _draw_board(board: _Board, state: OctilesState) -> None:
    lit_paths, lit_lines, route_ends = _route_parts(state)
    draw = board.draw
    # circle connectors and printed lines lie on the board under the tiles
    for circle in RING:
        ((space, edge),) = EXITS[circle]
        board.line([CIRCLE_CENTRES[circle], _edge_point(space, edge)], LINE_ON_BOARD, 0.045)
    for a, b in PRINTED_LINES:
        lit = tuple(sorted([a, b])) in lit_lines
        board.line(_printed_curve(a, b), ROUTE if lit else LINE_ON_BOARD, 0.085 if lit else 0.05)
    for location, space, edge in route_ends:
        board.line([_location_centre(location), _edge_point(space, edge)], ROUTE, 0.085)
    changed = {state.last_change["space"]} if state.last_change else set()
    scrambled = set(scramble.data["spaces"]) if (scramble := _last(state, "scramble")) else set()
    for space in SPACES:
        tile, orientation = state.tiles[space]
        sprite, corner = _tile_sprite(space, tile, orientation, frozenset(lit_paths.get(space, ())))
        board.image.paste(sprite, corner, sprite)
    for space in SPACES:  # outlines after all tiles, so neighbours do not paint over them
        centre = SPACE_CENTRES[space]
        if space in changed or space in scrambled:
            corners = _octagon(board, centre, APOTHEM + 0.005)
            draw.line(corners + corners[:2], fill=CHANGED, width=board.length(0.04), joint="curve")
        label_fill = CHANGED if space in changed or space in scrambled else TILE_FACE
        x, y = board.px(centre)
        half_w, half_h = board.length(0.15), board.length(0.1)
        draw.rounded_rectangle(
            (x - half_w, y - half_h, x + half_w, y + half_h),
            radius=half_h,
            fill=label_fill,
            outline=TILE_EDGE,
            width=board.length(0.012),
        )
        board.text(centre, space, 0.15, theme.readable_ink(label_fill))
    _draw_stops(board, state)
    _draw_circles(board, state)
    if route_ends:
        start = route_ends[0][0]
        board.disc(_location_centre(start), 0.09, ROUTE, theme.BLACK, 0.015)
    for colour in ("gold", "teal"):
        location = state.runners[colour]
        if location:
            _draw_runner(board, _location_centre(location), colour, 0.22, location)


def _draw_stops(board: _Board, state: OctilesState) -> None:
    half = 0.27
    for stop in STOPS:
        x, y = STOP_CENTRES[stop]
        diamond = [board.px(p) for p in ((x, y + half), (x + half, y), (x, y - half), (x - half, y))]
        fill, ink, outline = STOP_FACE, theme.DARK_INK, theme.BLACK
        if state.marker and state.marker["stop"] == stop:
            fill = PRIZE_COLOURS[state.marker["colour"]]
            outline = theme.WHITE
        outline_width = board.length(0.03 if fill != STOP_FACE else 0.015)
        board.draw.polygon(diamond, fill=fill, outline=outline, width=outline_width)
        if stop in CENTRAL_STOPS and fill == STOP_FACE:
            inner = [
                board.px(p)
                for p in ((x, y + half - 0.05), (x + half - 0.05, y), (x, y - half + 0.05), (x - half + 0.05, y))
            ]
            board.draw.polygon(inner, outline=(90, 95, 110), width=board.length(0.012))
        board.text((x, y), stop, 0.16, ink)
        if state.marker and state.marker["stop"] == stop:
            letter = PRIZE_LETTERS[state.marker["colour"]]
            board.disc((x + 0.2, y + 0.2), 0.095, fill, theme.WHITE, 0.015)
            board.text((x + 0.2, y + 0.2), letter, 0.12, theme.DARK_INK)


def _draw_circles(board: _Board, state: OctilesState) -> None:
    for circle in RING:
        centre = CIRCLE_CENTRES[circle]
        prize = state.prizes.get(circle)
        if prize:
            board.disc(centre, 0.2, PRIZE_COLOURS[prize], theme.WHITE, 0.02)
            board.text(centre, PRIZE_LETTERS[prize], 0.2, theme.DARK_INK)
        else:
            board.disc(centre, 0.2, theme.BACKGROUND, LINE_ON_BOARD, 0.025)
        ((space, edge),) = EXITS[circle]
        dx, dy = centre[0] - _edge_point(space, edge)[0], centre[1] - _edge_point(space, edge)[1]
        norm = math.hypot(dx, dy) or 1
        label_at = (centre[0] + dx / norm * 0.34, centre[1] + dy / norm * 0.34)
        board.text(label_at, circle, 0.15, theme.MUTED)


def _draw_runner(board: _Board, centre, colour: str, radius: float, location: str = "") -> None:
    """A runner disc with its letter, and the stop or circle it stands on (so players can still type it)."""
    board.disc(centre, radius, RUNNER_COLOURS[colour], theme.BLACK, 0.03)
    if not location:
        board.text(centre, RUNNER_LETTERS[colour], radius * 1.1, theme.DARK_INK)
        return
    board.text((centre[0], centre[1] + radius * 0.3), RUNNER_LETTERS[colour], radius * 0.95, theme.DARK_INK)
    board.text((centre[0], centre[1] - radius * 0.5), location, radius * 0.55, theme.DARK_INK)


# ------------------------------------------------------------------ header and footer


def _status_line(state: OctilesState, names: Sequence[str]) -> str:
    def who(seat: int) -> str:
        return f"{names[seat]} ({colour_of(state, seat).title()})"

    outcome = state.outcome
    if outcome is not None:
        if outcome.is_draw:
            return f"Draw: {outcome.reason}"
        return f"{' and '.join(who(seat) for seat in outcome.winners)} wins: {outcome.reason}"
    seat, _ = acting(state)
    doing = {
        "runners": "places the runners",
        "prizes": "chooses the first prize circle",
        "marker": "places a marker",
        "scramble": "may scramble 4 tiles",
        "turn": "to play",
    }[state.phase]
    return f"{who(seat)} {doing}"


def _draw_header(draw: ImageDraw.ImageDraw, state: OctilesState, names: Sequence[str]) -> None:
    s = SCALE
    draw.text((24 * s, HEADER * s / 2), "Octiles Scavenger Hunt", font=theme.font(26 * s), fill=theme.INK, anchor="lm")
    draw.text(
        (WIDTH * s - 24 * s, HEADER * s / 2),
        _status_line(state, names),
        font=theme.font(22 * s),
        fill=theme.HIGHLIGHT,
        anchor="rm",
    )


def _fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "."


def _draw_player_card(
    board: _Board, state: OctilesState, seat: int, names: Sequence[str], box, viewer: int | None
) -> None:
    draw, s = board.draw, SCALE
    x0, y0, x1, y1 = (v * s for v in box)
    colour = colour_of(state, seat)
    prize = PRIZE_OF[colour]
    to_act = acting(state)[0] == seat
    draw.rounded_rectangle(
        (x0, y0, x1, y1),
        radius=14 * s,
        fill=theme.PANEL,
        outline=theme.HIGHLIGHT if to_act else theme.GRID,
        width=(4 if to_act else 2) * s,
    )
    token = (x0 + 38 * s, y0 + 40 * s)
    draw.ellipse(
        (token[0] - 24 * s, token[1] - 24 * s, token[0] + 24 * s, token[1] + 24 * s),
        fill=RUNNER_COLOURS[colour],
        outline=theme.BLACK,
        width=3 * s,
    )
    draw.text(token, RUNNER_LETTERS[colour], font=theme.font(28 * s), fill=theme.DARK_INK, anchor="mm")
    name = _fit(names[seat], 18) + (" (you)" if viewer == seat else "")
    draw.text((x0 + 74 * s, y0 + 26 * s), name, font=theme.font(24 * s), fill=theme.INK, anchor="lm")
    where = f"on {state.runners[colour]}" if state.runners[colour] else "not placed yet"
    draw.text(
        (x0 + 74 * s, y0 + 56 * s),
        f"{colour.title()} runner {where}",
        font=theme.font(17 * s),
        fill=theme.MUTED,
        anchor="lm",
    )
    # prize pips: filled for each collected prize
    collected = state.collected[colour]
    for k in range(PRIZES_TO_WIN):
        cx, cy = x0 + (34 + 43 * k) * s, y0 + 104 * s
        got = k < collected
        draw.ellipse(
            (cx - 18 * s, cy - 18 * s, cx + 18 * s, cy + 18 * s),
            fill=PRIZE_COLOURS[prize] if got else theme.BACKGROUND,
            outline=PRIZE_COLOURS[prize],
            width=3 * s,
        )
        if got:
            draw.text((cx, cy), PRIZE_LETTERS[prize], font=theme.font(20 * s), fill=theme.DARK_INK, anchor="mm")
    draw.text(
        (x0 + (34 + 43 * PRIZES_TO_WIN - 16) * s, y0 + 104 * s),
        f"{collected}/{PRIZES_TO_WIN} {prize}",
        font=theme.font(20 * s),
        fill=theme.INK,
        anchor="lm",
    )
    notes = []
    if marker_owner(state) == colour:
        notes.append(f"must reach {prize} marker on {state.marker['stop']}")
    on_turn = state.outcome is None and state.phase == "turn" and state.turn_seat == seat
    barred = restricted_space(state, seat) if on_turn else None
    if barred:
        notes.append(f"may not change {barred}")
    if on_turn and state.last_option[seat] == 3:
        notes.append("must move this turn")
    if state.scramble_rule:
        notes.append("scramble used" if state.scramble_used[seat] else "scramble available")
    for line, note in enumerate(notes[:2]):
        draw.text(
            (x0 + 18 * s, y0 + (148 + 26 * line) * s),
            note,
            font=theme.font(18 * s),
            fill=theme.INK if line == 0 and marker_owner(state) == colour else theme.MUTED,
            anchor="lm",
        )


def _draw_footer(board: _Board, state: OctilesState, names: Sequence[str], viewer: int | None, top: int) -> None:
    card_w, gap = 355, 12
    for index, seat in enumerate(sorted((0, 1), key=lambda s: colour_of(state, s) != "gold")):
        left = 16 + index * (card_w + gap)
        _draw_player_card(board, state, seat, names, (left, top, left + card_w, top + FOOTER - 20), viewer)
    # the spare tile, drawn at orientation 0
    spare_left = 16 + 2 * (card_w + gap)
    box = (spare_left, top, WIDTH - 16, top + FOOTER - 20)
    s = SCALE
    board.draw.rounded_rectangle(
        tuple(v * s for v in box), radius=14 * s, fill=theme.PANEL, outline=theme.GRID, width=2 * s
    )
    centre_px = ((box[0] + box[2]) / 2, top + 92)
    centre = (
        (centre_px[0] * s - board.left) / board.unit + BOARD_X_RANGE[0],
        BOARD_Y_RANGE[1] - (centre_px[1] * s - board.top) / board.unit,
    )
    apothem = 0.5
    board.draw.polygon(_octagon(board, centre, apothem), fill=TILE_FACE, outline=TILE_EDGE, width=board.length(0.02))
    _draw_tile_paths(board, centre, state.spare, 0, set(), apothem=apothem)
    board.draw.text(
        (centre_px[0] * s, (top + 180) * s),
        f"Spare: tile {state.spare}",
        font=theme.font(20 * s),
        fill=theme.INK,
        anchor="mm",
    )


# ------------------------------------------------------------------ public API


def picture_height() -> int:
    board_height = round((BOARD_Y_RANGE[1] - BOARD_Y_RANGE[0]) * UNIT)
    return HEADER + board_height + FOOTER


def render_board(state: OctilesState, names: Sequence[str], viewer: int | None = None) -> theme.Picture:
    """The whole table: header, board with last route and changed tile, players, spare tile.

    Nothing in Octiles is hidden, so every viewer sees the same picture ("(you)" marks ``viewer``).
    """
    height = picture_height()
    image = Image.new("RGB", (WIDTH * SCALE, height * SCALE), theme.BACKGROUND)
    board = _Board(image)
    draw = board.draw
    _draw_header(draw, state, names)
    _draw_board(board, state)
    _draw_footer(board, state, names, viewer, height - FOOTER)
    image = image.reduce(SCALE)  # box filter: a clean 2x supersample, and fast
    return theme.to_picture(image, describe(state, names), filename="octiles.png")


def render_orientations(state: OctilesState, space: str | None = None) -> theme.Picture:
    """A tile in its 8 orientations, numbered 0-7 as actions use them (the spare tile by default).

    For the bot's rotate / replace / replace-and-move pickers: orientation k turns the printed tile
    k x 45 degrees clockwise.
    """
    tile = state.spare if space is None else state.tiles[space][0]
    current = None if space is None else state.tiles[space][1]
    cell, columns, title_h = 236, 4, 56
    width, height = cell * columns, title_h + 2 * cell
    image = Image.new("RGB", (width * SCALE, height * SCALE), theme.BACKGROUND)
    board = _Board(image)
    draw = board.draw
    caption = f"Spare tile {tile}" if space is None else f"Tile {tile} on {space} (now orientation {current})"
    draw.text(
        (20 * SCALE, title_h * SCALE / 2),
        caption + ": orientations 0-7",
        font=theme.font(24 * SCALE),
        fill=theme.INK,
        anchor="lm",
    )
    for orientation in range(8):
        row, column = divmod(orientation, columns)
        cx, cy = (column + 0.5) * cell, title_h + row * cell + cell * 0.46
        centre = (
            (cx * SCALE - board.left) / board.unit + BOARD_X_RANGE[0],
            BOARD_Y_RANGE[1] - (cy * SCALE - board.top) / board.unit,
        )
        apothem = 0.62
        corners = _octagon(board, centre, apothem)
        draw.polygon(corners, fill=TILE_FACE, outline=TILE_EDGE, width=board.length(0.02))
        _draw_tile_paths(board, centre, tile, orientation, set(), apothem=apothem)
        if orientation == current:
            draw.line(corners + corners[:2], fill=CHANGED, width=board.length(0.04), joint="curve")
        draw.text(
            (cx * SCALE, (cy + cell * 0.43) * SCALE),
            str(orientation),
            font=theme.font(26 * SCALE),
            fill=theme.HIGHLIGHT,
            anchor="mm",
        )
    image = image.reduce(SCALE)
    pairs = ", ".join(f"{EDGE_NAMES[a]}-{EDGE_NAMES[b]}" for a, b in TILE_PAIRS[tile])
    description = (
        f"{caption}. At orientation 0 its paths join {pairs}; orientation k turns it k x 45 degrees clockwise."
    )
    return theme.to_picture(image, description, filename="octiles-orientations.png")


def describe(state: OctilesState, names: Sequence[str]) -> str:
    """The picture's text alternative: status, runners, prizes, marker, the last action, spare."""
    parts = [_status_line(state, names) + "."]
    for colour in ("gold", "teal"):
        seat = seat_of(state, colour)
        where = f"on {state.runners[colour]}" if state.runners[colour] else "(runner not placed yet)"
        parts.append(
            f"{names[seat]} is {colour.title()} {where}, "
            f"{state.collected[colour]}/{PRIZES_TO_WIN} {PRIZE_OF[colour]} prizes."
        )
    if state.marker:
        owner = marker_owner(state)
        parts.append(
            f"{state.marker['colour'].title()} marker on {state.marker['stop']}: "
            f"{names[seat_of(state, owner)]} must reach it before collecting."
        )
    if state.prizes:
        listed = ", ".join(f"{circle} {state.prizes[circle]}" for circle in RING if circle in state.prizes)
        parts.append(f"Prizes: {listed}.")
    said = [narrate(event, names) for event in state.events if event.kind != "end"]  # the status says the end
    parts.extend(line for line in said if line)
    parts.append(f"Spare tile {state.spare}.")
    return " ".join(parts)


# ------------------------------------------------------------------ narration


def _route_words(data) -> str:
    through = ", ".join(dict.fromkeys(step[0] for step in data["steps"]))
    return f"{data['start']} \u2192 {data['end']} (via {data['via']}, through {through})"


def narrate(event: Event, names: Sequence[str]) -> str:
    """One event of the engine as a plain sentence. ``names`` go in exactly as given (the bot
    passes bold, escaped names for message text; pictures pass plain ones for alt text)."""
    data, kind = event.data, event.kind
    who = names[event.seat] if event.seat is not None else ""
    if "colour" in data and kind in ("move", "replace_move", "rotate", "replace", "pass"):
        who = f"{who} ({data['colour'].title()})"
    if kind == "colours":
        return (
            f"{names[data['gold']]} is Gold (orange prizes) and plays first; "
            f"{names[data['teal']]} is Teal (plum prizes)."
        )
    if kind == "runners":
        return f"{who} (Gold) put the Gold runner on {data['gold']} and the Teal runner on {data['teal']}."
    if kind == "prizes":
        return (
            f"{who} (Teal) set out the prizes from {data['circle']}: plum on {' '.join(data['plum'])}; "
            f"orange on {' '.join(data['orange'])}."
        )
    if kind == "move":
        return f"{who} moved {_route_words(data)}."
    if kind == "replace_move":
        return (
            f"{who} put spare tile {data['tile']} on {data['space']} (orientation {data['orientation']}) "
            f"and moved {_route_words(data)}; tile {data['removed']} is now the spare."
        )
    if kind == "collect":
        article = "an" if data["prize"][0] in "aeiou" else "a"
        return f"{who} collected {article} {data['prize']} prize on {data['circle']} ({data['count']}/{PRIZES_TO_WIN})."
    if kind == "marker_reached":
        return f"{who} reached the {data['colour']} marker on {data['stop']} and removed it."
    if kind == "marker":
        owner = names[data["owner"]]
        return (
            f"{who} put {owner}'s {data['colour']} marker on {data['stop']}: "
            f"{owner} must reach it before collecting again."
        )
    if kind == "rotate":
        return (
            f"{who} rotated tile {data['tile']} on {data['space']} from orientation {data['was']} "
            f"to {data['orientation']} (no move)."
        )
    if kind == "replace":
        return (
            f"{who} replaced tile {data['removed']} on {data['space']} with spare tile {data['tile']} "
            f"(orientation {data['orientation']}); tile {data['removed']} is now the spare (no move)."
        )
    if kind == "pass":
        return f"{who} had no legal option and passed."
    if kind == "scramble":
        return f"{who} scrambled the tiles on {', '.join(data['spaces'])}."
    if kind == "skip_scramble":
        return f"{who} did not scramble."
    return shared_sentence(event, names)


__all__ = ["describe", "narrate", "picture_height", "render_board", "render_orientations", "tile_path_curve"]
