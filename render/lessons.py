"""A lesson's picture: the game's own public picture (render/registry.py) with the part the lesson
is about ringed in the highlight colour, so a member sees at once which pieces the task names."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image, ImageDraw

from render import octagone, octego, theme
from render.registry import pictures

RING = 5  # the ring's width in the finished picture: still a clear line at 280 px wide

# game -> (where a mark is in the finished picture, the ring's radius there)
_PLACES: dict[str, tuple[Callable[[str], tuple[float, float]], float]] = {
    "octego": (octego.square_centre, octego.CELL * 0.5 - 2),
    "octagone": (octagone.box_centre, octagone.CELL * 0.5 - 2),
}


def lesson_picture(game: str, state: Any, names: Sequence[str], marks: Sequence[str] = ()) -> theme.Picture:
    """The game's picture of ``state``, each of ``marks`` (a square, a box) ringed."""
    picture = pictures(game).public_picture(state, names)
    if not marks or game not in _PLACES:
        return picture
    place, radius = _PLACES[game]
    image = Image.open(io.BytesIO(picture.png)).convert("RGB")
    draw = ImageDraw.Draw(image)
    for mark in marks:
        x, y = place(mark)
        outer = radius + 2  # a dark edge round the ring: it stands out on a yellow or orange box too
        draw.ellipse((x - outer, y - outer, x + outer, y + outer), outline=theme.BLACK, width=RING + 2)
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), outline=theme.HIGHLIGHT, width=RING)
    description = f"{picture.description} Ringed: {', '.join(marks)}."
    return theme.to_picture(image, description, picture.filename, game=game)
