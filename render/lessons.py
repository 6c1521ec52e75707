"""A lesson's picture: the game's own public picture (render/registry.py) with the part the lesson
is about ringed in the highlight colour, so a member sees at once which pieces the task names."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image, ImageDraw

from engines.octiles import CIRCLE_CENTRES, SPACE_CENTRES, STOP_CENTRES
from render import octagone, octego, octiles, theme
from render.registry import pictures

RING = 5  # the ring's width in the finished picture: still a clear line at 280 px wide


def _octego(square: str) -> tuple[float, float, float]:
    return (*octego.square_centre(square), octego.CELL * 0.5 - 2)


def _octagone(box: str) -> tuple[float, float, float]:
    return (*octagone.box_centre(box), octagone.CELL * 0.5 - 2)


def _octiles(place: str) -> tuple[float, float, float]:
    """A stop, circle or tile space, placed as render/octiles.py draws the board (its units)."""
    x, y = STOP_CENTRES.get(place) or CIRCLE_CENTRES.get(place) or SPACE_CENTRES[place]
    (left_x, right_x), (_, top_y) = octiles.BOARD_X_RANGE, octiles.BOARD_Y_RANGE
    left = (octiles.WIDTH - (right_x - left_x) * octiles.UNIT) / 2
    radius = (octiles.APOTHEM if place in SPACE_CENTRES else octiles.REACH_RING["stop"]) * octiles.UNIT
    return left + (x - left_x) * octiles.UNIT, octiles.HEADER + (top_y - y) * octiles.UNIT, radius


# game -> where a mark (a square, a box, a stop...) is in the finished picture, and the ring's radius
_PLACES: dict[str, Callable[[str], tuple[float, float, float]]] = {
    "octego": _octego,
    "octagone": _octagone,
    "octiles": _octiles,
}


def lesson_picture(game: str, state: Any, names: Sequence[str], marks: Sequence[str] = ()) -> theme.Picture:
    """The game's picture of ``state``, each of ``marks`` (a square, a box) ringed."""
    picture = pictures(game).public_picture(state, names)
    if not marks or game not in _PLACES:
        return picture
    place = _PLACES[game]
    image = Image.open(io.BytesIO(picture.png)).convert("RGB")
    draw = ImageDraw.Draw(image)
    for mark in marks:
        x, y, radius = place(mark)
        outer = radius + 2  # a dark edge round the ring: it stands out on a yellow or orange box too
        draw.ellipse((x - outer, y - outer, x + outer, y + outer), outline=theme.BLACK, width=RING + 2)
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), outline=theme.HIGHLIGHT, width=RING)
    description = f"{picture.description} Ringed: {', '.join(marks)}."
    return theme.to_picture(image, description, picture.filename, game=game)
