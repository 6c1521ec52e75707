"""Hit regions: where a renderer drew each thing a player can click on the Activity's board.

A renderer names what it draws (``square:c3``, ``hand:5H``, ``box:C4``) and puts the rectangle it
drew it in on the picture it returns (``Picture.regions``, picture pixels: x, y, width, height),
in the same call as the pixels, so the two never drift apart. A game's menu steps
(bot/ui/menu_steps.py) say which region each of their options sits in.

:func:`stacked` puts pictures one under another with their regions moved along
(:mod:`render.board` uses it for a viewer's board).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from dataclasses import replace

from PIL import Image

from render import theme

Box = tuple[int, int, int, int]  # x, y, width, height


def box(left: float, top: float, right: float, bottom: float) -> Box:
    """A region from its edges (rounded to whole pixels)."""
    x, y = round(left), round(top)
    return x, y, round(right) - x, round(bottom) - y


def around(centre: tuple[float, float], half: float, half_height: float | None = None) -> Box:
    """A region of ``half`` (and ``half_height``) pixels round a centre."""
    x, y = centre
    tall = half if half_height is None else half_height
    return box(x - half, y - tall, x + half, y + tall)


def scaled(regions: Mapping[str, Box], factor: int) -> dict[str, Box]:
    """Regions measured on a drawing ``factor`` times larger, in the reduced picture's pixels."""
    return {
        name: box(x / factor, y / factor, (x + w) / factor, (y + h) / factor) for name, (x, y, w, h) in regions.items()
    }


def with_regions(picture: theme.Picture, regions: Mapping[str, Box]) -> theme.Picture:
    return replace(picture, regions=dict(regions))


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def inside(region: Box, width: int, height: int) -> bool:
    x, y, w, h = region
    return w > 0 and h > 0 and x >= 0 and y >= 0 and x + w <= width and y + h <= height


def size_of(picture: theme.Picture) -> tuple[int, int]:
    with Image.open(io.BytesIO(picture.png)) as image:
        return image.size


def stacked(pictures: Iterable[theme.Picture], filename: str, game: str) -> theme.Picture:
    """Pictures one under the other (centred), their regions moved with them, their descriptions joined."""
    shown = list(pictures)
    images = [Image.open(io.BytesIO(picture.png)).convert("RGB") for picture in shown]
    width = max(image.width for image in images)
    canvas = Image.new("RGB", (width, sum(image.height for image in images)), theme.BACKGROUND)
    regions: dict[str, Box] = {}
    top = 0
    for picture, image in zip(shown, images, strict=True):
        left = (width - image.width) // 2
        canvas.paste(image, (left, top))
        regions.update({name: (x + left, y + top, w, h) for name, (x, y, w, h) in picture.regions.items()})
        top += image.height
    description = " ".join(picture.description for picture in shown)
    return replace(theme.to_picture(canvas, description, filename, game=game), regions=regions)
