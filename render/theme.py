"""The look shared by every game picture: palette, fonts, PNG output and drawing helpers.

Pictures are read on phones: at most ``MAX_WIDTH`` px wide, high contrast, labels large,
and colours from the Okabe-Ito palette (distinguishable with the common colour-vision
deficiencies), always paired with a letter, number or shape.
"""

from __future__ import annotations

import io
import math
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

MAX_WIDTH = 1000
# Discord on a phone shows a picture about 280 px wide (272-300 px beside the avatar gutter);
# below 11 px a capital letter stops being readable.
PHONE_WIDTH = 280
PHONE_MIN_CAP = 11
SUIT_GLYPHS = {"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C"}  # the font has no suit glyphs

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
    """A rendered image and its text alternative (sent as the attachment description), and where
    its renderer drew each thing a player can click on the Activity's board (render/regions.py)."""

    png: bytes
    description: str
    filename: str = "board.png"
    # name ("square:c3", "hand:5H") -> (x, y, width, height) in picture pixels
    regions: dict[str, tuple[int, int, int, int]] = field(default_factory=dict, compare=False, hash=False)


PALETTE_COLOURS = 256


@lru_cache(maxsize=64)  # five games share the process, each with a few sizes
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled font at ``size`` px (needs no font files on the machine)."""
    return ImageFont.load_default(size=size)


def cap_height(size: int) -> int:
    """Height in px of a capital letter ('X') at font ``size``: what the eye reads, not the nominal size."""
    return -font(size).getbbox("X", anchor="ls")[1]


def phone_cap(size: int, picture_width: int) -> float:
    """Cap height of text at ``size`` once a picture ``picture_width`` px wide is shown on a phone."""
    return cap_height(size) * PHONE_WIDTH / picture_width


@lru_cache(maxsize=32)
def min_text_size(picture_width: int) -> int:
    """The smallest font size still readable on a phone in a picture ``picture_width`` px wide."""
    size = 8
    while phone_cap(size, picture_width) < PHONE_MIN_CAP:
        size += 1
    return size


_text_log: list[tuple[str, int]] | None = None


@contextmanager
def recording_text() -> Iterator[list[tuple[str, int]]]:
    """Every (text, font size) drawn while inside, for the phone-readability test. Caches of drawn
    sprites hide text drawn earlier, so the test clears them first."""
    global _text_log
    _text_log = []
    try:
        yield _text_log
    finally:
        _text_log = None


def _note_text(text: str, size: int) -> None:
    if _text_log is not None and text.strip():
        _text_log.append((text, size))


def canvas(
    width: int, height: int, colour: tuple[int, int, int] = BACKGROUND
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    if width > MAX_WIDTH:
        raise ValueError(f"pictures are at most {MAX_WIDTH}px wide for phones, got {width}")
    image = Image.new("RGB", (width, height), colour)
    return image, ImageDraw.Draw(image)


@lru_cache(maxsize=8)
def game_palette(game: str) -> Image.Image | None:
    """The fixed 256-colour palette of ``game``'s pictures (``render/palettes.py``, made by
    ``python -m bench.palettes`` from the game's pictures: their flat colours exactly, and the
    antialiased edges between them), as a palette image for ``Image.quantize``."""
    from render.palettes import PALETTES

    colours = PALETTES.get(game)
    if colours is None:
        return None
    palette = Image.new("P", (1, 1))
    palette.putpalette(bytes.fromhex(colours))
    return palette


def quantized(image: Image.Image, game: str | None = None) -> Image.Image:
    """``image`` in 256 colours: mapped onto ``game``'s fixed palette (about a fifth of the time of
    a palette search per picture, antialiased text kept), or searched for one without a game."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")  # convert() copies even an RGB image
    palette = game_palette(game) if game else None
    if palette is None:
        return rgb.quantize(PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return rgb.quantize(palette=palette, dither=Image.Dither.NONE)


def to_picture(
    image: Image.Image, description: str, filename: str = "board.png", *, game: str | None = None
) -> Picture:
    """The PNG Discord shows: 256 colours (flat game art loses nothing the eye sees), ``game``'s
    fixed palette, with zlib's fastest level: about half the encoding time and size of a
    full-colour PNG. (fpng writes full colour only: about half the time, but 3.5x the bytes.)
    ``game`` is by default the game whose module calls (render/registry.py knows each game's), so a
    game's render module never names it; another module drawing for a game names it."""
    buffer = io.BytesIO()
    palette = quantized(image, game or _calling_game())
    if _captured_images is not None:
        _captured_images.append(palette)
        return Picture(b"", description, filename)
    palette.save(buffer, format="PNG", compress_level=1)
    return Picture(buffer.getvalue(), description, filename)


def _calling_game() -> str | None:
    """The registered game whose module called :func:`to_picture` (two frames up)."""
    from render.registry import game_of_module  # here: the registry imports this module

    return game_of_module(sys._getframe(2).f_globals.get("__name__", ""))


_captured_images: list[Image.Image] | None = None


@contextmanager
def capturing_images() -> Iterator[list[Image.Image]]:
    """Inside, :func:`to_picture` collects each picture's 256-colour image (the pixels its PNG
    decodes to) and returns an empty ``png``: work that wants pixels, not files (a replay's
    frames), skips a PNG encode and decode per picture."""
    global _captured_images
    outer, _captured_images = _captured_images, []
    try:
        yield _captured_images
    finally:
        _captured_images = outer


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
    _note_text(text, size)
    x, y = xy
    whole_x, whole_y = int(x), int(y)  # Pillow's split: a whole pixel and the glyphs' offset
    mask, (left, top) = _text_mask(text, size, anchor, (x - whole_x, y - whole_y))
    image.paste(fill, (whole_x + left, whole_y + top), mask)


@lru_cache(maxsize=2048)  # the labels, names and counts of the games being played
def _text_mask(text: str, size: int, anchor: str, fraction: tuple[float, float]) -> tuple[Image.Image, tuple[int, int]]:
    """The antialiased coverage of ``text`` and its corner relative to the whole pixel it is drawn
    at. Glyphs are placed to a fraction of a pixel, so the fraction is part of the key."""
    face = font(size)
    laid_out = _without_suits(text)
    left, top, right, bottom = face.getbbox(laid_out, anchor=anchor)
    x0, y0 = math.floor(left) - 2, math.floor(top) - 2
    mask = Image.new("L", (math.ceil(right) - x0 + 2, math.ceil(bottom) - y0 + 2))
    origin = (fraction[0] - x0, fraction[1] - y0)
    ImageDraw.Draw(mask).text(origin, laid_out, fill=255, font=face, anchor=anchor)
    if laid_out != text:
        _draw_suits(mask, origin, text, size, anchor)
    return mask, (x0, y0)


SUIT_STAND_IN = "O"  # holds a suit's place while the line is laid out: about as wide as the shape


def _without_suits(text: str) -> str:
    return "".join(SUIT_STAND_IN if char in SUIT_GLYPHS else char for char in text)


def _draw_suits(mask: Image.Image, origin: tuple[float, float], text: str, size: int, anchor: str) -> None:
    """Replace each suit's stand-in on ``mask`` with the suit's shape, as tall as a capital."""
    face = font(size)
    laid_out = _without_suits(text)
    pen_x = origin[0] + face.getbbox(laid_out, anchor=anchor)[0] - face.getbbox(laid_out, anchor="l" + anchor[1])[0]
    baseline = origin[1] + face.getbbox("X", anchor="l" + anchor[1])[3]  # a capital ends on the baseline
    cap = cap_height(size)
    for index, char in enumerate(text):
        if char not in SUIT_GLYPHS:
            continue
        left = pen_x + face.getlength(laid_out[:index])
        advance = face.getlength(SUIT_STAND_IN)
        ImageDraw.Draw(mask).rectangle((left, baseline - cap - 2, left + advance, baseline + 2), fill=0)
        shape = suit_mask(SUIT_GLYPHS[char], cap)
        mask.paste(255, (round(left + (advance - cap) / 2), round(baseline - cap)), shape)


@lru_cache(maxsize=64)
def suit_mask(suit: str, size: int, supersample: int = 4) -> Image.Image:
    """An anti-aliased ``size`` px mask of a suit shape (S, H, D, C), drawn large and scaled down."""
    big = size * supersample
    mask = Image.new("L", (big, big), 0)
    draw = ImageDraw.Draw(mask)
    s = big / 2
    cx = big / 2
    if suit == "D":
        draw.polygon([(cx, 0), (cx + 0.78 * s, s), (cx, big), (cx - 0.78 * s, s)], fill=255)
    elif suit == "H":
        r = 0.52 * s
        draw.ellipse((cx - 2 * r + 0.02 * s, 0.06 * s, cx + 0.02 * s, 0.06 * s + 2 * r), fill=255)
        draw.ellipse((cx - 0.02 * s, 0.06 * s, cx + 2 * r - 0.02 * s, 0.06 * s + 2 * r), fill=255)
        draw.polygon([(cx - 0.99 * s, 0.72 * s), (cx + 0.99 * s, 0.72 * s), (cx, big)], fill=255)
    elif suit == "S":
        r = 0.5 * s
        draw.polygon([(cx, 0), (cx - 0.98 * s, 1.05 * s), (cx + 0.98 * s, 1.05 * s)], fill=255)
        draw.ellipse((cx - 2 * r, 0.72 * s, cx, 0.72 * s + 2 * r), fill=255)
        draw.ellipse((cx, 0.72 * s, cx + 2 * r, 0.72 * s + 2 * r), fill=255)
        draw.polygon([(cx, 1.2 * s), (cx - 0.4 * s, big), (cx + 0.4 * s, big)], fill=255)
    else:
        r = 0.44 * s
        for ox, oy in ((0, 0.46), (-0.5, 1.08), (0.5, 1.08)):
            x, y = cx + ox * s, oy * s
            draw.ellipse((x - r, y - r, x + r, y + r), fill=255)
        draw.polygon([(cx, 0.9 * s), (cx - 0.38 * s, big), (cx + 0.38 * s, big)], fill=255)
    return mask.resize((size, size), Image.LANCZOS)


def text_size(draw: ImageDraw.ImageDraw, text: str, size: int) -> tuple[int, int]:
    left, top, right, bottom = draw.textbbox((0, 0), _without_suits(text), font=font(size))
    return right - left, bottom - top


_MEASURE = ImageDraw.Draw(Image.new("RGB", (1, 1)))  # text_size needs a drawing, not a particular one


@lru_cache(maxsize=1024)  # the same names are fitted at every redraw
def fit_text(text: str, size: int, width: float) -> str:
    """``text`` cut short with "…" to be at most ``width`` px wide at ``size`` (a long name must
    not run into a score)."""
    if text_size(_MEASURE, text, size)[0] <= width:
        return text
    while len(text) > 1 and text_size(_MEASURE, text + "…", size)[0] > width:
        text = text[:-1]
    return text.rstrip() + "…"


def centred_text(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, size: int, fill: tuple[int, int, int] = INK
) -> None:
    write(draw._image, centre, text, size, fill)


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


# ---------------------------------------------------------------- final pictures


def wrap(text: str, size: int, width: float) -> list[str]:
    """``text`` in lines at most ``width`` px wide at ``size``, broken between words (a single
    word wider than ``width`` is cut short)."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_size(_MEASURE, f"{lines[-1]} {word}", size)[0] <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(fit_text(word, size, width))
    return lines


def fit_lines(text: str, size: int, width: float, max_lines: int = 1, names: tuple[str, ...] = ()) -> list[str]:
    """``text`` (a final picture's outcome, say) in at most ``max_lines`` lines of ``width`` px:
    long ``names`` in it are shortened first, since the words around them say what happened;
    only then is the last line cut with "…"."""
    lines, budget = wrap(text, size, width), width
    while len(lines) > max_lines and budget > 60:
        budget -= 20
        shorter = text
        for name in sorted(set(names), key=len, reverse=True):
            if name and name in shorter and text_size(_MEASURE, name, size)[0] > budget:
                shorter = shorter.replace(name, fit_text(name, size, budget))
        lines = wrap(shorter, size, width)
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], fit_text(" ".join(lines[max_lines - 1 :]), size, width)]
    return lines
