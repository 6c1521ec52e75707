"""Octiles Scavenger Hunt pictures: the tile maze, stops, circles, runners, prizes and markers.

Drawn at twice the size and scaled down, so the curved tile paths come out smooth. The board
uses the drawing centres of ``engines/octiles/board.json`` (x right, y up; one unit = one tile).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import NamedTuple

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
    legal_destinations,
    marker_owner,
    restricted_space,
    seat_of,
)
from render import theme
from render.narration import shared_sentence, with_reason
from render.regions import Box, around, scaled, with_regions

# Portrait, to be read on a phone: the board fills the width, the players' cards go under it,
# and every text is drawn at ``TEXT`` (a capital 11 px tall when the picture is shown 360 px wide).
WIDTH = 720
SCALE = 2  # drawn at 2x, then scaled down with a smooth filter
TEXT = theme.min_text_size(WIDTH * SCALE)  # px in the 2x drawing
UNIT = 89  # px per board unit in the final picture
BOARD_X_RANGE = (-1.52, 6.52)  # the ring's circles and their names, left and right
BOARD_Y_RANGE = (-0.2, 7.0)  # board y (up): the picture shows y from high (top) to low
HEADER = 96  # the title, and the status under it
CARD_HEIGHT = 176  # a player's card; the two are stacked beside the spare tile
SPARE_WIDTH = 170
FOOTER = 2 * CARD_HEIGHT + 12 + 16
APOTHEM = 0.5
CIRCUMRADIUS = APOTHEM / math.cos(math.pi / 8)

TILE_FACE = (62, 66, 78)
TILE_EDGE = (98, 103, 118)
# A tile's four paths in four pale inks, so a path can be followed through its crossings; none
# is the route's, a runner's or the "changed" colour.
PATH_INKS = ((226, 228, 234), (150, 186, 240), (236, 160, 200), (196, 168, 240))
LINE_ON_BOARD = (170, 174, 186)
STOP_FACE = (128, 134, 150)
# Sizes in board units, large enough to hold a ``TEXT`` label (a stop's name, a prize's letter).
STOP_HALF = 0.49  # a stop's diamond, centre to corner: over the hole between four tiles, round its name
MARKED_STOP_HALF = 0.54  # in the marker's colour and outlined in white (the cards name the marker)
CIRCLE_RADIUS = 0.26
RUNNER_RADIUS = 0.3
REACH_RING = {"stop": 0.56, "circle": 0.35}  # round a place the runner on turn can reach
BADGE = (0.32, 0.21)  # half width and half height of a space's name badge
ROUTE = theme.VERMILION  # the last move's route
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


class _Sprite(NamedTuple):
    """Something drawn once on a small transparent canvas, pasted where it belongs. Shapes drawn at
    2x have hard edges, so a 1-bit mask pastes the same pixels as drawing, and quickly."""

    image: Image.Image
    mask: Image.Image
    corner: tuple[int, int]


class _Board:
    """Board coordinates -> pixels of the 2x drawing."""

    def __init__(self, image: Image.Image, corner: tuple[int, int] = (0, 0), unit: float = UNIT):
        """``corner``: where ``image`` sits on the whole 2x drawing (a sprite's place); ``unit``:
        px per board unit in the final picture."""
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.unit = unit * SCALE
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

    def write(self, xy: tuple[float, float], text: str, size: int, colour, anchor: str = "mm") -> None:
        """Text at a pixel position, as ``ImageDraw.text`` draws it."""
        theme.write(self.image, xy, text, size, colour, anchor)

    def text(self, point, text: str, colour, anchor: str = "mm", size: int = TEXT) -> None:
        """A label at a board point, in the picture's one label size unless told."""
        self.write(self.px(point), text, size, colour, anchor)

    def disc(self, point, radius_units: float, fill, outline=None, width_units: float = 0.0) -> None:
        x, y = self.px(point)
        r = radius_units * self.unit
        self.draw.ellipse(
            (x - r, y - r, x + r, y + r), fill=fill, outline=outline, width=self.length(width_units) if outline else 0
        )

    def paste(self, sprite: _Sprite) -> None:
        self.image.paste(sprite.image, sprite.corner, sprite.mask)


def _sprite(centre: tuple[float, float], half_units: float, draw: Callable[[_Board], None]) -> _Sprite:
    """``draw`` (board coordinates) run on a transparent canvas reaching ``half_units`` around
    ``centre``, cropped to what it drew. Text must lie on shapes it draws: the 1-bit mask keeps
    no half-transparent edge."""
    x, y = _Board(Image.new("RGB", (1, 1))).px(centre)
    half = math.ceil(half_units * UNIT * SCALE) + 4
    corner = (math.floor(x) - half, math.floor(y) - half)
    board = _Board(Image.new("RGBA", (2 * half + 2, 2 * half + 2), (0, 0, 0, 0)), corner)
    draw(board)
    alpha = board.image.getchannel("A")
    box = alpha.getbbox()
    mask = alpha.crop(box).convert("1", dither=Image.Dither.NONE)
    return _Sprite(board.image.crop(box).convert("RGB"), mask, (corner[0] + box[0], corner[1] + box[1]))


def _draw_tile_paths(
    board: _Board, centre, tile: int, orientation: int, lit: dict[tuple[int, int], tuple], apothem: float = APOTHEM
) -> None:
    """Four paths, each in its own ink and drawn over a halo of the tile colour, so later paths
    visibly bridge earlier ones. ``lit`` paths (a route, a reachable stop's way) get their colour."""
    joined = connections(tile, orientation)
    pairs = sorted({tuple(sorted((edge, joined[edge]))) for edge in range(8)})
    inks = dict(zip(pairs, PATH_INKS, strict=True))
    pairs.sort(key=lambda pair: pair in lit)  # highlighted paths go on top
    scale = apothem / APOTHEM
    for pair in pairs:
        curve = tile_path_curve(centre, *pair, apothem=apothem)
        highlighted = pair in lit
        board.line(curve[2:-2], TILE_FACE, (0.17 if highlighted else 0.14) * scale)
        board.line(curve, lit.get(pair, inks[pair]), (0.085 if highlighted else 0.055) * scale)


def _draw_tile(
    board: _Board, centre, tile: int, orientation: int, lit: frozenset, label: str = "", flagged: bool = False
) -> None:
    board.draw.polygon(_octagon(board, centre), fill=TILE_FACE, outline=TILE_EDGE, width=board.length(0.02))
    _draw_tile_paths(board, centre, tile, orientation, dict(lit))
    if label:
        _draw_badge(board, centre, label, flagged)


BADGE_OPACITY = 200  # of 255: the paths under a space's name still show faintly, so they read as continuous


def _draw_badge(board: _Board, centre, label: str, flagged: bool) -> None:
    """A space's name on a see-through badge at its tile's centre, in the "changed" colour when ``flagged``."""
    fill = CHANGED if flagged else TILE_FACE
    x, y = board.px(centre)
    half_w, half_h = board.length(BADGE[0]), board.length(BADGE[1])
    overlay = Image.new("RGBA", board.image.size, (0, 0, 0, 0))
    ImageDraw.Draw(overlay).rounded_rectangle(
        (x - half_w, y - half_h, x + half_w, y + half_h),
        radius=half_h,
        fill=(*fill, BADGE_OPACITY),
        outline=(*TILE_EDGE, 255),
        width=board.length(0.012),
    )
    board.image.alpha_composite(overlay)
    board.text(centre, label, theme.readable_ink(fill))


@lru_cache(maxsize=96)  # about 300 KB each: the tiles of a few games at once
def _tile_sprite(
    centre: tuple[float, float], tile: int, orientation: int, lit: frozenset, label: str = "", flagged: bool = False
) -> _Sprite:
    """A placed tile (octagon, paths and the space's name): tiles change a few at a time, so most
    are pasted, not drawn."""
    return _sprite(
        centre, CIRCUMRADIUS, lambda board: _draw_tile(board, centre, tile, orientation, lit, label, flagged)
    )


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
    scrambled = _last(state, "scramble")
    shuffled = set(scrambled.data["spaces"]) if scrambled else set()  # those tiles no longer hold the route
    return _light_route(route["start"], route["end"], route["steps"], shuffled, lit_paths, lit_lines)


def _light_route(start: str, end: str, steps, skipped: set[str], lit_paths: dict, lit_lines: set):
    """Adds one route's tile paths (except on ``skipped`` spaces) and printed lines; its two ends."""
    for space, edge_in, edge_out in steps:
        if space not in skipped:
            lit_paths.setdefault(space, set()).add(tuple(sorted((edge_in, edge_out))))
        neighbour = NEIGHBOUR[(space, edge_out)]
        if neighbour.kind == "tile" and neighbour.printed:
            lit_lines.add(tuple(sorted([(space, edge_out), (neighbour.ident, neighbour.edge)])))
    return lit_paths, lit_lines, [(start, steps[0][0], steps[0][1]), (end, steps[-1][0], steps[-1][2])]


def reachable(state: OctilesState) -> tuple[str | None, dict]:
    """The colour of the runner on turn and the routes to every stop or circle it may move to now
    (none outside a turn or once the game is over)."""
    if state.outcome is not None or state.phase != "turn":
        return None, {}
    return colour_of(state, state.turn_seat), legal_destinations(state, state.turn_seat)


def _reach_parts(state: OctilesState):
    """The runner on turn's colour, its reachable ends, and the paths and lines leading there."""
    colour, destinations = reachable(state)
    lit_paths: dict[str, set[tuple[int, int]]] = {}
    lit_lines: set[tuple] = set()
    for end, routes in destinations.items():
        for route in routes:
            _light_route(route.start, end, route.steps, set(), lit_paths, lit_lines)
    return colour, set(destinations), lit_paths, lit_lines


def _location_centre(location: str) -> tuple[float, float]:
    return STOP_CENTRES.get(location) or CIRCLE_CENTRES[location]


def _draw_board(board: _Board, state: OctilesState, final: bool) -> None:
    """Tiles, stops, circles and runners, the last route lit; in a live game, where the runner on
    turn may go (a final picture shows no turn)."""
    lit_paths, lit_lines, route_ends = _route_parts(state)
    runner, reachable_ends, reach_paths, reach_lines = (None, set(), {}, set()) if final else _reach_parts(state)
    reach = RUNNER_COLOURS[runner] if runner else None
    draw = board.draw
    # circle connectors and printed lines lie on the board under the tiles
    for circle in RING:
        ((space, edge),) = EXITS[circle]
        lit = circle in reachable_ends or state.runners.get(runner) == circle
        board.line([CIRCLE_CENTRES[circle], _edge_point(space, edge)], reach if lit else LINE_ON_BOARD, 0.045)
    for a, b in PRINTED_LINES:
        pair = tuple(sorted([a, b]))
        colour = ROUTE if pair in lit_lines else reach if pair in reach_lines else None
        board.line(_printed_curve(a, b), colour or LINE_ON_BOARD, 0.085 if colour else 0.05)
    for location, space, edge in route_ends:
        board.line([_location_centre(location), _edge_point(space, edge)], ROUTE, 0.085)
    flagged = {state.last_change["space"]} if state.last_change else set()
    if scramble := _last(state, "scramble"):
        flagged |= set(scramble.data["spaces"])
    for space in SPACES:
        tile, orientation = state.tiles[space]
        lit = {pair: reach for pair in reach_paths.get(space, ())}
        lit.update((pair, ROUTE) for pair in lit_paths.get(space, ()))  # the last move wins a shared path
        sprite = _tile_sprite(SPACE_CENTRES[space], tile, orientation, frozenset(lit.items()), space, space in flagged)
        board.paste(sprite)
    for space in flagged:  # outlines after all tiles, so neighbours do not paint over them
        corners = _octagon(board, SPACE_CENTRES[space], APOTHEM + 0.005)
        draw.line(corners + corners[:2], fill=CHANGED, width=board.length(0.04), joint="curve")
    marker = state.marker or {}
    for stop in STOPS:
        board.paste(_stop_sprite(stop, marker.get("colour") if marker.get("stop") == stop else None))
    _draw_circles(board, state)
    for end in reachable_ends:  # a ring in the runner's colour round every place it can go
        centre = _location_centre(end)
        board.disc(centre, REACH_RING["stop" if end in STOP_CENTRES else "circle"], None, reach, 0.05)
    if route_ends:
        start = route_ends[0][0]
        board.disc(_location_centre(start), 0.09, ROUTE, theme.BLACK, 0.015)
    for colour in ("gold", "teal"):
        location = state.runners[colour]
        if location:
            _draw_runner(board, _location_centre(location), colour)


@lru_cache(maxsize=64)  # each stop, plain and with either marker
def _stop_sprite(stop: str, marker: str | None) -> _Sprite:
    """A stop's diamond and name. A ``marker`` on it makes the diamond larger, in the marker's
    colour and outlined in white; the player cards say whose marker it is ("must reach orange
    marker on E5"), so its name is the diamond's one label, as large as every other."""
    half = MARKED_STOP_HALF if marker else STOP_HALF
    x, y = STOP_CENTRES[stop]
    fill = PRIZE_COLOURS[marker] if marker else STOP_FACE

    def draw(board: _Board) -> None:
        diamond = [board.px(p) for p in ((x, y + half), (x + half, y), (x, y - half), (x - half, y))]
        outline = theme.WHITE if marker else theme.BLACK
        board.draw.polygon(diamond, fill=fill, outline=outline, width=board.length(0.04 if marker else 0.015))
        if stop in CENTRAL_STOPS and not marker:
            inset = half - 0.05
            inner = [board.px(p) for p in ((x, y + inset), (x + inset, y), (x, y - inset), (x - inset, y))]
            board.draw.polygon(inner, outline=(90, 95, 110), width=board.length(0.012))
        board.text((x, y), stop, theme.DARK_INK)

    return _sprite((x, y), half, draw)


def _draw_circles(board: _Board, state: OctilesState) -> None:
    """The ring: each circle with its prize's letter (if one lies there), its name outside."""
    for circle in RING:
        centre = CIRCLE_CENTRES[circle]
        prize = state.prizes.get(circle)
        if prize:
            board.disc(centre, CIRCLE_RADIUS, PRIZE_COLOURS[prize], theme.WHITE, 0.02)
            board.text(centre, PRIZE_LETTERS[prize], theme.DARK_INK)
        else:
            board.disc(centre, CIRCLE_RADIUS, theme.BACKGROUND, LINE_ON_BOARD, 0.025)
        board.text(_circle_label_at(circle), circle, theme.MUTED)


@lru_cache(maxsize=32)
def _circle_label_at(circle: str) -> tuple[float, float]:
    """Where a circle's name goes: just outside it, away from the tile it leads to, a wide
    label further out sideways than up or down."""
    centre = CIRCLE_CENTRES[circle]
    ((space, edge),) = EXITS[circle]
    exit_point = _edge_point(space, edge)
    dx, dy = centre[0] - exit_point[0], centre[1] - exit_point[1]
    norm = math.hypot(dx, dy) or 1
    dx, dy = dx / norm, dy / norm
    left, top, right, bottom = theme.font(TEXT).getbbox(circle, anchor="mm")
    half_w, half_h = (right - left) / 2 / (UNIT * SCALE), (bottom - top) / 2 / (UNIT * SCALE)
    reach = CIRCLE_RADIUS + 0.05 + abs(dx) * half_w + abs(dy) * half_h
    return centre[0] + dx * reach, centre[1] + dy * reach


def _draw_runner(board: _Board, centre, colour: str) -> None:
    """A runner disc with its letter (the player cards say where it stands)."""
    board.disc(centre, RUNNER_RADIUS, RUNNER_COLOURS[colour], theme.BLACK, 0.03)
    board.text(centre, RUNNER_LETTERS[colour], theme.DARK_INK)


# ------------------------------------------------------------------ header and footer


def _status_line(state: OctilesState, names: Sequence[str]) -> str:
    def who(seat: int) -> str:
        return f"{names[seat]} ({colour_of(state, seat).title()})"

    outcome = state.outcome
    if outcome is not None:
        if outcome.is_draw:
            return f"Draw: {outcome.reason}"
        return with_reason(f"{' and '.join(who(seat) for seat in outcome.winners)} wins", outcome.reason, colon=True)
    seat, _ = acting(state)
    doing = {
        "runners": "places the runners",
        "prizes": "chooses the first prize circle",
        "marker": "places a marker",
        "scramble": "may scramble 4 tiles",
        "turn": "to play",
    }[state.phase]
    return f"{who(seat)} {doing}"


def _draw_header(board: _Board, state: OctilesState, names: Sequence[str], ending: str | None) -> None:
    s = SCALE
    board.write((16 * s, 28 * s), "Octiles Scavenger Hunt", TEXT, theme.MUTED, anchor="lm")
    if ending is None:
        status = theme.fit_text(_status_line(state, names), TEXT, (WIDTH - 32) * s)
    else:  # on the status line's one line: long names in it are shortened first
        (status,) = theme.fit_lines(ending, TEXT, (WIDTH - 32) * s, names=tuple(names))
    board.write((16 * s, 70 * s), status, TEXT, theme.HIGHLIGHT, anchor="lm")


def _card_notes(state: OctilesState, seat: int, final: bool) -> list[str]:
    """What a player must or may still do: a marker to reach, a space barred, a forced move, the
    scramble. Once over, only the marker left on the board (it needs its words)."""
    colour = colour_of(state, seat)
    notes = []
    if marker_owner(state) == colour:
        marker, stop = PRIZE_OF[colour], state.marker["stop"]
        notes.append(f"{marker} marker on {stop}" if final else f"reach {marker} marker {stop}")
    if final:
        return notes
    on_turn = state.outcome is None and state.phase == "turn" and state.turn_seat == seat
    barred = restricted_space(state, seat) if on_turn else None
    if barred:
        notes.append(f"may not change {barred}")
    if on_turn and state.last_option[seat] == 3:
        notes.append("must move this turn")
    if state.scramble_rule:
        notes.append("scramble used" if state.scramble_used[seat] else "scramble available")
    return notes[:2]


def _draw_player_card(
    board: _Board, state: OctilesState, seat: int, names: Sequence[str], box, viewer: int | None, final: bool
) -> None:
    """Name and runner token, prizes as pips and a count, where the runner stands, and up to two notes."""
    draw, s = board.draw, SCALE
    x0, y0, x1, y1 = (v * s for v in box)
    colour = colour_of(state, seat)
    prize = PRIZE_OF[colour]
    to_act = not final and acting(state)[0] == seat
    draw.rounded_rectangle(
        (x0, y0, x1, y1),
        radius=14 * s,
        fill=theme.PANEL,
        outline=theme.HIGHLIGHT if to_act else theme.GRID,
        width=(4 if to_act else 2) * s,
    )
    top = y0 + 34 * s
    token = (x0 + 34 * s, top)
    draw.ellipse(
        (token[0] - 22 * s, token[1] - 22 * s, token[0] + 22 * s, token[1] + 22 * s),
        fill=RUNNER_COLOURS[colour],
        outline=theme.BLACK,
        width=3 * s,
    )
    board.write(token, RUNNER_LETTERS[colour], TEXT, theme.DARK_INK)
    pips_left = x1 - (24 + 30 * (PRIZES_TO_WIN - 1) + 12) * s
    you = " (you)" if viewer == seat else ""
    name = theme.fit_text(names[seat], TEXT + 8, pips_left - x0 - 80 * s - theme.font(TEXT + 8).getlength(you)) + you
    board.write((x0 + 66 * s, top), name, TEXT + 8, theme.INK, anchor="lm")
    collected = state.collected[colour]
    for k in range(PRIZES_TO_WIN):  # a pip per prize to win, filled once collected
        cx = pips_left + 12 * s + 30 * k * s
        draw.ellipse(
            (cx - 11 * s, top - 11 * s, cx + 11 * s, top + 11 * s),
            fill=PRIZE_COLOURS[prize] if k < collected else theme.BACKGROUND,
            outline=PRIZE_COLOURS[prize],
            width=3 * s,
        )
    second = y0 + 78 * s
    count = f"{collected}/{PRIZES_TO_WIN} {prize}"
    board.write((x1 - 20 * s, second), count, TEXT, theme.INK, anchor="rm")
    where = f"runner on {state.runners[colour]}" if state.runners[colour] else "not placed"
    room = x1 - x0 - 56 * s - theme.font(TEXT).getlength(count)
    board.write((x0 + 20 * s, second), theme.fit_text(where, TEXT, room), TEXT, theme.MUTED, "lm")
    for line, note in enumerate(_card_notes(state, seat, final)):
        ink = theme.INK if line == 0 and marker_owner(state) == colour else theme.MUTED
        board.write(
            (x0 + 20 * s, y0 + (118 + 38 * line) * s), theme.fit_text(note, TEXT, x1 - x0 - 40 * s), TEXT, ink, "lm"
        )


def _draw_footer(
    board: _Board, state: OctilesState, names: Sequence[str], viewer: int | None, top: int, final: bool
) -> None:
    """The two players' cards, Gold's first, stacked beside the spare tile."""
    card_right = WIDTH - 12 - SPARE_WIDTH - 12
    for index, seat in enumerate(sorted((0, 1), key=lambda s: colour_of(state, s) != "gold")):
        card_top = top + index * (CARD_HEIGHT + 12)
        box = (12, card_top, card_right, card_top + CARD_HEIGHT)
        _draw_player_card(board, state, seat, names, box, viewer, final)
    box = (WIDTH - 12 - SPARE_WIDTH, top, WIDTH - 12, top + 2 * CARD_HEIGHT + 12)
    s = SCALE
    board.draw.rounded_rectangle(
        tuple(v * s for v in box), radius=14 * s, fill=theme.PANEL, outline=theme.GRID, width=2 * s
    )
    middle = (box[0] + box[2]) / 2
    board.write((middle * s, (top + 40) * s), "Spare", TEXT, theme.MUTED)
    centre_px = (middle, (box[1] + box[3]) / 2)
    _stamp_turned_tile(board.image, centre_px, state.spare, 0, False, SPARE_APOTHEM)  # at orientation 0
    board.write((middle * s, (box[3] - 40) * s), f"tile {state.spare}", TEXT, theme.INK)


# ------------------------------------------------------------------ public API


def picture_height() -> int:
    board_height = round((BOARD_Y_RANGE[1] - BOARD_Y_RANGE[0]) * UNIT)
    return HEADER + board_height + FOOTER


def render_board(
    state: OctilesState, names: Sequence[str], viewer: int | None = None, *, ending: str | None = None
) -> theme.Picture:
    """The whole table: header, board with last route and changed tile, players, spare tile.

    Nothing in Octiles is hidden, so every viewer sees the same picture ("(you)" marks ``viewer``).
    With ``ending`` ("Stopped by Ada") the table is final whatever the state says: that outcome as
    its status, no player card highlighted and no reachable place ringed.
    """
    final = ending is not None or state.outcome is not None
    height = picture_height()
    image = Image.new("RGB", (WIDTH * SCALE, height * SCALE), theme.BACKGROUND)
    board = _Board(image)
    _draw_header(board, state, names, ending)
    _draw_board(board, state, final)
    _draw_footer(board, state, names, viewer, height - FOOTER, final)
    image = image.reduce(SCALE)  # box filter: a clean 2x supersample, and fast
    picture = theme.to_picture(image, describe(state, names, ending=ending), filename="octiles.png")
    return with_regions(picture, board_regions())


# Half the side of a place's region, in board units: tiles one unit apart, a stop over the hole
# between four of them, a circle beside a corner stop: none runs into a place a step offers with it.
REGION_HALF = {"space": 0.45, "stop": 0.28, "circle": 0.2}


@lru_cache(maxsize=1)
def board_regions() -> dict[str, Box]:
    """Where each tile space ("space:c3"), stop ("stop:B2") and circle ("circle:A2") is drawn."""
    board = _Board(Image.new("RGB", (1, 1)))
    found = {}
    for kind, centres in (("space", SPACE_CENTRES), ("stop", STOP_CENTRES), ("circle", CIRCLE_CENTRES)):
        half = REGION_HALF[kind] * board.unit
        for name, centre in centres.items():
            found[f"{kind}:{name}"] = around(board.px(centre), half)
    return scaled(found, SCALE)


def orientation_groups(tile: int) -> dict[int, tuple[int, ...]]:
    """Each different look of ``tile``: its lowest orientation and every orientation that looks the same."""
    groups: dict[tuple[int, ...], list[int]] = {}
    for orientation in range(8):
        groups.setdefault(connections(tile, orientation), []).append(orientation)
    return {same[0]: tuple(same) for same in groups.values()}


def orientation_name(same: tuple[int, ...]) -> str:
    """How the sheet and the bot's menus name orientations that look alike: "0 = 2 = 4 = 6"
    ("any of 0-7" for a tile that looks the same every way)."""
    return "any of 0-7" if len(same) == 8 else " = ".join(str(k) for k in same)


ORIENTATION_CELL = 240
ORIENTATION_COLUMNS = 2
ORIENTATION_TITLE = 64
ORIENTATION_UNIT = 134  # px per board unit on the sheet and for the spare tile
ORIENTATION_APOTHEM = 0.62  # the sheet's tiles are 166 px wide
SPARE_APOTHEM = 0.46  # the spare under the board, 133 px wide


def render_orientations(state: OctilesState, space: str | None = None) -> theme.Picture:
    """The different orientations of a tile (the spare tile by default), numbered as actions use them.

    For the bot's rotate / replace / replace-and-move pickers: orientation k turns the printed tile
    k x 45 degrees clockwise. A symmetric tile looks the same at several k: it is drawn once,
    labelled with every k that gives it ("0 = 4").
    """
    tile = state.spare if space is None else state.tiles[space][0]
    current = None if space is None else state.tiles[space][1]
    groups = orientation_groups(tile)
    cell, columns = ORIENTATION_CELL, ORIENTATION_COLUMNS
    rows = math.ceil(len(groups) / columns)
    width, height = cell * columns, ORIENTATION_TITLE + rows * cell
    image = Image.new("RGB", (width * SCALE, height * SCALE), theme.BACKGROUND)
    board = _Board(image, unit=ORIENTATION_UNIT)
    caption = f"Spare tile {tile}" if space is None else f"Tile {tile} on {space}, now {current}"
    size = theme.min_text_size(width) + 1
    board.write((width * SCALE / 2, ORIENTATION_TITLE * SCALE / 2), caption, size * SCALE, theme.INK)
    for index, (first, same) in enumerate(groups.items()):
        row, column = divmod(index, columns)
        cx, cy = (column + 0.5) * cell, ORIENTATION_TITLE + row * cell + cell * 0.42
        _stamp_turned_tile(image, (cx, cy), tile, first, current in same, ORIENTATION_APOTHEM)
        label = orientation_name(same)
        board.write((cx * SCALE, (cy + cell * 0.45) * SCALE), label, (size + 4) * SCALE, theme.HIGHLIGHT)
    image = image.reduce(SCALE)
    pairs = ", ".join(f"{EDGE_NAMES[a]}-{EDGE_NAMES[b]}" for a, b in TILE_PAIRS[tile])
    looks = "; ".join(orientation_name(same) for same in groups.values())
    description = (
        f"{caption}. At orientation 0 its paths join {pairs}; orientation k turns it k x 45 degrees clockwise. "
        f"{len(groups)} different orientations: {looks}."
    )
    return theme.to_picture(image, description, filename="octiles-orientations.png")


def _stamp_turned_tile(
    image: Image.Image, centre_px: tuple[float, float], tile: int, orientation: int, now: bool, apothem: float
) -> None:
    """What ``_draw_orientation`` draws at ``centre_px`` (final picture px), pasted from a cached sprite."""
    x, y = centre_px[0] * SCALE, centre_px[1] * SCALE
    sprite = _turned_tile_sprite(tile, orientation, now, apothem, (x % 1, y % 1))
    half = sprite.corner[0]
    image.paste(sprite.image, (math.floor(x) - half, math.floor(y) - half), sprite.mask)


@lru_cache(maxsize=64)  # a few tiles' orientations, each about 250 KB
def _turned_tile_sprite(tile: int, orientation: int, now: bool, apothem: float, fraction: tuple[float, float]):
    """A turned tile drawn off the board, its centre ``fraction`` of a pixel past the middle pixel
    as it will be on the picture; ``corner`` holds how far that pixel is from the top left."""
    half = math.ceil(apothem / math.cos(math.pi / 8) * ORIENTATION_UNIT * SCALE) + 8
    canvas = Image.new("RGBA", (2 * half + 1, 2 * half + 1), (0, 0, 0, 0))
    centre = ((half + fraction[0]) / SCALE, (half + fraction[1]) / SCALE)
    _draw_orientation(_Board(canvas, unit=ORIENTATION_UNIT), centre, tile, orientation, now, apothem)
    mask = canvas.getchannel("A").convert("1", dither=Image.Dither.NONE)
    return _Sprite(canvas.convert("RGB"), mask, (half, half))


def _draw_orientation(
    board: _Board, centre_px: tuple[float, float], tile: int, orientation: int, now: bool, apothem: float
) -> None:
    """One turned tile, drawn large at a pixel centre; outlined when it is the tile's orientation now."""
    cx, cy = centre_px
    centre = (
        (cx * SCALE - board.left) / board.unit + BOARD_X_RANGE[0],
        BOARD_Y_RANGE[1] - (cy * SCALE - board.top) / board.unit,
    )
    corners = _octagon(board, centre, apothem)
    board.draw.polygon(corners, fill=TILE_FACE, outline=TILE_EDGE, width=board.length(0.02))
    _draw_tile_paths(board, centre, tile, orientation, {}, apothem=apothem)
    if now:
        board.draw.line(corners + corners[:2], fill=CHANGED, width=board.length(0.05), joint="curve")


def describe(state: OctilesState, names: Sequence[str], *, ending: str | None = None) -> str:
    """The picture's text alternative: status (or ``ending``), runners, prizes, marker, the last action, spare."""
    parts = [f"Game over: {ending}." if ending is not None else _status_line(state, names) + "."]
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


__all__ = [
    "describe",
    "narrate",
    "orientation_groups",
    "orientation_name",
    "picture_height",
    "reachable",
    "render_board",
    "render_orientations",
    "tile_path_curve",
]
