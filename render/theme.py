"""The look shared by every game picture: palette, fonts, PNG output and drawing helpers.

Pictures are read on phones: at most ``MAX_WIDTH`` px wide, high contrast, labels large,
and colours from the Okabe-Ito palette (distinguishable with the common colour-vision
deficiencies), always paired with a letter, number or shape.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

MAX_WIDTH = 1000

# Okabe-Ito, plus neutrals. Names say what the colour is, not what a game uses it for.
BACKGROUND = (32, 34, 40)  # close to Discord's dark theme, so pictures sit well in a channel
PANEL = (47, 50, 58)
INK = (240, 240, 240)  # text on dark
DARK_INK = (20, 20, 24)  # text on light
MUTED = (150, 154, 165)
GRID = (90, 94, 106)
HIGHLIGHT = (255, 215, 0)
ORANGE = (230, 159, 0)
SKY_BLUE = (86, 180, 233)
GREEN = (0, 158, 115)
YELLOW = (240, 228, 66)
BLUE = (0, 114, 178)
VERMILION = (213, 94, 0)
PURPLE = (204, 121, 167)
WHITE = (250, 250, 250)
BLACK = (10, 10, 12)
CARD_FACE = (250, 247, 238)
PENALTY = VERMILION
GOOD = GREEN

SEAT_COLOURS = (SKY_BLUE, ORANGE, GREEN, PURPLE)


@dataclass(frozen=True)
class Picture:
    """A rendered image and its text alternative (sent as the attachment description)."""

    png: bytes
    description: str
    filename: str = "board.png"


PALETTE_COLOURS = 256


@lru_cache(maxsize=64)  # five games share the process, each with a few sizes
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled font at ``size`` px (needs no font files on the machine)."""
    return ImageFont.load_default(size=size)


def canvas(
    width: int, height: int, colour: tuple[int, int, int] = BACKGROUND
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    if width > MAX_WIDTH:
        raise ValueError(f"pictures are at most {MAX_WIDTH}px wide for phones, got {width}")
    image = Image.new("RGB", (width, height), colour)
    return image, ImageDraw.Draw(image)


def to_picture(image: Image.Image, description: str, filename: str = "board.png") -> Picture:
    """The PNG Discord shows: 256 colours (flat game art loses nothing the eye sees) with fast
    compression, about half the encoding time and size of a full-colour PNG."""
    buffer = io.BytesIO()
    rgb = image if image.mode == "RGB" else image.convert("RGB")  # convert() copies even an RGB image
    palette = rgb.quantize(PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    palette.save(buffer, format="PNG", compress_level=1)
    return Picture(buffer.getvalue(), description, filename)


def write(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, int, int],
    anchor: str = "mm",
) -> None:
    """The pixels ``ImageDraw.text`` draws, from a cached mask: laying out glyphs costs more than
    blending a mask, and most labels recur from picture to picture. Text that is new in every
    picture (a headline, the last move) is as cheap drawn directly."""
    x, y = xy
    whole_x, whole_y = int(x), int(y)  # Pillow's split: a whole pixel and the glyphs' offset
    mask, (left, top) = _text_mask(text, size, anchor, (x - whole_x, y - whole_y))
    image.paste(fill, (whole_x + left, whole_y + top), mask)


@lru_cache(maxsize=2048)  # the labels, names and counts of the games being played
def _text_mask(text: str, size: int, anchor: str, fraction: tuple[float, float]) -> tuple[Image.Image, tuple[int, int]]:
    """The antialiased coverage of ``text`` and its corner relative to the whole pixel it is drawn
    at. Glyphs are placed to a fraction of a pixel, so the fraction is part of the key."""
    face = font(size)
    left, top, right, bottom = face.getbbox(text, anchor=anchor)
    x0, y0 = math.floor(left) - 2, math.floor(top) - 2
    mask = Image.new("L", (math.ceil(right) - x0 + 2, math.ceil(bottom) - y0 + 2))
    ImageDraw.Draw(mask).text((fraction[0] - x0, fraction[1] - y0), text, fill=255, font=face, anchor=anchor)
    return mask, (x0, y0)


def text_size(draw: ImageDraw.ImageDraw, text: str, size: int) -> tuple[int, int]:
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font(size))
    return right - left, bottom - top


def centred_text(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, size: int, fill: tuple[int, int, int] = INK
) -> None:
    draw.text(centre, text, font=font(size), fill=fill, anchor="mm")


def readable_ink(background: tuple[int, int, int]) -> tuple[int, int, int]:
    """Dark or light text, whichever contrasts more with ``background``."""
    r, g, b = background
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return DARK_INK if luminance > 140 else INK


def octagon_points(cx: float, cy: float, radius: float, flat_top: bool = True) -> list[tuple[float, float]]:
    """Corners of a regular octagon; flat-topped by default (edges face N, NE, E ...)."""
    offset = math.pi / 8 if flat_top else 0.0
    return [
        (cx + radius * math.cos(offset + k * math.pi / 4), cy + radius * math.sin(offset + k * math.pi / 4))
        for k in range(8)
    ]


def draw_octagon(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    radius: float,
    fill: tuple[int, int, int] | None,
    outline: tuple[int, int, int] | None = None,
    width: int = 2,
    flat_top: bool = True,
) -> None:
    draw.polygon(octagon_points(*centre, radius, flat_top), fill=fill, outline=outline, width=width)


def draw_card(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    big: str,
    small: str = "",
    face: tuple[int, int, int] = CARD_FACE,
    ink: tuple[int, int, int] | None = None,
    border: tuple[int, int, int] = GRID,
    border_width: int = 2,
) -> None:
    """A playing card: rounded rectangle, a big centred label and an optional corner label."""
    x0, y0, x1, y1 = box
    ink = ink or readable_ink(face)
    radius = max(4, (x1 - x0) // 8)
    draw.rounded_rectangle(box, radius=radius, fill=face, outline=border, width=border_width)
    height = y1 - y0
    centred_text(
        draw, ((x0 + x1) / 2, (y0 + y1) / 2 - (height * 0.08 if small else 0)), big, max(12, int(height * 0.42)), ink
    )
    if small:
        centred_text(draw, ((x0 + x1) / 2, y1 - height * 0.17), small, max(10, int(height * 0.22)), ink)


# Compass directions as unit steps on a picture (y grows downwards).
DIRECTION_VECTORS = {
    "N": (0, -1),
    "NE": (1, -1),
    "E": (1, 0),
    "SE": (1, 1),
    "S": (0, 1),
    "SW": (-1, 1),
    "W": (-1, 0),
    "NW": (-1, -1),
}


def draw_arrow(
    draw: ImageDraw.ImageDraw,
    start: tuple[float, float],
    end: tuple[float, float],
    colour: tuple[int, int, int],
    width: int = 4,
    head: float = 12,
) -> None:
    """A straight arrow from ``start`` to ``end`` with a filled triangular head."""
    (x0, y0), (x1, y1) = start, end
    angle = math.atan2(y1 - y0, x1 - x0)
    draw.line([start, end], fill=colour, width=width)
    left = (x1 - head * math.cos(angle - math.pi / 6), y1 - head * math.sin(angle - math.pi / 6))
    right = (x1 - head * math.cos(angle + math.pi / 6), y1 - head * math.sin(angle + math.pi / 6))
    draw.polygon([end, left, right], fill=colour)


def draw_direction_arrow(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    direction: str,
    length: float,
    colour: tuple[int, int, int],
    width: int = 4,
) -> None:
    """An arrow through ``centre`` pointing towards a compass direction (N, NE ... NW)."""
    dx, dy = DIRECTION_VECTORS[direction]
    norm = math.hypot(dx, dy)
    dx, dy = dx / norm * length / 2, dy / norm * length / 2
    cx, cy = centre
    draw_arrow(draw, (cx - dx, cy - dy), (cx + dx, cy + dy), colour, width, head=max(8, length / 3.5))
